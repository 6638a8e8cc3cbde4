#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: boot the test kernel without seclvl (the baseline) and with
# seclvl at levels 0, 1 and 2, and Debian's stock kernel without and with
# the BPF backend at levels 0, 1 and 2, in turn, over several rounds, run
# seclvl_bench in each boot, and report each path's cost against the
# baseline of its kernel: a table on stdout,
# build/bench/{results.csv,summary.md,chart.png}.
# The guests run with QEMU's icount: their clock counts instructions, so a
# path's time is its length in instructions, the same from run to run
# (wall time under TCG on a virtual host varied 20% between repetitions).
# nokaslr: kernel addresses salt the dentry and inode hashes, so a random
# layout changes path lengths from boot to boot.
#   SECLVL_BENCH_ROUNDS (default 3), SECLVL_BENCH_REPS (5), SECLVL_BENCH_MS (100)
set -euo pipefail
. "$(dirname "$0")/common.sh"

rounds=${SECLVL_BENCH_ROUNDS:-3}
reps=${SECLVL_BENCH_REPS:-5}
ms=${SECLVL_BENCH_MS:-100}
for v in "$rounds" "$reps" "$ms"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "SECLVL_BENCH_ROUNDS, _REPS and _MS take positive integers (got '$v')"
done
"$TOP/harness/deps.sh" gnuplot-nox

out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out"
# The baseline is the same kernel with the same LSMs, seclvl left out.
lsms=$(sed -n 's/^CONFIG_LSM="\(.*\)"/\1/p' "$KOUT/.config")
base_lsm=$(echo "$lsms" | tr ',' '\n' | grep -vx seclvl | paste -sd,)
# name|kernel|arguments
configs=("baseline|test|lsm=$base_lsm" "level0|test|bench_level=0"
	 "level1|test|bench_level=1" "level2|test|bench_level=2"
	 "stock|stock|bench_stock=1" "bpf0|stock|bench_bpf=0"
	 "bpf1|stock|bench_bpf=1" "bpf2|stock|bench_bpf=2")

# The kernel and initramfs every boot uses, copied so that a build during
# the bench cannot mix kernels; their object sizes, measured now.
cp "$KOUT/arch/x86/boot/bzImage" "$out/bzImage"
cp "$GUEST/initramfs.cpio" "$out/initramfs.cpio"
cp "$STOCK/vmlinuz" "$out/stock-vmlinuz"
cp "$STOCK/initramfs.cpio" "$out/stock-initramfs.cpio"
# Object sizes from this build, without the KUnit tests built into it.  The
# test kernel does not link lockdown in: compile its object alone, with the
# same tree, configuration and flags.
make -s -C "$SRC" O="$KOUT" CC="ccache gcc" security/lockdown/lockdown.o
for lsm in seclvl yama lockdown; do
	objs=$(find "$KOUT/security/$lsm" -name '*.o' ! -name 'built-in*' 2>/dev/null | sort)
	[ -n "$objs" ] || { echo "$lsm - -" >> "$out/sizes"; continue; }
	# shellcheck disable=SC2086
	nm -S -t d $objs | awk -v lsm="$lsm" '
		$4 ~ /^(test_|kunit)|_test_(cases|suite|suites)$|__kunit/ { next }
		$3 ~ /^[Tt]$/ { text += $2 }
		$3 ~ /^[DdBbRr]$/ { data += $2 }
		END { print lsm, text + 0, data + 0 }' >> "$out/sizes"
done

# The BPF backend: its programs' instructions (before the JIT) and .rodata.
size -A "$STOCK/bpf/seclvl.bpf.o" | awk '
	$1 ~ /^(lsm|fentry|fexit|syscall|iter)\// { text += $2 }
	$1 == ".rodata" { data += $2 }
	END { print "seclvl-bpf", text + 0, data + 0 }' >> "$out/sizes"

bench_status() {
	local r=$BUILD/results/$boot/results.log
	[ -f "$r" ] || return 0
	grep -c '^bench ' "$r" | tr -d '\n'
	printf ' timings'
}
say "benchmark: ${#configs[@]} configurations x $rounds rounds, $reps x ${ms} ms per path"
: > "$out/boots"
start=$SECONDS
for r in $(seq 1 "$rounds"); do
	# Rotate the order each round so that no configuration always runs
	# first (or last) after the host did something else.
	for i in $(seq 0 $((${#configs[@]} - 1))); do
		IFS='|' read -r name kernel args <<< "${configs[$(((i + r - 1) % ${#configs[@]}))]}"
		boot=bench-$name-$r
		kimg=$out/bzImage initrd=$out/initramfs.cpio
		if [ "$kernel" = stock ]; then
			kimg=$out/stock-vmlinuz initrd=$out/stock-initramfs.cpio
		fi
		progress "round $r/$rounds $name" "$out/$boot.log" bench_status \
			env SECLVL_RUN="$boot" SECLVL_ICOUNT=1 SECLVL_KERNEL="$kimg" \
			SECLVL_INITRD="$initrd" "$TOP/harness/boot.sh" bench \
			"$args" bench_reps="$reps" bench_ms="$ms" quiet nokaslr ||
			die "boot $boot failed: see $out/$boot.log"
		grep -q SECLVL-DONE "$BUILD/results/$boot/results.log" ||
			die "boot $boot did not finish: see build/results/$boot/"
		if grep -q '^not ok\|^fail ' "$BUILD/results/$boot/results.log"; then
			grep '^not ok\|^fail ' "$BUILD/results/$boot/results.log" >&2
			die "boot $boot: the benchmark failed"
		fi
		echo "$name $r $BUILD/results/$boot" >> "$out/boots"
	done
done
say "all boots done in $(elapsed $((SECONDS - start)))"

/usr/bin/python3 "$TOP/harness/bench-report.py" "$out" \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) ($(nproc) CPUs), QEMU $(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9.]*\).*/\1/p') TCG with icount" \
	"$rounds" "$reps" "$ms"
