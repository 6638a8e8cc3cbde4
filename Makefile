# SPDX-License-Identifier: GPL-2.0-only
# seclvl: BSD secure levels for Linux 7.3 and 6.12.  See README.md.
#
#   make test   build the kernel with seclvl, boot every scenario, report
#   make run    boot the same kernel to a shell at level 0
#   make demo   a short scripted tour, no terminal needed
#   make bench  what seclvl costs per hooked path and workload, on a release kernel and Debian's
#   make release  a kernel configured as Debian's, with seclvl built in, and its initramfs
#   make patch  the patch series with a cover letter, in build/series/
#               (Linux 7.3), and its 6.12 backport in build/series-6.12/
#   make install KSRC=/path/to/linux   put seclvl into a 7.3 or 6.12 tree
#   make seclvlctl, make install-seclvlctl [DESTDIR=] [PREFIX=/usr/local]
#   make seclvl-bpf, make install-seclvl-bpf   the BPF backend, for stock kernels

H := harness

.PHONY: all deps tree kernel kernel-7.3 guest stock tiny debian release test run demo bench checkpatch clean distclean \
	seclvlctl install-seclvlctl seclvl-bpf install-seclvl-bpf patch install

all: guest seclvlctl

seclvlctl:
	@mkdir -p build
	@$(MAKE) -s -C tools/seclvl OUTPUT=$(CURDIR)/build

install-seclvlctl: seclvlctl
	@$(MAKE) -s -C tools/seclvl OUTPUT=$(CURDIR)/build install

# The BPF backend: one build for every kernel the admin guide lists.
seclvl-bpf:
	@mkdir -p build/bpf
	@$(MAKE) -s -C tools/seclvl/bpf OUTPUT=$(CURDIR)/build/bpf

install-seclvl-bpf: seclvl-bpf
	@$(MAKE) -s -C tools/seclvl/bpf OUTPUT=$(CURDIR)/build/bpf install

patch: deps
	@SECLVL_KVER=7.3 $(H)/series.sh
	@SECLVL_KVER=6.12 $(H)/series.sh

install:
	@$(H)/install.sh "$(KSRC)"

deps:
	@$(H)/deps.sh

tree: deps
	@$(H)/tree.sh

kernel: tree
	@$(H)/build-kernel.sh

guest: kernel
	@$(H)/build-guest.sh

stock: guest
	@$(H)/build-stock.sh

# The same on the newest kernel: its tree, test kernel and guest.
kernel-7.3: deps
	@SECLVL_KVER=7.3 $(H)/tree.sh
	@SECLVL_KVER=7.3 $(H)/build-kernel.sh
	@SECLVL_KVER=7.3 $(H)/build-guest.sh

tiny: kernel
	@$(H)/build-tiny.sh

# The Debian 13 and 12 systems of the debian-* scenarios (rootfs cached).
debian: stock kernel-7.3
	@$(H)/debian-image.sh trixie
	@$(H)/debian-image.sh bookworm

test: stock tiny kernel-7.3 debian
	@$(H)/test.sh

run: guest
	@$(H)/boot.sh --interactive shell quiet

demo: guest
	@$(H)/demo.sh

# The release kernel for the in-tree LSM, Debian's stock kernel for the BPF backend.
bench: release stock
	@$(H)/bench.sh

release: stock
	@$(H)/build-release.sh

checkpatch: tree
	@cd build/linux-source-6.12 && ./scripts/checkpatch.pl --no-tree --strict \
		-f $(addprefix ../../,$(wildcard security/seclvl/*.[ch] \
		tools/testing/selftests/seclvl/*.[ch] \
		tools/testing/selftests/seclvl/test_module/*.c tools/seclvl/*.c \
		tools/seclvl/bench/*.c tools/seclvl/bpf/*.[ch])) && \
		./scripts/checkpatch.pl --no-tree --strict ../../patches/*.patch

clean:
	rm -rf build/kernel build/guest build/kernel-7.3 build/guest-7.3 build/results build/tiny build/check

distclean:
	rm -rf build
