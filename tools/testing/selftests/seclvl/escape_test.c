// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the emergency escape
 *
 * Each test starts at level 0, names an escape, raises the level and
 * executes files; only root executing the escape's own inode may bring the
 * level back to 0, which is also how each test ends.  The guest runs this
 * in a boot of its own.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <libgen.h>
#include <limits.h>

#define NOBODY 65534

FIXTURE(escape) {
	char dir[64];
	char escape[96];
	char helper[PATH_MAX];
};

static void copy_file(struct __test_metadata *const _metadata,
		      const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t len;
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);

	ASSERT_LE(0, in) TH_LOG("%s", from);
	ASSERT_LE(0, out) TH_LOG("%s", to);
	while ((len = read(in, buf, sizeof(buf))) > 0)
		ASSERT_EQ(len, write(out, buf, len));
	close(in);
	close(out);
	ASSERT_EQ(0, chmod(to, mode));
}

static void set_level(struct __test_metadata *const _metadata, int level)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%d\n", level);
	ASSERT_EQ(0, write_str(LEVEL_FILE, buf));
	ASSERT_EQ(level, current_level());
}

/* Execute @path as root and wait for it; returns its exit status. */
static int exec_as_root(const char *path)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		execl(path, path, NULL);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Fork a child that becomes uid @uid now, while set*id is still allowed,
 * and executes @path when released.  Returns the pipe that releases it,
 * once the child has dropped to @uid.
 */
static int prepare_user_exec(pid_t *pid, uid_t uid, const char *path)
{
	int go[2], ready[2];
	char c;

	if (pipe(go) || pipe(ready))
		return -1;
	*pid = fork();
	if (*pid == 0) {
		close(go[1]);
		close(ready[0]);
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
			perror("# dropping to the other user");
			_exit(126);
		}
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(125);
		execl(path, path, NULL);
		_exit(127);
	}
	close(go[0]);
	close(ready[1]);
	if (*pid < 0 || read(ready[0], &c, 1) != 1) {
		close(go[1]);
		go[1] = -1;
	}
	close(ready[0]);
	return go[1];
}

static int release_user_exec(pid_t pid, int go)
{
	int status;

	if (write(go, "x", 1) != 1)
		return -1;
	close(go);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE_SETUP(escape)
{
	char self_path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self_path,
			       sizeof(self_path) - 1);

	ASSERT_LT(0, len);
	self_path[len] = '\0';
	snprintf(self->helper, sizeof(self->helper), "%s/escape_helper",
		 dirname(self_path));
	ASSERT_EQ(0, current_level()) TH_LOG("each test starts at level 0");

	/* Directories on the way must be searchable by nobody. */
	snprintf(self->dir, sizeof(self->dir), "/tmp/seclvl-escape-%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	snprintf(self->escape, sizeof(self->escape), "%s/escape", self->dir);
	copy_file(_metadata, self->helper, self->escape, 0755);
	ASSERT_EQ(0, write_str(ESCAPE_FILE, self->escape));
}

FIXTURE_TEARDOWN(escape)
{
	char cmd[128], now[256] = "";

	/* Only possible at level 0: a failed test leaves the level raised. */
	read_file(ESCAPE_FILE, now, sizeof(now));
	if (now[0] && write_str(ESCAPE_FILE, "\n"))
		TH_LOG("escape could not be cleared: level %d", current_level());
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

TEST_F(escape, root_resets_level_2)
{
	set_level(_metadata, 2);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

TEST_F(escape, root_resets_level_1)
{
	set_level(_metadata, 1);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

TEST_F(escape, other_files_do_not_reset)
{
	char other[128];

	snprintf(other, sizeof(other), "%s/other", self->dir);
	copy_file(_metadata, self->helper, other, 0755);
	set_level(_metadata, 2);
	EXPECT_EQ(0, exec_as_root(other));
	EXPECT_EQ(0, exec_as_root(self->helper));
	EXPECT_EQ(2, current_level());
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

TEST_F(escape, non_root_does_not_reset)
{
	pid_t pid;
	int go = prepare_user_exec(&pid, NOBODY, self->escape);

	ASSERT_LE(0, go);
	set_level(_metadata, 1);
	EXPECT_EQ(0, release_user_exec(pid, go));
	EXPECT_EQ(1, current_level());
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

/* Set-uid root gives euid 0 but not uid 0: no reset. */
TEST_F(escape, setuid_root_run_by_non_root_does_not_reset)
{
	pid_t pid;
	int go;

	ASSERT_EQ(0, chmod(self->escape, 04755));
	go = prepare_user_exec(&pid, NOBODY, self->escape);
	ASSERT_LE(0, go);
	set_level(_metadata, 2);
	EXPECT_EQ(0, release_user_exec(pid, go));
	EXPECT_EQ(2, current_level());
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

/* The escape is an inode: a file renamed onto its path is not it. */
TEST_F(escape, renamed_onto_path_does_not_reset)
{
	char alias[128], other[128];

	snprintf(alias, sizeof(alias), "%s/escape-link", self->dir);
	snprintf(other, sizeof(other), "%s/other", self->dir);
	ASSERT_EQ(0, link(self->escape, alias));
	copy_file(_metadata, self->helper, other, 0755);
	ASSERT_EQ(0, rename(other, self->escape));
	set_level(_metadata, 2);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(2, current_level());
	/* The escape's own inode, under another name, still works. */
	EXPECT_EQ(0, exec_as_root(alias));
	EXPECT_EQ(0, current_level());
}

TEST_F(escape, file_frozen_when_raised)
{
	char before[256], after[256];

	set_level(_metadata, 1);
	ASSERT_LT(0, read_file(ESCAPE_FILE, before, sizeof(before)));
	EXPECT_EQ(EPERM, write_str(ESCAPE_FILE, "\n"));
	EXPECT_EQ(EPERM, write_str(ESCAPE_FILE, self->helper));
	ASSERT_LT(0, read_file(ESCAPE_FILE, after, sizeof(after)));
	EXPECT_STREQ(before, after);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

/* Only an execution that succeeds resets: not one the kernel rejects. */
TEST_F(escape, failed_exec_does_not_reset)
{
	int fd;

	/* The same inode, with content no binary format takes. */
	fd = open(self->escape, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "junk", 4));
	close(fd);
	set_level(_metadata, 1);
	EXPECT_EQ(127, exec_as_root(self->escape));
	EXPECT_EQ(1, current_level());
	copy_file(_metadata, self->helper, self->escape, 0755);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(0, current_level());
}

/* Cleared, it is an ordinary file again. */
TEST_F(escape, cleared_does_not_reset)
{
	ASSERT_EQ(0, write_str(ESCAPE_FILE, "\n"));
	set_level(_metadata, 1);
	EXPECT_EQ(0, exec_as_root(self->escape));
	EXPECT_EQ(1, current_level());
}

TEST_HARNESS_MAIN
