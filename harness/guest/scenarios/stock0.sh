# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel, the BPF backend loaded at level 0: nothing is
# refused, and every self-protection test's attack works -- which shows
# that those tests can fail.
stock_setup
check "seclvl-bpf load" seclvl-bpf load
prepare
default_policy
check "level is 0" level_is 0
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
run_selftest seclvl/bpf_test
