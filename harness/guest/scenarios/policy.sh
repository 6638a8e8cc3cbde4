# SPDX-License-Identifier: GPL-2.0-only
# The policy table drives the hooks: change rows at level 0, raise to 1
# through sysctl, and the restrictions follow the changed table.
prepare
for row in "setuid off" "umount 1" "time_backward 1" "rawio off" \
	   "devmem_write 2" "ptrace_init off" "lockdown_confidentiality 1"; do
	check "policy row '$row' at level 0" sh -c "echo '$row' > $SECLVL/policy"
done
policy_audited() {
	audit_has 1428 'op=set_policy restriction=setuid old=1 new=off' 1 &&
		audit_has 1428 'op=set_policy restriction=devmem_write old=1 new=2' 1 &&
		audit_has 1428 'op=set_policy restriction=lockdown_confidentiality old=off new=1' 1
}
check "audit has each change, as SECLVL_CONFIG_CHANGE" policy_audited
check "policy reads back the changes" sh -c "grep -qx 'setuid off 0' $SECLVL/policy &&
	grep -qx 'umount 1 0' $SECLVL/policy && grep -qx 'rawio off 0' $SECLVL/policy"
check "raise to 1 through sysctl" sysctl -w kernel.securelevel=1
check "level reads 1" level_is 1
check "policy rows are frozen at level 1" \
	fails_with_eperm sh -c "echo 'setuid 1' > $SECLVL/policy"
check "  and audit has the attempt" audit_has 1428 "op=set_policy level=1" 0
mkdir -p /tmp/m && mount -o bind /mnt/disk /tmp/m
check "unmounting a disk is refused at level 1 under 'umount 1'" fails_with_eperm umount /tmp/m
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
run_selftest seclvl/interface_test
