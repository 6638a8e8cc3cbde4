# SPDX-License-Identifier: GPL-2.0-only
# The list of module images: five test modules listed at level 0 (one
# xz-compressed, one changed afterwards), a modprobe that loads the
# autoload one, then level 1: listed images load, others are refused with
# their digest.
prepare
default_policy
# --all and --loaded read /lib/modules/RELEASE, which this guest has not:
# a small one with its own modules.dep.  prepare() loaded seclvl_test_unload.
d=/lib/modules/$(uname -r)
mkdir -p $d/extra
cp /lib/seclvl/seclvl_test_load.ko /lib/seclvl/seclvl_test_unload.ko $d/extra/
printf 'extra/seclvl_test_load.ko:\nextra/seclvl_test_unload.ko:\n' > $d/modules.dep
expect_exit 0 seclvlctl modules pin --all
out_has "2 added, 0 already listed"
check "  both images, named after their files" sh -c \
	"grep -q ' seclvl_test_load 0\$' $SECLVL/modules &&
	 grep -q ' seclvl_test_unload 0\$' $SECLVL/modules"
expect_exit 0 seclvlctl modules clear
expect_exit 0 seclvlctl modules pin --loaded
out_has "1 added, 0 already listed"
check "  the loaded module's image" grep -q ' seclvl_test_unload 0$' $SECLVL/modules
expect_exit 0 seclvlctl modules clear
modules_audited() {
	audit_has 1428 'op=add_module digest=sha256:[0-9a-f]\{64\} name="seclvl_test_unload"' 1 &&
		audit_has 1428 'op=clear_modules' 1
}
check "audit has the list's changes, as SECLVL_CONFIG_CHANGE" modules_audited
rm -rf /lib/modules
# Three by hand, one with seclvlctl (which names it after its file).
for m in init modified autoload; do
	f=/lib/seclvl/seclvl_test_list_$m.ko
	check "list $f at level 0" sh -c \
		"echo \"sha256:\$(sha256sum $f | cut -c1-64) seclvl_test_list_$m\" > $SECLVL/modules"
done
expect_exit 0 seclvlctl modules pin /lib/seclvl/seclvl_test_list_finit.ko
out_has "1 added, 0 already listed"
expect_exit 0 seclvlctl modules pin /lib/seclvl/seclvl_test_list_finit.ko
out_has "0 added, 1 already listed"
expect_exit 0 seclvlctl modules pin /lib/seclvl/seclvl_test_list_xz.ko.xz
out_has "2 added, 0 already listed"
expect_exit 2 seclvlctl modules pin /etc/passwd
expect_exit 0 seclvlctl modules --json
out_has '"name": "seclvl_test_list_finit", "loads": 0'
check "a second entry for the same image is refused" sh -c \
	"! echo \"sha256:\$(sha256sum /lib/seclvl/seclvl_test_list_init.ko | cut -c1-64)\" > $SECLVL/modules"
check "the list reads back, with no loads" sh -c \
	"[ \$(grep -c '^sha256:[0-9a-f]\{64\} seclvl_test_list_[a-z]* 0\$' $SECLVL/modules) -eq 6 ]"
check "change a listed file" sh -c \
	'printf "\0" >> /lib/seclvl/seclvl_test_list_modified.ko'
cat > /run/seclvl/modprobe <<'SH'
#!/bin/sh
case "$*" in
*fs-seclvltestfs*) exec insmod /lib/seclvl/seclvl_test_list_autoload.ko ;;
esac
exit 1
SH
chmod 755 /run/seclvl/modprobe
check "a modprobe for the autoload test" sh -c \
	'echo /run/seclvl/modprobe > /proc/sys/kernel/modprobe'
raise 1 $SECLVL/level
check "the list is frozen at level 1" \
	fails_with_eperm sh -c "echo > $SECLVL/modules"
check "  and audit has the attempt" audit_has 1428 "op=clear_modules level=1" 0
expect_exit 1 seclvlctl modules pin /lib/seclvl/seclvl_test_list_unlisted.ko
check "  and says the list is frozen" grep -q "list of modules is frozen" /tmp/ctl.err
run_selftest seclvl/modules_test
run_selftest seclvl/restrictions_test
check "the refusal names the image's digest" \
	log_has "seclvl: denied modules at level 1: module load of seclvl_test_list_unlisted.ko, sha256:[0-9a-f]\{64\}, not listed"
check "  and its audit record is the same" audit_matches_log
check "each listed image was loaded once" sh -c \
	"grep -q 'seclvl_test_list_finit 1\$' $SECLVL/modules &&
	 grep -q 'seclvl_test_list_init 1\$' $SECLVL/modules &&
	 grep -q 'seclvl_test_list_autoload 1\$' $SECLVL/modules &&
	 grep -q 'seclvl_test_list_xz 1\$' $SECLVL/modules &&
	 grep -q 'seclvl_test_list_modified 0\$' $SECLVL/modules"
expect_exit 0 seclvlctl modules
out_has "seclvl_test_list_finit  *1$"
check "level is still 1" level_is 1
