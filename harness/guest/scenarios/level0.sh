# SPDX-License-Identifier: GPL-2.0-only
# Level 0, the default: nothing is refused.  Also the kernel's LSM selftests.
check "booted at level 0" level_is 0
check "kernel logged seclvl at level 0" log_has "seclvl: initialized at level 0"
prepare
default_policy
run_selftest lsm/lsm_list_modules_test
run_selftest lsm/lsm_get_self_attr_test
run_selftest lsm/lsm_set_self_attr_test
run_selftest seclvl/interface_test
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
check "level is still 0" level_is 0
check "nothing was refused at level 0" sh -c '! dmesg | grep "seclvl: denied" | grep -qv "denied kunit_atomic "'
check "every denial counter is 0" \
	awk '$3 != 0 { print; bad = 1 } END { exit bad }' $SECLVL/policy
