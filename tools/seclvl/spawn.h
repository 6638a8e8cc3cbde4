/* SPDX-License-Identifier: GPL-2.0-only */
/* A program whose output is read: spawn.c, for seclvlctl and seclvl-bpf. */
#ifndef SECLVL_SPAWN_H
#define SECLVL_SPAWN_H

#include <sys/types.h>

pid_t spawn_reader(char *const argv[], int *out);
int spawn_wait(pid_t pid);

#endif
