#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Install what the build and the VM tests need, with apt-get, if missing.
#   deps.sh [PACKAGE...]   and these too (make bench adds its own)
set -euo pipefail

pkgs=(linux-source-6.12 qemu-system-x86 busybox-static ccache gcc make
      libc6-dev bc bison flex libelf-dev libssl-dev cpio kmod e2fsprogs
      fdisk xfsprogs xz-utils rsync perl patch coreutils util-linux groff-base man-db systemd
      git python3-ply python3-git python3-docutils
      clang llvm bpftool libbpf-dev zlib1g-dev zstd sparse
      mmdebstrap openssh-client "$@")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
. "$(dirname "$0")/common.sh"
say "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/seclvl-apt.XXXXXX)
apt_status() { tail -n 1 "$1" | cut -c1-60; }
progress "apt-get update" "$log" apt_status apt-get update
progress "apt-get install" "$log" apt_status \
	apt-get install -y --no-install-recommends "${missing[@]}"
rm -f "$log"
