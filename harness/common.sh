# SPDX-License-Identifier: GPL-2.0-only
# Paths shared by the harness scripts; sourced, not run.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
SRC=$BUILD/linux-source-6.12
KOUT=$BUILD/kernel
GUEST=$BUILD/guest
TARBALL=/usr/src/linux-source-6.12.tar.xz
JOBS=$(nproc)

say() { printf '== %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
