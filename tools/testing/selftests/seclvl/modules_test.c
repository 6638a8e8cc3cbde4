// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the list of module images
 *
 * While the modules restriction applies, a module loads exactly when the
 * SHA-256 of its image is on the list (/sys/kernel/security/seclvl/modules,
 * or the BPF backend's /sys/fs/bpf/seclvl/modules).  The "modules" and
 * "stock-modules" scenarios list the finit, init, xz, modified and
 * autoload modules at level 0 (then change the file of "modified") and
 * raise the level; at other levels these tests check the list and that
 * nothing changed.  The modules are the test modules, or on Debian's
 * kernel, modules of its own that the scenario names in SECLVL_LIST_*.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include "common.h"

#include <sys/mount.h>

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define MODULES_FILE modules_file()
#define MOD_DIR "/lib/seclvl"
/* Bit 30 of a system call's number: x32's table (__X32_SYSCALL_BIT). */
#define X32_SYSCALL_BIT 0x40000000
#define LISTED(m) mod_name("SECLVL_LIST_" #m, "seclvl_test_list_" #m)
/* The kernel asks for fs-TYPE; the scenario's modprobe loads autoload. */
#define AUTOLOAD_FS mod_name("SECLVL_AUTOLOAD_FS", "seclvltestfs")
#define MOD_UNLOAD mod_name("SECLVL_MOD_UNLOAD", "seclvl_test_unload")

/*
 * The loads of the entries named @name (a compressed file is listed twice:
 * as it is, and decompressed), or -1 if none is.
 */
static long loads_of(const char *name)
{
	char line[256], d[80], n[64];
	FILE *f = fopen(MODULES_FILE, "re");
	long loads, sum = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%79s %63s %ld", d, n, &loads) == 3 &&
		    !strcmp(n, name))
			sum = (sum < 0 ? 0 : sum) + loads;
	if (f)
		fclose(f);
	return sum;
}

/* Whether the scenario listed the test modules before the raise. */
static bool prepared(void)
{
	return loads_of(LISTED(finit)) >= 0;
}

/*
 * A load of a test module from @path: it works if the list has its image,
 * or nothing is refused; else it is refused, counted and logged with the
 * image's digest.
 */
static void check_load(struct __test_metadata *const _metadata,
		       const char *name, const char *suffix, bool listed,
		       bool use_init_module)
{
	char path[128];
	static char image[1 << 20];
	long before = denials("modules"), loads = loads_of(name);
	bool refuse = refused("modules") && !listed;
	ssize_t len = 0;
	int ret, fd;

	snprintf(path, sizeof(path), MOD_DIR "/%s%s", name, suffix);
	ASSERT_FALSE(module_loaded(name));
	if (use_init_module) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		len = read(fd, image, sizeof(image));
		close(fd);
		ASSERT_LT(0, len);
		ret = syscall(SYS_init_module, image, len, "");
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
		ret = syscall(SYS_finit_module, fd, "",
			      strcmp(suffix, ".ko") ? MODULE_INIT_COMPRESSED_FILE : 0);
		close(fd);
		/* A kernel without MODULE_DECOMPRESS (Debian's 6.1). */
		if (ret && errno == EOPNOTSUPP && !refuse)
			SKIP(return, "this kernel cannot decompress %s", path);
	}
	if (refuse) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, errno);
		EXPECT_LE(before + 1, denials("modules"));
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(before, denials("modules"));
	}
	EXPECT_EQ(!refuse, module_loaded(name));
	/* Counted only when the list decided. */
	if (refused("modules") && listed)
		EXPECT_EQ(loads + 1, loads_of(name));
	/* Below the restriction's level it may go again. */
	if (!ret && !refused("modules"))
		EXPECT_EQ(0, syscall(SYS_delete_module, name, O_NONBLOCK));
}

TEST(file_mode)
{
	struct stat sb;

	ASSERT_EQ(0, stat(MODULES_FILE, &sb));
	EXPECT_EQ(0644, sb.st_mode & 07777);
}

TEST(listed_finit_module)
{
	check_load(_metadata, LISTED(finit), ".ko", prepared(), false);
}

TEST(listed_init_module)
{
	check_load(_metadata, LISTED(init), ".ko", prepared(), true);
}

/* The kernel decompresses it; the list has the compressed file's digest. */
TEST(listed_finit_module_xz)
{
	check_load(_metadata, LISTED(xz), ".ko.xz", prepared(), false);
}

TEST(unlisted)
{
	char msg[160];

	check_load(_metadata, LISTED(unlisted), ".ko", false, false);
	/* The log names the digest, for an administrator to list it. */
	if (refused("modules") && prepared()) {
		snprintf(msg, sizeof(msg),
			 "dmesg | grep -q 'denied modules at level .*%s.ko, sha256:[0-9a-f]\\{64\\}, not listed'",
			 LISTED(unlisted));
		/* The BPF backend's logger writes it after the fact. */
		if (bpf_backend())
			usleep(500000);
		EXPECT_EQ(0, system(msg));
	}
}

/* The scenario changed the file after listing it: judged by its bytes. */
TEST(modified_after_listing)
{
	if (!prepared())
		SKIP(return, "the modules scenario lists and changes the file");
	check_load(_metadata, LISTED(modified), ".ko", false, false);
}

/* An autoload is let through with a list; the load it leads to is judged. */
TEST(autoload_listed)
{
	long before = denials("modules");

	if (!prepared())
		SKIP(return, "the modules scenario sets a modprobe for the test");
	ASSERT_FALSE(module_loaded(LISTED(autoload)));
	EXPECT_EQ(-1, mount("none", "/mnt", AUTOLOAD_FS, MS_NOSUID, NULL));
	EXPECT_TRUE(module_loaded(LISTED(autoload)));
	EXPECT_EQ(before, denials("modules"));
}

/* Unloading stays refused: the list is of what may come in. */
TEST(unload_refused)
{
	long before = denials("modules");
	int ret;

	if (!prepared() || !refused("modules"))
		SKIP(return, "needs the list and the restriction in force");
	ASSERT_TRUE(module_loaded(MOD_UNLOAD));
	ret = syscall(SYS_delete_module, MOD_UNLOAD, O_NONBLOCK);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EPERM, errno);
	EXPECT_LE(before + 1, denials("modules"));
	EXPECT_TRUE(module_loaded(MOD_UNLOAD));
}

/*
 * The same through x32's system call table, which a 64-bit process reaches
 * by setting bit 30 of the number where the kernel has x32 switched on
 * (Debian's: syscall.x32=y, which stock-modules boots with).
 */
TEST(unload_x32_refused)
{
	long before = denials("modules");
	int ret;

	if (!prepared() || !refused("modules"))
		SKIP(return, "needs the list and the restriction in force");
	if (syscall(X32_SYSCALL_BIT | SYS_getpid) != getpid())
		SKIP(return, "this kernel has no x32 system calls");
	ASSERT_TRUE(module_loaded(MOD_UNLOAD));
	ret = syscall(X32_SYSCALL_BIT | SYS_delete_module, MOD_UNLOAD,
		      O_NONBLOCK);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EPERM, errno);
	EXPECT_LE(before + 1, denials("modules"));
	EXPECT_TRUE(module_loaded(MOD_UNLOAD));
}

#define DIGEST_A "sha256:5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"

/*
 * Writes: one entry per write; a bad line changes nothing; from level 1
 * nothing changes at all.  At level <= 0 the list is left as it was.
 */
TEST(writes)
{
	static const char *const bad[] = {
		"sha256:\n", "sha256:5eed\n", "md5:" DIGEST_A "\n",
		DIGEST_A "x\n", DIGEST_A " a b\n", DIGEST_A " a/b\n",
		DIGEST_A "\nx\n", "nonsense\n",
	};
	char before[1 << 16], now[1 << 16];
	bool frozen = current_level() > 0;
	size_t i;

	if (lsm_only(_metadata, "a modules file to write (bpf_test writes the map)"))
		return;
	ASSERT_LE(0, read_file(MODULES_FILE, before, sizeof(before)));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(frozen ? EPERM : EINVAL, write_str(MODULES_FILE, bad[i]))
			TH_LOG("bad line %zu", i);
	ASSERT_LE(0, read_file(MODULES_FILE, now, sizeof(now)));
	EXPECT_STREQ(before, now);

	if (frozen) {
		EXPECT_EQ(EPERM, write_str(MODULES_FILE, DIGEST_A " x\n"));
		EXPECT_EQ(EPERM, write_str(MODULES_FILE, "\n"));
		ASSERT_LE(0, read_file(MODULES_FILE, now, sizeof(now)));
		EXPECT_STREQ(before, now);
		return;
	}
	ASSERT_STREQ("", before) TH_LOG("at level <= 0 the list starts empty");
	EXPECT_EQ(0, write_str(MODULES_FILE, DIGEST_A " seed\n"));
	EXPECT_EQ(EEXIST, write_str(MODULES_FILE, DIGEST_A " again\n"));
	ASSERT_LE(0, read_file(MODULES_FILE, now, sizeof(now)));
	EXPECT_STREQ(DIGEST_A " seed 0\n", now);
	EXPECT_EQ(0, write_str(MODULES_FILE, "\n"));
	ASSERT_LE(0, read_file(MODULES_FILE, now, sizeof(now)));
	EXPECT_STREQ("", now);
}

static int write_modules_child(const void *line)
{
	return write_str(MODULES_FILE, line) == EPERM ? 0 : 1;
}

TEST(write_without_cap_sys_admin)
{
	if (lsm_only(_metadata, "a modules file to write (bpf_test writes the map)"))
		return;
	EXPECT_EQ(0, without_cap_sys_admin(write_modules_child, DIGEST_A "\n"));
}

TEST_HARNESS_MAIN
