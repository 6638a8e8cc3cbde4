# SPDX-License-Identifier: GPL-2.0-only
# make bench: one boot of the benchmark.  bench_level=N (kernel command
# line) raises seclvl to N first, as a system does at the end of boot; the
# baseline boot leaves seclvl out of lsm= and passes no bench_level.
if [ -n "${bench_level:-}" ]; then
	echo "$bench_level" > $SECLVL/level || notok "raise to $bench_level"
	check "seclvl at level $bench_level" level_is "$bench_level"
else
	check "seclvl is not active" sh -c '! grep -q seclvl /sys/kernel/security/lsm'
fi
echo "# lsm $(cat /sys/kernel/security/lsm)" >&3
# When the kernel started init, from the log ("quiet" keeps it off the console).
dmesg | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/init_at \1/p' >&3
/bench/seclvl_bench --reps "${bench_reps:-5}" --time "${bench_ms:-200}" >&3 2>&1 ||
	notok "seclvl_bench exited $?"
