# SPDX-License-Identifier: GPL-2.0-only
# Level 2: raised to 1 through /proc/seclvl, then to 2 by many concurrent
# writers; at the end a shutdown remounts the disk read-only and the host
# checks that the filesystem is clean and holds what was written.
prepare
default_policy
raise 1 /proc/seclvl
run_selftest seclvl/raise_test
check "kernel logged the change from 1 to 2" log_has "level changed from 1 to 2 by write"
run_selftest seclvl/interface_test
run_selftest seclvl/restrictions_test
run_selftest seclvl/bypass_test
check "write a file at level 2" \
	sh -c 'echo written-at-level-2 > /mnt/disk/level2-file && sync'
check "unmounting the disk is refused at level 2" fails_with_eperm umount /mnt/disk
check "remounting it read-only is not" mount -o remount,ro /mnt/disk
check "level is still 2" level_is 2
# A flood of refusals is counted in full and logged rate-limited: at most
# a burst of 10 lines per 5-second interval the flood touched.
mkdir -p /tmp/flood && mount -t tmpfs -o nosuid none /tmp/flood
denied() { awk '$1 == "umount" { print $3 }' $SECLVL/policy; }
logged() { dmesg | grep -c 'seclvl: denied umount'; }
count0=$(denied)
lines0=$(logged)
start=$(date +%s)
i=0
while [ $i -lt 50 ]; do
	umount /tmp/flood 2>/dev/null
	i=$((i + 1))
done
elapsed=$(($(date +%s) - start))
lines=$(($(logged) - lines0))
check "50 refused unmounts count 50 denials" [ $(($(denied) - count0)) -eq 50 ]
check "and log fewer lines ($lines in ${elapsed}s)" \
	[ "$lines" -lt 50 -a "$lines" -le $((10 * (elapsed / 5 + 2))) ]
