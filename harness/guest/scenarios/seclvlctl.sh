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
out_has '^{"enforcing": true, "level": 0, "name": "insecure", "backend": "lsm", "restrictions": \[{"name": "ptrace_init", "level": 1, "active": false, "denials": 0}'
out_has '{"name": "lockdown_confidentiality", "level": null, "active": false, "denials": 0}\], "escape": null, "escape_readable": true, "events_dropped": 0}$'
# metrics: Prometheus's text format, checked by a checker that must also
# reject what the format forbids.
expect_exit 0 seclvlctl metrics
check "  in Prometheus's text format" prom_valid /tmp/ctl.out
out_has '^seclvl_enforcing 1$'
out_has '^seclvl_backend_info{backend="lsm"} 1$'
out_has '^seclvl_level 0$'
out_has '^seclvl_restriction_level{restriction="time_backward"} 2$'
out_has '^seclvl_restriction_level{restriction="lockdown_confidentiality"} 3$'
out_has '^seclvl_restriction_active{restriction="modules"} 0$'
out_has '^seclvl_denials_total{restriction="modules"} 0$'
out_has '^seclvl_events_dropped_total 0$'
check "  with the 16 restrictions in each family" \
	[ "$(grep -c '^seclvl_restriction_active{' /tmp/ctl.out)" = 16 ]
expect_exit 2 seclvlctl metrics now
err_has "metrics takes no arguments"
# log: no journal here, then journal-fixture.sh's records as journalctl.
expect_exit 4 seclvlctl log
err_has "there is no journalctl here"
mkdir -p /tmp/journal-bin
cp /scenarios/journal-fixture.sh /tmp/journal-bin/journalctl
chmod 0755 /tmp/journal-bin/journalctl
expect_exit 0 env PATH=/tmp/journal-bin:$PATH seclvlctl log
out_has '^2025-12-07T17:00:00.000001Z  lsm  denied rawio at level 1: iopl() (pid 42 comm a (pid 1 comm b)$'
out_has '^2025-12-07T17:00:01.000000Z  bpf  level changed from 0 to 1 (pid 7 comm seclvlctl)$'
out_has '^2025-12-07T17:00:02.000000Z  bpf  denied "x" at.end\.$'
out_has '  lsm  12 more refusals of rawio not logged (rate limit)$'
check "  and only seclvl's four records" [ "$(wc -l < /tmp/ctl.out)" = 4 ]
expect_exit 0 env PATH=/tmp/journal-bin:$PATH seclvlctl log --json
out_has '^  {"time": "2025-12-07T17:00:00.000001Z", "backend": "lsm", "event": "denied", "restriction": "rawio", "level": 1, "what": "iopl()", "pid": 42, "comm": "a (pid 1 comm b", "message": '
out_has '"event": "level", "from": 0, "to": 1, '
out_has '"event": "other", "message": "denied \\"x\\" at\\u0009end."}'
out_has '"event": "summary", '
check "  and a JSON array of four" sh -c \
	'[ "$(head -n 1 /tmp/ctl.out)" = "[" ] && [ "$(tail -n 1 /tmp/ctl.out)" = "]" ] &&
	 [ "$(grep -c "^  {" /tmp/ctl.out)" = 4 ]'
expect_exit 2 env PATH=/tmp/journal-bin:$PATH seclvlctl log --since bad
err_has "journalctl does not take --since 'bad'"
expect_exit 2 seclvlctl log --json --json
err_has "log: unexpected '--json'"
expect_exit 2 seclvlctl log --since
err_has "log: unexpected '--since'"
for bad in '# TYPE a counter\na 1\n' 'a 1\n# TYPE a gauge\n' \
	   '# TYPE a gauge\na 1\na 2\n' '# TYPE a gauge\na one\n' \
	   '# TYPE a gauge\na{x=1} 1\n' '# TYPE a gauge\na 1' \
	   '# TYPE a_total counter\na_total 1\n# TYPE b gauge\nb 2\na_total{x="1"} 3\n'; do
	printf "$bad" > /tmp/bad.prom
	check "  the format check rejects '$bad'" prom_invalid /tmp/bad.prom
done
expect_exit 0 seclvlctl --help
out_has "usage: seclvlctl"
expect_exit 2 seclvlctl --bogus
err_has "unknown option '--bogus'"
expect_exit 2 seclvlctl frobnicate
err_has "unknown command"

# grub-lsm: the drop-in that boots with bpf among the LSMs (BPF backend),
# from a few lists, in a scratch root.
g=/tmp/grubroot
mkdir -p $g/etc/default
dropin=$g/etc/default/grub.d/seclvl-bpf.cfg
expect_exit 0 seclvlctl grub-lsm --root $g --lsm capability,landlock,lockdown,yama,integrity,apparmor
out_has "lsm=landlock,lockdown,yama,integrity,apparmor,bpf"
out_has "run update-grub"
check "  and the drop-in appends that list to GRUB's" \
	grep -qx 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX lsm=landlock,lockdown,yama,integrity,apparmor,bpf"' $dropin
cp $dropin /tmp/dropin.before
expect_exit 0 seclvlctl grub-lsm --root $g --lsm capability,landlock,lockdown,yama,integrity,apparmor
out_has "unchanged"
check "  and left it as it was" cmp -s $dropin /tmp/dropin.before
expect_exit 0 seclvlctl grub-lsm --root $g --lsm lockdown,capability,landlock,yama,apparmor,ima,evm
out_has "lsm=lockdown,landlock,yama,apparmor,bpf"
expect_exit 0 seclvlctl grub-lsm --root $g --lsm capability,selinux
out_has "lsm=selinux,bpf"
check "  and replaced the drop-in" grep -q 'lsm=selinux,bpf"$' $dropin
expect_exit 0 seclvlctl grub-lsm --root $g --lsm lockdown,capability,yama,bpf
out_has "bpf is an active LSM already"
check "  and wrote nothing" grep -q 'lsm=selinux,bpf"$' $dropin
expect_exit 2 seclvlctl grub-lsm --root $g --lsm 'apparmor;reboot'
err_has "is not a list of LSM names"
expect_exit 2 seclvlctl grub-lsm --root $g --lsm yama,,apparmor
expect_exit 2 seclvlctl grub-lsm --root $g --lsm
err_has "unknown or incomplete option '--lsm'"
check "  and none of these changed it" grep -q 'lsm=selinux,bpf"$' $dropin
expect_exit 4 seclvlctl grub-lsm --root /tmp/nonexistent --lsm yama
err_has "is GRUB installed"
check "only the drop-in was written" \
	[ "$(find $g -type f)" = "$dropin" ]

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

# check: what a raise would refuse here, from fixtures for each detector
# (check-fixtures.sh); it changes nothing.  Here, at level 0, before the
# policy changes below.
. /scenarios/check-fixtures.sh
expect_exit 2 seclvlctl check 3
err_has "invalid level '3': check takes 1 or 2"
expect_exit 2 seclvlctl check abc
err_has "invalid level 'abc': check takes 1 or 2"
expect_exit 2 seclvlctl check 1 2
err_has "one LEVEL only"
expect_exit 2 seclvlctl check --bogus
err_has "unknown option '--bogus'"
expect_exit 2 seclvlctl check --config
err_has "check: --config needs a FILE"
expect_exit 2 seclvlctl check --config /nonexistent
err_has "cannot read /nonexistent: No such file or directory"
check_fixtures
# Pids vary; the nobody daemon's name is whatever busybox's exec makes it.
cat > /tmp/check1.want <<'WANT'
setuid                 seclvl-dyn.service (running): starting it changes user IDs (DynamicUser=yes)
setuid                 seclvl-check.service (enabled): starting it changes user IDs (User=nobody)
setuid                 sshd (pid N): every login changes user IDs (privilege separation)
setuid                 cron (pid N): runs users' jobs under their user IDs
setuid                 agetty (pid N): every login changes user IDs
net_admin              dhclient (pid N): renews addresses and routes
modules                /mnt/old (minix): module neither loaded nor listed: a mount after the raise would load it
suid_mount             /mnt/spare (/dev/vdb, noauto): a mount after the raise is refused: it has no nosuid
mounted_blockdev_write /dev/loop0: writes to /run/seclvl-check/loop.img are refused while it is bound
setid_bits             1 set-id file (/usr/bin/seclvl-check-suid): package upgrades that replace these files are refused (dpkg)
11 findings: raising to 1 now would refuse them; see seclvl(7)
WANT
expect_exit 1 seclvlctl check 1
check "  and prints what level 1 would refuse" sh -c \
	"sed '/ (pid [0-9]*, uid 65534): /d; s/(pid [0-9]*)/(pid N)/' /tmp/ctl.out | diff /tmp/check1.want -"
out_has "^setuid  *[^ ]* (pid $CF_NOBODY, uid 65534): changed user IDs when it started: it cannot be restarted after the raise$"
check "  and says nothing on stderr" [ ! -s /tmp/ctl.err ]
expect_exit 1 seclvlctl check
out_has "^11 findings: raising to 1 now"
expect_exit 1 seclvlctl check 2
out_has "^time_backward  *chronyd (pid [0-9]*): may step the clock back$"
out_has "^umount  */dev/loop0 on /run/seclvl-check/mnt: cannot be unmounted; shutdown remounts it read-only$"
out_has "^13 findings: raising to 2 now would refuse them; see seclvl(7)$"
check "  and groups them by restriction" sh -c \
	"awk '{ print \$1 }' /tmp/ctl.out | uniq | tr '\n' ' ' | grep -qx 'setuid net_admin modules suid_mount mounted_blockdev_write time_backward umount setid_bits 13 '"
expect_exit 1 seclvlctl check 1 --json
out_has '^{"level": 1, "findings": \[{"restriction": "setuid", "what": "starting it changes user IDs (DynamicUser=yes)", "detail": "seclvl-dyn.service (running)"}, {"restriction": "setuid", '
out_has '{"restriction": "mounted_blockdev_write", "what": "writes to /run/seclvl-check/loop.img are refused while it is bound", "detail": "/dev/loop0"}'
out_has '{"restriction": "setid_bits", "what": "package upgrades that replace these files are refused (dpkg)", "detail": "1 set-id file (/usr/bin/seclvl-check-suid)"}\], "count": 11}$'
check "  and lists 11 findings on one line" sh -c \
	"[ \$(wc -l < /tmp/ctl.out) = 1 ] && [ \$(grep -o '\"restriction\": ' /tmp/ctl.out | wc -l) = 11 ]"
# A policy file's rows count instead of the kernel's, and its level by default.
printf 'policy setuid off\nlevel 1\n' > /tmp/check-nosetuid.conf
expect_exit 1 seclvlctl check --config /tmp/check-nosetuid.conf
check "  and lists no setuid finding" sh -c '! grep -q "^setuid" /tmp/ctl.out'
out_has "^net_admin  *dhclient (pid [0-9]*): renews addresses and routes$"
out_has "^5 findings: raising to 1 now would refuse them"
check "  and the kernel's policy and level did not change" sh -c \
	"[ \$(cat $SECLVL/level) = 0 ] && grep -qx 'setuid 1 0' $SECLVL/policy"
printf 'policy setuid off\npolicy umount off\nlevel 2\n' > /tmp/check-2.conf
expect_exit 1 seclvlctl check --config /tmp/check-2.conf
out_has "^time_backward  *chronyd"
check "  and lists no umount finding" sh -c '! grep -q "^umount" /tmp/ctl.out'
out_has "^6 findings: raising to 2 now would refuse them"
expect_exit 1 seclvlctl check 1 --config /tmp/check-2.conf
out_has "^5 findings: raising to 1 now would refuse them"
printf 'policy setuid off\nlevel 0\n' > /tmp/check-0.conf
expect_exit 0 seclvlctl check --config /tmp/check-0.conf
out_has "^level 0 refuses nothing$"
printf 'policy nosuch off\nlevel 1\n' > /tmp/check-bad.conf
expect_exit 2 seclvlctl check --config /tmp/check-bad.conf
err_has "/tmp/check-bad.conf:1: no restriction named 'nosuch'"
# A boot applies the file over the default policy, not over the kernel's now.
check "set setuid off in the kernel's policy" sh -c "echo 'setuid off' > $SECLVL/policy"
printf 'level 2\n' > /tmp/check-strict.conf
expect_exit 1 seclvlctl check --config /tmp/check-strict.conf
out_has "^setuid  *seclvl-check.service (enabled): starting it changes user IDs (User=nobody)$"
expect_exit 1 seclvlctl check 2
check "  where check without the file uses the kernel's policy" sh -c \
	'! grep -q "^setuid" /tmp/ctl.out'
check "set setuid back to 1" sh -c "echo 'setuid 1' > $SECLVL/policy"
# A new tmpfs needs no nosuid while setid_bits holds.
printf 'policy setid_bits off\nlevel 1\n' > /tmp/check-nosetid.conf
expect_exit 1 seclvlctl check --config /tmp/check-nosetid.conf
out_has "^suid_mount  */mnt/tmp (tmpfs, noauto): a mount after the raise is refused: it has no nosuid$"
# modules: a module whose image is listed may load after the raise.  This
# guest has no /lib/modules: one whose minix module is a test module.
d=/lib/modules/$(uname -r)
mkdir -p $d/kernel
cp /lib/seclvl/seclvl_test_load.ko $d/kernel/minix.ko
printf 'kernel/minix.ko:\n' > $d/modules.dep
printf 'alias fs-minix minix\n' > $d/modules.alias
expect_exit 0 seclvlctl modules pin $d/kernel/minix.ko
expect_exit 1 seclvlctl check 1
check "  and has no modules finding once minix's image is listed" sh -c \
	'! grep -q "^modules" /tmp/ctl.out'
expect_exit 0 seclvlctl modules clear
printf 'module %s\nlevel 1\n' $d/kernel/minix.ko > /tmp/check-minix.conf
expect_exit 1 seclvlctl check --config /tmp/check-minix.conf
check "  nor with a module line for it in the file" sh -c \
	'! grep -q "^modules" /tmp/ctl.out'
printf 'module sha256:%s\nlevel 1\n' $(sha256sum $d/kernel/minix.ko | cut -c1-64) \
	> /tmp/check-minix.conf
expect_exit 1 seclvlctl check --config /tmp/check-minix.conf
check "  nor with its digest there" sh -c '! grep -q "^modules" /tmp/ctl.out'
rm -rf /lib/modules
# Not root: all of it is readable.
expect_exit 1 nobody seclvlctl check 1
out_has "^setuid  *seclvl-check.service (enabled): starting it changes user IDs (User=nobody)$"
out_has "^mounted_blockdev_write /dev/loop0: writes to /run/seclvl-check/loop.img"
out_has "^setid_bits  *1 set-id file (/usr/bin/seclvl-check-suid)"
check "  and skips nothing" [ ! -s /tmp/ctl.err ]
check_fixtures_clean
rm -f /tmp/check-*.conf /tmp/check1.want
expect_exit 0 seclvlctl check 1
check "  and prints only that nothing was found" sh -c \
	"[ \"\$(cat /tmp/ctl.out)\" = 'nothing found that level 1 would refuse' ]"
expect_exit 0 seclvlctl check 2 --json
check "  and prints an empty list" sh -c \
	"[ \"\$(cat /tmp/ctl.out)\" = '{\"level\": 2, \"findings\": [], \"count\": 0}' ]"

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
# From 1 to 2 with watchers: the clock hook goes on only now, and before
# anyone sees 2.  seclvlctl then raises to the level it is already at.
run_selftest seclvl/raise_test -t hooks_on_before_level
check "level reads 2 after the watched raise" level_is 2
expect_exit 0 seclvlctl raise 2
insmod /lib/seclvl/seclvl_test_load.ko 2>/dev/null
expect_exit 0 seclvlctl --json
out_has '"level": 2, "name": "highly secure"'
out_has '{"name": "modules", "level": 1, "active": true, "denials": [1-9]'
expect_exit 0 seclvlctl metrics
check "  in Prometheus's text format" prom_valid /tmp/ctl.out
out_has '^seclvl_level 2$'
out_has '^seclvl_restriction_active{restriction="time_backward"} 1$'
out_has '^seclvl_denials_total{restriction="modules"} [1-9]'
check "level is 2" level_is 2
