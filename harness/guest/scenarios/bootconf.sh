# SPDX-License-Identifier: GPL-2.0-only
# /etc/seclvl.conf applied at the end of boot by the init script: bad files
# change nothing, a good one sets the policy, the escape and the level.
conf() { printf '%s\n' "$@" > /etc/seclvl.conf; }
unchanged() {
	check "  and nothing changed" sh -c "[ \$(cat $SECLVL/level) = 0 ] &&
		grep -qx 'setuid 1 0' $SECLVL/policy && [ -z \"\$(cat $SECLVL/escape)\" ]"
}
init=/etc/init.d/seclvl

rm -f /etc/seclvl.conf
expect_exit 0 $init start
out_has "no /etc/seclvl.conf: the secure level stays as it is"
check "  and the level is 0" level_is 0

echo '#!/bin/sh' > /tmp/escape && chmod 0755 /tmp/escape
echo '#!/bin/sh' > /tmp/escape-gw && chmod 0775 /tmp/escape-gw
conf "policy setuid off" "frobnicate 1" "level 1"
expect_exit 2 $init start
err_has "/etc/seclvl.conf:2: expected 'level N', 'policy NAME 1|2|off', 'escape PATH' or 'module FILE|sha256:HEX'"
unchanged
conf "policy setuid off" "policy nosuch 1" "level 1"
expect_exit 2 $init start
err_has "/etc/seclvl.conf:2: no restriction named 'nosuch'"
unchanged
conf "policy setuid off" "level 3"
expect_exit 2 $init start
err_has "/etc/seclvl.conf:2: invalid level '3'"
unchanged
conf "level 1" "level 2"
expect_exit 2 $init start
err_has "a second 'level' line"
conf "policy setuid off"
expect_exit 2 $init start
err_has "/etc/seclvl.conf: no 'level' line"
unchanged
conf "escape /tmp/escape-gw" "level 1"
expect_exit 2 $init start
err_has "/tmp/escape-gw cannot be the escape"
unchanged

cp /etc/seclvl.conf.example /etc/seclvl.conf
echo "escape /tmp/escape   # a comment" >> /etc/seclvl.conf
expect_exit 0 $init start
out_has "secure level 1 (secure)"
check "  the level is 1" level_is 1
check "  setuid is off" grep -qx 'setuid off 0' $SECLVL/policy
check "  the escape is set" grep -qx /tmp/escape $SECLVL/escape
expect_exit 0 $init start
out_has "secure level 1 (secure)"
conf "policy setuid 1" "level 1"
expect_exit 1 $init start
err_has "the level is already 1: 'policy setuid 1' can no longer be applied"
conf "level 0"
expect_exit 1 $init start
err_has "asks for level 0, below the current 1: only a reboot lowers it"
conf "policy setuid off" "escape /tmp/escape" "level 2"
expect_exit 0 $init start
check "  the level is 2" level_is 2
expect_exit 0 $init status
out_has "secure level: 2 (highly secure)"
expect_exit 0 $init stop
out_has "the secure level stays until reboot"
check "  and it does" level_is 2
expect_exit 2 $init frobnicate
