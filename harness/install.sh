#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make install KSRC=/path/to/linux: put seclvl into an existing 7.3 or
# 6.12 tree, as patches/series lists it: apply the patches for its kernel
# (patches/7.3/ or patches/) to its files and copy our files in.
# Everything is checked before anything changes; a tree that has seclvl
# already is brought up to date.  Prints what changed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

ksrc=${1:-}
[ -n "$ksrc" ] || die "usage: make install KSRC=/path/to/linux-7.3-or-6.12 (for seclvlctl: make install-seclvlctl)"
[ -d "$ksrc" ] || die "KSRC=$ksrc: no such directory"
ksrc=$(cd "$ksrc" && pwd)
kver=$(kernel_version "$ksrc")
[ -n "$kver" ] && [ -f "$ksrc/security/Kconfig" ] ||
	die "KSRC=$ksrc is not a Linux source tree (no top Makefile with VERSION, or no security/Kconfig)"
case $kver in
6.12|6.12.*) use_kernel 6.12 ;;
7.3|7.3.*) use_kernel 7.3 ;;
*) die "KSRC=$ksrc is Linux $kver; seclvl is for 7.3 and 6.12" ;;
esac
pdir=${PATCHES#"$TOP"/}

# Decide everything first.
apply=() present=()
while read -r file _; do
	[[ $file == *.patch ]] || continue
	p=$PATCHES/$file
	if patch -d "$ksrc" -p1 -s -f --dry-run < "$p" >/dev/null 2>&1; then
		apply+=("$file")
	elif patch -d "$ksrc" -p1 -s -f -R --dry-run < "$p" >/dev/null 2>&1; then
		present+=("$file")
	else
		die "$pdir/$file neither applies to $ksrc nor is applied there; nothing changed"
	fi
done < <(series_lines)
added=() updated=() same=0
while read -r _ paths; do
	for p in $paths; do
		while read -r f; do
			if [ ! -e "$ksrc/$f" ]; then
				added+=("$f")
			elif ! cmp -s "$TOP/$f" "$ksrc/$f"; then
				updated+=("$f")
			else
				same=$((same + 1))
			fi
		done < <(series_files "$p")
	done
done < <(series_lines)

for file in "${apply[@]}"; do
	patch -d "$ksrc" -p1 -s -f --no-backup-if-mismatch < "$PATCHES/$file" ||
		die "$pdir/$file failed half-way in $ksrc: restore the tree from your VCS"
done
for f in "${added[@]}" "${updated[@]}"; do
	mkdir -p "$ksrc/$(dirname "$f")"
	cp "$TOP/$f" "$ksrc/$f"
done

echo "seclvl into Linux $kver at $ksrc:"
for file in "${apply[@]}"; do
	echo "  patched  $file:"
	patched_files "$PATCHES/$file" | sed 's/^/             /'
done
for file in "${present[@]}"; do echo "  had      $file"; done
for f in "${added[@]}"; do echo "  added    $f"; done
for f in "${updated[@]}"; do echo "  updated  $f"; done
echo "  unchanged: $same of our files"
if [ ${#apply[@]} -eq 0 ] && [ ${#added[@]} -eq 0 ] && [ ${#updated[@]} -eq 0 ]; then
	echo "Nothing to change: seclvl is installed and up to date."
else
	cat <<'TEXT'
Next: enable it in the kernel's configuration and list it in the LSM order,
  scripts/config --enable SECURITY_SECLVL
  scripts/config --set-str LSM "landlock,lockdown,yama,seclvl,...your order..."
or boot with lsm=...,seclvl.  See Documentation/admin-guide/LSM/seclvl.rst.
TEXT
fi
