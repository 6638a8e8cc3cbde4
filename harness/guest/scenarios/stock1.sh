# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel, the BPF backend at level 1, raised by three
# raisers at once: the same selftests as the in-tree LSM's level1
# scenario, and the self-protection tests.
stock_setup
check "seclvl-bpf load" seclvl-bpf load
prepare
default_policy
expect_exit 0 seclvlctl
out_has "enforced by: the BPF backend"
out_has "^umount  *2  *no  *0$"
out_has "^escape: none$"
expect_exit 0 seclvlctl --json
out_has '"backend": "bpf"'
out_has '"escape": null, '
expect_exit 1 seclvlctl policy setuid off
err_has "takes its policy when it is loaded"
expect_exit 1 seclvlctl escape /bin/true
err_has "no emergency escape"
raise_bpf_at_once 1
run_suites
expect_exit 0 seclvlctl metrics
check "  in Prometheus's text format" prom_valid /tmp/ctl.out
out_has '^seclvl_backend_info{backend="bpf"} 1$'
out_has '^seclvl_level 1$'
out_has '^seclvl_restriction_active{restriction="rawio"} 1$'
out_has '^seclvl_denials_total{restriction="rawio"} [1-9]'
out_has '^seclvl_events_dropped_total [0-9]*$'
check "refusals were logged with restriction, level, system call and process" \
	log_soon "seclvl-bpf: denied rawio at level 1: [a-z_0-9]*() (pid [0-9]* comm restrictions_te"
check "no level-2 restriction refused at level 1" \
	awk '$1 ~ /^(time_backward|blockdev_write|umount)$/ && $3 != 0 { print; bad = 1 } END { exit bad }' \
	$POLICY_FILE
# Last: its refusals must not mix with the suites' in the log.  The log
# reader is stopped for the storm: the ring buffer fills, the programs
# count what it cannot take, the reader says how many once it runs again,
# and storm_test adds that to its sum.
check "stop the log reader for the storm" kill -STOP "$BPF_LOGGER"
(sleep 12; kill -CONT "$BPF_LOGGER") &
run_selftest seclvl/storm_test
check "the reader said how many events the full buffer lost" log_soon \
	"seclvl-bpf: [1-9][0-9]* events not logged: the event buffer was full (the counts stay exact)"
expect_exit 0 seclvlctl metrics
out_has '^seclvl_events_dropped_total [1-9][0-9]*$'
check "level is still 1" level_is 1
