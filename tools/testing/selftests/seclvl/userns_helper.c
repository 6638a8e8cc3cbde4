// SPDX-License-Identifier: GPL-2.0-only
/*
 * userns_helper PIDFILE: become uid and gid 1000, make a user namespace
 * whose root is that user (as any user may), write the pid to PIDFILE and
 * wait to be killed.  The scenarios start it at level 0; bypass_test joins
 * its namespace as the host's root.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	char pid[32];

	if (argc != 2) {
		fprintf(stderr, "usage: userns_helper PIDFILE\n");
		return 2;
	}
	/* Dumpable again after the change of IDs, to own /proc/self. */
	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ||
	    prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER) ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", "0 1000 1") ||
	    write_file("/proc/self/gid_map", "0 1000 1")) {
		fprintf(stderr, "userns_helper: %s\n", strerror(errno));
		return 1;
	}
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (write_file(argv[1], pid)) {
		fprintf(stderr, "userns_helper: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	pause();
	return 0;
}
