# SPDX-License-Identifier: GPL-2.0-only
# Debian's stock kernel booted with an lsm= list without bpf: BPF LSM
# programs would load and enforce nothing, so seclvl-bpf refuses.
stock_setup
check "bpf is not an active LSM" sh -c '! grep -qw bpf /sys/kernel/security/lsm'
expect_exit 3 seclvl-bpf load --level 1
err_has "bpf is not an active LSM"
err_has "lsm=lockdown,landlock,yama,apparmor,bpf"
err_has "seclvlctl grub-lsm writes it for GRUB"
check "  and left nothing pinned" test ! -e /sys/fs/bpf/seclvl
expect_exit 3 seclvl-bpf status
out_has "not loaded"
# Bad usage is refused before anything is checked or loaded.
expect_exit 2 seclvl-bpf load --level 3
err_has "invalid level '3'"
expect_exit 2 seclvl-bpf load --policy umount=3
err_has "use 1, 2 or off"
expect_exit 2 seclvl-bpf load --policy nosuch=1
err_has "no restriction named 'nosuch'"
expect_exit 2 seclvl-bpf load --policy umount
err_has "NAME=1, NAME=2 or NAME=off"
expect_exit 2 seclvl-bpf load --frobnicate
err_has "unknown or incomplete option"
expect_exit 2 seclvl-bpf raise two
err_has "invalid level 'two'"
expect_exit 3 seclvl-bpf raise 1
err_has "not loaded"
expect_exit 3 seclvl-bpf log
err_has "not loaded"
expect_exit 2 seclvl-bpf log now
expect_exit 2 seclvl-bpf
expect_exit 0 seclvl-bpf --help
out_has "usage: seclvl-bpf load"
check "none of it pinned anything" test ! -e /sys/fs/bpf/seclvl
