# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel, the BPF backend loaded at -1: it can never be
# raised and refuses nothing.  Then, at -1 still unprotected, it is taken
# down and loaded straight at level 2.
stock_setup
expect_exit 0 seclvl-bpf load --level -1
check "level is -1" level_is -1
prepare
for v in 0 1 2; do
	expect_exit 1 seclvl-bpf raise $v
	err_has "which cannot be raised"
done
expect_exit 0 seclvl-bpf raise -1
check "level is still -1" level_is -1
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
check "nothing was refused at -1" \
	awk '$3 != 0 { print; bad = 1 } END { exit bad }' $POLICY_FILE

check "at -1 the pins can be removed" rm -r /sys/fs/bpf/seclvl
expect_exit 0 seclvl-bpf load --level 2
out_has "loaded, level 2"
check "level is 2" level_is 2
check "the load at 2 was logged" log_has "seclvl-bpf: loaded at level 2"
check "the pins are protected at once" fails_with_eperm rm /sys/fs/bpf/seclvl/raise
mkdir -p /tmp/m && mount -t ext4 -o nosuid /dev/vda1 /tmp/m
check "umount of a disk is refused at 2" fails_with_eperm umount /tmp/m
