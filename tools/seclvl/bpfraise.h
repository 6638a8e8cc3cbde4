/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF backend's raise above 0, for seclvlctl and seclvl-bpf:
 * bpfraise.c.  Plain bpf(2) calls, so that seclvlctl needs no libbpf.
 */
#ifndef SECLVL_BPFRAISE_H
#define SECLVL_BPFRAISE_H

#include <stddef.h>

#include <linux/bpf.h>

const char *bpfraise_kind(enum bpf_attach_type type);
int bpfraise_attach_hooks(const char *dir, char *what, size_t size);
int bpfraise_raise(const char *dir, int level);
int bpfraise_hooks_attached(const char *dir, int *total);

#endif
