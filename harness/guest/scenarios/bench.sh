# SPDX-License-Identifier: GPL-2.0-only
# make bench: one boot of the benchmark.  bench_level=N (kernel command
# line) raises seclvl to N first, as a system does at the end of boot; the
# baseline boot leaves seclvl out of lsm= and passes no bench_level.
# bench_release=1: the release kernel, whose drivers and filesystems are
# modules in /lib/stock (its own, in the stock kernel's order); they are
# loaded first, as stock_setup loads Debian's, since level 1 refuses loads.
# On Debian's kernel (bench_stock=1 or bench_bpf=N) the BPF backend is
# loaded and raised to N, or not loaded for the stock baseline.
if [ -n "${bench_release:-}" ]; then
	for m in $(cat /lib/stock/order); do
		insmod /lib/stock/$m.ko || notok "insmod $m"
	done
fi
# module_image_1mb: 1 MiB that is not a module, listed wherever seclvl is,
# so that from level 1 a load of it costs its SHA-256 (and then ENOEXEC).
bench_image=/run/seclvl-bench-image.ko
head -c 1048576 /dev/urandom > $bench_image
if [ -n "${bench_level:-}" ]; then
	check "list the bench's module image" seclvlctl modules pin $bench_image
	echo "$bench_level" > $SECLVL/level || notok "raise to $bench_level"
	check "seclvl at level $bench_level" level_is "$bench_level"
elif [ -n "${bench_bpf:-}" ]; then
	stock_setup
	check "seclvl-bpf load" seclvl-bpf load
	check "list the bench's module image" seclvlctl modules pin $bench_image
	check "seclvl-bpf raise $bench_bpf" seclvl-bpf raise "$bench_bpf"
	check "the BPF backend at level $bench_bpf" level_is "$bench_bpf"
elif [ -n "${bench_stock:-}" ]; then
	stock_setup
	check "the BPF backend is not loaded" test ! -e /sys/fs/bpf/seclvl
else
	check "seclvl is not active" sh -c '! grep -q seclvl /sys/kernel/security/lsm'
fi
echo "# lsm $(cat /sys/kernel/security/lsm)" >&3
echo "# kernel $(uname -r) $(uname -v)" >&3
/bench/seclvl_bench --reps "${bench_reps:-5}" --time "${bench_ms:-200}" >&3 2>&1 ||
	notok "seclvl_bench exited $?"
# The kernel's log, for the record ("quiet" keeps it off the console).
dmesg | sed 's/^/# kmsg /' >&3
