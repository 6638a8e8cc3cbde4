# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel, the BPF backend loaded at level 0: nothing is
# refused, and every self-protection test's attack works -- which shows
# that those tests can fail.
stock_setup
check "seclvl-bpf load" seclvl-bpf load
prepare
default_policy
check "level is 0" level_is 0
expect_exit 0 seclvl-bpf status
check "  and no hook program is attached at level 0" \
	grep -qx 'hooks: 0 of [0-9]* attached (from the first raise above 0)' /tmp/ctl.out
check "reading raise1 by hand with no hook attached is refused" \
	sh -c '[ "$(cat /sys/fs/bpf/seclvl/raise1)" = -67 ] &&
		[ "$(cat /sys/fs/bpf/seclvl/level)" = 0 ]'
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
run_selftest seclvl/bpf_test

# At level 0 the backend can be taken down and loaded again, with the
# policy rows of a seclvl.conf; seclvlctl apply then raises the level.
check "at level 0 the pins can be removed" rm -r /sys/fs/bpf/seclvl
printf 'policy nosuch 1\nlevel 1\n' > /tmp/bad.conf
expect_exit 2 seclvl-bpf load --config /tmp/bad.conf
err_has "no restriction named 'nosuch'"
check "  and nothing was loaded" test ! -e /sys/fs/bpf/seclvl
check "  which it says: NOT ENFORCING, and why" sh -c \
	'grep -q "^seclvl-bpf: NOT ENFORCING" /tmp/ctl.err &&
	 grep -q "no restriction named .nosuch." /run/seclvl-bpf.failed'
printf '# test\npolicy setuid off\npolicy umount 1\npolicy time_backward off\nlevel 1\n' > /tmp/seclvl.conf
expect_exit 0 seclvl-bpf load --config /tmp/seclvl.conf
check "  and a load that works removes the reason" test ! -e /run/seclvl-bpf.failed
expect_exit 2 seclvl-bpf load --config /tmp/bad.conf
check "  a bad load while one is loaded is no alarm" test ! -e /run/seclvl-bpf.failed
check "the policy rows were taken" sh -c "grep -qx 'setuid off 0' $POLICY_FILE &&
	grep -qx 'umount 1 0' $POLICY_FILE && grep -qx 'rawio 1 0' $POLICY_FILE"
check "  time_backward's programs, off, are pinned to stay detached" \
	test -e /sys/fs/bpf/seclvl/seclvl_settime-lsm_off
expect_exit 0 seclvlctl apply /tmp/seclvl.conf
out_has "secure level 1"
check "level is 1" level_is 1
check "  and time_backward's programs were not attached" sh -c \
	'[ ! -e /sys/fs/bpf/seclvl/seclvl_settime ] && [ ! -e /sys/fs/bpf/seclvl/seclvl_adjtimex_enter ]'
expect_exit 0 seclvl-bpf status
check "  and every other hook program is" \
	grep -qx 'hooks: \([0-9]*\) of \1 attached' /tmp/ctl.out
mkdir -p /tmp/m && mount -t ext4 -o nosuid /dev/vda1 /tmp/m
check "umount of a disk, moved to level 1 by the policy, is refused at 1" fails_with_eperm umount /tmp/m
check "  and counted" grep -qx 'umount 1 1' $POLICY_FILE
printf 'policy setuid 1\nlevel 1\n' > /tmp/other.conf
expect_exit 1 seclvlctl apply /tmp/other.conf
err_has "differs from the BPF backend's"
expect_exit 1 seclvl-bpf load
err_has "already loaded"
