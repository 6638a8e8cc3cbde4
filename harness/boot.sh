#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot the test kernel once under QEMU (TCG) with a fresh virtio disk.
#   boot.sh [--interactive] SCENARIO [KERNEL ARGS...]
# Console to build/results/SCENARIO/console.log, TAP results from the second
# serial port to results.log.  A guest that does not power off within
# $SECLVL_BOOT_TIMEOUT seconds (default 600) is killed; one whose init does
# not start is booted once more (see run_qemu below).  $SECLVL_RUN names
# the results folder instead of SCENARIO (make bench boots one scenario often);
# $SECLVL_KERNEL and $SECLVL_INITRD boot copies instead of the build's own.
set -euo pipefail
. "$(dirname "$0")/common.sh"

interactive=
if [ "${1:-}" = --interactive ]; then
	interactive=1
	shift
fi
scenario=$1
shift
out=$BUILD/results/${SECLVL_RUN:-$scenario}
kernel=${SECLVL_KERNEL:-$KOUT/arch/x86/boot/bzImage}
initrd=${SECLVL_INITRD:-$GUEST/initramfs.cpio}
rm -rf "$out"
mkdir -p "$out"

# The disk: partition 1 is ext4 with files the tests need made before any
# raise (flags set here with debugfs); partition 2 stays unformatted.
disk=$out/disk.img
stage=$out/stage
mkdir -p "$stage"
echo data > "$stage/immutable"
echo data > "$stage/appendonly"
echo data > "$stage/clear-suid"
echo data > "$stage/chown-suid"
chmod 4755 "$stage/clear-suid"
chmod 6755 "$stage/chown-suid"
cp "$kernel" "$stage/bzImage"
truncate -s 64M "$disk"
printf 'label: dos\nstart=2048, size=65536, type=83\nstart=67584, type=83\n' |
	sfdisk -q "$disk"
mkfs.ext4 -q -F -d "$stage" -E root_owner=0:0 "$out/part1.img" 32M >/dev/null
debugfs -w -R 'set_inode_field /immutable flags 0x80010' "$out/part1.img" 2>/dev/null
debugfs -w -R 'set_inode_field /appendonly flags 0x80020' "$out/part1.img" 2>/dev/null
dd if="$out/part1.img" of="$disk" bs=512 seek=2048 conv=notrunc status=none
rm -rf "$stage" "$out/part1.img"
# A SCSI and an NVMe disk for the passthrough tests: ext4 on the first half,
# so that the last sector is outside the mounted filesystem.
for d in scsi nvme; do
	mkfs.ext4 -q -F "$out/$d.img" 4M >/dev/null
	truncate -s 8M "$out/$d.img"
done
# A second virtio disk that nothing uses, to format, partition and bind a
# loop device to; ext4 so that a test can try to mount it.
mkfs.ext4 -q -F "$out/spare.img" 8M >/dev/null
# XFS at its smallest, for its swap of extents: made once (its log alone
# is 64M), each guest writes to a throwaway overlay (snapshot=on).
if [ ! -f "$BUILD/xfs.img" ]; then
	truncate -s 300M "$BUILD/xfs.img.new"
	mkfs.xfs -q -f "$BUILD/xfs.img.new"
	mv "$BUILD/xfs.img.new" "$BUILD/xfs.img"
fi

# SECLVL_ICOUNT=1 (make bench): one vCPU whose clock counts instructions
# (1 ns each), so the guest times code paths without the host's noise.
# The NIC has no way out (restrict=on): the tests need only its transmit
# queue's settings in sysfs.
smp=2 clock=()
if [ -n "${SECLVL_ICOUNT:-}" ]; then
	smp=1 clock=(-icount shift=0,sleep=off)
fi
qemu=(qemu-system-x86_64 -accel "$QEMU_ACCEL" -cpu max -m 1G -smp "$smp" "${clock[@]}" -nodefaults
      -no-reboot -display none
      -kernel "$kernel" -initrd "$initrd"
      -drive "file=$disk,if=virtio,format=raw"
      -drive "file=$out/spare.img,if=virtio,format=raw"
      -drive "file=$BUILD/xfs.img,if=virtio,format=raw,snapshot=on"
      -device virtio-scsi-pci,id=scsi
      -drive "file=$out/scsi.img,if=none,id=sd,format=raw"
      -device scsi-hd,drive=sd,bus=scsi.0
      -drive "file=$out/nvme.img,if=none,id=nv,format=raw"
      -device nvme,serial=seclvl,drive=nv
      -netdev user,id=n0,restrict=on -device virtio-net-pci,netdev=n0)
# no5lvl: with -cpu max the kernel would use 5-level paging, where an early
# interrupt can trip a KASAN report in rcu_is_watching() before seclvl runs.
# pci=noacpi: QEMU's ACPI builds the PCI interrupt table with an AML loop,
# which the KASAN kernel interprets for half a minute under TCG.
# Room for every line and audit record a scenario checks: a log of 8 MiB
# and, as Debian's auditd sets it, a backlog of 8192 records.
append="console=ttyS0 no5lvl pci=noacpi panic=-1 oops=panic log_buf_len=8M audit_backlog_limit=8192 scenario=$scenario $*"

if [ -n "$interactive" ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial null -append "$append"
fi
# QEMU's TCG has been seen to lose a vCPU's timer interrupt early in a
# boot: an RCU stall at about 30 s, then nothing, before init has run.  A
# guest whose init has not written its first line to the results port
# within $SECLVL_INIT_TIMEOUT seconds (default 300) is killed (125) and
# booted once more; the hung boot's console is kept as hung-boot.log and
# the retry is said on stderr.  A second hang fails as a timeout (124).
init_timeout=${SECLVL_INIT_TIMEOUT:-300}
run_qemu() {
	local pid waited=0

	timeout -k 10 "${SECLVL_BOOT_TIMEOUT:-600}" "${qemu[@]}" \
		-serial "file:$out/console.log" -serial "file:$out/results.log" \
		-append "$append" </dev/null >"$out/qemu.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ ! -s "$out/results.log" ] && [ "$waited" -ge "$init_timeout" ]; then
			kill "$pid" 2>/dev/null
			wait "$pid"
			return 125
		fi
		sleep 2
		waited=$((waited + 2))
	done
	wait "$pid"
}
rc=0
run_qemu || rc=$?
if [ "$rc" = 125 ]; then
	mv "$out/console.log" "$out/hung-boot.log"
	rm -f "$out/results.log"
	echo "boot.sh: $scenario: init did not start within ${init_timeout} s (see hung-boot.log): booting again" >&2
	rc=0
	run_qemu || rc=$?
	[ "$rc" != 125 ] || rc=124
fi
echo "$rc" > "$out/exit"
