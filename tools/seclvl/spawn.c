// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn: run a program and read what it prints, for seclvlctl (journalctl)
 * and the module digests (a decompressor).
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

/**
 * spawn_reader - run a program with its standard output on a pipe
 * @argv: the program (looked up in PATH) and its arguments, NULL-ended
 * @out: set to the pipe's reading end, which the caller closes
 *
 * Return: the child's pid, or -errno.
 */
pid_t spawn_reader(char *const argv[], int *out)
{
	int pipefd[2], err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return -err;
	}
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

/**
 * spawn_wait - wait for a program spawn_reader() ran
 * @pid: its pid
 *
 * Return: its exit status (127: not found), 128 if a signal ended it, or
 * -errno.
 */
int spawn_wait(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
