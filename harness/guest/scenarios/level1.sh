# SPDX-License-Identifier: GPL-2.0-only
# Level 1, raised through securityfs after the level-0 preparations, with
# watchers that must find the restrictions in force as soon as they see
# the new level.
prepare
default_policy
run_selftest seclvl/raise_test -t hooks_on_before_level
check "level reads 1 after the raise" level_is 1
check "kernel logged the change to 1" log_has "level changed from 0 to 1 by write"
check "  and audit has it, as SECLVL_CONFIG_CHANGE" \
	audit_has 1428 "op=set_level old_level=0 new_level=1 origin=write" 1
run_suites
check "refusals were logged with restriction, level and process" \
	log_has "seclvl: denied rawio at level 1: CAP_SYS_RAWIO (pid [0-9]* comm restrictions_te"
check "no level-2 restriction refused at level 1" \
	awk '$1 ~ /^(time_backward|blockdev_write|umount)$/ && $3 != 0 { print; bad = 1 } END { exit bad }' \
	$SECLVL/policy
check "each refusal logged is a SECLVL_ACCESS audit record as well" audit_matches_log
check "  with the task's fields" audit_has 1427 \
	'restriction=rawio level=1 operation="CAP_SYS_RAWIO"' 0
# Refused changes share a limit of 10 records every 5 s, which the suites'
# refused writes have used up: a new window first.
sleep 6
check "lowering the level is refused" fails_with_eperm sh -c "echo 0 > $LEVEL_FILE"
check "  and audit has the attempt" \
	audit_has 1428 "op=set_level old_level=1 new_level=0 origin=write" 0
# Last: its refusals must not mix with the suites' in the log.
run_selftest seclvl/storm_test
check "level is still 1" level_is 1
