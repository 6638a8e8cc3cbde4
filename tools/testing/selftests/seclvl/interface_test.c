// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the level, policy and escape files
 *
 * None of these tests changes the level: the guest runs them at -1, 0, 1
 * and 2, and raising is left to the scenarios and to raise_test.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <sys/prctl.h>

/* What the BPF backend lacks, for lsm_only(). */
#define POLICY_WRITES "policy writes: the BPF backend takes its policy when loaded"

static bool policy_rows(char *buf, size_t size)
{
	return read_file(policy_file(), buf, size) > 0;
}

/* The policy without its counters, to tell whether a write changed it. */
static void policy_levels(char *out, size_t size)
{
	char buf[4096], *line, *save = NULL;
	size_t len = 0;

	out[0] = '\0';
	if (!policy_rows(buf, sizeof(buf)))
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64], level[8];

		if (sscanf(line, "%63s %7s", name, level) == 2)
			len += snprintf(out + len, size - len, "%s=%s ", name,
					level);
	}
}

FIXTURE(level) {};

FIXTURE_VARIANT(level) {
	const char *path;
};

FIXTURE_VARIANT_ADD(level, securityfs) { .path = LEVEL_FILE };
FIXTURE_VARIANT_ADD(level, proc) { .path = PROC_FILE };
FIXTURE_VARIANT_ADD(level, sysctl) { .path = SYSCTL_FILE };

FIXTURE_SETUP(level)
{
	const char *expect = getenv("SECLVL_EXPECT_LEVEL");

	if (lsm_only(_metadata, "writable level files"))
		return;
	/* The scenario says which level this run is for. */
	if (expect)
		ASSERT_EQ(atoi(expect), current_level());
}

FIXTURE_TEARDOWN(level) {}

TEST_F(level, read)
{
	char buf[32], want[8];

	snprintf(want, sizeof(want), "%d\n", current_level());
	ASSERT_LT(0, read_file(variant->path, buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
}

TEST_F(level, read_in_pieces)
{
	char want[8], got[8] = {};
	int fd = open(variant->path, O_RDONLY | O_CLOEXEC);
	size_t i;

	snprintf(want, sizeof(want), "%d\n", current_level());
	ASSERT_LE(0, fd);
	for (i = 0; i < strlen(want); i++)
		ASSERT_EQ(1, read(fd, got + i, 1));
	EXPECT_EQ(0, read(fd, got + i, 1));
	EXPECT_STREQ(want, got);
	close(fd);
}

TEST_F(level, write_same)
{
	char buf[8];
	int level = current_level();

	snprintf(buf, sizeof(buf), "%d\n", level);
	EXPECT_EQ(0, write_str(variant->path, buf));
	snprintf(buf, sizeof(buf), "%d", level);
	EXPECT_EQ(0, write_str(variant->path, buf));
	EXPECT_EQ(level, current_level());
}

/* Lower values, and at -1 every other value, are refused. */
TEST_F(level, write_refused)
{
	int level = current_level(), v, tried = 0;

	for (v = -1; v <= 2; v++) {
		char buf[8];

		if (v == level || (level >= 0 && v > level))
			continue;
		snprintf(buf, sizeof(buf), "%d\n", v);
		EXPECT_EQ(EPERM, write_str(variant->path, buf))
			TH_LOG("writing %d at level %d", v, level);
		EXPECT_EQ(level, current_level());
		tried++;
	}
	EXPECT_LT(0, tried);
}

TEST_F(level, write_out_of_range)
{
	static const char *const values[] = {
		"3", "-2", "100", "-100", "2147483647", "-2147483648",
		"2147483648", "-2147483649", "99999999999999",
	};
	int level = current_level();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		EXPECT_EQ(EINVAL, write_str(variant->path, values[i]))
			TH_LOG("writing %s", values[i]);
		EXPECT_EQ(level, current_level());
	}
}

TEST_F(level, write_garbage)
{
	static const char *const values[] = {
		"abc", "1x", "x1", " 1", "1 ", "\t2", "0x1", "1.0", "1\n\n",
		"\n", "\n2", "2\r\n", "--1", "one", "1,2", "1\n2",
	};
	int level = current_level();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		EXPECT_EQ(EINVAL, write_str(variant->path, values[i]))
			TH_LOG("writing \"%s\"", values[i]);
		EXPECT_EQ(level, current_level());
	}
}

TEST_F(level, write_embedded_nul)
{
	static const char value[] = { '2', '\0', '2' };
	int level = current_level();

	EXPECT_EQ(EINVAL, write_file(variant->path, value, sizeof(value)));
	EXPECT_EQ(level, current_level());
}

TEST_F(level, write_empty)
{
	int level = current_level();
	int fd = open(variant->path, O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "", 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_EQ(level, current_level());
}

TEST_F(level, write_oversized)
{
	static char big[8192];
	int level = current_level();

	memset(big, '2', sizeof(big));
	EXPECT_EQ(EINVAL, write_file(variant->path, big, sizeof(big)));
	memset(big, ' ', sizeof(big));
	big[0] = '2';
	EXPECT_EQ(EINVAL, write_file(variant->path, big, 64));
	EXPECT_EQ(level, current_level());
}

/* A write at an offset would be the tail of a split value. */
TEST_F(level, write_partial)
{
	int level = current_level();
	char buf[8];
	int fd;

	fd = open(variant->path, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, pwrite(fd, "2", 1, 1));
	EXPECT_EQ(EINVAL, errno);
	/* After a whole value, the same open file takes no more. */
	snprintf(buf, sizeof(buf), "%d", level);
	EXPECT_EQ(strlen(buf), write(fd, buf, strlen(buf)));
	EXPECT_EQ(-1, write(fd, "\n", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_EQ(level, current_level());
}

static int write_level_child(const void *arg)
{
	const char *path = arg;
	int level = current_level(), err = 0, v;

	/* Neither a raise nor the same value without CAP_SYS_ADMIN. */
	for (v = level; v <= 2; v++) {
		char buf[16];

		snprintf(buf, sizeof(buf), "%d\n", v);
		if (write_str(path, buf) != EPERM)
			err = 1;
	}
	return err || current_level() != level;
}

TEST_F(level, write_without_cap_sys_admin)
{
	int level = current_level();

	EXPECT_EQ(0, without_cap_sys_admin(write_level_child, variant->path));
	EXPECT_EQ(level, current_level());
}

TEST(level_files_agree)
{
	int level = current_level();
	size_t i;

	if (lsm_only(_metadata, "/proc/seclvl and kernel.securelevel"))
		return;
	ASSERT_LE(-1, level);
	ASSERT_GE(2, level);
	for (i = 0; i < ARRAY_SIZE(level_files); i++) {
		const char *path = level_files[i];

		EXPECT_EQ(level, level_from(path)) TH_LOG("%s", path);
	}
}

TEST(lsm_listed)
{
	char buf[256];

	ASSERT_LT(0, read_file("/sys/kernel/security/lsm", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, bpf_backend() ? "bpf" : "seclvl"));
}

TEST(file_modes)
{
	struct stat st;

	if (lsm_only(_metadata, "these files (bpf_test checks the pins)"))
		return;
	ASSERT_EQ(0, stat(LEVEL_FILE, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
	ASSERT_EQ(0, stat(POLICY_FILE, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
	ASSERT_EQ(0, stat(ESCAPE_FILE, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
	ASSERT_EQ(0, stat(PROC_FILE, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
	ASSERT_EQ(0, stat(SYSCTL_FILE, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
}

/* The policy file. */

TEST(policy_read)
{
	static const char *const names[] = {
		"ptrace_init", "immutable", "rawio", "net_admin", "setuid",
		"modules", "mounted_blockdev_write", "devmem_write",
		"setid_bits", "time_backward", "blockdev_write", "umount",
		"kexec", "suid_mount", "lockdown_integrity",
		"lockdown_confidentiality",
	};
	char buf[4096], *line, *save = NULL;
	size_t i = 0;

	ASSERT_TRUE(policy_rows(buf, sizeof(buf)));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		char name[64], level[8], extra[8];
		int fields;
		long n;

		ASSERT_GT(ARRAY_SIZE(names), i);
		fields = sscanf(line, "%63s %7s %ld %7s", name, level, &n, extra);
		ASSERT_EQ(3, fields) TH_LOG("row \"%s\"", line);
		EXPECT_STREQ(names[i], name);
		EXPECT_TRUE(!strcmp(level, "1") || !strcmp(level, "2") ||
			    !strcmp(level, "off")) TH_LOG("row \"%s\"", line);
		EXPECT_LE(0, n);
	}
	EXPECT_EQ(ARRAY_SIZE(names), i);
}

static void check_policy_write(struct __test_metadata *const _metadata,
			       const char *row, int expect_err)
{
	char before[1024], after[1024];

	policy_levels(before, sizeof(before));
	EXPECT_EQ(expect_err, write_str(POLICY_FILE, row))
		TH_LOG("writing \"%s\"", row);
	policy_levels(after, sizeof(after));
	if (expect_err)
		EXPECT_STREQ(before, after);
}

TEST(policy_write)
{
	int level = 0, old;
	char row[64];

	if (lsm_only(_metadata, POLICY_WRITES))
		return;
	ASSERT_TRUE(policy_row("umount", &old, NULL));
	if (current_level() > 0) {
		/* Raised: the table is frozen, valid row or not. */
		check_policy_write(_metadata, "umount 1\n", EPERM);
		check_policy_write(_metadata, "umount off", EPERM);
		check_policy_write(_metadata, "setuid off", EPERM);
		return;
	}
	check_policy_write(_metadata, "umount 1\n", 0);
	ASSERT_TRUE(policy_row("umount", &level, NULL));
	EXPECT_EQ(1, level);
	check_policy_write(_metadata, "umount off", 0);
	ASSERT_TRUE(policy_row("umount", &level, NULL));
	EXPECT_EQ(RULE_OFF, level);
	snprintf(row, sizeof(row), "umount %s",
		 old == RULE_OFF ? "off" : old == 1 ? "1" : "2");
	check_policy_write(_metadata, row, 0);
	ASSERT_TRUE(policy_row("umount", &level, NULL));
	EXPECT_EQ(old, level);
}

TEST(policy_write_bad)
{
	static const char *const rows[] = {
		"", "\n", "umount", "umount ", "umount 0", "umount 3",
		"umount -1", "umount on", "umount  1", " umount 1",
		"umount 1 ", "umount\t1", "umount 1\n\n", "nosuch 1",
		"UMOUNT 1", "umount 1\nsetuid off", "umount 2 2",
	};
	int expect = current_level() > 0 ? EPERM : EINVAL;
	size_t i;

	if (lsm_only(_metadata, POLICY_WRITES))
		return;
	/* An empty write is no value at any level. */
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		check_policy_write(_metadata, rows[i],
				   rows[i][0] ? expect : EINVAL);
}

TEST(policy_write_oversized_and_partial)
{
	static char big[4096];
	char before[1024], after[1024];
	int fd;

	if (lsm_only(_metadata, POLICY_WRITES))
		return;
	policy_levels(before, sizeof(before));
	memset(big, 'x', sizeof(big));
	memcpy(big, "umount 1", 8);
	EXPECT_NE(0, write_file(POLICY_FILE, big, sizeof(big)));
	fd = open(POLICY_FILE, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, pwrite(fd, "umount 1", 8, 3));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	policy_levels(after, sizeof(after));
	EXPECT_STREQ(before, after);
}

static int write_policy_child(const void *arg)
{
	return write_str(POLICY_FILE, arg) != EPERM;
}

TEST(policy_write_without_cap_sys_admin)
{
	char before[1024], after[1024];

	if (lsm_only(_metadata, POLICY_WRITES))
		return;
	policy_levels(before, sizeof(before));
	EXPECT_EQ(0, without_cap_sys_admin(write_policy_child, "umount off"));
	policy_levels(after, sizeof(after));
	EXPECT_STREQ(before, after);
}

/* The escape file. */

static void escape_now(char *buf, size_t size)
{
	buf[0] = '\0';
	read_file(ESCAPE_FILE, buf, size);
}

/* Write @text; expect @err; expect the escape to read @after afterwards. */
static void check_escape_write(struct __test_metadata *const _metadata,
			       const char *text, int err, const char *after)
{
	char now[4096];

	EXPECT_EQ(err, write_str(ESCAPE_FILE, text))
		TH_LOG("writing \"%s\"", text);
	escape_now(now, sizeof(now));
	EXPECT_STREQ(after, now);
}

FIXTURE(escape) {
	char dir[64];
	char good[128];
};

FIXTURE_SETUP(escape)
{
	if (lsm_only(_metadata, "the emergency escape"))
		return;
	snprintf(self->dir, sizeof(self->dir), "/tmp/seclvl-escape-%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->good, sizeof(self->good), "%s/good", self->dir);
	close(open(self->good, O_WRONLY | O_CREAT, 0755));
	ASSERT_EQ(0, chmod(self->good, 0755));
}

FIXTURE_TEARDOWN(escape)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

TEST_F(escape, set_and_clear)
{
	char line[160], want[160];

	escape_now(want, sizeof(want));
	if (current_level() > 0) {
		check_escape_write(_metadata, self->good, EPERM, want);
		check_escape_write(_metadata, "\n", EPERM, want);
		return;
	}
	ASSERT_STREQ("", want) TH_LOG("an escape is already set");
	snprintf(want, sizeof(want), "%s\n", self->good);
	check_escape_write(_metadata, self->good, 0, want);
	snprintf(line, sizeof(line), "%s\n", self->good);
	check_escape_write(_metadata, line, 0, want);
	check_escape_write(_metadata, "\n", 0, "");
}

TEST_F(escape, refused_files)
{
	char path[160], link[160], want[160];

	escape_now(want, sizeof(want));
	if (current_level() > 0) {
		check_escape_write(_metadata, "/nonexistent", EPERM, want);
		return;
	}
	check_escape_write(_metadata, "/nonexistent/escape", EINVAL, want);
	check_escape_write(_metadata, "relative/escape", EINVAL, want);
	check_escape_write(_metadata, "good", EINVAL, want);
	check_escape_write(_metadata, self->dir, EINVAL, want);
	check_escape_write(_metadata, "", EINVAL, want);
	check_escape_write(_metadata, "/dev/null", EINVAL, want);

	snprintf(path, sizeof(path), "%s/group-writable", self->dir);
	close(open(path, O_WRONLY | O_CREAT, 0775));
	ASSERT_EQ(0, chmod(path, 0775));
	check_escape_write(_metadata, path, EINVAL, want);

	snprintf(path, sizeof(path), "%s/world-writable", self->dir);
	close(open(path, O_WRONLY | O_CREAT, 0757));
	ASSERT_EQ(0, chmod(path, 0757));
	check_escape_write(_metadata, path, EINVAL, want);

	snprintf(path, sizeof(path), "%s/not-roots", self->dir);
	close(open(path, O_WRONLY | O_CREAT, 0755));
	ASSERT_EQ(0, chown(path, 65534, 0));
	check_escape_write(_metadata, path, EINVAL, want);

	/* A symlink names the file it points to. */
	snprintf(link, sizeof(link), "%s/link", self->dir);
	ASSERT_EQ(0, symlink(self->good, link));
	snprintf(path, sizeof(path), "%s\n", self->good);
	check_escape_write(_metadata, link, 0, path);
	check_escape_write(_metadata, "\n", 0, "");
}

static int write_escape_child(const void *arg)
{
	return write_str(ESCAPE_FILE, arg) != EPERM;
}

TEST_F(escape, write_without_cap_sys_admin)
{
	char want[160], now[160];

	escape_now(want, sizeof(want));
	EXPECT_EQ(0, without_cap_sys_admin(write_escape_child, self->good));
	escape_now(now, sizeof(now));
	EXPECT_STREQ(want, now);
}

TEST_HARNESS_MAIN
