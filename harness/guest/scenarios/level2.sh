# SPDX-License-Identifier: GPL-2.0-only
# Level 2: raised to 1 through /proc/seclvl, then to 2 by many concurrent
# writers; at the end a shutdown remounts the disk read-only and the host
# checks that the filesystem is clean and holds what was written.
prepare
default_policy
raise 1 /proc/seclvl
run_selftest seclvl/raise_test -t concurrent_raisers
check "kernel logged the change from 1 to 2" log_has "level changed from 1 to 2 by write"
run_suites
level2_disk
# A flood of refusals is counted in full and logged rate-limited: at most
# a burst of 10 lines per 5-second interval the flood touched.
mkdir -p /tmp/flood && mount -o bind /mnt/disk /tmp/flood
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
