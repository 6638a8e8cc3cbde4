#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What the BPF backend's tests boot: Debian's own, unmodified linux-image of
# the release our source package is (fetched with apt-get download), the
# BPF backend built against its BTF, and an initramfs with the test guest's
# files plus the stock kernel's modules the tests need, decompressed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -f "$GUEST/root/init" ] || die "no test guest: run harness/build-guest.sh"
mkdir -p "$STOCK"

# linux-source-6.12 6.12.118-1~deb12u1 -> linux-image-6.12.118+deb12-amd64-unsigned
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
kver=${srcver%%-*}+deb12-amd64
pkg=linux-image-$kver-unsigned
deb=$(ls "$STOCK/${pkg}_"*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
	say "fetching $pkg (Debian's kernel of the same release as linux-source-6.12 $srcver)"
	if ! apt-cache show "$pkg" >/dev/null 2>&1; then
		say "$pkg is not in apt's index: apt-get update"
		apt-get update -q >/dev/null 2>&1 || true
		apt-cache show "$pkg" >/dev/null 2>&1 ||
			die "$pkg is not in apt's index (the stock-kernel tests need the release of linux-source-6.12 $srcver)"
	fi
	(cd "$STOCK" && apt-get download -q "$pkg" 2>&1 | grep -v unsandboxed >&2) ||
		die "apt-get download $pkg failed"
	deb=$(ls "$STOCK/${pkg}_"*.deb)
fi
img=$STOCK/img
if [ ! -f "$img/boot/vmlinuz-$kver" ] || [ "$deb" -nt "$img/boot/vmlinuz-$kver" ]; then
	say "unpacking $(basename "$deb")"
	rm -rf "$img"
	dpkg-deb -x "$deb" "$img"
	touch "$img/boot/vmlinuz-$kver"
fi
echo "$kver" > "$STOCK/version"
cp "$img/boot/vmlinuz-$kver" "$STOCK/vmlinuz"
if [ ! -f "$STOCK/vmlinux" ] || [ "$STOCK/vmlinuz" -nt "$STOCK/vmlinux" ]; then
	sh "$SRC/scripts/extract-vmlinux" "$STOCK/vmlinuz" > "$STOCK/vmlinux.tmp" ||
		die "extract-vmlinux failed on $STOCK/vmlinuz (it needs zstd)"
	mv "$STOCK/vmlinux.tmp" "$STOCK/vmlinux"
fi

say "building seclvl-bpf against the BTF of $kver"
mkdir -p "$STOCK/bpf"
make -s -C "$TOP/tools/seclvl/bpf" OUTPUT="$STOCK/bpf" BTF="$STOCK/vmlinux"

# The modules, in load order (depmod on the unpacked tree gives it).  Two
# small ones with no users stand in for the in-tree tests' own modules:
# crc7 to load, crc8 to unload.
say "packing the stock initramfs"
depmod -b "$img" "$kver"
mods="crc32c_generic virtio_blk virtio_scsi virtio_net sd_mod sg nvme loop ext4 xfs msr configfs null_blk binfmt_misc"
root=$STOCK/root
rm -rf "$root"
cp -a "$GUEST/root" "$root"
rm -rf "$root/lib/seclvl"
mkdir -p "$root/lib/stock" "$root/lib/seclvl"
: > "$root/lib/stock/order"
for m in $mods; do
	modprobe -d "$img" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	name=$(basename "$ko" .ko.xz)
	xz -dc "$ko" > "$root/lib/stock/$name.ko"
	echo "$name" >> "$root/lib/stock/order"
done
# For the list of module images (stock-modules, modules_test): Debian's own
# small modules with no users; one stays xz-compressed, as Debian ships it.
for m in crc7 crc8 nls_cp437 nls_cp737 nls_cp850 nls_cp852 minix nls_cp775; do
	ko=$(find "$img/lib/modules/$kver" -name "$m.ko.xz")
	[ -n "$ko" ] || die "$m.ko.xz is not in $kver's modules"
	if [ $m = nls_cp775 ]; then
		cp "$ko" "$root/lib/seclvl/"
	else
		xz -dc "$ko" > "$root/lib/seclvl/$m.ko"
	fi
done
cp "$STOCK/bpf/seclvl-bpf" "$root/sbin/seclvl-bpf"
cp "$TOP"/harness/guest/scenarios/*.sh "$root/scenarios/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$STOCK/initramfs.cpio.new"
mv "$STOCK/initramfs.cpio.new" "$STOCK/initramfs.cpio"
