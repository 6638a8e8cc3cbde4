#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The release kernel make bench measures the in-tree LSM on: the same tree
# as the test kernel (linux-source-6.12 with seclvl), configured as Debian
# configures its 6.12 kernel (the config file in the stock linux-image
# package), seclvl built in and listed in CONFIG_LSM, no debug info, no
# Debian signing keys, and modules trimmed by localmodconfig to those the
# stock guest loads (build/stock/root/lib/stock/order).  Out of tree in
# build/release, with ccache; reconfigured only when one of those inputs
# (or configure() below) changes.
# Then its initramfs, build/release-guest/initramfs.cpio: the test guest's
# files with this kernel's own modules, signed as modules_install signs
# them, in /lib/stock in the stock initramfs's load order; repacked only
# when the guest, a module or pack() changes.
set -euo pipefail
. "$(dirname "$0")/common.sh"

ROUT=$BUILD/release
RGUEST=$BUILD/release-guest
kver=$(cat "$STOCK/version")
dconfig=$STOCK/img/boot/config-$kver
order=$STOCK/root/lib/stock/order
if [ ! -f "$dconfig" ] || [ ! -f "$order" ]; then
	die "no stock kernel yet: make stock first"
fi
[ -f "$GUEST/initramfs.cpio" ] || die "no test guest: make guest first"
mkdir -p "$ROUT" "$RGUEST"
kmake() { make -s -C "$SRC" O="$ROUT" CC="ccache gcc" "$@"; }

configure() {
	cp "$dconfig" "$ROUT/.config"
	# localmodconfig reads lsmod's format; the modules' sizes do not count.
	{ echo "Module Size Used by"; sed 's/-/_/g; s/$/ 16384 0/' "$order"; } > "$ROUT/lsmod"
	kmake LSMOD="$ROUT/lsmod" localmodconfig </dev/null >"$ROUT/config.log" 2>&1 ||
		die "localmodconfig failed (build/release/config.log)"
	lsms=$(sed -n 's/^CONFIG_LSM="\(.*\)"/\1/p' "$ROUT/.config")
	"$SRC/scripts/config" --file "$ROUT/.config" \
		-e SECURITY_SECLVL --set-str LSM "$lsms,seclvl" \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 \
		-d DEBUG_INFO_DWARF5 -d DEBUG_INFO_BTF -e DEBUG_INFO_NONE \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str BUILD_SALT ""
	kmake olddefconfig >/dev/null
	for line in CONFIG_SECURITY_SECLVL=y CONFIG_DEBUG_INFO_NONE=y; do
		grep -qxF "$line" "$ROUT/.config" || die "release config lacks $line"
	done
	grep -q '^CONFIG_LSM=".*seclvl"' "$ROUT/.config" || die "release config: seclvl not in CONFIG_LSM"
}

want=$({ cat "$dconfig" "$order"; declare -f configure; } | sha256sum | cut -c1-64)
if [ ! -f "$ROUT/.config" ] || [ "$(cat "$ROUT/config.stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring the release kernel: Debian's $kver configuration"
	configure
	echo "$want" > "$ROUT/config.stamp"
fi

say "building the release kernel (make -j$JOBS; log in build/release/build.log)"
progress "release kernel build" "$ROUT/build.log" kbuild_status \
	make -C "$SRC" O="$ROUT" CC="ccache gcc" -j"$JOBS" bzImage modules

# The release kernel's module of each name in the stock order, or nothing
# if this configuration builds it in.
release_ko() { # NAME
	awk -v n="$1" '{ f = $0; sub(/.*\//, "", f); sub(/\.o$/, "", f)
		gsub(/-/, "_", f); m = n; gsub(/-/, "_", m)
		if (f == m) { sub(/\.o$/, ".ko"); print; exit } }' "$ROUT/modules.order"
}

pack() {
	local root=$RGUEST/root name ko hash
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' "$ROUT/.config")
	rm -rf "$root"
	cp -a "$GUEST/root" "$root"
	mkdir -p "$root/lib/stock"
	: > "$root/lib/stock/order"
	while read -r name; do
		ko=$(release_ko "$name")
		if [ -z "$ko" ]; then
			grep -qE "/${name//[-_]/[-_]}\.ko\$" "$ROUT/modules.builtin" ||
				die "release kernel: no module $name and not built in"
			continue
		fi
		cp "$ROUT/$ko" "$root/lib/stock/$name.ko"
		if [ -n "$hash" ]; then
			"$ROUT/scripts/sign-file" "$hash" "$ROUT/certs/signing_key.pem" \
				"$ROUT/certs/signing_key.x509" "$root/lib/stock/$name.ko"
		fi
		echo "$name" >> "$root/lib/stock/order"
	done < "$order"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
		> "$RGUEST/initramfs.cpio.new"
	mv "$RGUEST/initramfs.cpio.new" "$RGUEST/initramfs.cpio"
}

want=$({ sha256sum "$GUEST/initramfs.cpio" "$order" "$ROUT/arch/x86/boot/bzImage"
	while read -r name; do
		ko=$(release_ko "$name")
		[ -z "$ko" ] || sha256sum "$ROUT/$ko"
	done < "$order"
	declare -f pack release_ko; } | sha256sum | cut -c1-64)
if [ ! -f "$RGUEST/initramfs.cpio" ] || [ "$(cat "$RGUEST/stamp" 2>/dev/null)" != "$want" ]; then
	say "packing the release initramfs: the test guest with the release kernel's modules"
	pack
	echo "$want" > "$RGUEST/stamp"
fi
