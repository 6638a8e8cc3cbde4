#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Unpack Debian's linux-source of the kernel SECLVL_KVER names (6.12 by
# default, or 7.3: common.sh) into build/, apply its patches and copy our
# files in.  The tree is unpacked again only when the tarball or a patch
# changes; our files are copied by content, so only changed ones rebuild.
set -euo pipefail
. "$(dirname "$0")/common.sh"

fetch_tarball
[ -f "$TARBALL" ] || die "$TARBALL missing: run harness/deps.sh"
stamp=$SRC.stamp
want=$( (stat -c '%s %Y' "$TARBALL"; cat "$PATCHES"/*.patch) | sha256sum | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	say "unpacking $(basename "$TARBALL") and applying ${PATCHES#"$TOP"/}/"
	rm -rf "$SRC" "$stamp"
	mkdir -p "$(dirname "$SRC")"
	progress "unpacking" "$SRC.unpack.log" no_status tar -C "$(dirname "$SRC")" -xf "$TARBALL"
	for p in "$PATCHES"/*.patch; do
		patch -d "$SRC" -p1 -s --no-backup-if-mismatch --forward < "$p" ||
			die "patch $(basename "$p") does not apply"
	done
	echo "$want" > "$stamp"
fi

# By content, not time: a file changed while a build ran is older than
# what that build made from the copy before, and keeping its time would
# let make skip it.  A changed file is written with the time of the copy.
for d in security/seclvl tools/testing/selftests/seclvl; do
	mkdir -p "$SRC/$d"
	rsync -rlp --checksum --delete "$TOP/$d/" "$SRC/$d/"
done
for f in Documentation/admin-guide/LSM/seclvl.rst \
	 Documentation/security/seclvl.rst \
	 Documentation/ABI/testing/securityfs-seclvl; do
	[ -f "$TOP/$f" ] && rsync -a "$TOP/$f" "$SRC/$f"
done
exit 0
