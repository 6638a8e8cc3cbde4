#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What the BPF backend's tests boot: a Debian kernel, unmodified (fetched
# with apt-get download), and an initramfs with the test guest's files, the
# BPF backend and the kernel's modules the tests need, decompressed.
#   build-stock.sh [KERNEL]
# KERNEL is one of stock_kernels (common.sh), each of them in turn without
# one.  The first, Debian 12's 6.12 of the release our source package is,
# comes first, and with it the BPF backend, once for all (from the types
# kept in tools/seclvl/bpf/vmlinux.h, which test.sh checks against its BTF).
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/apt.sh"

[ -f "$GUEST/root/init" ] || die "no test guest: run harness/build-guest.sh"
if [ $# = 0 ]; then
	for k in "${stock_kernels[@]}"; do
		"$0" "$k"
	done
	exit 0
fi
kernel=$1
dir=$(stock_dir "$kernel")
mkdir -p "$dir"

if [ "$kernel" = "${stock_kernels[0]}" ]; then
	# linux-source-6.12 6.12.118-1~deb12u1 -> linux-image-6.12.118+deb12-amd64-unsigned
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	kver=${srcver%%-*}+deb12-amd64
	pkgs=(linux-image-$kver-unsigned)
	deb=$(ls "$dir/${pkgs[0]}_"*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		say "fetching ${pkgs[0]} (Debian's kernel of the same release as linux-source-6.12 $srcver)"
		if ! apt-cache show "${pkgs[0]}" >/dev/null 2>&1; then
			say "${pkgs[0]} is not in apt's index: apt-get update"
			apt-get update -q >/dev/null 2>&1 || true
			apt-cache show "${pkgs[0]}" >/dev/null 2>&1 ||
				die "${pkgs[0]} is not in apt's index (the stock-kernel tests need the release of linux-source-6.12 $srcver)"
		fi
		(cd "$dir" && apt-get download -q "${pkgs[0]}" 2>&1 | grep -v unsandboxed >&2) ||
			die "apt-get download ${pkgs[0]} failed"
		deb=$(ls "$dir/${pkgs[0]}_"*.deb)
	fi
	debs=("$deb")
else
	IFS=' ' read -r kver pkgs_str <<< "$(stock_packages "$kernel")"
	read -r -a pkgs <<< "$pkgs_str"
	apt_setup
	mapfile -t debs < <(apt_fetch "${pkgs[@]}")
fi
img=$dir/img
stamp=$img/.unpacked
if [ ! -f "$stamp" ] || [ -n "$(find "${debs[@]}" -newer "$stamp")" ]; then
	say "unpacking ${debs[*]##*/}"
	rm -rf "$img"
	for deb in "${debs[@]}"; do
		dpkg-deb -x "$deb" "$img"
	done
	# 7.3's packages keep modules and kernel under /usr/lib/modules only.
	[ -e "$img/lib" ] || ln -s usr/lib "$img/lib"
	touch "$stamp"
fi
vmlinuz=
for f in "$img/boot/vmlinuz-$kver" "$img/lib/modules/$kver/vmlinuz"; do
	[ -f "$f" ] && vmlinuz=$f && break
done
[ -n "$vmlinuz" ] || die "no vmlinuz for $kver in ${debs[*]##*/}"
echo "$kver" > "$dir/version"
cp "$vmlinuz" "$dir/vmlinuz"
if [ "$kernel" = "${stock_kernels[0]}" ]; then
	if [ ! -f "$dir/vmlinux" ] || [ "$dir/vmlinuz" -nt "$dir/vmlinux" ]; then
		sh "$SRC/scripts/extract-vmlinux" "$dir/vmlinuz" > "$dir/vmlinux.tmp" ||
			die "extract-vmlinux failed on $dir/vmlinuz (it needs zstd)"
		mv "$dir/vmlinux.tmp" "$dir/vmlinux"
	fi
fi

if [ "$kernel" = "${stock_kernels[0]}" ]; then
	say "building seclvl-bpf"
	mkdir -p "$STOCK/bpf"
	make -s -C "$TOP/tools/seclvl/bpf" OUTPUT="$STOCK/bpf"
fi
[ -x "$STOCK/bpf/seclvl-bpf" ] || die "no seclvl-bpf: build-stock.sh ${stock_kernels[0]} first"

# The modules, in load order (depmod on the unpacked tree gives it); those
# a kernel has built in are left out.  Two small ones with no users stand
# in for the in-tree tests' own modules: nls_cp860 to load, nls_cp861 to
# unload.
say "packing the stock initramfs for $kver"
depmod -b "$img" "$kver" 2>&1 | grep -v "could not open modules" >&2 || true
mods="crc32c_generic virtio_pci virtio_blk virtio_scsi virtio_net sd_mod sg nvme loop ext4 xfs msr configfs null_blk binfmt_misc"
root=$dir/root
rm -rf "$root"
cp -a "$GUEST/root" "$root"
rm -rf "$root/lib/seclvl"
mkdir -p "$root/lib/stock" "$root/lib/seclvl"
: > "$root/lib/stock/order"
for m in $mods; do
	[ -n "$(find "$img/lib/modules/$kver/" -name "$m.ko*")" ] || continue
	modprobe -d "$img" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	name=$(basename "${ko%.xz}" .ko)
	xz -dcf "$ko" > "$root/lib/stock/$name.ko"
	echo "$name" >> "$root/lib/stock/order"
done
# For the list of module images (stock-modules, modules_test): Debian's own
# small modules with no users; one stays xz-compressed, as Debian ships it.
for m in nls_cp860 nls_cp861 nls_cp437 nls_cp737 nls_cp850 nls_cp852 minix nls_cp775; do
	ko=$(find "$img/lib/modules/$kver/" -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)
	[ -n "$ko" ] || die "$m is not in $kver's modules"
	if [ $m = nls_cp775 ]; then
		# xz-compressed, as Debian ships modules (6.1 ships them plain).
		case $ko in
		*.xz) cp "$ko" "$root/lib/seclvl/$m.ko.xz" ;;
		*) xz -c "$ko" > "$root/lib/seclvl/$m.ko.xz" ;;
		esac
	else
		xz -dcf "$ko" > "$root/lib/seclvl/$m.ko"
	fi
done
cp "$STOCK/bpf/seclvl-bpf" "$root/sbin/seclvl-bpf"
cp "$TOP"/harness/guest/scenarios/*.sh "$root/scenarios/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$dir/initramfs.cpio.new"
mv "$dir/initramfs.cpio.new" "$dir/initramfs.cpio"
