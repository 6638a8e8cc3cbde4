#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The release kernel for make bench (not used by it yet): the same tree as the
# test kernel (linux-source-6.12 with seclvl), configured as Debian
# configures its 6.12 kernel (the config file in the stock linux-image
# package), seclvl built in and listed in CONFIG_LSM, no debug info, no
# Debian signing keys, and modules trimmed by localmodconfig to those the
# stock guest loads (build/stock/root/lib/stock/order).  Out of tree in
# build/release, with ccache; reconfigured only when one of those inputs
# changes.
set -euo pipefail
. "$(dirname "$0")/common.sh"

ROUT=$BUILD/release
kver=$(cat "$STOCK/version")
dconfig=$STOCK/img/boot/config-$kver
order=$STOCK/root/lib/stock/order
if [ ! -f "$dconfig" ] || [ ! -f "$order" ]; then
	die "no stock kernel yet: make stock first"
fi
mkdir -p "$ROUT"
kmake() { make -s -C "$SRC" O="$ROUT" CC="ccache gcc" "$@"; }

want=$(cat "$dconfig" "$order" "$0" | sha256sum | cut -c1-64)
if [ ! -f "$ROUT/.config" ] || [ "$(cat "$ROUT/config.stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring the release kernel: Debian's $kver configuration"
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
	echo "$want" > "$ROUT/config.stamp"
fi

say "building the release kernel (make -j$JOBS; log in build/release/build.log)"
progress "release kernel build" "$ROUT/build.log" kbuild_status \
	make -C "$SRC" O="$ROUT" CC="ccache gcc" -j"$JOBS" bzImage modules
