#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Debian system a debian-* scenario boots (RELEASE: trixie, Debian 13,
# the default; or bookworm, Debian 12): a root filesystem made with
# mmdebstrap (cached as rootfs.tar in build/debian13 or build/debian until
# this recipe changes), with that release's stock kernel installed the
# Debian way (dpkg -i: initramfs-tools builds its initramfs), then, on
# every run, seclvl installed as the README says (make
# install-seclvlctl, make install-seclvl-bpf, systemctl enable; on Debian
# 13 built in the image from a copy of the sources, with the release's own
# compilers), the 7.3 test kernel's modules, a user with an ssh key, and the
# scenarios' test material.  Writes debian.img there (ext4, no partition
# table).
#   debian-image.sh [RELEASE]
set -euo pipefail
. "$(dirname "$0")/common.sh"

release=${1:-trixie}
DEB=$(debian_dir "$release")
mkdir -p "$DEB"
packages=systemd-sysv,openssh-server,sudo,cron,iproute2,kmod,procps,e2fsprogs,udev,dbus,libpam-systemd,initramfs-tools,linux-base,zstd,xz-utils,less
case $release in
bookworm)
	kdir=$STOCK
	what="Debian 12"
	sources=("deb http://deb.debian.org/debian bookworm main"
		 "deb http://deb.debian.org/debian bookworm-updates main"
		 "deb http://deb.debian.org/debian-security bookworm-security main")
	;;
trixie)
	kdir=$(stock_dir deb13)
	what="Debian 13"
	# What the README's build needs (make seclvl-bpf on Debian 13), and
	# auditd, which the debian-lsm scenarios read seclvl's records from.
	packages+=,make,gcc,libc6-dev,clang,llvm,bpftool,libbpf-dev,libelf-dev,zlib1g-dev,libzstd-dev,pkgconf,auditd
	sources=("deb http://deb.debian.org/debian trixie main"
		 "deb http://deb.debian.org/debian trixie-updates main"
		 "deb http://deb.debian.org/debian-security trixie-security main")
	;;
*) die "unknown Debian release '$release' (bookworm or trixie)" ;;
esac
kver=$(cat "$kdir/version")
if [ "$release" = trixie ]; then
	. "$(dirname "$0")/apt.sh"
	apt_setup
	read -r _ kpkg <<< "$(stock_packages deb13)"
	kdeb=$(apt_fetch "$kpkg")
else
	kdeb=$(ls "$kdir"/linux-image-"$kver"-unsigned_*.deb)
fi

# The root filesystem: rebuilt only when the recipe or the kernel changes.
want=$(printf '%s\n' "$packages" "${sources[@]}" "$(basename "$kdeb")" | sha256sum | cut -c1-64)
if [ "$(cat "$DEB/rootfs.stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$DEB/rootfs.tar" ]; then
	say "building the $what root filesystem with mmdebstrap (cached in ${DEB#"$TOP"/})"
	rm -f "$DEB/rootfs.tar" "$DEB/rootfs.stamp"
	progress "mmdebstrap" "$DEB/mmdebstrap.log" no_status \
		mmdebstrap --variant=minbase --include="$packages" \
		--customize-hook="copy-in $kdeb /tmp" \
		--customize-hook="chroot \"\$1\" dpkg -i /tmp/$(basename "$kdeb")" \
		--customize-hook='rm -f "$1"/tmp/*.deb' \
		"$release" "$DEB/rootfs.tar" "${sources[@]}" ||
		die "mmdebstrap failed (${DEB#"$TOP"/}/mmdebstrap.log)"
	echo "$want" > "$DEB/rootfs.stamp"
fi

# The harness's ssh key: root and alice accept it.
[ -f "$DEB/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C seclvl-harness -f "$DEB/id_ed25519"

say "installing seclvl into a copy of it"
stage=$DEB/stage
rm -rf "$stage"
mkdir -p "$stage"
tar -C "$stage" --numeric-owner -xf "$DEB/rootfs.tar"
in_root() { chroot "$stage" "$@"; }

# mmdebstrap empties machine-id, which makes every boot of a fresh copy
# systemd's "first boot"; a fixed one makes them ordinary boots.
echo 5ec1e7e5ec1e7e5ec1e7e5ec1e7e0001 > "$stage/etc/machine-id"
echo seclvl-debian > "$stage/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tseclvl-debian\n' > "$stage/etc/hosts"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' > "$stage/etc/fstab"
printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n' \
	> "$stage/etc/systemd/network/20-wired.network"
systemctl --root="$stage" -q enable systemd-networkd.service
# Timers that would start work in the middle of a scenario.
systemctl --root="$stage" -q mask apt-daily.timer apt-daily-upgrade.timer \
	e2scrub_all.timer e2scrub_reap.service 2>/dev/null || true
# Work no check looks at, which costs each boot (and two in debian-lsm-2)
# seconds of TCG: login prompts nobody
# uses, modules that nothing here needs loaded early, and generators for
# what this disk does not have (partitions, crypto, hibernation, SysV
# scripts without a native unit: hwclock, cryptdisks and sudo are masked).
systemctl --root="$stage" -q mask getty@tty1.service serial-getty@ttyS0.service \
	modprobe@configfs.service modprobe@dm_mod.service modprobe@drm.service \
	modprobe@efi_pstore.service modprobe@fuse.service modprobe@loop.service
mkdir -p "$stage/etc/systemd/system-generators"
for g in cryptsetup debug getty gpt-auto hibernate-resume integritysetup \
	 rc-local run system-update sysv veritysetup; do
	ln -sf /dev/null "$stage/etc/systemd/system-generators/systemd-$g-generator"
done
# /etc is up to date with /usr (what systemd-update-done would record):
# systemd-sysusers (ConditionNeedsUpdate=) need not run at every boot.
touch "$stage/etc/.updated" "$stage/var/.updated"
# The harness logs in as root over ssh to look and to act: those logins
# are no logind sessions (alice's, which the checks are about, are).  A
# session started root's user manager, 10-20 s each time on a debug
# kernel, and one while logind was starting held logind up; lingering
# instead had logind start it at boot, and wait for it.
sed -i 's/^session\toptional\tpam_systemd\.so/session\t[success=1 default=ignore]\tpam_succeed_if.so quiet service = sshd user = root\n&/' \
	"$stage/etc/pam.d/common-session"
grep -q pam_succeed_if "$stage/etc/pam.d/common-session" || die "common-session: no pam_systemd line"

# A normal user who logs in with a key and may use sudo.
in_root useradd -m -u 1000 -G sudo -s /bin/bash alice
echo 'alice ALL=(ALL) NOPASSWD: ALL' > "$stage/etc/sudoers.d/alice"
chmod 0440 "$stage/etc/sudoers.d/alice"
for home in root home/alice; do
	mkdir -p "$stage/$home/.ssh"
	cp "$DEB/id_ed25519.pub" "$stage/$home/.ssh/authorized_keys"
	chmod 0700 "$stage/$home/.ssh"
	chmod 0600 "$stage/$home/.ssh/authorized_keys"
done
in_root chown -R alice:alice /home/alice/.ssh

# seclvl, as the README installs it: the tools, the units, a
# /etc/seclvl.conf from the server profile, the BPF backend for the stock
# kernel.  Both units are enabled; each starts only on its backend.
if [ "$release" = trixie ]; then
	# On the release itself, from a copy of the sources, as root does.
	src=$stage/root/seclvl
	mkdir -p "$src"
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
		grep -zv '^build\(/\|$\)' | xargs -0 cp --parents -t "$src")
	progress "make seclvl-bpf, install on $what" "$DEB/install.log" no_status \
		chroot "$stage" make -C /root/seclvl seclvl-bpf seclvlctl \
		install-seclvlctl install-seclvl-bpf ||
		die "make install-seclvl-bpf on $what failed (${DEB#"$TOP"/}/install.log)"
	rm -rf "$src"
else
	make -s -C "$TOP" install-seclvlctl DESTDIR="$stage" >/dev/null
	make -s -C "$TOP" install-seclvl-bpf DESTDIR="$stage" >/dev/null
fi
systemctl --root="$stage" -q enable seclvl.service seclvl-bpf.service
# The 7.3 test kernel's modules (debian-lsm-*) beside the stock kernel's.
use_kernel 7.3
make -s -C "$SRC" O="$KOUT" INSTALL_MOD_PATH="$stage" modules_install >/dev/null
echo dummy > "$stage/etc/modules-load.d/dummy.conf"

# The scenarios' material: a User= service, a user's cron job, two local
# packages, one of them with a set-uid file.
cp "$TOP/harness/guest/debian/seclvl-user-test.service" "$stage/etc/systemd/system/"
mkdir -p "$stage/var/spool/cron/crontabs"
echo '* * * * * date +\%s > /home/alice/cron.out' > "$stage/var/spool/cron/crontabs/alice"
in_root chown alice:crontab /var/spool/cron/crontabs/alice
chmod 0600 "$stage/var/spool/cron/crontabs/alice"
for pkg in plain setuid; do
	p=$DEB/pkg-$pkg
	rm -rf "$p"
	mkdir -p "$p/DEBIAN" "$p/usr/bin"
	printf 'Package: seclvl-test-%s\nVersion: 1.0\nArchitecture: all\nMaintainer: seclvl <seclvl@localhost>\nDescription: seclvl test package (%s)\n' \
		"$pkg" "$pkg" > "$p/DEBIAN/control"
	printf '#!/bin/sh\necho %s\n' "$pkg" > "$p/usr/bin/seclvl-test-$pkg"
	chmod 0755 "$p/usr/bin/seclvl-test-$pkg"
	[ "$pkg" = setuid ] && chmod 4755 "$p/usr/bin/seclvl-test-$pkg"
	dpkg-deb -Zxz --root-owner-group -b "$p" "$stage/home/alice/seclvl-test-$pkg.deb" >/dev/null
done
in_root chown alice:alice /home/alice/seclvl-test-plain.deb /home/alice/seclvl-test-setuid.deb

cp "$stage/boot/vmlinuz-$kver" "$DEB/vmlinuz"
cp "$stage/boot/initrd.img-$kver" "$DEB/initrd.img"
rm -f "$DEB/debian.img"
mke2fs -q -t ext4 -L seclvl-root -d "$stage" "$DEB/debian.img.new" 3G ||
	die "mke2fs -d failed"
mv "$DEB/debian.img.new" "$DEB/debian.img"
rm -rf "$stage"
