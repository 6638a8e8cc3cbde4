# SPDX-License-Identifier: GPL-2.0-only
# lsm= without seclvl: it leaves no interface behind, the others still work.
check "seclvl is not in /sys/kernel/security/lsm" sh -c '! grep -q seclvl /sys/kernel/security/lsm'
check "yama still is" grep -q yama /sys/kernel/security/lsm
check "no securityfs directory" test ! -e /sys/kernel/security/seclvl
check "no /proc/seclvl" test ! -e /proc/seclvl
check "no kernel.securelevel" test ! -e /proc/sys/kernel/securelevel
run_selftest lsm/lsm_list_modules_test
