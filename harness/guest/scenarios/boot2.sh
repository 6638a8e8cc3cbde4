# SPDX-License-Identifier: GPL-2.0-only
# seclvl.level=2 on the command line: level 2 before init runs.
check "booted at level 2" level_is 2
check "kernel logged the boot parameter" log_has "level changed from 0 to 2 by boot parameter"
check "  and audit has it, once audit is up" \
	audit_has 1428 "op=set_level old_level=0 new_level=2 origin=boot" 1
check "sysctl kernel.securelevel reads 2" sh -c '[ "$(sysctl -n kernel.securelevel)" = 2 ]'
check "lowering through /proc/seclvl is refused" fails_with_eperm sh -c 'echo 1 > /proc/seclvl'
check "  and audit has the attempt" \
	audit_has 1428 "op=set_level old_level=2 new_level=1 origin=write" 0
mkdir -p /tmp/m
check "a new mount of devtmpfs without nosuid is refused" sh -c \
	'! mount -t devtmpfs none /tmp/m 2>/dev/null && ! grep -q " /tmp/m " /proc/mounts'
check "and logged" log_has "denied suid_mount at level 2: mount none (devtmpfs)"
mount -t tmpfs -o nosuid none /tmp/m
check "unmounting a memory filesystem is not refused" umount /tmp/m
check "a new nosuid mount of a disk is not refused" mount -t ext4 -o nosuid /dev/vda1 /tmp/m
check "unmounting it is refused" fails_with_eperm umount /tmp/m
check "loading a module is refused" fails_with_eperm insmod /lib/seclvl/seclvl_test_load.ko
