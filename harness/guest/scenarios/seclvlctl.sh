# SPDX-License-Identifier: GPL-2.0-only
# seclvlctl: every command and every error path, output and exit code.
nobody() { su -s /bin/sh nobody -c "$*"; }

expect_exit 0 seclvlctl
out_has "secure level: 0 (insecure)"
out_has "^suid_mount  *1  *no  *0$"
out_has "^lockdown_confidentiality  *off  *no  *0$"
out_has "escape: none"
check "  and lists all 16 restrictions" \
	[ "$(grep -cE '^[a-z_]+ +(1|2|off) +(yes|no) +[0-9]+$' /tmp/ctl.out)" = 16 ]
expect_exit 0 seclvlctl --json
out_has '^{"level": 0, "name": "insecure", "backend": "lsm", "restrictions": \[{"name": "ptrace_init", "level": 1, "active": false, "denials": 0}'
out_has '{"name": "lockdown_confidentiality", "level": null, "active": false, "denials": 0}\], "escape": null, "escape_readable": true}$'
expect_exit 0 seclvlctl --help
out_has "usage: seclvlctl"
expect_exit 2 seclvlctl --bogus
err_has "unknown option '--bogus'"
expect_exit 2 seclvlctl frobnicate
err_has "unknown command"

# Bad values: nothing changes.
expect_exit 2 seclvlctl raise 3
err_has "invalid level '3': levels are -1, 0, 1 and 2"
expect_exit 2 seclvlctl raise one
expect_exit 2 seclvlctl policy nosuch 1
err_has "no restriction named 'nosuch'"
err_has "restrictions: ptrace_init immutable"
expect_exit 2 seclvlctl policy setuid 3
err_has "use 1, 2 or off"
expect_exit 2 seclvlctl escape relative/path
err_has "must be an absolute path"
expect_exit 2 seclvlctl escape /nonexistent
err_has "owned by root and writable by no one else"
check "none of that changed the level or the policy" sh -c \
	"[ \$(cat $SECLVL/level) = 0 ] && grep -qx 'setuid 1 0' $SECLVL/policy"

# Not root.
check "su runs commands as nobody" sh -c '[ "$(su -s /bin/sh nobody -c "id -u")" = 65534 ]'
expect_exit 1 nobody seclvlctl raise 1
err_has "raising the level needs root"
expect_exit 1 nobody seclvlctl policy setuid off
err_has "changing the policy needs root"
expect_exit 0 nobody seclvlctl
out_has "escape: unknown (only root can read it)"

# Changes at level 0.
expect_exit 0 seclvlctl policy setuid off
check "  and the policy file says so" grep -qx 'setuid off 0' $SECLVL/policy
echo '#!/bin/sh' > /tmp/escape && chmod 0755 /tmp/escape
expect_exit 0 seclvlctl escape /tmp/escape
expect_exit 0 seclvlctl
out_has "escape: /tmp/escape"
expect_exit 0 seclvlctl escape --clear
expect_exit 0 seclvlctl
out_has "escape: none"

# Raise, and what is refused above 0.
expect_exit 0 seclvlctl raise 1
expect_exit 0 seclvlctl
out_has "secure level: 1 (secure)"
out_has "^modules  *1  *yes  *0$"
out_has "^setuid  *off  *no  *0$"
out_has "^umount  *2  *no  *0$"
expect_exit 1 seclvlctl raise 0
err_has "cannot lower the level from 1 to 0: only a reboot lowers it"
expect_exit 1 seclvlctl policy setuid 1
err_has "the policy is frozen: the level is already 1"
expect_exit 1 seclvlctl escape --clear
err_has "the escape is frozen: the level is already 1"
expect_exit 0 seclvlctl raise 2
insmod /lib/seclvl/seclvl_test_load.ko 2>/dev/null
expect_exit 0 seclvlctl --json
out_has '"level": 2, "name": "highly secure"'
out_has '{"name": "modules", "level": 1, "active": true, "denials": [1-9]'
check "level is 2" level_is 2
