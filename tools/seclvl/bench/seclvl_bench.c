// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl_bench - time the system calls whose paths seclvl hooks
 *
 * Runs each operation in a loop for about --time milliseconds, --reps
 * times, and prints one line per operation and repetition:
 *
 *   bench NAME REP NS_PER_OP ITERATIONS
 *
 * or "skip NAME REASON" when the operation is refused at this level (the
 * bench measures the allowed path; refusals are the tests' business).
 * The host compares the same operations across boots with and without
 * seclvl; absolute numbers mean little under an emulator.
 *
 * Copyright (C) 2026 The seclvl authors
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *dir = "/tmp/seclvl-bench";
static const char *bdev = "/dev/vda";
static char *const true_argv[] = { "/bin/seclvl_true", NULL };
static char file[256], mnt[256];
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
	return chown(file, 0, flip ? 1 : 0) ? errno : 0;
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

static const struct {
	const char *name;
	op_fn fn;
} ops[] = {
	{ "getpid", op_getpid },
	{ "open_close", op_open_close },
	{ "stat", op_stat },
	{ "chmod", op_chmod },
	{ "chown", op_chown },
	{ "execve", op_execve },
	{ "capable", op_capable },
	{ "ptrace_attach", op_ptrace },
	{ "clock_forward", op_clock_forward },
	{ "mount_umount", op_mount_umount },
	{ "open_bdev_ro", op_open_bdev },
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

static int setup(void)
{
	int fd;

	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return perror(dir), -1;
	if (mkdir(mnt, 0755) && errno != EEXIST)
		return perror(mnt), -1;
	fd = open(file, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return perror(file), -1;
	close(fd);
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
		"Times each operation seclvl hooks; prints\n"
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
