# SPDX-License-Identifier: GPL-2.0-only
# lsm= without seclvl: it leaves no interface behind, the others still work.
check "seclvl is not in /sys/kernel/security/lsm" sh -c '! grep -q seclvl /sys/kernel/security/lsm'
check "yama still is" grep -q yama /sys/kernel/security/lsm
check "no securityfs directory" test ! -e /sys/kernel/security/seclvl
check "no /proc/seclvl" test ! -e /proc/seclvl
check "no kernel.securelevel" test ! -e /proc/sys/kernel/securelevel
run_selftest lsm/lsm_list_modules_test
seclvlctl >/tmp/ctl.out 2>/tmp/ctl.err
rc=$?
check "seclvlctl exits 3 and says seclvl is not active" sh -c \
	"[ $rc = 3 ] && grep -q 'seclvl is not active in this kernel: /sys/kernel/security/lsm lists' /tmp/ctl.err &&
	 grep -q 'lsm= boot parameter' /tmp/ctl.err"
