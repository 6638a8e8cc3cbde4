#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The small kernel: allnoconfig with seclvl and without BLOCK, PROC_FS,
# SYSCTL, NET, MODULES, IO_URING and KEXEC (harness/tiny.config), built with W=1 in
# build/tiny, and its initramfs.  Then sparse (C=2) and W=1 on
# security/seclvl, in this kernel and in one configured as the test
# kernel: any warning from our files fails (build/tiny/warnings.log).
set -euo pipefail
. "$(dirname "$0")/common.sh"

frag=$TOP/harness/tiny.config
TINY=$BUILD/tiny
CHECK=$BUILD/check
mkdir -p "$TINY" "$CHECK"
tmake() { make -C "$SRC" O="$TINY" CC="ccache gcc" W=1 "$@"; }

want=$(sha256sum "$frag" | cut -c1-64)
if [ ! -f "$TINY/.config" ] || [ "$(cat "$TINY/config.stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring the small kernel: allnoconfig + $(basename "$frag")"
	tmake -s KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null
	grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while read -r line; do
		grep -qxF "$line" "$TINY/.config" ||
			die "small kernel: config line not in .config: $line"
	done
	# Hidden options that are off do not appear at all.
	sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag" | while read -r opt; do
		! grep -q "^$opt=" "$TINY/.config" ||
			die "small kernel: $opt is on, the fragment turns it off"
	done
	echo "$want" > "$TINY/config.stamp"
fi
progress "small kernel build" "$TINY/build.log" no_status tmake -j"$JOBS" bzImage

# The same W=1 and sparse on the test kernel's configuration, out of tree
# so that the test kernel's own objects keep their flags.
if ! cmp -s "$KOUT/.config" "$CHECK/.config"; then
	cp "$KOUT/.config" "$CHECK/.config"
	make -s -C "$SRC" O="$CHECK" CC="ccache gcc" olddefconfig >/dev/null
fi
checks() { # OUT
	make -C "$SRC" O="$1" CC="ccache gcc" W=1 C=2 -j"$JOBS" security/seclvl/
}
progress "W=1 and sparse, small kernel" "$TINY/check.log" no_status checks "$TINY"
progress "W=1 and sparse, test kernel's config" "$CHECK/check.log" no_status checks "$CHECK"
grep -hE 'security/seclvl/.*(warning|error):' "$TINY/build.log" "$TINY/check.log" "$CHECK/check.log" \
	> "$TINY/warnings.log" || true

# A busybox initramfs whose /init runs the checks of harness/guest/tiny-init.
root=$TINY/root
rm -rf "$root"
mkdir -p "$root"/{bin,dev,sys}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$TOP/harness/guest/tiny-init" "$root/init"
chmod 0755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$TINY/initramfs.cpio"
