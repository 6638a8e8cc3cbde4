#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: boot the release kernel (make release: Debian's configuration
# with seclvl built in) without seclvl (the baseline) and with seclvl at
# levels 0, 1 and 2, and Debian's stock kernel without and with the BPF
# backend at levels 0, 1 and 2, in turn, over several rounds, run
# seclvl_bench in each boot, and report each path's instructions per
# operation and what each backend adds to them on its own kernel: a table
# on stdout, build/bench/{results.csv,raw.csv,summary.md,chart.png}.
# The guests run with QEMU's icount: their clock counts instructions, so a
# path's time is its length in instructions, the same from run to run
# (wall time under TCG on a virtual host varied 20% between repetitions).
# nokaslr: kernel addresses salt the dentry and inode hashes, so a random
# layout changes path lengths from boot to boot.
# seclvl_bench, the program it executes and the bench scenario are built
# from this tree and laid over both initramfs images (a second cpio
# archive, which the kernel unpacks over the first), so that a change to
# the bench needs no new guest.
# seclvl-bpf is built from this tree too and laid over the stock image, so
# that the bench measures the backend as it is here.
#   SECLVL_BENCH_ROUNDS (default 3), SECLVL_BENCH_REPS (5), SECLVL_BENCH_MS (100)
#   SECLVL_BENCH_ONLY="stock bpf0 bpf1 bpf2": boot only the configurations
#   named (see configs below); the release kernel is needed only if one of
#   them is on it.
set -euo pipefail
. "$(dirname "$0")/common.sh"

ROUT=$BUILD/release
RGUEST=$BUILD/release-guest
rounds=${SECLVL_BENCH_ROUNDS:-3}
reps=${SECLVL_BENCH_REPS:-5}
ms=${SECLVL_BENCH_MS:-100}
for v in "$rounds" "$reps" "$ms"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "SECLVL_BENCH_ROUNDS, _REPS and _MS take positive integers (got '$v')"
done
# name|kernel|arguments; the baseline's lsm= is filled in below.
configs=("baseline|release|bench_release=1"
	 "level0|release|bench_release=1 bench_level=0"
	 "level1|release|bench_release=1 bench_level=1"
	 "level2|release|bench_release=1 bench_level=2"
	 "stock|stock|bench_stock=1" "bpf0|stock|bench_bpf=0"
	 "bpf1|stock|bench_bpf=1" "bpf2|stock|bench_bpf=2")
if [ -n "${SECLVL_BENCH_ONLY:-}" ]; then
	all=("${configs[@]}")
	configs=()
	for want in $SECLVL_BENCH_ONLY; do
		found=
		for c in "${all[@]}"; do
			if [ "${c%%|*}" = "$want" ]; then
				found=1
				configs+=("$c")
			fi
		done
		[ -n "$found" ] || die "SECLVL_BENCH_ONLY: unknown configuration '$want' (one of: $(printf '%s\n' "${all[@]}" | cut -d'|' -f1 | paste -sd' '))"
	done
	[ ${#configs[@]} -gt 0 ] || die "SECLVL_BENCH_ONLY names no configuration"
fi
need() { # KERNEL: whether a configuration picked boots it
	printf '%s\n' "${configs[@]}" | cut -d'|' -f2 | grep -qx "$1"
}
if need release && { [ ! -f "$ROUT/arch/x86/boot/bzImage" ] || [ ! -f "$RGUEST/initramfs.cpio" ]; }; then
	die "no release kernel or its initramfs: make release"
fi
if need stock && { [ ! -f "$STOCK/vmlinuz" ] || [ ! -f "$STOCK/initramfs.cpio" ]; }; then
	die "no stock kernel: make stock"
fi
"$TOP/harness/deps.sh" gnuplot-nox

out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out"
if need release; then
	# The baseline is the same kernel with the same LSMs, seclvl left out.
	lsms=$(sed -n 's/^CONFIG_LSM="\(.*\)"/\1/p' "$ROUT/.config")
	base_lsm=$(echo "$lsms" | tr ',' '\n' | grep -vx seclvl | paste -sd,)
	for i in "${!configs[@]}"; do
		[ "${configs[$i]%%|*}" != baseline ] || configs[i]+=" lsm=$base_lsm"
	done
fi

# The bench's own files, over each image.
say "building seclvl_bench"
mkdir -p "$out/overlay/bench" "$out/overlay/bin" "$out/overlay/scenarios"
make -s -C "$TOP/tools/seclvl/bench" OUTPUT="$out/overlay/bench" >/dev/null
mv "$out/overlay/bench/seclvl_true" "$out/overlay/bin/"
cp "$TOP/harness/guest/scenarios/bench.sh" "$out/overlay/scenarios/"
(cd "$out/overlay" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/overlay.cpio"
if need stock; then
	say "building seclvl-bpf"
	mkdir -p "$out/bpf" "$out/stock-overlay/sbin"
	make -s -C "$TOP/tools/seclvl/bpf" OUTPUT="$out/bpf" >/dev/null
	cp "$out/bpf/seclvl-bpf" "$out/stock-overlay/sbin/"
	(cd "$out/stock-overlay" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/stock-overlay.cpio"
fi

# The kernels and initramfs images every boot uses, copied so that a build
# during the bench cannot mix kernels, and the configurations they were
# built from.
if need release; then
	cp "$ROUT/arch/x86/boot/bzImage" "$out/release-bzImage"
	cat "$RGUEST/initramfs.cpio" "$out/overlay.cpio" > "$out/release-initramfs.cpio"
	cp "$ROUT/.config" "$out/release.config"
fi
if need stock; then
	kver=$(cat "$STOCK/version")
	cp "$STOCK/vmlinuz" "$out/stock-vmlinuz"
	cat "$STOCK/initramfs.cpio" "$out/overlay.cpio" "$out/stock-overlay.cpio" > "$out/stock-initramfs.cpio"
	cp "$STOCK/img/boot/config-$kver" "$out/stock.config"
fi

# Object sizes from the release build.  An LSM its configuration does not
# link in (lockdown, if so) is compiled alone, with the same tree,
# configuration and flags.
: > "$out/sizes"
for lsm in seclvl yama lockdown; do
	need release || break
	if ! ls "$ROUT/security/$lsm/"*.o >/dev/null 2>&1; then
		make -s -C "$SRC" O="$ROUT" CC="ccache gcc" "security/$lsm/$lsm.o"
	fi
	objs=$(find "$ROUT/security/$lsm" -name '*.o' ! -name 'built-in*' 2>/dev/null | sort)
	[ -n "$objs" ] || { echo "$lsm - -" >> "$out/sizes"; continue; }
	# shellcheck disable=SC2086
	nm -S -t d $objs | awk -v lsm="$lsm" '
		$4 ~ /^(test_|kunit)|_test_(cases|suite|suites)$|__kunit/ { next }
		$3 ~ /^[Tt]$/ { text += $2 }
		$3 ~ /^[DdBbRr]$/ { data += $2 }
		END { print lsm, text + 0, data + 0 }' >> "$out/sizes"
done

# The BPF backend: its programs' instructions (before the JIT) and .rodata.
need stock && size -A "$out/bpf/seclvl.bpf.o" | awk '
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
		# shellcheck disable=SC2086
		progress "round $r/$rounds $name" "$out/$boot.log" bench_status \
			env SECLVL_RUN="$boot" SECLVL_ICOUNT=1 \
			SECLVL_KERNEL="$out/$kernel-$([ "$kernel" = stock ] && echo vmlinuz || echo bzImage)" \
			SECLVL_INITRD="$out/$kernel-initramfs.cpio" "$TOP/harness/boot.sh" bench \
			$args bench_reps="$reps" bench_ms="$ms" quiet nokaslr ||
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
took=$((SECONDS - start))
say "all boots done in $(elapsed $took)"

/usr/bin/python3 "$TOP/harness/bench-report.py" "$out" \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) ($(nproc) CPUs), QEMU $(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9.]*\).*/\1/p') TCG with icount" \
	"$rounds" "$reps" "$ms" "$(elapsed $took)"
