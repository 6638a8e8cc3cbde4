/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF backend's raise above 0, for seclvlctl and seclvl-bpf:
 * bpfraise.c.  Plain bpf(2) calls, so that seclvlctl needs no libbpf.
 */
#ifndef SECLVL_BPFRAISE_H
#define SECLVL_BPFRAISE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/bpf.h>

/* Why the last load failed, while nothing is loaded: seclvl-bpf writes it. */
#define BPF_FAILED_FILE "/run/seclvl-bpf.failed"

const char *bpfraise_kind(enum bpf_attach_type type);
size_t bpfraise_hook_pin(const char *name, enum bpf_attach_type *type,
			 bool *off);
int bpfraise_attach_hooks(const char *dir, char *what, size_t size);
int bpfraise_raise(const char *dir, int level);
int bpfraise_read_iter(const char *path);
int bpfraise_hooks_attached(const char *dir, int *total);

/* A hook program that serves @restriction alone (bpfraise.c). */
struct bpf_deferred {
	const char *prog;
	const char *restriction;
};

extern const struct bpf_deferred bpf_deferred_hooks[];
extern const size_t bpf_nr_deferred;

/* A program a kernel may lack, and what is partial without it. */
struct bpf_optional {
	const char *prog;		/* the program's name */
	const char *restriction;	/* what is partial, or NULL: nothing */
	const char *missing;		/* what is not judged */
};

extern const struct bpf_optional bpf_optional_progs[];
extern const size_t bpf_nr_optional;
bool bpfraise_left_out(const char *dir, size_t i);
bool bpfraise_partial(const char *dir, const char *restriction,
		      const char **missing);

#endif
