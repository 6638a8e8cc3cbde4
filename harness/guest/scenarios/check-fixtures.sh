# SPDX-License-Identifier: GPL-2.0-only
# What seclvlctl check looks for, made in the busybox guest at level 0, and
# its removal; sourced by seclvlctl.sh, not a scenario of its own.  The
# guest has no /etc/fstab, no /etc/systemd and no daemons of its own.
CF=/run/seclvl-check
UNITS=/etc/systemd/system

# A process named $1 (a script's process has the script's name).
fake_daemon() {
	printf '#!/bin/sh\nwhile :; do sleep 1; done\n' > $CF/bin/$1
	chmod 0755 $CF/bin/$1
	$CF/bin/$1 &
	CF_PIDS="$CF_PIDS $!"
}

check_fixtures() {
	CF_PIDS=
	mkdir -p $CF/bin $CF/mnt $UNITS/multi-user.target.wants $UNITS/seclvl-dyn.service.d
	[ -e /etc/fstab ] && mv /etc/fstab $CF/fstab.saved
	# modules: minix is a module of the test kernel, not loaded;
	# suid_mount: noauto without nosuid, but a tmpfs only without
	# setid_bits.  The others count for neither.
	printf '%s\n' '# seclvlctl check' \
		'/dev/vdb /mnt/spare ext4 noauto 0 0' \
		'/dev/vdb /mnt/old minix defaults 0 0' \
		'/dev/vdb /mnt/safe ext4 noauto,nosuid 0 0' \
		'tmpfs /mnt/tmp tmpfs noauto 0 0' \
		'/dev/vdc none swap sw 0 0' \
		'proc /proc proc defaults 0 0' > /etc/fstab
	# setuid: an enabled unit with User=, one with User=root (no finding),
	# and a running one with DynamicUser= in a drop-in.
	printf '[Service]\nUser=nobody\nExecStart=/bin/true\n' > $UNITS/seclvl-check.service
	printf '[Service]\nUser=root\nExecStart=/bin/true\n' > $UNITS/seclvl-root.service
	ln -s ../seclvl-check.service $UNITS/multi-user.target.wants/seclvl-check.service
	ln -s ../seclvl-root.service $UNITS/multi-user.target.wants/seclvl-root.service
	printf '[Service]\nExecStart=/bin/true\n' > $UNITS/seclvl-dyn.service
	printf '[Service]\nDynamicUser = yes\n' > $UNITS/seclvl-dyn.service.d/dyn.conf
	check "mount cgroup2 and make a running unit's cgroup" sh -c \
		'mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 /sys/fs/cgroup &&
		 mkdir -p /sys/fs/cgroup/system.slice/seclvl-dyn.service'
	# setuid, net_admin, time_backward: daemons by name; and a child of
	# init (this shell) running as nobody: busybox su execs, it does not fork.
	for name in sshd cron agetty dhclient chronyd; do
		fake_daemon $name
	done
	su -s /bin/sh nobody -c 'exec sleep 1000000' &
	CF_NOBODY=$!
	CF_PIDS="$CF_PIDS $CF_NOBODY"
	# mounted_blockdev_write and, at level 2, umount.
	dd if=/dev/zero of=$CF/loop.img bs=64k count=64 2>/dev/null
	mke2fs -q -F $CF/loop.img >/dev/null 2>&1
	check "bind /dev/loop0 and mount it" sh -c \
		"losetup /dev/loop0 $CF/loop.img && mount -t ext4 -o nosuid /dev/loop0 $CF/mnt"
	# setid_bits.
	echo data > /usr/bin/seclvl-check-suid
	chmod 4755 /usr/bin/seclvl-check-suid
	sleep 1
	check "the fake daemons run" sh -c "for p in $CF_PIDS; do kill -0 \$p || exit 1; done"
}

check_fixtures_clean() {
	kill $CF_PIDS
	wait $CF_PIDS 2>/dev/null
	umount $CF/mnt
	losetup -d /dev/loop0
	rmdir /sys/fs/cgroup/system.slice/seclvl-dyn.service /sys/fs/cgroup/system.slice
	umount /sys/fs/cgroup
	rm -rf /etc/fstab /usr/bin/seclvl-check-suid $UNITS/seclvl-* \
		$UNITS/multi-user.target.wants/seclvl-*
	rmdir $UNITS/multi-user.target.wants $UNITS /etc/systemd 2>/dev/null
	[ -e $CF/fstab.saved ] && mv $CF/fstab.saved /etc/fstab
	rm -rf $CF
	check "the fixtures are gone" sh -c \
		"! grep -q /dev/loop0 /proc/mounts && [ ! -e /sys/block/loop0/loop/backing_file ] &&
		 [ ! -e /etc/systemd ] && [ ! -e /usr/bin/seclvl-check-suid ] && [ ! -e $CF ]"
}
