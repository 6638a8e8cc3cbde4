// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl_bench - time the system calls whose paths seclvl hooks
 *
 * Runs each operation in a loop for about --time milliseconds, --reps
 * times, and prints one line per operation and repetition.  Besides the
 * single system calls, two workloads time a whole task per iteration:
 * unpacking, walking and removing a source tree, and a shell-like run of
 * commands, each forked and executed.  The output:
 *
 *   bench NAME REP NS_PER_OP ITERATIONS
 *
 * or "skip NAME REASON" when a system call is refused at this level (the
 * bench measures the allowed path; refusals are the tests' business).  A
 * workload is made only of what every level allows: its refusal is
 * "fail NAME REASON" and the exit status 1.
 *
 * The host compares the same operations across boots with and without
 * seclvl.  Under QEMU with icount (make bench) the guest clock counts
 * instructions, so NS_PER_OP is the operation's length in instructions.
 *
 * Copyright (C) 2026 The seclvl authors
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *dir = "/tmp/seclvl-bench";
static const char *bdev = "/dev/vda";
/* 1 MiB, not a module; the bench scenario lists its digest at level 0. */
static const char *image = "/run/seclvl-bench-image.ko";
static int image_fd = -1, image_err;
static char *const true_argv[] = { "/bin/seclvl_true", NULL };
/*
 * chown has a file of its own: it leaves the group 1 or 0, and root's
 * chmod of a file outside its groups also asks capable(CAP_FSETID)
 * (setattr_prepare()), so chmod's path would depend on chown's last call.
 */
static char file[256], chown_file[256], mnt[256], tree[256];
static pid_t child;

/* One iteration of an operation; returns 0 or an errno. */
typedef int (*op_fn)(void);

static int op_getpid(void)
{
	syscall(SYS_getpid);
	return 0;
}

static int open_close(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int op_open_close(void)
{
	return open_close(file);
}

static int op_stat(void)
{
	struct stat st;

	return stat(file, &st) ? errno : 0;
}

static int op_chmod(void)
{
	static int flip;

	flip = !flip;
	return chmod(file, flip ? 0640 : 0644) ? errno : 0;
}

static int op_chown(void)
{
	static int flip;

	flip = !flip;
	return chown(chown_file, 0, flip ? 1 : 0) ? errno : 0;
}

static int op_execve(void)
{
	pid_t pid;
	int status, err;

	err = posix_spawn(&pid, true_argv[0], NULL, NULL, true_argv, environ);
	if (err)
		return err;
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
}

/* CAP_SYS_ADMIN, which no restriction refuses. */
static int op_capable(void)
{
	static const char name[] = "seclvl-bench";

	return sethostname(name, sizeof(name) - 1) ? errno : 0;
}

static int op_ptrace(void)
{
	int status;

	if (ptrace(PTRACE_ATTACH, child, NULL, NULL))
		return errno;
	if (waitpid(child, &status, 0) != child)
		return errno;
	return ptrace(PTRACE_DETACH, child, NULL, NULL) ? errno : 0;
}

static int op_clock_forward(void)
{
	struct timespec ts;

	/* Far enough ahead that the call itself cannot make it a step back. */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 10000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return clock_settime(CLOCK_REALTIME, &ts) ? errno : 0;
}

static int op_mount_umount(void)
{
	if (mount("bench", mnt, "tmpfs", MS_NOSUID, NULL))
		return errno;
	return umount(mnt) ? errno : 0;
}

static int op_open_bdev(void)
{
	return open_close(bdev);
}

/*
 * A module load of a listed 1 MiB image: from level 1 seclvl hashes it
 * (the list of module images) and lets it through; the kernel then finds
 * no module in it.  Below that, and without seclvl, the same load costs
 * the read and the refusal alone: the difference is the digest's cost.
 */
static int op_module_image(void)
{
	if (image_fd < 0)
		return image_err;
	/* Loaded, which it cannot be, would be a failure too. */
	if (!syscall(SYS_finit_module, image_fd, "", 0))
		errno = EEXIST;
	return errno == ENOEXEC ? 0 : errno;
}

/*
 * The source tree workload: what unpacking a tarball and building from it
 * does to the filesystem, on the tmpfs of /tmp.  Each iteration creates
 * TREE_DIRS directories of TREE_FILES files, writing each file, setting
 * its mode as tar restores the archive's (an execute bit on some, no
 * set-id bit: adding one is what the setid_bits restriction refuses at
 * level 1) and checking it with stat(); then walks the tree as find and
 * grep do (readdir, stat, open and read every file); then removes it.
 */
#define TREE_DIRS 32
#define TREE_FILES 64
#define TREE_FILE_SIZE 2048

static int tree_unpack(void)
{
	static char data[TREE_FILE_SIZE];
	char path[320];
	struct stat st;
	int fd;

	if (mkdir(tree, 0755))
		return errno;
	for (int d = 0; d < TREE_DIRS; d++) {
		snprintf(path, sizeof(path), "%s/dir%02d", tree, d);
		if (mkdir(path, 0755))
			return errno;
		for (int f = 0; f < TREE_FILES; f++) {
			snprintf(path, sizeof(path), "%s/dir%02d/file%03d.c",
				 tree, d, f);
			fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
			if (fd < 0)
				return errno;
			if (write(fd, data, sizeof(data)) != sizeof(data)) {
				int err = errno ? errno : EIO;

				close(fd);
				return err;
			}
			close(fd);
			if (chmod(path, f % 8 ? 0644 : 0755))
				return errno;
			if (stat(path, &st))
				return errno;
		}
	}
	return 0;
}

/* Each file of a directory: fstatat(), then open, read to the end, close. */
static int tree_walk_dir(const char *path)
{
	char buf[4096];
	struct dirent *de;
	struct stat st;
	DIR *dp = opendir(path);
	int err = 0;

	if (!dp)
		return errno;
	while (!err && (de = readdir(dp))) {
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			err = errno;
			break;
		}
		fd = openat(dirfd(dp), de->d_name, O_RDONLY);
		if (fd < 0) {
			err = errno;
			break;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			err = errno;
		close(fd);
	}
	closedir(dp);
	return err;
}

static int tree_walk(void)
{
	char path[320];
	int err;

	for (int d = 0; d < TREE_DIRS; d++) {
		snprintf(path, sizeof(path), "%s/dir%02d", tree, d);
		err = tree_walk_dir(path);
		if (err)
			return err;
	}
	return 0;
}

/* Whatever of the tree there is, so that a failed iteration leaves none. */
static int tree_remove(void)
{
	char path[320];
	int err = 0;

	for (int d = 0; d < TREE_DIRS; d++) {
		for (int f = 0; f < TREE_FILES; f++) {
			snprintf(path, sizeof(path), "%s/dir%02d/file%03d.c",
				 tree, d, f);
			if (unlink(path) && errno != ENOENT && !err)
				err = errno;
		}
		snprintf(path, sizeof(path), "%s/dir%02d", tree, d);
		if (rmdir(path) && errno != ENOENT && !err)
			err = errno;
	}
	if (rmdir(tree) && errno != ENOENT && !err)
		err = errno;
	return err;
}

static int op_source_tree(void)
{
	int err = tree_unpack();

	if (!err)
		err = tree_walk();
	if (err) {
		tree_remove();
		return err;
	}
	return tree_remove();
}

/*
 * The shell workload: one command of a script per iteration, as a shell
 * runs it: fork(), the child's output redirected, its supplementary and
 * primary groups set (CAP_SETGID, as runuser or a service manager sets
 * them), then execve() of a small program, and the parent waits.  The
 * child keeps root's user IDs: changing them (CAP_SETUID) is what the
 * setuid restriction refuses at level 1, and setresuid() to the IDs it
 * has already asks for no capability.
 */
static int op_shell_command(void)
{
	static const gid_t groups[] = { 0 };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(126);
		close(fd);
		if (setgroups(ARRAY_SIZE(groups), groups) || setgid(0) ||
		    setresuid(0, 0, 0))
			_exit(126);
		execve(true_argv[0], true_argv, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* 126: the child could not set itself up, as a shell says. */
	return WIFEXITED(status) && WEXITSTATUS(status) == 126 ? EPERM : ECHILD;
}

static const struct {
	const char *name;
	op_fn fn;
	bool workload;
} ops[] = {
	{ "getpid", op_getpid, false },
	{ "open_close", op_open_close, false },
	{ "stat", op_stat, false },
	{ "chmod", op_chmod, false },
	{ "chown", op_chown, false },
	{ "execve", op_execve, false },
	{ "capable", op_capable, false },
	{ "ptrace_attach", op_ptrace, false },
	{ "clock_forward", op_clock_forward, false },
	{ "mount_umount", op_mount_umount, false },
	{ "open_bdev_ro", op_open_bdev, false },
	{ "module_image_1mb", op_module_image, false },
	{ "source_tree", op_source_tree, true },
	{ "shell_command", op_shell_command, true },
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Iterations that take about ms milliseconds, from a short trial. */
static long calibrate(op_fn fn, int ms)
{
	long n = 1;

	for (;;) {
		double t0 = now_ns(), dt;

		for (long i = 0; i < n; i++)
			fn();
		dt = now_ns() - t0;
		if (dt > ms * 1e6 / 8 || n >= (1L << 24))
			return (long)(n * (ms * 1e6 / (dt > 0 ? dt : 1)));
		n *= 4;
	}
}

static int create_empty(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0)
		return perror(path), -1;
	close(fd);
	return 0;
}

static int setup(void)
{
	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(chown_file, sizeof(chown_file), "%s/chown", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return perror(dir), -1;
	if (mkdir(mnt, 0755) && errno != EEXIST)
		return perror(mnt), -1;
	if (create_empty(file) || create_empty(chown_file))
		return -1;
	image_fd = open(image, O_RDONLY | O_CLOEXEC);
	image_err = errno;
	/* The ptrace target: a child that waits to be killed. */
	child = fork();
	if (child < 0)
		return perror("fork"), -1;
	if (child == 0) {
		for (;;)
			pause();
	}
	return 0;
}

static int print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--reps N] [--time MS] [--only NAME]\n"
		"Times each operation seclvl hooks and two workloads; prints\n"
		"\"bench NAME REP NS_PER_OP ITERATIONS\" per repetition.\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	int reps = 5, ms = 200, status = 0;
	const char *only = NULL;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = strtol(argv[++i], &end, 10);
			if (*end || reps < 1 || reps > 1000)
				return print_usage(argv[0]);
		} else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
			ms = strtol(argv[++i], &end, 10);
			if (*end || ms < 1 || ms > 60000)
				return print_usage(argv[0]);
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else {
			return print_usage(argv[0]);
		}
	}
	if (setup())
		return 1;

	for (size_t o = 0; o < ARRAY_SIZE(ops); o++) {
		int err;
		long n;

		if (only && strcmp(only, ops[o].name))
			continue;
		err = ops[o].fn();
		if (err && ops[o].workload) {
			printf("fail %s %s\n", ops[o].name, strerror(err));
			fflush(stdout);
			status = 1;
			continue;
		}
		if (err) {
			printf("skip %s %s\n", ops[o].name, strerror(err));
			fflush(stdout);
			continue;
		}
		n = calibrate(ops[o].fn, ms);
		if (n < 1)
			n = 1;
		for (int r = 0; r < reps; r++) {
			double t0 = now_ns(), dt;
			long failed = 0;

			for (long i = 0; i < n; i++)
				failed += ops[o].fn() != 0;
			dt = now_ns() - t0;
			if (failed) {
				printf("fail %s %ld of %ld calls failed\n",
				       ops[o].name, failed, n);
				status = 1;
				break;
			}
			printf("bench %s %d %.1f %ld\n", ops[o].name, r, dt / n, n);
			fflush(stdout);
		}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return status;
}
