# SPDX-License-Identifier: GPL-2.0-only
# seclvl.level=2 seclvl.level=abc: the last value is invalid, so 0 is used.
check "an invalid seclvl.level= gives level 0" level_is 0
check "and is logged" log_has "invalid seclvl.level=abc, using 0"
check "raise 0 to 2 directly through sysctl" sysctl -w kernel.securelevel=2
check "level reads 2 in all three files" sh -c \
	'[ "$(cat /sys/kernel/security/seclvl/level)$(cat /proc/seclvl)$(cat /proc/sys/kernel/securelevel)" = 222 ]'
