#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One debian-* scenario: boot the Debian 13 image (debian12-*: Debian 12's;
# harness/debian-image.sh) on one backend, with /etc/seclvl.conf from the server profile at one
# level, let seclvl.service raise it after multi-user.target as shipped,
# and check from the host over ssh what harness/guest/debian/server.table
# promises at that level.
#   debian-test.sh debian[12]-{lsm,bpf}-{0,1,2}
#   debian-test.sh debian[12]-{lsm,bpf}-strict   (the strict profile: no logins, so
#                  the host reads the journal from the disk afterwards)
# TAP lines to build/results/NAME/results.log, the guest's console to
# console.log, QEMU's status to exit (as boot.sh does).
set -uo pipefail
. "$(dirname "$0")/common.sh"

name=$1
case $name in
debian12-*) release=bookworm ;;
debian-*) release=trixie ;;
*) die "unknown scenario $name" ;;
esac
backend=${name#*-}
backend=${backend%-*}
level=${name##*-}
profile=server
if [ "$level" = strict ]; then
	profile=strict
	level=$(sed -n 's/^level //p' "$TOP/tools/seclvl/profiles/strict.conf")
fi
DEB=$(debian_dir "$release")
out=$BUILD/results/$name
rm -rf "$out"
mkdir -p "$out"
exec 3>"$out/results.log"
echo "# system: $(debugfs -R 'cat /usr/lib/os-release' "$DEB/debian.img" 2>/dev/null |
	sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p')" >&3
# Where the time goes: seconds since the start, per phase.
stamp() { echo "$SECONDS $*" >> "$out/times.log"; }
n=0
tap() { n=$((n + 1)); echo "$1 $n - $2" >&3; }
check() { # DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@" >"$out/check.out" 2>&1; then
		tap ok "$d"
	else
		tap "not ok" "$d"
		sed 's/^/# /' "$out/check.out" | head -n 15 >&3
	fi
}

# The disk: a copy of the image whose /etc/seclvl.conf asks for $level.
disk=$out/disk.img
cp --sparse=always "$DEB/debian.img" "$disk"
sed "s/^level .*/level $level/" "$TOP/tools/seclvl/profiles/$profile.conf" > "$out/seclvl.conf"
debugfs -w -R 'rm /etc/seclvl.conf' "$disk" >/dev/null 2>&1
debugfs -w -R "write $out/seclvl.conf /etc/seclvl.conf" "$disk" >/dev/null 2>&1
# journald takes the kernel's audit records only through its audit
# socket, which Debian leaves off: the debian-lsm scenarios enable it, as
# the admin guide says to.
if [ "$backend" = lsm ] && [ "$release" = trixie ]; then
	debugfs -w -R 'mkdir /etc/systemd/system/sockets.target.wants' "$disk" >/dev/null 2>&1
	debugfs -w -R 'symlink /etc/systemd/system/sockets.target.wants/systemd-journald-audit.socket /usr/lib/systemd/system/systemd-journald-audit.socket' \
		"$disk" >/dev/null 2>&1
fi
# The strict profile admits no login to power off with: on the test
# kernel (no input drivers) QEMU's power button press never reaches
# logind (it watches the button; no key event comes), so a unit runs
# systemctl poweroff a while after the raise.
if [ "$profile" = strict ] && [ "$backend" = lsm ]; then
	# No default dependencies: multi-user.target, which seclvl.service
	# follows, would otherwise be ordered after it.
	printf '%s\n' '[Unit]' 'DefaultDependencies=no' 'After=seclvl.service' \
		'[Service]' 'Type=oneshot' \
		"ExecStart=/bin/sh -c 'sleep 90; systemctl poweroff'" \
		'[Install]' 'WantedBy=multi-user.target' > "$out/poweroff.service"
	u=/etc/systemd/system/seclvl-test-poweroff.service
	debugfs -w -R "write $out/poweroff.service $u" "$disk" >/dev/null 2>&1
	debugfs -w -R "symlink /etc/systemd/system/multi-user.target.wants/${u##*/} $u" \
		"$disk" >/dev/null 2>&1
fi

# Two vCPUs on one host thread ($QEMU_ACCEL, common.sh).  The in-tree LSM
# boots the 7.3 test kernel (no lockdep or KASAN: debug.config), whose
# modules debian-image.sh installed.
smp=2
case $backend in
lsm)
	# null_blk is built in for the busybox guests' zoned disk: none here.
	use_kernel 7.3
	kernel=(-kernel "$KOUT/arch/x86/boot/bzImage")
	append="root=/dev/vda rootfstype=ext4 rw no5lvl pci=noacpi null_blk.nr_devices=0"
	;;
bpf)
	kernel=(-kernel "$DEB/vmlinuz" -initrd "$DEB/initrd.img")
	append="root=/dev/vda rw lsm=lockdown,capability,landlock,yama,apparmor,bpf"
	;;
*) die "unknown scenario $name" ;;
esac
# A free port on the host's loopback for the guest's sshd.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timeout -k 10 "${SECLVL_DEBIAN_TIMEOUT:-1200}" qemu-system-x86_64 -accel "$QEMU_ACCEL" -cpu max \
	-m 2G -smp "$smp" -nodefaults -display none "${kernel[@]}" \
	-append "console=ttyS0 panic=-1 $append" \
	-drive "file=$disk,if=virtio,format=raw" \
	-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:22" \
	-device virtio-net-pci,netdev=n0 -device virtio-rng-pci \
	-monitor "unix:$out/monitor.sock,server,nowait" \
	-serial "file:$out/console.log" </dev/null >"$out/qemu.log" 2>&1 &
qemu=$!
stamp "qemu started"

# sshd answers no keepalive while PAM waits for a user manager, which
# took 45 s under a debug kernel on a busy host: a minute of silence.
ssh_opts=(-q -i "$DEB/id_ed25519" -p "$port" -o StrictHostKeyChecking=no
	  -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o ConnectTimeout=10
	  -o ServerAliveInterval=10 -o ServerAliveCountMax=6 -o LogLevel=ERROR)
as() { # USER COMMAND: one ssh session, one login
	local user=$1
	shift
	timeout "${as_timeout:-120}" ssh "${ssh_opts[@]}" "$user@127.0.0.1" "$@"
}
# Up: sshd answers and seclvl.service has finished (raised, or failed).
# Once in, one session waits, and looks every few seconds: a login, and
# even a systemctl, costs the booting guest seconds under TCG.
wait_up() { # SECONDS
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ] && kill -0 "$qemu" 2>/dev/null; do
		as root 'for i in $(seq 1 20); do
				case $(systemctl is-active seclvl.service) in
				active | failed) exit 0 ;;
				esac
				sleep 3
			done; exit 1' 2>/dev/null && return 0
		sleep 2
	done
	return 1
}
# batch NAME COMMAND [NAME COMMAND...]: root's COMMANDs, in turn, in one
# session (a login costs seconds under TCG); then batched
# NAME has the exit status and output of each, for check and expect.
# Each had a session of 120 s: they have one of 300.
batch() {
	while [ $# -ge 2 ]; do
		printf '( %s\n) >/tmp/seclvl-batch 2>&1 </dev/null\n' "$2"
		printf 'echo "RESULT %s $?"; sed "s/^/    /" /tmp/seclvl-batch\n' "$1"
		shift 2
	done | as_timeout=300 as root 'bash -s' > "$out/batch.out" 2>&1
}
batched() { # NAME
	awk -v c="$1" '$1 == "RESULT" { on = ($2 == c); if (on) rc = $3; next }
		on { sub(/^    /, ""); print }
		END { exit rc == "" ? 255 : rc }' "$out/batch.out"
}
wait_down() { # SECONDS
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ] && kill -0 "$qemu" 2>/dev/null; do sleep 2; done
	! kill -0 "$qemu" 2>/dev/null
}
# A press that comes before logind watches the button is lost (seen on a
# busy host): press every 20 s until the guest is down.
press_power() { # SECONDS
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ] && kill -0 "$qemu" 2>/dev/null; do
		python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"system_powerdown\n")' \
			"$out/monitor.sock" 2>/dev/null
		wait_down 20 && return 0
	done
	! kill -0 "$qemu" 2>/dev/null
}
finish() {
	stamp finish
	kill "$qemu" 2>/dev/null
	wait "$qemu"
	echo $? > "$out/exit"
	echo "1..$n" >&3
	echo SECLVL-DONE >&3
	exit 0
}

# What the table promises for CHECK at this level.
promise() { awk -v c="$1" -v col=$((level + 2)) '$1 == c { print $col }' \
	"$TOP/harness/guest/debian/server.table"; }
# expect CHECK DESCRIPTION COMMAND...: works (exit 0) or refused (exit 1
# with EPERM), as promised.
expect() {
	local c=$1 d=$2 want rc
	shift 2
	want=$(promise "$c")
	"$@" >"$out/check.out" 2>&1
	rc=$?
	case $want/$rc in
	works/0) tap ok "$c: $d works" ;;
	refused/1) tap ok "$c: $d is refused" ;;
	*)
		tap "not ok" "$c: $d: promised '$want', got exit $rc"
		sed 's/^/# /' "$out/check.out" | head -n 15 >&3
		;;
	esac
}
# The strict profile refuses every change of user IDs, sshd's privilege
# separation among them: nobody logs in.  The host waits for the raise on
# the console (the kernel prints seclvl's, or seclvl-bpf's, line), checks
# that logins are refused, powers the system off and reads the journal
# from the disk.  Debian's kernel powers off by the power button (ACPI,
# handled by logind), the test kernel by the unit written above.
if [ "$profile" = strict ]; then
	up=
	for _ in $(seq 1 180); do
		grep -aq "level changed from 0 to $level" "$out/console.log" 2>/dev/null &&
			{ up=1; break; }
		kill -0 "$qemu" 2>/dev/null || break
		sleep 5
	done
	check "the system came up and seclvl.service raised to $level" [ -n "$up" ]
	sleep 10
	no_login() { ! as alice true; }
	check "ssh logins are refused (sshd cannot drop privileges)" no_login
	if [ "$backend" = lsm ]; then
		check "systemctl poweroff (a unit's, after the raise) finishes" wait_down 400
	else
		check "the power button powers it off" press_power 300
	fi
	check "the host's e2fsck -fn finds the disk clean" e2fsck -fn "$disk"
	debugfs -R "rdump /var/log/journal $out" "$disk" >/dev/null 2>&1
	journalctl -D "$out/journal" --no-pager -o short-monotonic > "$out/journal.txt" 2>&1
	check "the journal has the raise to $level" grep -q "level changed from 0 to $level" "$out/journal.txt"
	check "  and sshd's refused setresuid, with the restriction" \
		grep -qE 'seclvl(-bpf)?: denied setuid at level [0-9]: (setres[ug]id\(\)|CAP_SETUID) \(pid [0-9]+ comm sshd' "$out/journal.txt"
	check "udev broadcast its events (net_admin stays on)" \
		bash -c "! grep -q 'Failed to broadcast event' '$out/journal.txt'"
	check "  and forced its socket buffers with no refusal logged" \
		bash -c "! grep -q 'denied net_admin .*comm systemd-udevd' '$out/journal.txt'"
	echo "# net_admin refusals: $(grep -c 'denied net_admin' "$out/journal.txt")" >&3
	echo "# units failed: $(grep -c 'Failed with result' "$out/journal.txt")" >&3
	echo "# shutdown: $(grep -c 'Failed unmounting' "$out/console.log") 'Failed unmounting' lines" >&3
	finish
fi

start=$SECONDS
if ! wait_up 900; then
	tap "not ok" "the system came up and seclvl.service ran (console.log)"
	finish
fi
tap ok "the system came up and seclvl.service ran, after $((SECONDS - start)) s"
stamp up
# The first checks as root, in one session.
level_file=/sys/fs/bpf/seclvl/level
[ "$backend" = lsm ] && level_file=/sys/kernel/security/seclvl/level
batch info 'uname -r; cat /sys/kernel/security/lsm; echo' \
	level "grep -qx $level $level_file" \
	bpf_out '! test -e /sys/fs/bpf/seclvl' \
	seclvlctl "seclvlctl --json | grep -q '\"level\": $level,'"
echo "# $(batched info | tr '\n' ' ')" >&3
if [ "$backend" = lsm ]; then
	check "the in-tree LSM is at level $level" batched level
	check "the BPF backend stayed out (its unit's condition)" batched bpf_out
else
	check "the BPF backend is at level $level" batched level
fi
check "seclvlctl reports level $level" batched seclvlctl
# Every check in one session: a login costs seconds under TCG.
stamp "checks.sh"
expect ssh_login "a key login as alice" as alice true
# user_cron alone may wait three minutes for cron's next minute.
as_timeout=400 as alice 'bash -s' < "$TOP/harness/guest/debian/checks.sh" > "$out/checks.out" 2>&1
stamp "checks.sh done"
sed -n 's/^INFO /# /p' "$out/checks.out" >&3
for c in sudo user_service user_cron dpkg_install dpkg_setuid_file ip_link_add \
	 module_autoload clock_back protected_units private_tmp_unit; do
	got=$(awk -v c="$c" '$1 == "RESULT" && $2 == c { print $3 }' "$out/checks.out")
	want=$(promise "$c")
	case $want/$got in
	works/0) tap ok "$c works" ;;
	refused/1) tap ok "$c is refused" ;;
	*)
		tap "not ok" "$c: promised '$want', got '${got:-nothing}'"
		awk -v c="$c" '$1 == "RESULT" { on = ($2 == c) } on' "$out/checks.out" |
			sed 's/^/# /' | head -n 10 >&3
		;;
	esac
done
check "  and the set-uid file is there exactly when dpkg was allowed" \
	grep -qx "INFO setuid-file-mode $([ "$(promise dpkg_setuid_file)" = works ] && echo 4755 || echo absent)" \
	"$out/checks.out"
[ "$level" -gt 0 ] &&
	check "the admin guide's journalctl -k | grep seclvl finds the refusals" \
		grep -q '^INFO journal-refusals [1-9]' "$out/checks.out"
# in_journal PATTERN [COUNT [BOOT]]: the command for batch that the kernel
# log of this boot (of all boots with BOOT=all) has it, COUNT times;
# seclvl-bpf log writes it there a moment after the fact.
in_journal() {
	local boot=-b
	[ "${3:-}" = all ] && boot=
	echo "for i in \$(seq 1 15); do
		[ \$(journalctl $boot _TRANSPORT=kernel --no-pager | grep -cE '$1') -ge ${2:-1} ] && exit 0
		sleep 1
	done; exit 1"
}
# The other backend's units are skipped by their conditions, quietly.
journal=(deps "! journalctl -b --no-pager | grep 'Dependency failed for seclvl'")
[ "$level" -gt 0 ] &&
	journal+=(raise "$(in_journal "level changed from 0 to $level")"
		  autoload "$(in_journal 'seclvl(-bpf)?: denied modules at level')"
		  setid "$(in_journal 'seclvl(-bpf)?: denied setid_bits at level')"
		  log 'seclvlctl log' log_json 'seclvlctl log --json')
# auditd's records of the in-tree LSM (Debian 13's image has auditd).
audit=0
[ "$level" -gt 0 ] && [ "$backend" = lsm ] && [ "$release" = trixie ] && audit=1
[ "$audit" = 1 ] &&
	journal+=(audit_raw 'ausearch -m 1427,1428' audit 'ausearch -m 1427,1428 -i'
		  audit_journal 'journalctl -b _TRANSPORT=audit _AUDIT_TYPE=1427 -o verbose --no-pager')
batch "${journal[@]}"
# seclvlctl log --json: the raise and the refused autoload, as this
# backend's, in a JSON array.
log_json_has() {
	python3 -c '
import json, sys
events = json.load(sys.stdin)
backend, level = sys.argv[1], int(sys.argv[2])
mine = [e for e in events if e["backend"] == backend]
sys.exit(not (any(e["event"] == "level" and e["to"] == level for e in mine) and
	      any(e["event"] == "denied" and e["restriction"] == "modules" and
		  e["level"] == level and e["pid"] > 0 and e["comm"] for e in mine)))' \
		"$backend" "$level" < "$out/seclvlctl-log.json"
}
if [ "$level" -gt 0 ]; then
	# Each form's output, checked here and kept for the reader.
	batched log > "$out/seclvlctl-log.txt"
	batched log_json > "$out/seclvlctl-log.json"
	check "the raise to $level is in the journal" batched raise
	check "the journal has the refused autoload, with its restriction" batched autoload
	check "  and the refused set-uid file" batched setid
	check "seclvlctl log lists the raise and the refusals, as $backend's" bash -c \
		"grep -qE '^[0-9T:.-]+Z  $backend  level changed from 0 to $level' '$out/seclvlctl-log.txt' &&
		 grep -qE '^[0-9T:.-]+Z  $backend  denied modules at level $level: ' '$out/seclvlctl-log.txt'"
	check "  and --json the same" log_json_has
fi
if [ "$audit" = 1 ]; then
	batched audit_raw > "$out/audit.log"
	batched audit > "$out/audit.txt"
	batched audit_journal > "$out/audit-journal.txt"
	check "auditd has the raise, as SECLVL_CONFIG_CHANGE (ausearch -m 1428)" grep -qE \
		"^type=UNKNOWN\[1428\] msg=audit\([0-9.:]+\): lsm=seclvl op=set_level old_level=0 new_level=$level origin=write ppid=[0-9]+ pid=[0-9]+ .* comm=\"seclvlctl\" exe=\"[^\"]+\" .*res=1" \
		"$out/audit.log"
	check "  and the profile's policy rows" grep -qE \
		"^type=UNKNOWN\[1428\] .*: lsm=seclvl op=set_policy restriction=setuid old=1 new=off .*res=1" \
		"$out/audit.log"
	check "  and the refused autoload, as SECLVL_ACCESS (ausearch -m 1427)" grep -qE \
		"^type=UNKNOWN\[1427\] .*: lsm=seclvl restriction=modules level=$level operation=(\"[^\"]*\"|[0-9A-F]+) ppid=[0-9]+ pid=[0-9]+ auid=[0-9]+ uid=0 .* comm=\"[^\"]+\" exe=\"[^\"]+\" .*res=0" \
		"$out/audit.log"
	check "  and ausearch -i shows what was tried, as the log line does" bash -c \
		"grep -oE 'denied modules at level $level: [^(]+' '$out/seclvlctl-log.txt' | head -n 1 |
			sed -e 's/^denied modules at level $level: //' -e 's/ \$//' > '$out/op.txt' &&
		 grep -qF \"restriction=modules level=$level operation=\$(cat '$out/op.txt') \" '$out/audit.txt'"
	check "journald has the records too, with their fields" bash -c \
		"grep -q '_AUDIT_FIELD_RESTRICTION=modules' '$out/audit-journal.txt' &&
		 grep -q '_AUDIT_FIELD_LEVEL=$level' '$out/audit-journal.txt' &&
		 grep -q '_AUDIT_FIELD_OPERATION=' '$out/audit-journal.txt' &&
		 grep -q '_COMM=' '$out/audit-journal.txt'"
fi
check "seclvl.service logged seclvlctl check's findings before the raise" \
	grep -q '^INFO preflight [1-9]' "$out/checks.out"
check "no seclvl unit failed for a dependency" batched deps
stamp "journal checks done"
# All of alice's sessions have ended: systemd stops her user manager and
# unmounts /run/user/1000 (user-runtime-dir@1000), after UserStopDelaySec
# (10 s): looked for from inside, for half a minute, not slept through.
relogin() {
	as root 'for i in $(seq 1 30); do
			! systemctl is-failed -q user-runtime-dir@1000.service &&
				! findmnt /run/user/1000 >/dev/null && exit 0
			sleep 1
		done; exit 1' && as alice true
}
expect relogin "logging out (/run/user/1000 unmounted) and in again" relogin
batch running 'systemctl is-system-running && [ -z "$(systemctl --failed --no-legend)" ]' \
	failed 'systemctl --failed --no-legend'
expect system_running "systemctl is-system-running, nothing failed" batched running
batched failed | sed 's/^/# failed: /' >&3
stamp "relogin, system_running done"

if [ "$level" = 2 ]; then
	as root 'systemctl reboot' >/dev/null 2>&1
	sleep 10
	check "systemctl reboot at level 2 finishes and the system comes back" wait_up 900
	stamp "up again"
	batch raises "$(in_journal 'level changed from 0 to 2' 2 all)" \
		clean '! journalctl -b 0 --no-pager | grep -iE "uncleanly|corrupt"'
	check "the journal has both boots' raises" batched raises
	check "  and no file of it was corrupt or left open" batched clean
fi
as root 'systemctl poweroff' >/dev/null 2>&1
stamp poweroff
check "systemctl poweroff finishes" wait_down 300
check "the host's e2fsck -fn finds the disk clean" e2fsck -fn "$disk"
echo "# shutdown: $(grep -c 'Failed unmounting' "$out/console.log") 'Failed unmounting' lines" >&3
finish
