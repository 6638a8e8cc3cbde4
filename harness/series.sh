#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make patch: write the patch series of patches/series, with a cover
# letter, against pristine Linux from Debian's linux-source of the kernel
# SECLVL_KVER names: 7.3's, the one for review, to build/series/, and
# 6.12's backport to build/series-6.12/.  A scratch git repository holds
# the pristine versions of the files the series touches; each line of
# patches/series becomes one commit there, and git format-patch writes
# them out, dated as our last commit.
set -euo pipefail
. "$(dirname "$0")/common.sh"

fetch_tarball
[ -f "$TARBALL" ] || die "$TARBALL missing: run harness/deps.sh"
out=$SERIES
work=$BUILD/series-git-$KVER
rm -rf "$out" "$work"
mkdir -p "$work"

version=$(source_version)
# Our patches only change files (their new files come with patches/series).
touched=$(patched_files "$PATCHES"/*.patch | sort -u)
# shellcheck disable=SC2086
tar -C "$work" -xf "$TARBALL" --strip-components=1 \
	$(printf "linux-source-$KVER/%s " Makefile $touched)
kver=$(kernel_version "$work")

export GIT_AUTHOR_NAME="seclvl developers" GIT_AUTHOR_EMAIL=seclvl@lists.linux.dev
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
when=$(git -C "$TOP" log -1 --format=%cI 2>/dev/null || date -u +%FT%TZ)
export GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when
g() { git -C "$work" -c core.autocrlf=false -c commit.gpgsign=false "$@"; }
g init -q
g add -A
g commit -q -m "Linux $kver (Debian linux-source-$KVER $version)"
base=$(g rev-parse HEAD)

while read -r file paths; do
	if [[ $file == *.patch ]]; then
		g am -q --keep-cr "$PATCHES/$file" ||
			die "${PATCHES#"$TOP"/}/$file does not apply to pristine $kver"
	fi
	for p in $paths; do
		mkdir -p "$work/$(dirname "$p")"
		rsync -a "$TOP/$p" "$work/$(dirname "$p")/"
		g add -f "$p"
	done
	if [[ $file == *.patch ]]; then
		[ -z "$paths" ] || g commit -q --amend --no-edit
	else
		g commit -q -F "$TOP/patches/$file"
	fi
done < <(series_lines)

g format-patch -q --cover-letter --thread=shallow -o "$out" "$base"..HEAD
cover=$out/0000-cover-letter.patch
subject=$(head -n 1 "$TOP/patches/messages/cover-letter.txt")
{
	tail -n +3 "$TOP/patches/messages/cover-letter.txt"
	echo
	echo "Against Linux $kver as Debian ships it in linux-source-$KVER"
	echo "$version."
} > "$work/blurb"
sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/$subject/" \
	-e "/\*\*\* BLURB HERE \*\*\*/{r $work/blurb
d}" "$cover"
rm -rf "$work"
n=$(find "$out" -name '*.patch' | wc -l)
say "wrote $n files to ${out#"$TOP"/}: a cover letter and $((n - 1)) patches for $kver"
(cd "$out" && ls) >&2
