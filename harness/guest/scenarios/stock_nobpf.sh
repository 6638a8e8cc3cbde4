# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel booted with an lsm= list without bpf: BPF LSM
# programs would load and enforce nothing, so seclvl-bpf refuses.
stock_setup
check "bpf is not an active LSM" sh -c '! grep -qw bpf /sys/kernel/security/lsm'
expect_exit 3 seclvl-bpf load --level 1
err_has "bpf is not an active LSM"
err_has "add bpf to the lsm= boot parameter"
check "  and left nothing pinned" test ! -e /sys/fs/bpf/seclvl
expect_exit 3 seclvl-bpf status
out_has "not loaded"
