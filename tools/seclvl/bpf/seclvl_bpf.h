/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl BPF backend: what the BPF programs and their loader share
 *
 * The restrictions, their names and default levels come from the in-tree
 * LSM's own list (security/seclvl/restrictions.h), so that both backends
 * enforce one policy.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECLVL_BPF_H
#define _SECLVL_BPF_H

#define SECLVL_MIN (-1)
#define SECLVL_MAX 2
#define SECLVL_OFF (SECLVL_MAX + 1)

enum seclvl_restriction {
#define SECLVL_RESTRICTION(id, ...) SECLVL_##id,
#include "../../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
	SECLVL_NR_RESTRICTIONS
};

#define SECLVL_NAME_MAX 32

/* One restriction: its name and the lowest level it applies at. */
struct seclvl_rule {
	char name[SECLVL_NAME_MAX];
	int level;		/* 1, 2 or SECLVL_OFF */
};

/*
 * Slots of the state map.  The loader writes them all, then freezes the
 * map; afterwards only the raise program changes one: the level.
 */
enum seclvl_state_slot {
	SECLVL_STATE_LEVEL,	/* the secure level */
	SECLVL_STATE_PIN_INO,	/* inode of the pin directory */
	SECLVL_STATE_PIN_DEV,	/* s_dev of its bpffs superblock */
	SECLVL_STATE_MAP_ID,	/* id of this map */
	SECLVL_STATE_DENIALS_ID, /* id of the denial counters */
	SECLVL_STATE_STEPPING_ID, /* id of the adjtimex task marks */
	SECLVL_STATE_NR
};

/* The context of the raise program: the level asked for. */
struct seclvl_raise_ctx {
	int level;
};

/*
 * What the programs report through the events ring buffer, for
 * "seclvl-bpf log" to put in the kernel log as the LSM's printk does.
 */
enum seclvl_event_kind {
	SECLVL_EVENT_DENIED,	/* a: the restriction, b: the level */
	SECLVL_EVENT_LEVEL,	/* a: the level before, b: after */
};

struct seclvl_event {
	__u32 kind;
	__s32 a;
	__s32 b;
	__u32 pid;		/* the thread's, as the LSM logs */
	__s64 syscall;		/* -1 outside a system call */
	char comm[16];
};

#define SECLVL_PIN_DIR "/sys/fs/bpf/seclvl"

#endif /* _SECLVL_BPF_H */
