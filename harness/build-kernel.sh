#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Configure (tinyconfig + harness/kernel.config, + debug.config on 6.12)
# and build the test kernel out of tree in build/kernel (build/kernel-7.3),
# with ccache.  Reconfigures only when a fragment changes; make rebuilds
# only what changed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# The 6.12 kernel adds debug.config (lockdep, KASAN): see its header.
frags=("$TOP/harness/kernel.config")
[ "$KVER" = 6.12 ] && frags+=("$TOP/harness/debug.config")
mkdir -p "$KOUT"
kmake() { make -s -C "$SRC" O="$KOUT" CC="ccache gcc" "$@"; }

want=$(cat "${frags[@]}" | sha256sum | cut -c1-64)
if [ ! -f "$KOUT/.config" ] || [ "$(cat "$KOUT/config.stamp" 2>/dev/null)" != "$want" ]; then
	say "configuring the kernel: tinyconfig + ${frags[*]##*/}"
	kmake tinyconfig >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$KOUT" "$KOUT/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Kconfig drops what it cannot satisfy: make that an error.
	grep -hE '^CONFIG_[A-Z0-9_]+=' "${frags[@]}" | while read -r line; do
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
