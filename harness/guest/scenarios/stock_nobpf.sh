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
err_has "NOT ENFORCING: no secure level is in force on this boot"
check "  and said so in the kernel log at alert priority" sh -c \
	'dmesg -r | grep -q "^<9>.*seclvl-bpf: NOT ENFORCING: the load failed: bpf is not an active LSM"'
check "  and wrote why for seclvlctl" grep -q "^bpf is not an active LSM" /run/seclvl-bpf.failed
expect_exit 3 seclvlctl
out_has "^NOT ENFORCING: no secure level is in force on this boot$"
err_has "the BPF backend did not load: bpf is not an active LSM"
expect_exit 3 seclvlctl --json
out_has '^{"enforcing": false, "level": null, "bpf_load_error": "bpf is not an active LSM (/sys/kernel/security/lsm lists '
expect_exit 0 seclvlctl metrics
check "  says only that it is not enforcing" sh -c \
	'grep -qx "seclvl_enforcing 0" /tmp/ctl.out && [ "$(grep -vc "^#" /tmp/ctl.out)" = 1 ]'
check "  in that format" prom_valid /tmp/ctl.out
expect_exit 3 seclvlctl apply
out_has "^NOT ENFORCING"
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
