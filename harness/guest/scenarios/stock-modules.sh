# SPDX-License-Identifier: GPL-2.0-only
# The list of module images on Debian's kernel and the BPF backend, as the
# modules scenario does it on the in-tree LSM, with Debian's own modules
# (stock_setup names them), one xz-compressed as Debian ships it.  Listed at
# level 0 by seclvl-bpf load --config and by seclvlctl; then level 1:
# listed images load, others are refused with their digest in the log.
stock_setup
L=/lib/seclvl B=/sys/fs/bpf/seclvl
cat > /tmp/modules.conf <<CONF
policy umount 2
module $L/$SECLVL_LIST_finit.ko
module $L/$SECLVL_LIST_xz.ko.xz
module sha256:5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
CONF
check "seclvl-bpf load --config with module lines" \
	seclvl-bpf load --config /tmp/modules.conf
prepare
default_policy
check "  lists the file, the compressed one twice, and the digest" sh -c \
	"[ \$(grep -c '^sha256:[0-9a-f]\{64\} .* 0\$' $B/modules) -eq 4 ] &&
	 grep -q '^sha256:5eed5eed[0-9a-f]* - 0\$' $B/modules &&
	 [ \$(grep -c ' $SECLVL_LIST_xz 0\$' $B/modules) -eq 2 ]"
expect_exit 0 seclvlctl modules pin $L/$SECLVL_LIST_init.ko \
	$L/$SECLVL_LIST_modified.ko $L/$SECLVL_LIST_autoload.ko
out_has "3 added, 0 already listed"
expect_exit 0 seclvlctl modules pin $L/$SECLVL_LIST_finit.ko
out_has "0 added, 1 already listed"
expect_exit 2 seclvlctl modules pin /etc/passwd
expect_exit 0 seclvlctl modules --json
out_has "\"name\": \"$SECLVL_LIST_finit\", \"loads\": 0"
check "change a listed file" sh -c \
	"printf '\0' >> $L/$SECLVL_LIST_modified.ko"
cat > /run/seclvl/modprobe <<SH
#!/bin/sh
case "\$*" in
*fs-$SECLVL_AUTOLOAD_FS*) exec insmod $L/$SECLVL_LIST_autoload.ko ;;
esac
exit 1
SH
chmod 755 /run/seclvl/modprobe
check "a modprobe for the autoload test" sh -c \
	'echo /run/seclvl/modprobe > /proc/sys/kernel/modprobe'
raise_bpf 1
expect_exit 1 seclvlctl modules pin $L/$SECLVL_LIST_unlisted.ko
err_has "list of modules is frozen"
run_selftest seclvl/modules_test
run_selftest seclvl/restrictions_test
run_selftest seclvl/bpf_test
check "the refusal names the image's digest" \
	log_soon "seclvl-bpf: denied modules at level 1: module load of $SECLVL_LIST_unlisted.ko, sha256:[0-9a-f]\{64\}, not listed"
check "each listed image was loaded once" sh -c \
	"grep -q ' $SECLVL_LIST_finit 1\$' $B/modules &&
	 grep -q ' $SECLVL_LIST_init 1\$' $B/modules &&
	 grep -q ' $SECLVL_LIST_autoload 1\$' $B/modules &&
	 grep -q ' $SECLVL_LIST_xz 1\$' $B/modules &&
	 grep -q ' $SECLVL_LIST_modified 0\$' $B/modules"
expect_exit 0 seclvlctl modules
out_has "$SECLVL_LIST_finit  *1$"
check "level is still 1" level_is 1
