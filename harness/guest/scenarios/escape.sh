# SPDX-License-Identifier: GPL-2.0-only
# The emergency escape: escape_test raises and resets the level itself.
check "booted at level 0" level_is 0
# The set-uid escape needs a /tmp without nosuid, which init's has.
check "mount a /tmp that honours set-uid" mount -t tmpfs -o mode=1777 tmpfs /tmp
run_selftest seclvl/escape_test
check "resets were logged loudly" \
	sh -c 'dmesg | grep -q "level changed from 2 to 0 by EMERGENCY ESCAPE"'
check "runs by other users were logged" log_has "escape run by uid 65534 euid 0"
check "setting the escape was logged with a warning" log_has "escape set to /tmp/seclvl-escape"
escape_audited() {
	audit_has 1428 'op=set_escape path="/tmp/seclvl-escape[^ ]*' 1 &&
		audit_has 1428 'op=run_escape path=[^ ]*' 0 &&
		audit_has 1428 'op=set_level old_level=2 new_level=0 origin=escape' 1 &&
		audit_has 1428 'op=clear_escape' 1
}
check "audit has the escape set, run by others, and run by root" escape_audited
