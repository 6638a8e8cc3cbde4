#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot every scenario once, check the guests' logs and disks, and print the
# summary.  Ends with one line "N passed, N failed"; exits 1 on any failure.
set -uo pipefail
. "$(dirname "$0")/common.sh"

# scenario|kernel arguments[|stock: Debian's kernel and the BPF backend;
# stock:KERNEL: another of stock_kernels, the scenario's name ending in
# -KERNEL; 7.3: the test kernel built from 7.3 (make kernel-7.3), the
# name ending in -7.3]
scenarios=(
	"level0|"
	"level-1|seclvl.level=-1"
	"level1|"
	"level2|"
	"boot2|seclvl.level=2"
	"bootbad|seclvl.level=2 seclvl.level=abc"
	"policy|"
	"modules|"
	"escape|"
	"lsm_off|lsm=landlock,yama"
	"seclvlctl|"
	"bootconf|"
	"stock0||stock"
	"stock-1||stock"
	"stock1||stock"
	"stock2||stock"
	"stock_nobpf|lsm=landlock,lockdown,yama,apparmor|stock"
	"stock-modules|syscall.x32=y|stock"
	"stock1-deb13||stock:deb13"
	"stock2-deb13||stock:deb13"
	"stock-modules-deb13|syscall.x32=y|stock:deb13"
	"stock1-6.1||stock:6.1"
	"stock2-6.1||stock:6.1"
	"stock-modules-6.1|syscall.x32=y|stock:6.1"
	"stock1-7.3||stock:7.3"
	"stock2-7.3||stock:7.3"
	"stock-modules-7.3||stock:7.3"
	"level0-7.3||7.3"
	"level1-7.3||7.3"
	"level2-7.3||7.3"
	"tiny||tiny"
	"debian-lsm-2||debian"
	"debian12-lsm-1||debian"
	"debian-lsm-1||debian"
	"debian-lsm-0||debian"
	"debian-lsm-strict||debian"
	"debian-bpf-0||debian"
	"debian-bpf-1||debian"
	"debian-bpf-2||debian"
	"debian-bpf-strict||debian"
	"debian12-bpf-1||debian"
)
# The 7.3 test kernel's tree, build and guest.
read -r src73 kout73 guest73 < <(use_kernel 7.3; echo "$SRC $KOUT $GUEST")
if [ -n "${SECLVL_SCENARIOS:-}" ]; then
	IFS=' ' read -r -a only <<< "$SECLVL_SCENARIOS"
	picked=()
	for s in "${scenarios[@]}"; do
		for o in "${only[@]}"; do [ "${s%%|*}" = "$o" ] && picked+=("$s"); done
	done
	scenarios=("${picked[@]}")
fi

# What must never appear in a guest's kernel log.
bad_kernel='BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|possible recursive locking|circular locking dependency|inconsistent lock state|possible irq lock inversion|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|lock held when returning|sleeping function called from invalid context|INFO: task .* blocked|general protection fault|Call Trace:|RCU stall'

pass=0 fail=0 skip=0
failures=() excerpts=()
host_ok() { pass=$((pass + 1)); }
host_fail() { fail=$((fail + 1)); failures+=("$1"); }
host_check() { # DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then host_ok; else host_fail "$d"; fi
}

# Count TAP lines: top level from the selftests and checks, or KUnit's.
count_tap() { # FILE SCENARIO [INDENT-REGEX]
	local file=$1 name=$2 re=${3:-}
	local p f s
	p=$(tr -d '\r' < "$file" | sed -E 's/^\[ *[0-9.]+\] //' |
		grep -E "^${re}ok " | grep -vcE '# (SKIP|skip)')
	s=$(tr -d '\r' < "$file" | sed -E 's/^\[ *[0-9.]+\] //' |
		grep -E "^${re}(not )?ok " | grep -cE '# (SKIP|skip)')
	f=$(tr -d '\r' < "$file" | sed -E 's/^\[ *[0-9.]+\] //' |
		grep -E "^${re}not ok " | grep -vcE '# (SKIP|skip)')
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	while IFS= read -r line; do
		failures+=("$name: $line")
	done < <(tr -d '\r' < "$file" | sed -E 's/^\[ *[0-9.]+\] //' |
		 grep -E "^${re}not ok " | grep -vE '# (SKIP|skip)')
}

# How far a guest is: results so far and the last one.
guest_status() { # (the boot log is unused: the guest's results are)
	local r=$out/results.log n last
	[ -f "$r" ] || { printf 'booting'; return 0; }
	n=$(tr -d '\r' < "$r" | grep -cE '^(not )?ok ')
	last=$(tr -d '\r' < "$r" | grep -E '^(not )?ok |^# [A-Za-z]' | tail -n 1 | cut -c1-60)
	[ "$n" -eq 0 ] && { printf 'booting'; return 0; }
	printf '%d results, last: %s' "$n" "$last"
}

# The debian-* scenarios spend much of their time waiting on a guest's
# network, cron and timers: they run in the order listed (the slow ones,
# on the in-tree kernel, first), one beside the other guests from the
# start, two at once when their turn comes (pid files, since a wait runs
# in progress()'s subshell).
debian_queue=()
for s in "${scenarios[@]}"; do
	[ "${s##*|}" = debian ] && debian_queue+=("${s%%|*}")
done
# The filler below writes there before any scenario has made it.
mkdir -p "$BUILD/results"
rm -f "$BUILD"/results/debian*.pid
debian_running() { # NAME
	[ -f "$BUILD/results/$1.pid" ] && kill -0 "$(cat "$BUILD/results/$1.pid")" 2>/dev/null
}
debian_fill() { # [MAX]: start queued ones while fewer than MAX (2) run
	local s running=0 max=${1:-2}
	for s in "${debian_queue[@]}"; do
		debian_running "$s" && running=$((running + 1))
	done
	for s in "${debian_queue[@]}"; do
		[ "$running" -ge "$max" ] && break
		[ -f "$BUILD/results/$s.pid" ] && continue
		"$TOP/harness/debian-test.sh" "$s" > "$BUILD/results/$s.run.log" 2>&1 &
		echo $! > "$BUILD/results/$s.pid"
		running=$((running + 1))
	done
}
debian_wait() { # NAME
	debian_fill
	while debian_running "$1"; do
		sleep 2
		debian_fill
	done
}

# One of them runs on the second core while the others boot on the first.
filler=
if [ ${#debian_queue[@]} -gt 0 ]; then
	( while :; do debian_fill 1; sleep 5; done ) &
	filler=$!
	trap 'kill "$filler" 2>/dev/null' EXIT
fi

# make patch and make install KSRC=, against fresh trees of each kernel:
# started beside the last Debian scenarios, which leave a core free.
series_pids=()
start_series() {
	local kv

	[ ${#series_pids[@]} -eq 0 ] || return 0
	say "the patch series for 7.3 and 6.12 and make install (beside the rest)"
	for kv in 7.3 6.12; do
		env SECLVL_KVER=$kv "$TOP/harness/check-series.sh" \
			> "$BUILD/results/series-$kv.log" 2>&1 &
		series_pids+=("$!")
	done
}

for entry in "${scenarios[@]}"; do
	IFS='|' read -r name args kernel <<< "$entry"
	[ "$kernel" = debian ] && start_series
	if [ "$kernel" = debian ] && [ -n "$filler" ]; then
		kill "$filler"
		wait "$filler" 2>/dev/null
		filler=
	fi
	on= script=$name
	if [ "${kernel%%:*}" = stock ]; then
		dir=$STOCK
		if [ "$kernel" != stock ]; then
			dir=$(stock_dir "${kernel#stock:}")
			script=${name%-"${kernel#stock:}"}
		fi
		on=" on Debian $(cat "$dir/version")"
	fi
	if [ "$kernel" = 7.3 ]; then
		script=${name%-7.3}
		on=" on Linux $(kernel_version "$src73")"
	fi
	[ "$kernel" = debian ] && on=" (Debian $([ "${name%%-*}" = debian12 ] && echo 12 || echo 13) with systemd, $([ "${name##*-}" = strict ] &&
		echo strict || echo server) profile)"
	say "scenario $name${args:+ ($args)}$on"
	out=$BUILD/results/$name
	mkdir -p "$BUILD/results"
	boot_env=()
	[ "${kernel%%:*}" = stock ] &&
		boot_env=(SECLVL_KERNEL="$dir/vmlinuz" SECLVL_INITRD="$dir/initramfs.cpio"
			  SECLVL_RUN="$name")
	[ "$kernel" = 7.3 ] &&
		boot_env=(SECLVL_KERNEL="$kout73/arch/x86/boot/bzImage"
			  SECLVL_INITRD="$guest73/initramfs.cpio" SECLVL_RUN="$name")
	[ "$kernel" = tiny ] &&
		boot_env=(SECLVL_KERNEL="$BUILD/tiny/arch/x86/boot/bzImage"
			  SECLVL_INITRD="$BUILD/tiny/initramfs.cpio")
	if [ "$kernel" = debian ]; then
		mkdir -p "$out"
		progress "$name" "$BUILD/results/$name.boot.log" guest_status \
			debian_wait "$name" || true
	else
		# shellcheck disable=SC2086
		progress "$name" "$BUILD/results/$name.boot.log" guest_status \
			env "${boot_env[@]}" "$TOP/harness/boot.sh" "$script" $args || true
	fi
	before=$((pass + fail))
	[ ! -f "$out/hung-boot.log" ] ||
		say "$name: the first boot hung before init (QEMU's TCG), booted again: see $out/hung-boot.log"
	touch "$out/results.log" "$out/console.log"
	count_tap "$out/results.log" "$name"

	host_check "$name: the guest finished and powered off" \
		grep -q SECLVL-DONE "$out/results.log"
	[ "$(cat "$out/exit")" = 0 ] || host_fail "$name: qemu exit $(cat "$out/exit") (124: timeout)"
	if grep -aE "$bad_kernel" "$out/console.log" > "$out/bad.log"; then
		host_fail "$name: the kernel log has $(head -n 1 "$out/bad.log" | tr -d '\r')"
		# CI shows only the summary: keep where it happened and how.
		excerpts+=("$name:" "$(tr -d '\r' < "$out/console.log" |
			grep -aE -A 40 -m 1 "$bad_kernel" |
			grep -aE 'RIP:|Comm:|^\[ *[0-9.]+\]  [ ?]*[A-Za-z_][A-Za-z0-9_.]*\+0x' | head -n 14)")
	else
		host_ok
	fi

	if [ "$script" = level0 ]; then
		# KUnit ran at boot; every seclvl suite must have reported.
		count_tap "$out/console.log" "$name kunit" '    '
		want=$(cat "$TOP"/security/seclvl/*.c | grep -c '^kunit_test_suite(')
		got=$(tr -d '\r' < "$out/console.log" | grep -cE '\] (not )?ok [0-9]+ seclvl_')
		host_check "$name: kunit: $want seclvl suites reported (saw $got)" [ "$want" = "$got" ]
	fi
	if [ "$script" = level2 ] || [ "$script" = stock2 ]; then
		# The shutdown at level 2 remounted read-only: the disk is clean.
		dd if="$out/disk.img" of="$out/part1.img" bs=512 skip=2048 count=65536 status=none
		host_check "$name: fsck finds the filesystem clean after shutdown" \
			e2fsck -fn "$out/part1.img" > "$out/fsck.log" 2>&1
		host_check "$name: the file written at level 2 is on the disk" \
			bash -c "debugfs -R 'cat /level2-file' '$out/part1.img' 2>/dev/null | grep -qx written-at-level-2"
	fi
	if [ "$name" = tiny ]; then
		host_check "tiny: W=1 and sparse say nothing of security/seclvl: $(head -n 3 "$BUILD/tiny/warnings.log")" \
			[ ! -s "$BUILD/tiny/warnings.log" ]
	fi
	echo "   $name: $((pass + fail - before)) checks" >&2
done

start_series
i=0
for kv in 7.3 6.12; do
	start=$SECONDS
	if ! wait "${series_pids[$i]}"; then
		host_fail "series $kv: harness/check-series.sh failed (build/results/series-$kv.log)"
		tail -n 30 "$BUILD/results/series-$kv.log" | sed 's/^/   | /' >&2
	fi
	i=$((i + 1))
	echo "   series $kv: done ($(elapsed $((SECONDS - start))) waited)" >&2
	count_tap "$BUILD/results/series-$kv/results.log" "series $kv"
	host_check "series $kv: the checks finished" grep -q SECLVL-DONE "$BUILD/results/series-$kv/results.log"
done

# checkpatch --strict on our kernel files and on our patches.
cp_log=$BUILD/results/checkpatch.log
cp_files=$(cd "$TOP" && ls security/seclvl/*.[ch] tools/testing/selftests/seclvl/*.[ch] \
	tools/testing/selftests/seclvl/test_module/*.c tools/seclvl/*.c tools/seclvl/bench/*.c tools/seclvl/bpf/*.[ch] |
	grep -v '/vmlinux\.h$')
checkpatch() { (cd "$TOP" && perl "$SRC/scripts/checkpatch.pl" --no-tree --strict --terse -q "$@"); }
# Each kernel's patches with its own checkpatch.
# shellcheck disable=SC2086
if { checkpatch -f $cp_files && checkpatch "$TOP"/patches/*.patch &&
	(use_kernel 7.3 && checkpatch "$PATCHES"/*.patch); } > "$cp_log" 2>&1; then
	host_ok
else
	host_fail "checkpatch --strict: $(grep -m 1 -E 'ERROR|WARNING|CHECK' "$cp_log")"
fi

# The install targets, as an administrator runs them in a fresh copy of the
# sources (no build/ yet).
say "make seclvlctl, install-seclvlctl and install-seclvl-bpf in a fresh copy"
fresh=$BUILD/results/fresh
rm -rf "$fresh"
mkdir -p "$fresh/src"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
	grep -zv '^build/' | xargs -0 cp --parents -t "$fresh/src")
host_check "fresh copy: make seclvlctl" \
	make -s -C "$fresh/src" seclvlctl > "$fresh/make.log" 2>&1
host_check "fresh copy: build/seclvlctl runs" \
	bash -c "'$fresh/src/build/seclvlctl' --help > /dev/null"
make -s -C "$fresh/src" install-seclvlctl DESTDIR="$fresh/d1" > "$fresh/install1.log" 2>&1
host_check "install-seclvlctl: /etc/seclvl.conf is the server profile" \
	cmp -s "$fresh/d1/etc/seclvl.conf" "$TOP/tools/seclvl/profiles/server.conf"
echo "level 2" > "$fresh/d1/etc/seclvl.conf"
make -s -C "$fresh/src" install-seclvlctl DESTDIR="$fresh/d1" PROFILE=strict > "$fresh/install2.log" 2>&1
host_check "install-seclvlctl: an existing /etc/seclvl.conf is left as it is" \
	grep -qx 'level 2' "$fresh/d1/etc/seclvl.conf"
host_check "  and says so" grep -q 'exists: left as it is' "$fresh/install2.log"
make -s -C "$fresh/src" install-seclvlctl DESTDIR="$fresh/d2" PROFILE=strict > "$fresh/install3.log" 2>&1
host_check "install-seclvlctl PROFILE=strict installs the strict profile" \
	cmp -s "$fresh/d2/etc/seclvl.conf" "$TOP/tools/seclvl/profiles/strict.conf"
host_check "install-seclvlctl PROFILE=nosuch fails, names the profiles and installs nothing" \
	bash -c "! make -s -C '$fresh/src' install-seclvlctl DESTDIR='$fresh/d3' PROFILE=nosuch \
		> '$fresh/install4.log' 2>&1 && grep -q 'the profiles are server strict' \
		'$fresh/install4.log' && [ ! -e '$fresh/d3' ]"
# No kernel's BTF at build time: not even the build host's (hidden here).
host_check "fresh copy: make seclvl-bpf reads no kernel's BTF" \
	unshare -m bash -c "{ [ ! -d /sys/kernel/btf ] || mount -t tmpfs none /sys/kernel/btf; } &&
		make -s -C '$fresh/src' seclvl-bpf > '$fresh/bpf.log' 2>&1"
make -s -C "$fresh/src" install-seclvl-bpf DESTDIR="$fresh/d1" > "$fresh/bpf-install.log" 2>&1
host_check "install-seclvl-bpf installs what was built" \
	bash -c "cmp -s '$fresh/src/build/bpf/seclvl-bpf' '$fresh/d1/usr/local/sbin/seclvl-bpf' &&
		[ -f '$fresh/d1/usr/local/share/man/man8/seclvl-bpf.8' ]"
# The types kept in the tree are the reference kernel's, as the programs
# use them now: regenerated from Debian 12's 6.12, they are the same.
host_check "tools/seclvl/bpf/vmlinux.h is what make regen-vmlinux makes from $(cat "$STOCK/version")" \
	bash -c "make -s -C '$fresh/src/tools/seclvl/bpf' regen-vmlinux OUTPUT='$fresh' \
		BTF='$STOCK/vmlinux' > '$fresh/regen.log' 2>&1 &&
		cmp -s '$fresh/src/tools/seclvl/bpf/vmlinux.h' '$TOP/tools/seclvl/bpf/vmlinux.h'"

# The systemd unit passes systemd-analyze verify.
units=$BUILD/units
mkdir -p "$units"
make -s -C "$TOP/tools/seclvl" OUTPUT="$units" SBINDIR="$units" all
cp "$STOCK/bpf/seclvl-bpf" "$units/"
for unit in seclvl.service seclvl-bpf.service seclvl-bpf-log.service; do
	verify=$(cd "$units" && systemd-analyze verify --man=no "./$unit" 2>&1)
	host_check "systemd-analyze verify $unit: $verify" [ -z "$verify" ]
done

# The man pages render without a warning, with groff and with man -l.
for page in "$TOP"/tools/seclvl/*.[1-9] "$TOP"/tools/seclvl/bpf/*.[1-9]; do
	man_warn=$( (LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" &&
		LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" >/dev/null) 2>&1)
	host_check "$(basename "$page") renders cleanly: $man_warn" [ -z "$man_warn" ]
done

# The admin guide's Profiles table is the table the debian-* scenarios check.
table=$TOP/harness/guest/debian/server.table
guide_rows=$(awk 'NR == FNR { if ($1 !~ /^#/ && NF) want[$1] = 1; next }
	($1 in want) && $NF ~ /^(works|refused)$/ { print $1, $(NF - 2), $(NF - 1), $NF }' "$table" \
	"$TOP/Documentation/admin-guide/LSM/seclvl.rst")
host_check "the admin guide's server profile table is harness/guest/debian/server.table" \
	[ "$guide_rows" = "$(awk '$1 !~ /^#/ && NF { print $1, $2, $3, $4 }' "$table")" ]

# The admin guide and the design document are valid reStructuredText
# (docutils stops at a warning).
for rst in "$TOP"/Documentation/admin-guide/LSM/seclvl.rst \
	   "$TOP"/Documentation/security/seclvl.rst; do
	rst_warn=$(/usr/bin/python3 -c '
import sys, docutils.core
docutils.core.publish_file(source_path=sys.argv[1], destination_path="/dev/null",
	writer_name="null", settings_overrides={"halt_level": 2, "traceback": False})
' "$rst" 2>&1)
	host_check "${rst#"$TOP"/} has no reStructuredText warning: $rst_warn" [ -z "$rst_warn" ]
done

echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "Failures:"
	printf '  %s\n' "${failures[@]}"
	[ ${#excerpts[@]} -eq 0 ] || printf '%s\n' "Kernel reports:" "${excerpts[@]}"
	echo "Logs: build/results/<scenario>/{console,results}.log"
fi
echo "skipped: $skip"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
