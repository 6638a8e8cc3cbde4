#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build what runs in the guest -- the seclvl and lsm selftests (static), the
# test modules against the built kernel -- and pack the initramfs.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -f "$KOUT/arch/x86/boot/bzImage" ] || die "no kernel: run harness/build-kernel.sh"
mkdir -p "$GUEST"

say "building the selftests and the test modules"
for t in seclvl lsm; do
	mkdir -p "$GUEST/selftests/$t"
	make -s -C "$SRC/tools/testing/selftests/$t" OUTPUT="$GUEST/selftests/$t" \
		KHDR_INCLUDES="-isystem $KOUT/usr/include" LDFLAGS=-static all
done
make -s -C "$TOP/tools/seclvl" OUTPUT="$GUEST" LDFLAGS=-static SBINDIR=/sbin >/dev/null
make -s -C "$TOP/tools/seclvl/bench" OUTPUT="$GUEST" >/dev/null
mkdir -p "$GUEST/test_module"
rsync -a "$TOP/tools/testing/selftests/seclvl/test_module/" "$GUEST/test_module/"
make -s -C "$GUEST/test_module" KDIR="$KOUT" CC="ccache gcc" >/dev/null

say "packing the initramfs"
root=$GUEST/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,mnt,etc,lib/seclvl,selftests,scenarios,bench}
cp /bin/busybox "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
cp -a "$GUEST/selftests/seclvl" "$GUEST/selftests/lsm" "$root/selftests/"
cp "$GUEST"/test_module/*.ko "$root/lib/seclvl/"
# Compressed as kbuild's modules_install does it: the kernel decompresses.
xz --check=crc32 --lzma2=dict=1MiB -c "$GUEST/test_module/seclvl_test_list_xz.ko" \
	> "$root/lib/seclvl/seclvl_test_list_xz.ko.xz"
rm "$root/lib/seclvl/seclvl_test_list_xz.ko"
cp "$GUEST/seclvlctl" "$root/sbin/seclvlctl"
cp "$GUEST/seclvl_bench" "$root/bench/"
cp "$GUEST/seclvl_true" "$root/bin/"
install -D -m 0755 "$GUEST/seclvl.init" "$root/etc/init.d/seclvl"
cp "$TOP/tools/seclvl/profiles/server.conf" "$root/etc/seclvl.conf.example"
# e2fsprogs' mke2fs and util-linux's sfdisk, with their libraries, for the
# tests that format and partition an unused disk (busybox has neither).
for bin in mke2fs sfdisk; do
	path=$(command -v "$bin") || die "$bin not found"
	install -D -m 0755 "$path" "$root/usr/local/sbin/$bin"
	for lib in $(ldd "$path" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		# 0755: the kernel opens the dynamic loader for execution.
		[ -e "$root$lib" ] || install -D -m 0755 "$lib" "$root$lib"
	done
done
cp "$TOP/harness/guest/init" "$root/init"
cp "$TOP"/harness/guest/scenarios/*.sh "$root/scenarios/"
chmod 0755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$GUEST/initramfs.cpio.new"
mv "$GUEST/initramfs.cpio.new" "$GUEST/initramfs.cpio"
