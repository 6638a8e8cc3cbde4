# SPDX-License-Identifier: GPL-2.0-only
# make run: an interactive shell at level 0 on the serial console.
mkdir -p /mnt/disk && mount -t ext4 /dev/vda1 /mnt/disk 2>/dev/null
cat <<'BANNER'

  seclvl: BSD secure levels for Linux -- test kernel, level 0

  seclvlctl:        seclvlctl; seclvlctl raise 1; seclvlctl --help
  At boot:          /etc/init.d/seclvl start applies /etc/seclvl.conf
                    (cp /etc/seclvl.conf.example /etc/seclvl.conf to try it)
  Read the level:   cat /sys/kernel/security/seclvl/level
                    cat /proc/seclvl        sysctl kernel.securelevel
  Raise it:         echo 1 > /sys/kernel/security/seclvl/level
                    (or sysctl -w kernel.securelevel=2; it never goes down)
  Rules and counts: cat /sys/kernel/security/seclvl/policy
  Things to try at 1: insmod /lib/seclvl/seclvl_test_load.ko
                      touch /tmp/f; chmod u+s /tmp/f
                      ip link set lo mtu 1400;   cat /dev/port >/dev/null
                      echo x > /dev/vda1   (the disk is mounted on /mnt/disk)
  Things to try at 2: umount /mnt/disk;  date -s 2000-01-01
  Refusals:         dmesg | grep 'seclvl: denied'
  Leave:            exit (the VM powers off)

BANNER
# The end of boot, as on a system with sysvinit or busybox init.
/etc/init.d/seclvl start
setsid cttyhack sh -l
