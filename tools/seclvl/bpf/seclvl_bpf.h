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

#include "../../../security/seclvl/levels.h"

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
	SECLVL_STATE_MODULES_ID, /* id of the list of module images */
	SECLVL_STATE_LOADS_ID,	/* id of the loads per image */
	SECLVL_STATE_LISTED,	/* set by the raise: the list has entries */
	SECLVL_STATE_HOOKS_ID,	/* id of the map of hook programs */
	SECLVL_STATE_NR_HOOKS,	/* how many hook programs there are */
	SECLVL_STATE_PIN_MNT,	/* the pins' mount, noted by the first raise */
	SECLVL_STATE_NETLINK_ID, /* id of the netlink marks */
	SECLVL_STATE_ATTACHED_ID, /* id of the raise's hook marks */
	SECLVL_STATE_EVENTS_ID,	/* id of the ring buffer of events */
	SECLVL_STATE_LOOP_USERS_ID, /* id of the loop devices per backing inode */
	SECLVL_STATE_LOOP_BEFORE_ID, /* id of the loop watchers' task marks */
	SECLVL_STATE_LOG_READER, /* tgid of the log reader, noted at level 0 */
	SECLVL_STATE_HOOKS_NEEDED, /* the hook programs not off, by bit */
	SECLVL_STATE_DROPPED,	/* events lost to a full ring buffer */
	SECLVL_STATE_NR
};

/*
 * The hook programs (LSM, fentry, fexit) are attached only when a raise
 * takes the level above 0, so that level 0 costs nothing.  The loader
 * pins each as "<program>-<kind>", kind being lsm, fentry or fexit (see
 * ../bpfraise.c), and a raise attaches it and pins its link as
 * "<program>".  The raise iterators,
 * pinned as "raise1" and "raise2", take the level up only once they have
 * found every hook program attached: the map of hook programs gives each
 * program's id its bit in that check.
 */
#define SECLVL_HOOKS_MAX 64

/*
 * The list of module images, as the LSM's modules file: keyed by the
 * SHA-256 of the image as the kernel reads it.  The loader's programs only
 * read it (BPF_F_RDONLY_PROG); it changes through the pinned map while the
 * level is <= 0 and must be frozen (BPF_MAP_FREEZE) before the raise
 * program takes the level above 0.  Loads allowed per image are counted
 * in a second map with the same keys.
 */
#define SECLVL_MODULES_MAX 16384
#define SECLVL_DIGEST_SIZE 32
#define SECLVL_MODULE_NAME_LEN 56	/* the kernel's MODULE_NAME_LEN */

struct seclvl_module {
	char name[SECLVL_MODULE_NAME_LEN];	/* "" or [A-Za-z0-9_-]+ */
};

/* The context of the raise program (levels -1 and 0): the level asked for. */
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
	SECLVL_EVENT_MODULE,	/* a denied load: struct seclvl_module_event */
};

struct seclvl_event {
	__u32 kind;
	__s32 a;
	__s32 b;
	__u32 pid;		/* the thread's, as the LSM logs */
	__s64 syscall;		/* -1 outside a system call */
	char comm[16];
};

/* A module image refused by its digest; file is "" for init_module(2). */
struct seclvl_module_event {
	struct seclvl_event e;	/* kind SECLVL_EVENT_MODULE, a, b as DENIED */
	__u8 digest[SECLVL_DIGEST_SIZE];
	char file[64];		/* the file's name, without its directory */
};

#define SECLVL_PIN_DIR "/sys/fs/bpf/seclvl"

#endif /* _SECLVL_BPF_H */
