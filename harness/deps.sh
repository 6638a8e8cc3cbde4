#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Install what the build and the VM tests need, with apt-get, if missing.
set -euo pipefail

pkgs=(linux-source-6.12 qemu-system-x86 busybox-static ccache gcc make
      libc6-dev bc bison flex libelf-dev libssl-dev cpio kmod e2fsprogs
      fdisk xz-utils rsync perl patch coreutils util-linux groff-base man-db systemd)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
echo "== installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
