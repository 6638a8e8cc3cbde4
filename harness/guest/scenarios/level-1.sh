# SPDX-License-Identifier: GPL-2.0-only
# Level -1 from seclvl.level=-1: like 0, and it can never be raised.
check "booted at level -1" level_is -1
for f in $SECLVL/level /proc/seclvl /proc/sys/kernel/securelevel; do
	for v in 0 1 2; do
		check "writing $v to $f is refused at -1" \
			fails_with_eperm sh -c "echo $v > $f"
	done
done
prepare
default_policy
run_selftest seclvl/interface_test
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
check "level is still -1" level_is -1
check "nothing was refused at level -1" sh -c '! dmesg | grep "seclvl: denied" | grep -qv "denied kunit_atomic "'
seclvlctl raise 1 >/tmp/ctl.out 2>/tmp/ctl.err
rc=$?
check "seclvlctl raise at -1 exits 1 and says -1 is permanent" sh -c \
	"[ $rc = 1 ] && grep -q 'the level is -1 (permanently insecure): it cannot be raised until reboot' /tmp/ctl.err"
