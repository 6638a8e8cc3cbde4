# SPDX-License-Identifier: GPL-2.0-only
# make demo: a short scripted tour, printed on the console.
step() { printf '\n>>> %s\n' "$*"; }
run() { printf '# %s\n' "$*"; sh -c "$*" 2>&1; }

mkdir -p /mnt/disk && mount -t ext4 /dev/vda1 /mnt/disk
echo "=== seclvl demo"
step "The secure level, three ways to read it"
run cat /sys/kernel/security/seclvl/level
run cat /proc/seclvl
run sysctl kernel.securelevel
step "At level 0 root may do anything: set-uid a file"
run 'touch /tmp/demo && chmod u+s /tmp/demo && ls -l /tmp/demo'
step "Raise the level to 2"
run 'echo 2 > /sys/kernel/security/seclvl/level'
run cat /sys/kernel/security/seclvl/level
step "Nobody can lower it, not even root"
run 'echo 0 > /proc/seclvl'
step "Refusal 1: loading a kernel module"
run insmod /lib/seclvl/seclvl_test_load.ko
step "Refusal 2: making a file set-uid"
run 'touch /tmp/demo2 && chmod u+s /tmp/demo2; ls -l /tmp/demo2'
step "Refusal 3: unmounting a filesystem"
run umount /mnt/disk
step "Refusal 4: a new mount that could carry set-uid files (nosuid is fine)"
run 'mkdir -p /mnt/new && mount -t devtmpfs none /mnt/new'
run 'mount -t devtmpfs -o nosuid none /mnt/new && echo mounted nosuid'
step "What the kernel logged"
run "dmesg | grep 'seclvl:' | sed 's/^\[[ 0-9.]*\] //'"
step "The policy: restriction, level, refusals so far"
run cat /sys/kernel/security/seclvl/policy
echo
echo "=== end of demo: a reboot is the only way back to level 0"
