#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Configure (tinyconfig + harness/kernel.config) and build the test kernel
# out of tree in build/kernel, with ccache.  Reconfigures only when the
# fragment changes; make rebuilds only what changed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

frag=$TOP/harness/kernel.config
mkdir -p "$KOUT"
kmake() { make -s -C "$SRC" O="$KOUT" CC="ccache gcc" "$@"; }

want=$(sha256sum "$frag" | cut -c1-64)
if [ ! -f "$KOUT/.config" ] || [ "$(cat "$KOUT/config.stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring the kernel: tinyconfig + $(basename "$frag")"
	kmake tinyconfig >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$KOUT" "$KOUT/.config" "$frag" >/dev/null
	kmake olddefconfig >/dev/null
	# Kconfig drops what it cannot satisfy: make that an error.
	grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while read -r line; do
		grep -qxF "$line" "$KOUT/.config" ||
			die "config fragment line not in .config: $line"
	done
	echo "$want" > "$KOUT/config.stamp"
fi

say "building the kernel (make -j$JOBS; log in ${KOUT#"$TOP"/}/build.log)"
progress "kernel build" "$KOUT/build.log" kbuild_status \
	make -C "$SRC" O="$KOUT" CC="ccache gcc" -j"$JOBS" bzImage modules
# Compiler warnings in our files would otherwise hide in the log.
if grep -E 'warning:' "$KOUT/build.log" > "$KOUT/warnings.log"; then
	say "the kernel build warned:"
	sed 's/^/   /' "$KOUT/warnings.log" >&2
fi
kmake headers_install >/dev/null
