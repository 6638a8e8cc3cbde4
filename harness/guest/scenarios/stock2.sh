# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel, the BPF backend at level 2: raised to 1, then to 2
# by many concurrent raisers; the same selftests as the level2 scenario.
stock_setup
check "seclvl-bpf load" seclvl-bpf load
prepare
default_policy
expect_exit 2 seclvl-bpf raise 3
err_has "levels are -1, 0, 1 and 2"
bpf_logger
expect_exit 0 seclvlctl raise 1
check "seclvlctl raised the BPF backend's level to 1" level_is 1
check "and the raise was logged" \
	log_soon "seclvl-bpf: level changed from 0 to 1 (pid [0-9]* comm seclvlctl)"
expect_exit 1 seclvlctl raise 0
err_has "only a reboot lowers it"
expect_exit 1 seclvl-bpf raise 0
err_has "can only go up"
check "level is still 1" level_is 1
run_selftest seclvl/raise_test -t concurrent_raisers
run_suites
level2_disk
