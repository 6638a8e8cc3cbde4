# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the scenario scripts, sourced by /init.  Results are TAP lines
# on fd 3 (the second serial port); the host counts them.
exec 3>/dev/ttyS1
# Init has started: boot.sh boots again a guest that never gets here.
echo "# kernel: $(uname -r)" >&3
echo "# init: scenario ${scenario:-none}" >&3

SECLVL=/sys/kernel/security/seclvl
# The in-tree LSM's files; stock_setup points them at the BPF backend's.
LEVEL_FILE=$SECLVL/level
POLICY_FILE=$SECLVL/policy

ok() { echo "ok - $*" >&3; }
notok() { echo "not ok - $*" >&3; }

# check DESCRIPTION COMMAND...: one TAP line; the output goes along on failure.
check() {
	desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		ok "$desc"
	else
		notok "$desc"
		sed 's/^/# /' /tmp/check.out >&3
	fi
}

# expect_exit CODE COMMAND...: run it, keep stdout and stderr in
# /tmp/ctl.{out,err}, check the exit code; out_has/err_has check the text.
expect_exit() {
	want=$1
	shift
	"$@" >/tmp/ctl.out 2>/tmp/ctl.err
	got=$?
	if [ "$got" = "$want" ]; then
		ok "'$*' exits $want"
	else
		notok "'$*' exits $want (got $got)"
		sed 's/^/# /' /tmp/ctl.out /tmp/ctl.err >&3
	fi
}
out_has() { check "  and prints '$1'" grep -q -- "$1" /tmp/ctl.out; }
err_has() { check "  and says '$1'" grep -q -- "$1" /tmp/ctl.err; }

# prom_valid FILE: Prometheus's text exposition format, as node_exporter's
# textfile collector reads it: HELP and TYPE once per metric and before its
# samples, a metric's samples together, names and labels well formed,
# numeric values, counters named *_total, no series twice, a final newline.
prom_valid() {
	[ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ] || { echo "empty or no final newline"; return 1; }
	awk '
	function fail(why) { print "line " NR ": " why ": " $0; bad = 1; exit 1 }
	/^# HELP / {
		if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) fail("bad metric name")
		if (help[$3]++ || seen[$3]) fail("HELP twice or after samples")
		next
	}
	/^# TYPE / {
		if (NF != 4 || $4 !~ /^(counter|gauge|histogram|summary|untyped)$/) fail("bad TYPE")
		if ($3 in type || seen[$3]) fail("TYPE twice or after samples")
		type[$3] = $4
		next
	}
	/^#/ { next }
	{
		if (!match($0, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) fail("no metric name")
		name = substr($0, 1, RLENGTH)
		rest = substr($0, RLENGTH + 1)
		series = name
		if (rest ~ /^[{]/) {
			if (!match(rest, /^[{][a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*[}]/))
				fail("bad labels")
			series = name substr(rest, 1, RLENGTH)
			rest = substr(rest, RLENGTH + 1)
		}
		if (rest !~ /^ (-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?|NaN|[-+]Inf)( -?[0-9]+)?$/)
			fail("bad value")
		if (!(name in type)) fail("sample before its TYPE")
		if (type[name] == "counter" && name !~ /_total$/) fail("counter not named _total")
		if (dup[series]++) fail("series twice")
		if (name != last && seen[name]) fail("samples of one metric apart")
		seen[name] = 1
		last = name
		samples++
	}
	END { if (!bad && !samples) { print "no samples"; exit 1 } exit bad }' "$1"
}

prom_invalid() { ! prom_valid "$1" >/dev/null; }

level() { cat $LEVEL_FILE; }
level_is() { [ "$(level)" = "$1" ]; }
log_has() { dmesg | grep -q -- "$1"; }
# seclvl's audit records, as kauditd prints them to the kernel log while
# no auditd listens.  audit_has TYPE FIELDS RES: a record of TYPE (1427,
# SECLVL_ACCESS; 1428, SECLVL_CONFIG_CHANGE) whose fields after lsm=seclvl
# start with FIELDS, then the task's, then res=RES, within 3 s.
AUDIT_TASK=' ppid=[0-9]* pid=[0-9]* auid=[0-9]* uid=[0-9]* gid=[0-9]* euid=[0-9]* suid=[0-9]* fsuid=[0-9]* egid=[0-9]* sgid=[0-9]* fsgid=[0-9]* ses=[0-9]* comm=[^ ]* exe=[^ ]*.* res='
audit_has() { log_soon "audit: type=$1 audit([0-9.:]*): lsm=seclvl $2$AUDIT_TASK$3\$"; }
# Each refusal logged has one SECLVL_ACCESS record with the same
# restriction, level and text (hex-decoded where it had to be), and each
# record one line; there is at least one.  (The record's pid is the
# process's, the line's the thread's: an io_uring worker's differ.)
# kauditd prints after the fact: a second is allowed for the last records.
audit_matches_log() {
	audit_match >/dev/null || { sleep 1; audit_match; }
}
audit_match() {
	dmesg | awk '
	function unhex(s,   i, out) {
		if (s ~ /^".*"$/)
			return substr(s, 2, length(s) - 2)
		out = ""
		for (i = 1; i < length(s); i += 2)
			out = out sprintf("%c", (index(H, substr(s, i, 1)) - 1) * 16 + \
					   index(H, substr(s, i + 1, 1)) - 1)
		return out
	}
	BEGIN { H = "0123456789ABCDEF" }
	/seclvl: denied [a-z_]* at level [0-9]: / {
		line = $0
		sub(/.*seclvl: denied /, "", line)
		r = line; sub(/ .*/, "", r)
		l = line; sub(/^[a-z_]* at level /, "", l); sub(/:.*/, "", l)
		t = line; sub(/^[a-z_]* at level [0-9]: /, "", t)
		sub(/ \(pid [0-9]* comm .*$/, "", t)
		logged[r "|" l "|" t]++
	}
	/audit: type=1427 .* lsm=seclvl restriction=[a-z_]* level=[0-9] operation=/ {
		r = ""; l = ""; o = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^restriction=/) r = substr($i, 13)
			else if ($i ~ /^level=/) l = substr($i, 7)
			else if ($i ~ /^operation=/) o = unhex(substr($i, 11))
		}
		recorded[r "|" l "|" o]++
		n++
	}
	END {
		for (k in logged)
			if (logged[k] != recorded[k]) {
				print logged[k] " lines, " recorded[k] + 0 " records: " k
				bad = 1
			}
		for (k in recorded)
			if (!(k in logged)) {
				print "0 lines, " recorded[k] " records: " k
				bad = 1
			}
		print n + 0 " records"
		exit bad || !n
	}'
}
fails_with_eperm() { ! "$@" 2>/tmp/err.out && grep -q 'not permitted' /tmp/err.out; }

# Run one kselftest program; its TAP lines count.  A program that dies
# before its totals line counts as a failure of its own.
run_selftest() {
	prog=/selftests/$1
	shift
	echo "# running $prog $* at level $(level)" >&3
	SECLVL_EXPECT_LEVEL=$(level) "$prog" "$@" >/tmp/selftest.out 2>&1
	rc=$?
	cat /tmp/selftest.out >&3
	grep -q '^# Totals:' /tmp/selftest.out ||
		notok "$prog did not finish (exit $rc)"
}

# What the tests need that only level 0 allows making.  The host made the
# flagged and set-id files on the disk already.
prepare() {
	mkdir -p /mnt/disk /run/seclvl
	check "mount the virtio disk's first partition" \
		mount -t ext4 /dev/vda1 /mnt/disk
	mkdir -p /mnt/scsi /mnt/nvme
	check "mount the SCSI and NVMe disks" sh -c \
		'mount -t ext4 /dev/sda /mnt/scsi && mount -t ext4 /dev/nvme0n1 /mnt/nvme'
	# XFS (made by the host) for its swap of extents: a set-uid file and
	# a file of the same size to swap it with.
	mkdir -p /mnt/xfs
	check "mount the XFS disk, make a set-uid file on it" sh -c \
		'mount -t xfs /dev/vdc /mnt/xfs && echo data > /mnt/xfs/suid &&
		 chmod 4755 /mnt/xfs/suid && echo DATA > /mnt/xfs/other'
	check "mount a tmpfs without nosuid (for the idmapped mount test)" sh -c \
		'mkdir -p /run/seclvl/suid-mnt && mount -t tmpfs seclvl-suid /run/seclvl/suid-mnt'
	check "mount debugfs and configfs" sh -c \
		'mount -t debugfs -o nosuid debugfs /sys/kernel/debug &&
		 mount -t configfs -o nosuid configfs /sys/kernel/config'
	# A zoned disk of four 1 MiB zones, named by its configfs directory,
	# with a block written in its first zone now, at level 0.
	check "make a zoned null_blk disk, write its first block" sh -c \
		'd=/sys/kernel/config/nullb/zoned0 && mkdir $d &&
		 echo 4 > $d/size && echo 1 > $d/zone_size && echo 1 > $d/zoned &&
		 echo 1 > $d/memory_backed && echo 1 > $d/power &&
		 dd if=/dev/urandom of=/dev/zoned0 bs=4096 count=1 oflag=direct conv=notrunc'
	# binfmt_misc, where the kernel has it (not the small kernel), with an
	# interpreter registered now, which every level may remove.
	grep -qw binfmt_misc /proc/filesystems &&
		mount -t binfmt_misc -o nosuid binfmt_misc /proc/sys/fs/binfmt_misc &&
		echo ':seclvlprep:E::seclvlprep::/bin/true:' \
			> /proc/sys/fs/binfmt_misc/register
	for f in clear-suid chown-suid write-suid mmap-suid dormant-suid acl-sgid; do
		echo data > /run/seclvl/$f
	done
	chmod 4755 /run/seclvl/clear-suid /run/seclvl/write-suid /run/seclvl/mmap-suid
	chmod 6755 /run/seclvl/chown-suid
	chmod 4644 /run/seclvl/dormant-suid
	chmod 2644 /run/seclvl/acl-sgid
	# Programs with file capabilities (cap_net_raw+ep), as setcap makes.
	for f in write-fcaps mmap-fcaps dormant-fcaps acl-fcaps acl-noexec-fcaps; do
		echo data > /run/seclvl/$f
	done
	chmod 755 /run/seclvl/write-fcaps /run/seclvl/mmap-fcaps
	chmod 700 /run/seclvl/dormant-fcaps /run/seclvl/acl-fcaps \
		/run/seclvl/acl-noexec-fcaps
	check "give five files capabilities at level 0" \
		/selftests/seclvl/setcap_helper /run/seclvl/write-fcaps \
		/run/seclvl/mmap-fcaps /run/seclvl/dormant-fcaps /run/seclvl/acl-fcaps \
		/run/seclvl/acl-noexec-fcaps
	check "load ${SECLVL_MOD_UNLOAD:-seclvl_test_unload} at level 0" \
		insmod /lib/seclvl/${SECLVL_MOD_UNLOAD:-seclvl_test_unload}.ko
	dd if=/dev/zero of=/run/seclvl/loop0.img bs=64k count=16 2>/dev/null
	dd if=/dev/zero of=/run/seclvl/loop1.img bs=64k count=64 2>/dev/null
	mke2fs -q -F /run/seclvl/loop1.img >/dev/null 2>&1
	# loop4's backing file is on ext4, for ext4's move of extents.
	dd if=/dev/zero of=/mnt/nvme/loop4.img bs=64k count=4 2>/dev/null
	check "attach the loop devices" sh -c \
		'losetup /dev/loop0 /run/seclvl/loop0.img &&
		 losetup /dev/loop1 /run/seclvl/loop1.img &&
		 losetup /dev/loop4 /mnt/nvme/loop4.img'
	hold_descriptors
}

# A process that keeps descriptors opened now, at level 0, for the tests of
# old descriptors (common.h, enum held_fd: 3 /dev/mem, 4 a debugfs file,
# 5 /proc/1/mem, 6 a network sysctl, 7 the ftrace switch or /dev/null,
# 8 the mounted /dev/vda1 open for writing, 9 a set-uid file, 10 loop4's
# backing file, 11 /dev/snapshot for writing or /dev/null, 12 the zoned
# disk, 13 a set-uid file on XFS, 14 a file with capabilities).
hold_descriptors() {
	ftrace=/proc/sys/kernel/ftrace_enabled
	[ -e $ftrace ] || ftrace=/dev/null
	snapshot=/dev/snapshot
	grep -qw disk /sys/power/state || snapshot=/dev/null
	sh -c "exec 3<>/dev/mem 4>/sys/kernel/debug/fault_around_bytes \
		5<>/proc/1/mem 6>/proc/sys/net/ipv4/ip_forward 7>$ftrace \
		8<>/dev/vda1 9<>/run/seclvl/mmap-suid 10<>/mnt/nvme/loop4.img \
		11>$snapshot 12<>/dev/zoned0 13<>/mnt/xfs/suid \
		14<>/run/seclvl/mmap-fcaps;
		exec sleep 1000000" &
	echo $! > /run/seclvl/holder.pid
	# A user's namespace, for the test of the host's root joining it.
	: > /run/seclvl/userns.pid
	chmod 666 /run/seclvl/userns.pid
	/selftests/seclvl/userns_helper /run/seclvl/userns.pid &
	sleep 1
	check "a process holds descriptors opened at level 0" \
		sh -c 'ls -l /proc/$(cat /run/seclvl/holder.pid)/fd/ | grep -q ip_forward &&
		       [ -e /proc/$(cat /run/seclvl/holder.pid)/fd/14 ]'
}

# The selftests each level's scenario runs, with bpf_test under the BPF
# backend.
run_suites() {
	run_selftest seclvl/interface_test
	run_selftest seclvl/restrictions_test
	run_selftest seclvl/bypass_test
	run_selftest seclvl/modules_test
	[ "$LEVEL_FILE" = "$SECLVL/level" ] || run_selftest seclvl/bpf_test
}

# At level 2 the disk takes writes, cannot be unmounted, can be remounted
# read-only; the host checks it afterwards (test.sh).
level2_disk() {
	check "write a file at level 2" \
		sh -c 'echo written-at-level-2 > /mnt/disk/level2-file && sync'
	check "unmounting the disk is refused at level 2" fails_with_eperm umount /mnt/disk
	check "remounting it read-only is not" mount -o remount,ro /mnt/disk
	check "level is still 2" level_is 2
}

# The seed's policy, so that tests which read the policy expect the right
# thing: a wrong table cannot make them pass.
default_policy() {
	check "the policy is the seed's default" sh -c "awk '{ print \$1, \$2 }' $POLICY_FILE |
		tr '\n' ' ' | grep -qx 'ptrace_init 1 immutable 1 rawio 1 net_admin 1 setuid 1 modules 1 mounted_blockdev_write 1 devmem_write 1 setid_bits 1 time_backward 2 blockdev_write 2 umount 2 kexec 1 suid_mount 1 lockdown_integrity 1 lockdown_confidentiality off '"
}

# raise VALUE FILE: raise the level through one of its interfaces.
raise() {
	check "raise to $1 through $2" sh -c "echo $1 > $2"
	check "level reads $1 after the raise" level_is "$1"
	check "kernel logged the change to $1" log_has "level changed from .* to $1 by write"
}

# Debian's stock kernel and the BPF backend (make test's stock* scenarios):
# the modules the tests need, in dependency order, bpffs, and the backend's
# views in place of securityfs.  The backend itself is loaded by the scenario.
stock_setup() {
	for m in $(cat /lib/stock/order); do
		insmod /lib/stock/$m.ko || notok "insmod $m"
	done
	mount -t bpf -o nosuid,nodev,noexec bpf /sys/fs/bpf
	export SECLVL_MOD_LOAD=nls_cp860 SECLVL_MOD_UNLOAD=nls_cp861
	export SECLVL_LIST_finit=nls_cp437 SECLVL_LIST_init=nls_cp737 \
		SECLVL_LIST_xz=nls_cp775 SECLVL_LIST_modified=nls_cp850 \
		SECLVL_LIST_unlisted=nls_cp852 SECLVL_LIST_autoload=minix \
		SECLVL_AUTOLOAD_FS=minix
	LEVEL_FILE=/sys/fs/bpf/seclvl/level
	POLICY_FILE=/sys/fs/bpf/seclvl/policy
	echo "# stock kernel $(uname -r), LSMs $(cat /sys/kernel/security/lsm)" >&3
}

# log_soon PATTERN: in the kernel log within 3 s (seclvl-bpf log writes
# it there after the fact).
log_soon() {
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		log_has "$1" && return 0
		sleep 0.2
	done
	return 1
}

# The BPF backend's logger, as seclvl-bpf-log.service runs it; once loaded.
bpf_logger() {
	[ -n "${BPF_LOGGER:-}" ] && return 0
	seclvl-bpf log 2>/tmp/bpf-log.err &
	BPF_LOGGER=$!
	sleep 0.2
	check "seclvl-bpf log is running" kill -0 "$BPF_LOGGER"
}

# raise_bpf VALUE: raise the BPF backend's level with seclvl-bpf.
raise_bpf() {
	bpf_logger
	check "seclvl-bpf raise $1" seclvl-bpf raise "$1"
	check "level reads $1 after the raise" level_is "$1"
	check "the raise was logged" \
		log_soon "seclvl-bpf: level changed from .* to $1 (pid [0-9]* comm seclvl-bpf)"
}

# raise_bpf_at_once VALUE: raise with seclvl-bpf, seclvlctl and a read of
# the raise iterator at the same time, as boot scripts might; each tool
# attaches the hook programs before it raises, and the level goes up only
# once all are attached.
raise_bpf_at_once() {
	bpf_logger
	seclvl-bpf raise "$1" >/tmp/r1.out 2>&1 & r1=$!
	seclvlctl raise "$1" >/tmp/r2.out 2>&1 & r2=$!
	seclvl-bpf raise "$1" >/tmp/r3.out 2>&1 & r3=$!
	cat /sys/fs/bpf/seclvl/raise$1 >/tmp/r4.out 2>&1 & r4=$!
	wait $r1; e1=$?; wait $r2; e2=$?; wait $r3; e3=$?; wait $r4
	check "seclvl-bpf raise $1, twice, and seclvlctl raise $1 at once" \
		sh -c "[ $e1$e2$e3 = 000 ] || { cat /tmp/r[123].out; exit 1; }"
	check "  and a read of raise$1 at once prints 0 or -ENOLINK" \
		grep -qx -- '0\|-67' /tmp/r4.out
	check "level reads $1 after the raise" level_is "$1"
	expect_exit 0 seclvl-bpf status
	check "  and every hook program is attached" \
		grep -qx 'hooks: \([0-9]*\) of \1 attached' /tmp/ctl.out
	# What the kernel lacks, per restriction: 6.1 has no file_post_open.
	case $(uname -r) in
	6.1.*)
		out_has "^partial: blockdev_write, mounted_blockdev_write: "
		expect_exit 0 seclvlctl
		out_has "^partial on this kernel: mounted_blockdev_write: a disk opened for writing is refused at its first write"
		expect_exit 0 seclvlctl --json
		out_has '"name": "blockdev_write", [^}]*, "partial": "a disk opened for writing'
		;;
	*)
		check "  and nothing is partial on $(uname -r)" \
			sh -c '! grep -q "^partial:" /tmp/ctl.out'
		expect_exit 0 seclvlctl --json
		check "  and seclvlctl finds nothing partial" \
			sh -c '! grep -q "partial" /tmp/ctl.out'
		;;
	esac
	check "the raise was logged once" sh -c "sleep 1; [ \$(dmesg |
		grep -c 'seclvl-bpf: level changed from 0 to $1 (pid') = 1 ]"
}

# A shutdown as an init system does it: unmount, and where that is refused,
# remount read-only so that the filesystem is clean.
finish() {
	sync
	for m in $(awk '$1 ~ "^/dev/vd" { print $2 }' /proc/mounts); do
		umount "$m" 2>/dev/null || mount -o remount,ro "$m"
	done
	echo "SECLVL-DONE" >&3
	sync
	reboot -f
}
