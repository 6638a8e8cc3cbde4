# SPDX-License-Identifier: GPL-2.0-only
# Paths shared by the harness scripts; sourced, not run.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
STOCK=$BUILD/stock
# The Debian kernels the BPF backend is tested on (build-stock.sh KERNEL):
# Debian 12's 6.12 first (the default, the reference of the backend's
# tools/seclvl/bpf/vmlinux.h), then Debian 12's 6.1, Debian 13's 6.12 and trixie-backports'
# 7.3.  Each but the first is in build/stock-KERNEL.
stock_kernels=(6.12 6.1 deb13 7.3)
stock_dir() { # KERNEL
	if [ "$1" = "${stock_kernels[0]}" ]; then echo "$STOCK"; else echo "$STOCK-$1"; fi
}
# The debian-* scenarios' systems: Debian 13 (debian-*) and Debian 12
# (debian12-*), each with its own directory of build/.
debian_dir() { # RELEASE
	case $1 in
	bookworm) echo "$BUILD/debian" ;;
	trixie) echo "$BUILD/debian13" ;;
	*) die "unknown Debian release '$1'" ;;
	esac
}
stock_packages() { # KERNEL: its uname -r, then the packages that hold it
	case $1 in
	6.1) echo "6.1.0-50-amd64 linux-image-6.1.0-50-amd64-unsigned" ;;
	deb13) echo "6.12.117+deb13-amd64 linux-image-6.12.117+deb13-amd64-unsigned" ;;
	7.3) echo "7.3.4+deb13-amd64 linux-binary-7.3.4+deb13-amd64 linux-modules-7.3.4+deb13-amd64" ;;
	*) die "unknown stock kernel '$1' (one of: ${stock_kernels[*]})" ;;
	esac
}
JOBS=$(nproc)

# QEMU's accelerator for every guest: TCG with all vCPUs on one host thread.
# Under multi-threaded TCG a vCPU runs a stale int3 at a site another vCPU
# has just patched (the final bytes are in place, the kernel's int3 handler
# is done: "Oops: int3"), an emulator artefact of cross-modifying code that
# real CPUs exclude with text_poke_sync().  Seen in a static key of a hook
# at a raise (seclvl's deferred hooks: debian-lsm-2 and level2), while
# seclvl-bpf attached on Debian's kernel (debian-bpf-strict), and, without
# seclvl, in three boots of three that switched a tracepoint on and off
# while both vCPUs ran it (trace_kmalloc, kfree); with one thread, none in
# 400 switches.  One thread changes vCPU only between translated blocks,
# after the writer's invalidation.
QEMU_ACCEL=tcg,thread=single

say() { printf '== %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The kernel seclvl is built into: 6.12 (the default, from Debian 12's
# linux-source-6.12 on the host), or 7.3, the newest Debian ships
# (trixie-backports' linux-source-7.3, fetched into build/), whose patches
# are in patches/7.3.  Each has its own tree, test kernel and guest.
use_kernel() { # KVER: set KVER, SRC, KOUT, GUEST, PATCHES, TARBALL and SERIES
	case $1 in
	6.12)
		SRC=$BUILD/linux-source-6.12 KOUT=$BUILD/kernel GUEST=$BUILD/guest
		PATCHES=$TOP/patches TARBALL=/usr/src/linux-source-6.12.tar.xz
		SERIES=$BUILD/series-6.12
		;;
	7.3)
		SRC=$BUILD/linux-source-7.3/linux-source-7.3 KOUT=$BUILD/kernel-7.3
		GUEST=$BUILD/guest-7.3 PATCHES=$TOP/patches/7.3
		TARBALL=$BUILD/linux-source-7.3/pkg/usr/src/linux-source-7.3.tar.xz
		SERIES=$BUILD/series
		;;
	*) die "kernel '$1': seclvl builds into 6.12 or 7.3 (SECLVL_KVER)" ;;
	esac
	KVER=$1
}
use_kernel "${SECLVL_KVER:-6.12}"

# The kernel's source tarball: 6.12's is the host's package (deps.sh),
# 7.3's is fetched into build/ once.
fetch_tarball() {
	local pkg=$BUILD/linux-source-7.3/pkg deb

	[ "$KVER" = 7.3 ] && [ ! -f "$pkg/version" ] || return 0
	. "$TOP/harness/apt.sh"
	apt_setup
	deb=$(apt_fetch linux-source-7.3)
	say "unpacking $(basename "$deb")"
	rm -rf "$pkg"
	mkdir -p "$pkg"
	dpkg-deb -x "$deb" "$pkg"
	dpkg-deb -f "$deb" Version > "$pkg/version"
}

# The Debian version of the kernel's linux-source package, "6.12.118-1~deb12u1".
source_version() {
	if [ "$KVER" = 7.3 ]; then
		cat "$BUILD/linux-source-7.3/pkg/version"
	else
		dpkg-query -W -f='${Version}' linux-source-6.12
	fi
}

# A progress() status for steps that cannot say how far they are.
no_status() { :; }

# 75 -> "1m15s"
elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# Run a long step with its output in LOG and report progress instead: on a
# terminal one line updated each second, otherwise a line every
# $SECLVL_PROGRESS seconds (default 30).  STATUS is a function that prints a
# few words on how far the step is (it may print nothing).  On failure the
# tail of LOG is shown.  Returns the command's status.
progress() { # LABEL LOG STATUS COMMAND...
	local label=$1 log=$2 status=$3
	shift 3
	local start=$SECONDS every=${SECLVL_PROGRESS:-30} tty= rc=0 pid now
	[ -t 2 ] && tty=1
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$((SECONDS - start))
		if [ -n "$tty" ]; then
			printf '\r\033[K   %s: %s %s' "$label" "$(elapsed "$now")" "$($status "$log")" >&2
		elif [ $((now % every)) -eq 0 ]; then
			printf '   %s: %s %s\n' "$label" "$(elapsed "$now")" "$($status "$log")" >&2
		fi
	done
	wait "$pid" || rc=$?
	[ -n "$tty" ] && printf '\r\033[K' >&2
	if [ "$rc" -ne 0 ]; then
		printf '   %s: failed after %s (status %d); end of %s:\n' \
			"$label" "$(elapsed $((SECONDS - start)))" "$rc" "$log" >&2
		tail -n 30 "$log" | sed 's/^/   | /' >&2
	else
		printf '   %s: done in %s\n' "$label" "$(elapsed $((SECONDS - start)))" >&2
	fi
	return "$rc"
}

# The files a patch (or a series) changes or adds, in its order.
patched_files() { sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@"; }

# patches/series without comments: "FILE [PATH...]" per line.
series_lines() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"; }

# Our files under PATH (a file or a folder), relative to the top.
series_files() { # PATH
	(cd "$TOP" && find "$1" -type f ! -name '*.o' ! -name '*.ko' | LC_ALL=C sort)
}

# The version a kernel tree's top Makefile says, "6.12.118"; empty if none.
kernel_version() { # TREE
	sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = \([0-9]*\)$/\2/p' "$1/Makefile" 2>/dev/null |
		paste -sd. || true
}

# kbuild prints one line per step ("  CC      kernel/fork.o"): count them.
kbuild_status() {
	local n last
	n=$(grep -cE '^  [A-Z]' "$1")
	last=$(grep -E '^  [A-Z]' "$1" | tail -n 1 | awk '{print $2}')
	[ "$n" -gt 0 ] && printf '%d steps, now %s' "$n" "$last"
	return 0
}
