# SPDX-License-Identifier: GPL-2.0-only
# Level 1, raised through securityfs after the level-0 preparations.
prepare
default_policy
raise 1 $SECLVL/level
run_suites
check "refusals were logged with restriction, level and process" \
	log_has "seclvl: denied rawio at level 1: CAP_SYS_RAWIO (pid [0-9]* comm restrictions_te"
check "no level-2 restriction refused at level 1" \
	awk '$1 ~ /^(time_backward|blockdev_write|umount)$/ && $3 != 0 { print; bad = 1 } END { exit bad }' \
	$SECLVL/policy
check "level is still 1" level_is 1
