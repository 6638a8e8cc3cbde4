// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl BPF backend: secure levels enforced by BPF LSM programs
 *
 * The same restrictions as the in-tree LSM (security/seclvl/), for
 * kernels that have the bpf LSM but not seclvl.  Each hook reads the level
 * from the frozen state map and the restriction's level from .rodata, and
 * refuses with -EPERM, counting the refusal per restriction.  From level 1
 * the programs also refuse whatever would detach, replace or fool them.
 *
 * No hook reads its positional "ret" argument: hook arities change between
 * kernels and this is the only program on each hook it cares about.
 * Fields are read by direct loads, which the verifier guards, where it
 * can type the pointer; BPF_CORE_READ() (a helper call each) only where
 * a pointer is computed.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <vmlinux.h>	/* the types kept here (-I.), or gen-vmlinux.py's */
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "seclvl_bpf.h"
#include "kconst.h"
#include "sha256.bpf.h"
#include "../../../security/seclvl/bpfnet.h"
#include "../../../security/seclvl/mountrules.h"
#include "../../../security/seclvl/caprules.h"
#include "../../../security/seclvl/devrules.h"
#include "../../../security/seclvl/ioctlrules.h"
#include "../../../security/seclvl/setidrules.h"

char LICENSE[] SEC("license") = "GPL";

/* The level, and what the self-protection hooks must recognise. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SECLVL_STATE_NR);
	__type(key, __u32);
	__type(value, __s64);
} seclvl_state SEC(".maps");

/* Refusals since the programs were loaded, per restriction. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SECLVL_NR_RESTRICTIONS);
	__type(key, __u32);
	__type(value, __u64);
} seclvl_denials SEC(".maps");

/*
 * Set while a task makes a call whose CAP_NET_ADMIN check configures
 * nothing, until that check: see seclvl_socket_sendmsg.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} seclvl_netlink_ipc SEC(".maps");

/* Refusals and changes of level, for "seclvl-bpf log". */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} seclvl_events SEC(".maps");

/*
 * How many loop devices use a backing inode (by its address), for the
 * inodes a loop device took or tried to take since the raise: the loop
 * driver's own mark stays on a file whose LOOP_CONFIGURE failed (6.12 on),
 * and through every later bind and unbind of it.  An entry decides;
 * without one, the mark does.  An evicted entry's file still has the mark
 * if it is bound.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __s64);
} seclvl_loop_users SEC(".maps");

/* The backing inode of the loop device a task is configuring, before. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} seclvl_loop_before SEC(".maps");

/* Set when adjtimex() is asked to step the clock back, until it returns. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} seclvl_stepping_back SEC(".maps");

/*
 * The list of module images (see seclvl_bpf.h): the programs only read
 * it, and the raise program takes the level above 0 only once it is
 * frozen, so from level 1 nobody changes it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG);
	__uint(max_entries, SECLVL_MODULES_MAX);
	__type(key, __u8[SECLVL_DIGEST_SIZE]);
	__type(value, struct seclvl_module);
} seclvl_modules SEC(".maps");

/*
 * The hook programs by id, each with its bit in the raise's check that all
 * are attached: written by the loader, then frozen.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, SECLVL_HOOKS_MAX);
	__type(key, __u32);
	__type(value, __u32);
} seclvl_hooks SEC(".maps");

/* The hook programs a raise iterator has found attached, per raising task. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} seclvl_attached SEC(".maps");

/* Loads allowed per listed image. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, SECLVL_MODULES_MAX);
	__type(key, __u8[SECLVL_DIGEST_SIZE]);
	__type(value, __u64);
} seclvl_module_loads SEC(".maps");

/*
 * The policy, as the LSM's table: the loader may change a level before it
 * loads the programs; from then on .rodata is read-only to everyone.
 */
const struct seclvl_rule seclvl_rules[SECLVL_NR_RESTRICTIONS] = {
#define SECLVL_RESTRICTION(id, rule_name, rule_level) \
	[SECLVL_##id] = { .name = rule_name, .level = rule_level },
#include "../../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
};

/* Read, not folded: the loader may have changed the default. */
static __always_inline int seclvl_rule_level(enum seclvl_restriction r)
{
	const struct seclvl_rule *rules = seclvl_rules;

	barrier_var(rules);
	return rules[r].level;
}

static __always_inline __s64 *seclvl_slot(__u32 slot)
{
	return bpf_map_lookup_elem(&seclvl_state, &slot);
}

static __always_inline __s64 seclvl_state_get(__u32 slot)
{
	__s64 *v = seclvl_slot(slot);

	return v ? *v : 0;
}

static __always_inline int seclvl_level(void)
{
	return seclvl_state_get(SECLVL_STATE_LEVEL);
}

static __always_inline bool seclvl_enforced(enum seclvl_restriction r,
					    int level)
{
	return seclvl_rule_applies(level, seclvl_rule_level(r));
}

/*
 * One event for the log.  A full buffer (no reader, or a flood) drops it:
 * the denial counters still count every refusal.
 */
static __always_inline void seclvl_fill_event(struct seclvl_event *e,
					      __u32 kind, int a, int b)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;

	e->kind = kind;
	e->a = a;
	e->b = b;
	e->pid = task->pid;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	e->syscall = task->flags & PF_KTHREAD ? -1 : BPF_CORE_READ(regs, orig_ax);
	bpf_get_current_comm(e->comm, sizeof(e->comm));
}

/*
 * An event the ring buffer had no room for (its reader lags behind a
 * storm): the counts stay exact, and the log reader and seclvlctl say
 * how many lines are missing.
 */
static __always_inline void seclvl_count_dropped(void)
{
	__s64 *n = seclvl_slot(SECLVL_STATE_DROPPED);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline void seclvl_report(__u32 kind, int a, int b)
{
	struct seclvl_event *e;

	e = bpf_ringbuf_reserve(&seclvl_events, sizeof(*e), 0);
	if (!e) {
		seclvl_count_dropped();
		return;
	}
	seclvl_fill_event(e, kind, a, b);
	bpf_ringbuf_submit(e, 0);
}

static __always_inline int seclvl_refuse(enum seclvl_restriction r)
{
	__u32 key = r;
	__u64 *n = bpf_map_lookup_elem(&seclvl_denials, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	seclvl_report(SECLVL_EVENT_DENIED, r, seclvl_level());
	return -EPERM;
}

/* Refuse @r if it applies at @level. */
static __always_inline int seclvl_check(enum seclvl_restriction r, int level)
{
	return seclvl_enforced(r, level) ? seclvl_refuse(r) : 0;
}

/* The initial user namespace is the only one at depth 0. */
static __always_inline bool seclvl_init_ns(struct user_namespace *ns)
{
	return ns->level == 0;
}

static __always_inline bool seclvl_current_init_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return seclvl_init_ns(task->cred->user_ns);
}

/*
 * As the LSM's hook_socket_sendmsg() and hook_socket_setsockopt(): netlink
 * asks for CAP_NET_ADMIN to let a socket send to other sockets (udev's
 * broadcast to libudev listeners), and SO_SNDBUFFORCE and SO_RCVBUFFORCE
 * to size the caller's own socket, which configure nothing.  The mark is
 * read and cleared by the next capability check, the call's own, and
 * counts only in a send or setsockopt system call.
 */
static __always_inline void seclvl_mark_net_admin_noop(bool noop)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *mark;

	mark = bpf_task_storage_get(&seclvl_netlink_ipc, task, 0,
				    noop ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (mark)
		*mark = noop;
}

SEC("lsm/socket_sendmsg")
int BPF_PROG(seclvl_socket_sendmsg, struct socket *sock, struct msghdr *msg,
	     int size)
{
	struct sockaddr_nl addr = {};
	struct sock *sk = sock->sk;
	bool ipc = false;

	/* Marks are made only above level 0, which the level never leaves. */
	if (seclvl_level() <= 0)
		return 0;
	if (sk && sk->__sk_common.skc_family == AF_NETLINK &&
	    msg->msg_name && msg->msg_namelen >= sizeof(addr) &&
	    !bpf_probe_read_kernel(&addr, sizeof(addr), msg->msg_name))
		ipc = addr.nl_family == AF_NETLINK &&
		      (addr.nl_pid || addr.nl_groups);
	seclvl_mark_net_admin_noop(ipc);
	return 0;
}

SEC("lsm/socket_setsockopt")
int BPF_PROG(seclvl_socket_setsockopt, struct socket *sock, int level,
	     int optname)
{
	if (seclvl_level() <= 0)
		return 0;
	seclvl_mark_net_admin_noop(level == SOL_SOCKET &&
				   (optname == SO_SNDBUFFORCE ||
				    optname == SO_RCVBUFFORCE));
	return 0;
}

static __always_inline bool seclvl_take_net_admin_noop(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *mark = bpf_task_storage_get(&seclvl_netlink_ipc, task, 0, 0);
	struct pt_regs *regs;
	long nr;

	if (!mark || !*mark)
		return false;
	*mark = 0;
	if (task->thread_info.status & TS_COMPAT)
		return false;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = BPF_CORE_READ(regs, orig_ax);
	return nr == NR_sendmsg || nr == NR_sendto || nr == NR_sendmmsg ||
	       nr == NR_setsockopt;
}

/*
 * Whether the list of module images has entries.  Read only while the
 * level is above 0, where the raise that took it there has set it from
 * the frozen list.
 */
static __always_inline bool seclvl_modules_listed(void)
{
	return seclvl_state_get(SECLVL_STATE_LISTED) != 0;
}

/*
 * As the LSM's seclvl_unloading(): with a list, CAP_SYS_MODULE is let
 * through for loads, judged by their image, and refused for
 * delete_module().  A compat call is taken for one: a 32-bit one
 * (TS_COMPAT), or an x32 one, which a 64-bit process can make as well
 * where x32 is on (syscall.x32=y).
 */
static __always_inline bool seclvl_unloading(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;
	long nr;

	if (task->thread_info.status & TS_COMPAT)
		return true;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = BPF_CORE_READ(regs, orig_ax);
	return (nr & X32_SYSCALL_BIT) || nr == NR_delete_module;
}

/* As the LSM's seclvl_in_bpf(): bpf() judges by where, not the capability. */
static __always_inline bool seclvl_in_bpf(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;

	if (!task->mm || (task->thread_info.status & TS_COMPAT))
		return false;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	return BPF_CORE_READ(regs, orig_ax) == NR_bpf;
}

/* Whether any of @cred's user IDs is the initial namespace's root. */
static __always_inline bool seclvl_host_root(const struct cred *cred)
{
	return !cred->uid.val || !cred->euid.val || !cred->suid.val;
}

/*
 * adjtimex() asks for CAP_SYS_TIME and for no hook: see below.  Only a
 * step back is refused, so the task's mark is looked up only where that
 * is enforced.
 */
static __always_inline int seclvl_capable_time(struct user_namespace *ns)
{
	struct task_struct *task;
	int *back;

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, seclvl_level()) ||
	    !seclvl_init_ns(ns))
		return 0;
	task = bpf_get_current_task_btf();
	back = bpf_task_storage_get(&seclvl_stepping_back, task, 0, 0);
	if (back && *back)
		return seclvl_refuse(SECLVL_TIME_BACKWARD);
	return 0;
}

SEC("lsm/capable")
int BPF_PROG(seclvl_capable, const struct cred *cred, struct user_namespace *ns,
	     int cap, unsigned int opts)
{
	enum seclvl_restriction r = seclvl_cap_restriction(cap);
	int level;

	/* Most checks are for a capability nothing here refuses. */
	if (r == SECLVL_NR_RESTRICTIONS)
		return cap == CAP_SYS_TIME ? seclvl_capable_time(ns) : 0;
	level = seclvl_level();
	if (level <= 0)
		return 0;
	/* As the LSM's: the host's root changing its IDs in a user's. */
	if (!seclvl_init_ns(ns) &&
	    !seclvl_cap_in_scope(false, cap, seclvl_host_root(cred)))
		return 0;
	if (r == SECLVL_NET_ADMIN) {
		if (seclvl_take_net_admin_noop() || seclvl_in_bpf())
			return 0;
		return seclvl_check(SECLVL_NET_ADMIN, level);
	}
	if (r == SECLVL_MODULES) {
		if (seclvl_modules_listed() && !seclvl_unloading())
			return 0;
		return seclvl_check(SECLVL_MODULES, level);
	}
	/* Bounds the index for the verifier. */
	if ((unsigned int)r < SECLVL_NR_RESTRICTIONS)
		return seclvl_check(r, level);
	return 0;
}

/* Whether @mm is init's memory: init is its pid namespace's reaper. */
static __always_inline bool seclvl_is_init_mm(void *mm)
{
	struct task_struct *init;

	if (!mm)
		return false;
	init = BPF_CORE_READ((struct pid_namespace *)&init_pid_ns, child_reaper);
	return init && BPF_CORE_READ(init, mm) == mm;
}

SEC("lsm/ptrace_access_check")
int BPF_PROG(seclvl_ptrace_access_check, struct task_struct *child,
	     unsigned int mode)
{
	int level = seclvl_level();

	if (level <= 0 || !(mode & PTRACE_MODE_ATTACH))
		return 0;
	/* Self-protection: its descriptors and memory hold the log's position. */
	if (child->tgid == seclvl_state_get(SECLVL_STATE_LOG_READER))
		return -EPERM;
	/* Init, or a task sharing its memory (a CLONE_VM child). */
	if (child->tgid != 1 &&
	    (!child->mm || child->mm->mm_users.counter < 2 ||
	     !seclvl_is_init_mm(child->mm)))
		return 0;
	return seclvl_check(SECLVL_PTRACE_INIT, level);
}

/*
 * CLOCK_REALTIME now: TAI less the kernel's TAI offset, read from the
 * timekeeper as ktime_get_real() would (the loader checks the result).
 */
static __always_inline __s64 seclvl_realtime_ns(void)
{
	__u64 at = bpf_core_type_size(seqcount_raw_spinlock_t);
	const char *tk = &tk_core ? (const char *)&tk_core :
				    (const char *)&timekeeper_data;
	__s32 tai_offset = 0;

	at = (at + 7) & ~7ULL;
	at += bpf_core_field_offset(struct timekeeper, tai_offset);
	bpf_probe_read_kernel(&tai_offset, sizeof(tai_offset), tk + at);
	return bpf_ktime_get_tai_ns() - (__s64)tai_offset * NSEC_PER_SEC;
}

/*
 * The verifier of 6.12 takes hook arguments for non-NULL and drops tests
 * of them, so a NULL @ts or @tz shows as a failed read instead.
 */
SEC("lsm/settime")
int BPF_PROG(seclvl_settime, const struct timespec64 *ts,
	     const struct timezone *tz)
{
	struct timespec64 want;
	struct timezone zone;
	int level = seclvl_level();

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, level))
		return 0;
	if (!bpf_probe_read_kernel(&want, sizeof(want), ts)) {
		if (want.tv_sec * NSEC_PER_SEC + want.tv_nsec >=
		    seclvl_realtime_ns())
			return 0;
		return seclvl_refuse(SECLVL_TIME_BACKWARD);
	}
	/* The first timezone set warps the clock by its offset. */
	if (!bpf_probe_read_kernel(&zone, sizeof(zone), tz) &&
	    zone.tz_minuteswest < 0)
		return seclvl_refuse(SECLVL_TIME_BACKWARD);
	return 0;
}

/*
 * adjtimex(ADJ_SETOFFSET) steps the clock with no security hook, only a
 * capable(CAP_SYS_TIME) check: mark the task while a backward step is
 * being validated, and let seclvl_capable() refuse it.
 */
SEC("fentry/do_adjtimex")
int BPF_PROG(seclvl_adjtimex_enter, struct __kernel_timex *txc)
{
	struct task_struct *task;
	int *back;

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, seclvl_level()) ||
	    !(txc->modes & ADJ_SETOFFSET) || txc->time.tv_sec >= 0)
		return 0;
	task = bpf_get_current_task_btf();
	back = bpf_task_storage_get(&seclvl_stepping_back, task, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (back)
		*back = 1;
	return 0;
}

SEC("fexit/do_adjtimex")
int BPF_PROG(seclvl_adjtimex_exit, struct __kernel_timex *txc)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *back = bpf_task_storage_get(&seclvl_stepping_back, task, 0, 0);

	if (back)
		*back = 0;
	return 0;
}

static __always_inline bool seclvl_is_pin_sb(struct super_block *sb)
{
	return sb->s_magic == BPF_FS_MAGIC &&
	       sb->s_dev ==
		       seclvl_state_get(SECLVL_STATE_PIN_DEV);
}

static __always_inline bool seclvl_is_pin_dir(struct inode *inode)
{
	return inode && seclvl_is_pin_sb(inode->i_sb) &&
	       inode->i_ino ==
		       seclvl_state_get(SECLVL_STATE_PIN_INO);
}

static __always_inline struct mount *seclvl_real_mount(struct vfsmount *mnt)
{
	return (void *)mnt - bpf_core_field_offset(struct mount, mnt);
}

/* Whether anything is mounted under @mnt. */
static __always_inline bool seclvl_has_submounts(struct vfsmount *mnt)
{
	struct list_head *head = &seclvl_real_mount(mnt)->mnt_mounts;

	return BPF_CORE_READ(head, next) != head;
}

static __always_inline struct mnt_namespace *seclvl_init_mnt_ns_ptr(void)
{
	return BPF_CORE_READ((struct nsproxy *)&init_nsproxy, mnt_ns);
}

/* Whether the caller is in the initial mount namespace. */
static __always_inline bool seclvl_init_mnt_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return task->nsproxy->mnt_ns == seclvl_init_mnt_ns_ptr();
}

/*
 * Bounds the walks of an unmount's propagation: a peer group's ring and
 * the mounts of a lazily detached tree.  Past them seclvl assumes the
 * worst, that the unmount reaches the initial namespace.
 */
#define SECLVL_PEERS_MAX 16
#define SECLVL_TREE_MAX 256
#define SECLVL_TREE_DEPTH 32

/*
 * Whether @m has slaves.  The list of them is a list_head on 6.12, an
 * hlist_head (NULL when empty) on later kernels: told apart by its size.
 */
static __always_inline bool seclvl_has_slaves(struct mount *m)
{
	void *at = (void *)m + bpf_core_field_offset(struct mount,
						      mnt_slave_list);
	void *first;

	if (bpf_probe_read_kernel(&first, sizeof(first), at))
		return true;
	if (bpf_core_field_size(struct mount, mnt_slave_list) ==
	    sizeof(struct hlist_head))
		return first;
	return first != at;
}

/*
 * Whether what happens under @parent propagates to the initial mount
 * namespace: one of its peers is there (fs/pnode.c).  A peer with slaves
 * counts as reaching it, unwalked.
 */
static __always_inline bool seclvl_propagates_to_init(struct mount *parent)
{
	struct mnt_namespace *init_ns = seclvl_init_mnt_ns_ptr();
	struct mount *peer = parent;
	struct list_head *next;
	int i;

	for (i = 0; i < SECLVL_PEERS_MAX; i++) {
		if (BPF_CORE_READ(peer, mnt_ns) == init_ns ||
		    seclvl_has_slaves(peer))
			return true;
		next = BPF_CORE_READ(peer, mnt_share.next);
		peer = (void *)next - bpf_core_field_offset(struct mount,
							    mnt_share);
		if (peer == parent)
			return false;
	}
	return true;
}

/* Whether unmounting @m propagates there: by its parent's peers. */
static __always_inline bool seclvl_umount_reaches_init(struct mount *m)
{
	struct mount *parent = BPF_CORE_READ(m, mnt_parent);

	return parent != m && seclvl_propagates_to_init(parent);
}

/* A walk of a tree of mounts in the order of the VFS's next_mnt(). */
struct seclvl_tree_walk {
	struct mount *root;
	struct mount *at;
	bool reaches;
};

static int seclvl_tree_step(__u32 i, void *ctx)
{
	struct seclvl_tree_walk *w = ctx;
	struct mount *p = w->at, *parent;
	struct list_head *next, *head = &p->mnt_mounts;
	int depth;

	if (seclvl_umount_reaches_init(p)) {
		w->reaches = true;
		return 1;
	}
	next = BPF_CORE_READ(head, next);
	for (depth = 0; next == head && depth < SECLVL_TREE_DEPTH; depth++) {
		if (p == w->root)
			return 1;
		next = BPF_CORE_READ(p, mnt_child.next);
		parent = BPF_CORE_READ(p, mnt_parent);
		head = &parent->mnt_mounts;
		p = parent;
	}
	if (next == head) {
		w->reaches = true;
		return 1;
	}
	w->at = (void *)next - bpf_core_field_offset(struct mount, mnt_child);
	return 0;
}

/*
 * Whether a lazy unmount of @mnt and the mounts under it takes a mount
 * from the initial namespace: each propagates by its own parent.
 */
static __always_inline bool seclvl_tree_reaches_init(struct vfsmount *mnt)
{
	struct seclvl_tree_walk w = { .root = seclvl_real_mount(mnt) };

	w.at = w.root;
	if (bpf_loop(SECLVL_TREE_MAX, seclvl_tree_step, &w, 0) ==
	    SECLVL_TREE_MAX)
		return true;
	return w.reaches;
}

/* The pins' mount in the initial namespace: see seclvl_raise_attached(). */
static __always_inline struct mount *seclvl_pin_mount(void)
{
	return (struct mount *)seclvl_state_get(SECLVL_STATE_PIN_MNT);
}

/*
 * Bounds the walks from the pins' mount to the root and from a mount
 * point to its filesystem's root; past them seclvl assumes the worst.
 */
#define SECLVL_CHAIN_MAX 8
#define SECLVL_DENTRY_DEPTH 16

/*
 * Whether @m is the pins' mount or one they hang under, or @mountpoint
 * is where one of those is mounted (either may be NULL).
 */
static __always_inline bool seclvl_on_pins_way(struct mount *m,
					       struct dentry *mountpoint)
{
	struct mount *p = seclvl_pin_mount(), *parent;
	int i;

	for (i = 0; p && i < SECLVL_CHAIN_MAX; i++) {
		if (p == m)
			return true;
		parent = BPF_CORE_READ(p, mnt_parent);
		if (parent == p)
			return false;
		if (BPF_CORE_READ(p, mnt_mountpoint) == mountpoint)
			return true;
		p = parent;
	}
	return true;
}

/* Whether @d is @mp or a directory above it. */
static __always_inline bool seclvl_dentry_above(struct dentry *d,
						struct dentry *mp)
{
	struct dentry *parent;
	int i;

	for (i = 0; i < SECLVL_DENTRY_DEPTH; i++) {
		if (mp == d)
			return true;
		parent = BPF_CORE_READ(mp, d_parent);
		if (parent == mp)
			return false;
		mp = parent;
	}
	return true;
}

/*
 * Whether a mount on @path would hide the pins, or slip beneath a mount
 * they hang under and so give it a new mount point: @path is on their way
 * from the root, in the initial namespace or in a copy that propagates
 * there.  The pins' own filesystem is refused as a whole elsewhere.
 */
static __always_inline bool seclvl_covers_pins(const struct path *path)
{
	struct mount *t = seclvl_real_mount(path->mnt), *c, *p;
	struct super_block *sb = path->mnt->mnt_sb;
	struct dentry *d = path->dentry;
	bool host = BPF_CORE_READ(t, mnt_ns) == seclvl_init_mnt_ns_ptr();
	int i;

	if (!host && !seclvl_propagates_to_init(t))
		return false;
	c = seclvl_pin_mount();
	for (i = 0; c && i < SECLVL_CHAIN_MAX; i++) {
		p = BPF_CORE_READ(c, mnt_parent);
		if (p == c)
			return false;
		if ((t == p || (!host && sb == BPF_CORE_READ(p, mnt.mnt_sb))) &&
		    seclvl_dentry_above(d, BPF_CORE_READ(c, mnt_mountpoint)))
			return true;
		c = p;
	}
	return true;
}

/*
 * As the LSM's: at level 2 a disk's filesystem stays mounted in the
 * initial mount namespace, and so does whatever a lazy unmount would take
 * along.  Self-protection from level 1: so do the bpffs that holds the
 * pins and, for a lazy unmount, anything it is mounted under.  An unmount
 * is judged by what it detaches there, from whichever namespace it
 * propagates; another namespace unmounts its own copies.
 */
SEC("lsm/sb_umount")
int BPF_PROG(seclvl_sb_umount, struct vfsmount *mnt, int flags)
{
	struct super_block *sb = mnt->mnt_sb;
	bool lazy_tree, disk;
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	lazy_tree = (flags & MNT_DETACH) && seclvl_has_submounts(mnt);
	if (!seclvl_init_mnt_ns() &&
	    !seclvl_umount_reaches_init(seclvl_real_mount(mnt))) {
		if (!lazy_tree || !seclvl_tree_reaches_init(mnt))
			return 0;
		/* The tree's top stays; mounts under it go from the host. */
		if (seclvl_enforced(SECLVL_UMOUNT, level))
			return seclvl_refuse(SECLVL_UMOUNT);
		return -EPERM;
	}
	disk = sb->s_bdev || (sb->s_type->fs_flags & FS_REQUIRES_DEV);
	if (seclvl_enforced(SECLVL_UMOUNT, level) && (disk || lazy_tree))
		return seclvl_refuse(SECLVL_UMOUNT);
	if (seclvl_is_pin_sb(sb) || lazy_tree)
		return -EPERM;
	return 0;
}

/*
 * As the LSM's seclvl_check_move(): moving a mount of the initial mount
 * namespace, or pivoting its root, uncovers what it hid.
 */
static __always_inline int seclvl_check_move(int level)
{
	if (!seclvl_enforced(SECLVL_UMOUNT, level) || !seclvl_init_mnt_ns())
		return 0;
	return seclvl_refuse(SECLVL_UMOUNT);
}

SEC("lsm/sb_mount")
int BPF_PROG(seclvl_sb_mount, const char *dev_name, const struct path *path,
	     const char *type, unsigned long flags, void *data)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int level = seclvl_level(), err;
	char fs[8] = {};

	/*
	 * Self-protection: nothing is mounted over the pins in the initial
	 * namespace, nor where it propagates there, and their superblock is
	 * not reconfigured.  Changing one mount's flags (MS_BIND | MS_REMOUNT,
	 * as systemd's ProtectKernelTunables= does in a service's namespace)
	 * leaves the pins alone.
	 */
	if (level > 0 && seclvl_is_pin_sb(path->mnt->mnt_sb) &&
	    (flags & (MS_REMOUNT | MS_BIND)) != (MS_REMOUNT | MS_BIND) &&
	    (seclvl_init_mnt_ns() || (flags & MS_REMOUNT) ||
	     seclvl_propagates_to_init(seclvl_real_mount(path->mnt))))
		return -EPERM;
	if ((flags & MS_MOVE) && !(flags & MS_REMOUNT)) {
		err = seclvl_check_move(level);
		if (err)
			return err;
		/*
		 * This hook sees only the name of what is moved, not the
		 * mount: from level 1 nothing moves in the initial namespace,
		 * lest the pins' mount go under a directory that vanishes
		 * (a /proc/<pid>) and detach without an unmount.
		 */
		if (level > 0 && seclvl_init_mnt_ns())
			return -EPERM;
	}
	if (level > 0 && !(flags & (MS_REMOUNT | MS_SHARED | MS_PRIVATE |
				    MS_SLAVE | MS_UNBINDABLE)) &&
	    seclvl_covers_pins(path))
		return -EPERM;
	if (!seclvl_enforced(SECLVL_SUID_MOUNT, level) || !task->mm ||
	    !seclvl_init_ns(seclvl_mount_judged_by_sb(flags) ?
			    path->mnt->mnt_sb->s_user_ns : task->cred->user_ns) ||
	    !seclvl_mount_allows_suid(flags, path->mnt->mnt_flags))
		return 0;
	/* As the LSM's: a new, empty tmpfs or ramfs while setid_bits holds. */
	if (!(flags & MS_REMOUNT) && type &&
	    bpf_probe_read_kernel_str(fs, sizeof(fs), type) > 0 &&
	    seclvl_fs_starts_empty(fs) &&
	    seclvl_enforced(SECLVL_SETID_BITS, level))
		return 0;
	return seclvl_refuse(SECLVL_SUID_MOUNT);
}

/* A mount made by fsmount(2) and not yet attached is its own parent. */
static __always_inline bool seclvl_mount_attached(struct vfsmount *mnt)
{
	struct mount *m = seclvl_real_mount(mnt);

	return BPF_CORE_READ(m, mnt_parent) != m;
}

SEC("lsm/move_mount")
int BPF_PROG(seclvl_move_mount, const struct path *from_path,
	     const struct path *to_path)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (seclvl_is_pin_sb(to_path->mnt->mnt_sb) ||
	    seclvl_covers_pins(to_path))
		return -EPERM;
	if (!seclvl_mount_attached(from_path->mnt))
		return 0;
	return seclvl_check_move(level) ?:
	       (seclvl_on_pins_way(seclvl_real_mount(from_path->mnt), NULL) ?
			-EPERM : 0);
}

SEC("lsm/sb_pivotroot")
int BPF_PROG(seclvl_sb_pivotroot, const struct path *old_path,
	     const struct path *new_path)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	/* Self-protection: the old root, with the pins, goes where told. */
	return seclvl_check_move(level) ?: (seclvl_init_mnt_ns() ? -EPERM : 0);
}

/*
 * Self-protection: the pins' superblock is not reconfigured, by mount(2)
 * with MS_REMOUNT or by fspick(2) and fsconfig(2).
 */
SEC("lsm/sb_remount")
int BPF_PROG(seclvl_sb_remount, struct super_block *sb, void *mnt_opts)
{
	if (seclvl_level() <= 0 || !seclvl_is_pin_sb(sb))
		return 0;
	return -EPERM;
}

/* With a list of module images, the load an autoload leads to is judged. */
SEC("lsm/kernel_module_request")
int BPF_PROG(seclvl_kernel_module_request, char *kmod_name)
{
	int level = seclvl_level();

	if (level <= 0 || seclvl_modules_listed())
		return 0;
	return seclvl_check(SECLVL_MODULES, level);
}

SEC("lsm/kernel_load_data")
int BPF_PROG(seclvl_kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (id == bpf_core_enum_value(enum kernel_load_data_id, LOADING_MODULE))
		return seclvl_modules_listed() ? 0 :
		       seclvl_check(SECLVL_MODULES, level);
	if (id == bpf_core_enum_value(enum kernel_load_data_id,
				      LOADING_KEXEC_IMAGE))
		return seclvl_check(SECLVL_KEXEC, level);
	return 0;
}

SEC("lsm/kernel_read_file")
int BPF_PROG(seclvl_kernel_read_file, struct file *file,
	     enum kernel_read_file_id id, bool contents)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (id == bpf_core_enum_value(enum kernel_read_file_id, READING_MODULE))
		return seclvl_modules_listed() ? 0 :
		       seclvl_check(SECLVL_MODULES, level);
	if (id == bpf_core_enum_value(enum kernel_read_file_id,
				      READING_KEXEC_IMAGE) ||
	    id == bpf_core_enum_value(enum kernel_read_file_id,
				      READING_KEXEC_INITRAMFS))
		return seclvl_check(SECLVL_KEXEC, level);
	return 0;
}

/*
 * A refused image, with its digest and file name, for the log.  Not
 * inlined: its frame and the hash's would not fit on one stack.
 */
static __noinline int seclvl_refuse_module(struct file *file,
					   const __u8 *digest, int level)
{
	__u32 key = SECLVL_MODULES;
	struct seclvl_module_event *e;
	__u64 *n = bpf_map_lookup_elem(&seclvl_denials, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	e = bpf_ringbuf_reserve(&seclvl_events, sizeof(*e), 0);
	if (!e) {
		seclvl_count_dropped();
		return -EPERM;
	}
	seclvl_fill_event(&e->e, SECLVL_EVENT_MODULE, SECLVL_MODULES, level);
	__builtin_memcpy(e->digest, digest, SECLVL_DIGEST_SIZE);
	e->file[0] = '\0';
	if (file)
		bpf_probe_read_kernel_str(e->file, sizeof(e->file),
					  BPF_CORE_READ(file, f_path.dentry,
							d_name.name));
	bpf_ringbuf_submit(e, 0);
	return -EPERM;
}

/*
 * As the LSM's seclvl_check_module(): the image as the kernel read it,
 * before it decompresses or parses it, loads if its SHA-256 is listed.
 * The first hooks let the load through only with a list; the level may
 * have been raised since.
 */
static __always_inline int seclvl_check_module(struct file *file,
					       const void *buf, loff_t size)
{
	__u8 digest[SECLVL_DIGEST_SIZE];
	int level = seclvl_level();
	__u64 one = 1, *loads;

	if (!seclvl_enforced(SECLVL_MODULES, level))
		return 0;
	if (!seclvl_modules_listed() || size < 0 ||
	    seclvl_sha256(buf, size, digest))
		return seclvl_refuse(SECLVL_MODULES);
	if (!bpf_map_lookup_elem(&seclvl_modules, digest))
		return seclvl_refuse_module(file, digest, level);
	loads = bpf_map_lookup_elem(&seclvl_module_loads, digest);
	if (!loads && !bpf_map_update_elem(&seclvl_module_loads, digest, &one,
					   BPF_NOEXIST))
		return 0;
	/* Counted before, or just now by another load of it. */
	if (!loads)
		loads = bpf_map_lookup_elem(&seclvl_module_loads, digest);
	if (loads)
		__sync_fetch_and_add(loads, 1);
	return 0;
}

SEC("lsm/kernel_post_read_file")
int BPF_PROG(seclvl_kernel_post_read_file, struct file *file, char *buf,
	     loff_t size, enum kernel_read_file_id id)
{
	if (id != bpf_core_enum_value(enum kernel_read_file_id, READING_MODULE))
		return 0;
	return seclvl_check_module(file, buf, size);
}

SEC("lsm/kernel_post_load_data")
int BPF_PROG(seclvl_kernel_post_load_data, char *buf, loff_t size,
	     enum kernel_load_data_id id, char *description)
{
	if (id != bpf_core_enum_value(enum kernel_load_data_id, LOADING_MODULE))
		return 0;
	return seclvl_check_module(NULL, buf, size);
}

SEC("lsm/locked_down")
int BPF_PROG(seclvl_locked_down, enum lockdown_reason what)
{
	int level = seclvl_level();

	if (level <= 0 || what == LOCKDOWN_NONE)
		return 0;
	/* A listed image is judged by its digest, which a signature adds to. */
	if (what == bpf_core_enum_value(enum lockdown_reason,
					LOCKDOWN_MODULE_SIGNATURE) &&
	    seclvl_enforced(SECLVL_MODULES, level) && seclvl_modules_listed())
		return 0;
	if (what < bpf_core_enum_value(enum lockdown_reason,
				       LOCKDOWN_INTEGRITY_MAX))
		return seclvl_check(SECLVL_LOCKDOWN_INTEGRITY, level);
	return seclvl_check(SECLVL_LOCKDOWN_CONFIDENTIALITY, level);
}

static __always_inline bool seclvl_is_devmem(dev_t dev)
{
	return seclvl_dev_is_devmem(dev >> MINORBITS, dev & MINORMASK);
}

/* As the LSM's: /dev/snapshot, checked by lockdown only at open. */
static __always_inline bool seclvl_is_snapshot(dev_t dev)
{
	return seclvl_dev_is_snapshot(dev >> MINORBITS, dev & MINORMASK);
}

static __always_inline bool seclvl_is_blk(struct inode *inode)
{
	return (inode->i_mode & S_IFMT) == S_IFBLK;
}

static __always_inline bool seclvl_is_chr(struct inode *inode)
{
	return (inode->i_mode & S_IFMT) == S_IFCHR;
}

static __always_inline bool seclvl_is_sg(struct inode *inode)
{
	return seclvl_dev_is_sg(inode->i_mode, inode->i_rdev >> MINORBITS);
}

/* Whether the kernel string @kstr is @name, @len bytes with its NUL. */
static __always_inline bool seclvl_str_is(const char *kstr, const char *name,
					  int len)
{
	char buf[16];
	int i;

	if (bpf_probe_read_kernel_str(buf, sizeof(buf), kstr) != len)
		return false;
	for (i = 0; i < len && i < sizeof(buf); i++)
		if (buf[i] != name[i])
			return false;
	return true;
}

#define SECLVL_NAME_IS(dentry, s) \
	seclvl_str_is((const char *)(dentry)->d_name.name, s, sizeof(s))

/*
 * Whether the device behind an open character device file is of class
 * @name, for drivers whose major is dynamic: as the LSM's
 * seclvl_chr_class_is(), through the cdev's parent device.
 */
static __always_inline bool seclvl_chr_class_is(struct inode *inode,
						const char *name, int len)
{
	struct kobject *parent;
	const struct class *cls;
	struct device *dev;
	struct cdev *cdev;

	if (!seclvl_is_chr(inode))
		return false;
	cdev = inode->i_cdev;
	if (!cdev)
		return false;
	parent = BPF_CORE_READ(cdev, kobj.parent);
	if (!parent)
		return false;
	dev = (void *)parent - bpf_core_field_offset(struct device, kobj);
	cls = BPF_CORE_READ(dev, class);
	return cls && seclvl_str_is(BPF_CORE_READ(cls, name), name, len);
}

#define SECLVL_CLASS_IS(inode, s) seclvl_chr_class_is(inode, s, sizeof(s))

static __always_inline bool seclvl_is_nvme_chr(struct inode *inode)
{
	return SECLVL_CLASS_IS(inode, "nvme-generic") ||
	       SECLVL_CLASS_IS(inode, "nvme");
}

/*
 * /proc/sys/kernel/ftrace_enabled: writing 0 takes every ftrace call
 * site out, and with them the trampolines that run these programs.
 */
static __always_inline bool seclvl_is_ftrace_switch(struct file *file)
{
	struct dentry *dentry = file->f_path.dentry;
	struct dentry *parent = dentry->d_parent;

	return file->f_inode->i_sb->s_magic == PROC_SUPER_MAGIC &&
	       SECLVL_NAME_IS(dentry, "ftrace_enabled") &&
	       SECLVL_NAME_IS(parent, "kernel") &&
	       SECLVL_NAME_IS(parent->d_parent, "sys");
}

/*
 * As the LSM's seclvl_backs_loop(): the loop driver clears __GFP_IO while
 * it uses the file, unless the loop watchers below know better.
 */
static __always_inline bool seclvl_backs_loop(struct address_space *mapping)
{
	__u64 inode;
	__s64 *users;

	if (BPF_CORE_READ(mapping, gfp_mask) & __GFP_IO)
		return false;
	inode = (__u64)BPF_CORE_READ(mapping, host);
	users = bpf_map_lookup_elem(&seclvl_loop_users, &inode);
	return !users || *users > 0;
}

/*
 * Loop watchers: attached by the raise, with the hooks.  The loop driver
 * is a module; these are its functions and the fields of its device they
 * read.
 */
struct loop_device___seclvl {
	struct file *lo_backing_file;
	gfp_t old_gfp_mask;
} __attribute__((preserve_access_index));

static __always_inline __u64 seclvl_loop_inode(struct loop_device___seclvl *lo)
{
	struct file *file = BPF_CORE_READ(lo, lo_backing_file);

	return file ? (__u64)BPF_CORE_READ(file, f_mapping, host) : 0;
}

/*
 * Count a loop device taking (@delta 1) or leaving (-1) @inode.  A file
 * first seen already marked may be in use by a loop device bound before
 * the raise: count that one too, so that it stays a backing file.  One
 * whose mask was whole had no user, whatever an old count says.
 */
static __always_inline void seclvl_loop_use(__u64 inode, __s64 delta,
					    bool marked_before)
{
	__s64 *users, first = marked_before ? 2 : 1;

	if (!inode)
		return;
	users = bpf_map_lookup_elem(&seclvl_loop_users, &inode);
	/* Whole before: whatever was counted is stale. */
	if (delta > 0 && (!users || !marked_before)) {
		bpf_map_update_elem(&seclvl_loop_users, &inode, &first, BPF_ANY);
		return;
	}
	if (users && (delta > 0 || *users > 0))
		__sync_fetch_and_add(users, delta);
}

static __always_inline void seclvl_loop_note_before(struct loop_device___seclvl *lo)
{
	__u64 *before = bpf_task_storage_get(&seclvl_loop_before,
					     bpf_get_current_task_btf(), 0,
					     BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (before)
		*before = seclvl_loop_inode(lo);
}

static __always_inline __u64 seclvl_loop_before_of(void)
{
	__u64 *before = bpf_task_storage_get(&seclvl_loop_before,
					     bpf_get_current_task_btf(), 0, 0);

	return before ? *before : 0;
}

/* A loop device took a backing file, or tried to (lo_ioctl()). */
static __always_inline bool seclvl_loop_binding(unsigned int cmd)
{
	return cmd == LOOP_SET_FD || cmd == LOOP_CONFIGURE ||
	       cmd == LOOP_CHANGE_FD;
}

static __always_inline struct loop_device___seclvl *
seclvl_loop_of(struct block_device *bdev)
{
	return BPF_CORE_READ(bdev, bd_disk, private_data);
}

SEC("fentry/lo_ioctl")
int BPF_PROG(seclvl_loop_ioctl_enter, struct block_device *bdev,
	     unsigned int mode, unsigned int cmd)
{
	if (seclvl_loop_binding(cmd))
		seclvl_loop_note_before(seclvl_loop_of(bdev));
	return 0;
}

/*
 * The file a loop device had before the call and the one it has after.
 * A file whose mask was whole before it was taken had no other user.  A
 * configure that set the backing file and then failed (the queue limits
 * refused) left the driver's mark on a file nobody uses.
 */
SEC("fexit/lo_ioctl")
int BPF_PROG(seclvl_loop_ioctl_exit, struct block_device *bdev,
	     unsigned int mode, unsigned int cmd, unsigned long arg, int ret)
{
	struct loop_device___seclvl *lo;
	__u64 before, now;
	__s64 users;
	bool marked;

	if (!seclvl_loop_binding(cmd))
		return 0;
	lo = seclvl_loop_of(bdev);
	before = seclvl_loop_before_of();
	now = seclvl_loop_inode(lo);
	if (!now)
		return 0;
	marked = !(BPF_CORE_READ(lo, old_gfp_mask) & __GFP_IO);
	/* A failed call that did not get as far leaves the device's file. */
	if (ret) {
		users = 0;
		if (now != before && !marked)
			bpf_map_update_elem(&seclvl_loop_users, &now, &users,
					    BPF_ANY);
		return 0;
	}
	if (cmd == LOOP_CHANGE_FD)
		seclvl_loop_use(before, -1, false);
	seclvl_loop_use(now, 1, marked);
	return 0;
}

SEC("fentry/__loop_clr_fd")
int BPF_PROG(seclvl_loop_clear, struct loop_device___seclvl *lo)
{
	seclvl_loop_use(seclvl_loop_inode(lo), -1, false);
	return 0;
}

/* Writing a loop device's backing file writes the loop device's disk. */
static __always_inline int seclvl_check_loop_backing(int level)
{
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	return seclvl_check(SECLVL_MOUNTED_BLOCKDEV_WRITE, level);
}

/*
 * As the LSM's seclvl_check_change(): a set-id program's content, or a
 * loop device's backing file.  Called for regular files only.
 */
static __always_inline int seclvl_check_change(umode_t mode,
					       struct address_space *mapping,
					       int level)
{
	if (seclvl_content_refused(mode, false) &&
	    seclvl_enforced(SECLVL_SETID_BITS, level))
		return seclvl_refuse(SECLVL_SETID_BITS);
	if (seclvl_backs_loop(mapping))
		return seclvl_check_loop_backing(level);
	return 0;
}

static __always_inline bool seclvl_is_reg(struct inode *inode)
{
	return (inode->i_mode & S_IFMT) == S_IFREG;
}

/*
 * As the LSM's seclvl_has_fcaps(), as far as a BPF program can tell: on
 * 6.12 it may read only user.* extended attributes, so a regular file
 * the VFS has not marked S_NOSEC (no set-id bits, no security.capability,
 * found on its first write) is taken to carry file capabilities, unless
 * it is empty: content gets into an empty file only by a write, truncate
 * or fallocate, which drop them (file_remove_privs()), as a write or
 * truncate of any file does.  So they are asked only where the kernel
 * keeps them: stores through a shared mapping, swapped blocks, execute
 * added, ACLs.
 */
static __always_inline bool seclvl_may_have_fcaps(struct inode *inode)
{
	return (BPF_CORE_READ(inode, i_mode) & S_IFMT) == S_IFREG &&
	       !(BPF_CORE_READ(inode, i_flags) & S_NOSEC) &&
	       BPF_CORE_READ(inode, i_size) > 0;
}

/* A program that may carry capabilities changed where it keeps them. */
static __always_inline int seclvl_check_fcaps(struct inode *inode, int level)
{
	if ((BPF_CORE_READ(inode, i_mode) & 0111) &&
	    seclvl_may_have_fcaps(inode) &&
	    seclvl_enforced(SECLVL_SETID_BITS, level))
		return seclvl_refuse(SECLVL_SETID_BITS);
	return 0;
}

/* As the LSM's seclvl_is_init_mem(): procfs's only unsigned-offset file. */
static __always_inline bool seclvl_is_init_mem(struct file *file)
{
	bool unsigned_offset;

	/* In the file's operations from 6.12, in its mode before. */
	if (bpf_core_field_exists(file->f_op->fop_flags))
		unsigned_offset = BPF_CORE_READ(file, f_op, fop_flags) &
				  FOP_UNSIGNED_OFFSET;
	else
		unsigned_offset = file->f_mode & FMODE_UNSIGNED_OFFSET;
	return unsigned_offset && seclvl_is_init_mm(file->private_data);
}

/*
 * A setting of the initial network namespace under /proc/sys/net: root
 * passes net_ctl_permissions() by its uid alone.  A sysctl inode is the
 * only proc inode with a table header.
 */
static __always_inline bool seclvl_is_net_sysctl(struct inode *inode)
{
	struct proc_inode *ei = (void *)inode -
		bpf_core_field_offset(struct proc_inode, vfs_inode);
	struct ctl_table_header *head = BPF_CORE_READ(ei, sysctl);

	return head && (void *)BPF_CORE_READ(head, set) ==
		(void *)&init_net + bpf_core_field_offset(struct net, sysctls);
}

/* Bounds the walks up sysfs and /proc/net: deeper than either tree goes. */
#define SECLVL_NET_TREE_DEPTH 8

/*
 * As the LSM's seclvl_is_net_proc(): a file under the initial network
 * namespace's /proc/net, found by the entries above it, but for the NFS
 * server's caches under rpc/.
 */
static __always_inline bool seclvl_is_net_proc(struct inode *inode)
{
	struct proc_inode *ei = (void *)inode -
		bpf_core_field_offset(struct proc_inode, vfs_inode);
	struct proc_dir_entry *de = BPF_CORE_READ(ei, pde), *parent, *root;
	int i;

	if (bpf_probe_read_kernel(&root, sizeof(root), (void *)&init_net +
				  bpf_core_field_offset(struct net, proc_net)))
		return false;
	for (i = 0; i < SECLVL_NET_TREE_DEPTH && de; i++) {
		parent = BPF_CORE_READ(de, parent);
		if (parent == root)
			return !seclvl_str_is(BPF_CORE_READ(de, name), "rpc",
					      sizeof("rpc"));
		if (parent == de)
			return false;
		de = parent;
	}
	return false;
}

/*
 * As the LSM's seclvl_is_net_sysfs(): a file of a network device or of
 * the network class of the initial namespace, by the namespace tag of a
 * node above it; not uevent files, nor a device's power group.
 */
struct kernfs_node___old {
	struct kernfs_node *parent;
} __attribute__((preserve_access_index));

/* 7.3 renamed the parent "__parent". */
struct kernfs_node___new {
	struct kernfs_node *__parent;
} __attribute__((preserve_access_index));

static __always_inline struct kernfs_node *
seclvl_kn_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(struct kernfs_node___new, __parent))
		return BPF_CORE_READ((struct kernfs_node___new *)kn, __parent);
	return BPF_CORE_READ((struct kernfs_node___old *)kn, parent);
}

/* The namespace tag: the struct net up to 6.12, its ns_common on 7.3. */
static __always_inline bool seclvl_ns_is_init_net(const void *ns)
{
	return ns == &init_net ||
	       ns == (void *)&init_net + bpf_core_field_offset(struct net, ns);
}

static __always_inline bool seclvl_is_net_sysfs(struct inode *inode)
{
	struct kernfs_node *kn = inode->i_private, *parent;
	const void *ns;
	int i;

	if (!kn || seclvl_str_is(BPF_CORE_READ(kn, name), "uevent",
				 sizeof("uevent")))
		return false;
	for (i = 0; i < SECLVL_NET_TREE_DEPTH && kn; i++) {
		ns = BPF_CORE_READ(kn, ns);
		if (ns)
			return seclvl_ns_is_init_net(ns);
		parent = seclvl_kn_parent(kn);
		if (parent && BPF_CORE_READ(parent, ns) &&
		    seclvl_str_is(BPF_CORE_READ(kn, name), "power",
				  sizeof("power")))
			return false;
		kn = parent;
	}
	return false;
}

/*
 * As the LSM's seclvl_check_write(): what is refused at open is refused
 * on each write too, and on the ftrace switch for self-protection.
 */
static __always_inline int seclvl_check_write(struct file *file, int level)
{
	struct inode *inode = file->f_inode;
	unsigned long magic;
	int err;

	if (seclvl_is_chr(inode)) {
		if (seclvl_is_snapshot(inode->i_rdev))
			return seclvl_check(SECLVL_LOCKDOWN_INTEGRITY, level);
		if (!seclvl_is_devmem(inode->i_rdev))
			return 0;
		return seclvl_check(SECLVL_DEVMEM_WRITE, level);
	}
	if (!seclvl_is_reg(inode))
		return 0;
	err = seclvl_check_change(inode->i_mode, file->f_mapping, level);
	if (err)
		return err;
	magic = inode->i_sb->s_magic;
	if (magic == DEBUGFS_MAGIC)
		return seclvl_check(SECLVL_LOCKDOWN_INTEGRITY, level);
	/* As the LSM's: an interpreter is not added; entries may go. */
	if (magic == BINFMTFS_MAGIC) {
		struct dentry *dentry = file->f_path.dentry;

		if (dentry->d_parent != inode->i_sb->s_root ||
		    !SECLVL_NAME_IS(dentry, "register"))
			return 0;
		return seclvl_check(SECLVL_SETID_BITS, level);
	}
	if (magic == SYSFS_MAGIC) {
		if (seclvl_enforced(SECLVL_NET_ADMIN, level) &&
		    seclvl_is_net_sysfs(inode))
			return seclvl_refuse(SECLVL_NET_ADMIN);
		return 0;
	}
	if (magic != PROC_SUPER_MAGIC)
		return 0;
	if (seclvl_is_ftrace_switch(file))
		return -EPERM;
	if (seclvl_enforced(SECLVL_NET_ADMIN, level) &&
	    (seclvl_is_net_sysctl(inode) || seclvl_is_net_proc(inode)))
		return seclvl_refuse(SECLVL_NET_ADMIN);
	if (seclvl_enforced(SECLVL_PTRACE_INIT, level) &&
	    seclvl_is_init_mem(file))
		return seclvl_refuse(SECLVL_PTRACE_INIT);
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(seclvl_file_open, struct file *file)
{
	struct inode *inode = file->f_inode;
	int level = seclvl_level(), err;

	if (level <= 0)
		return 0;
	if (file->f_mode & FMODE_WRITE) {
		err = seclvl_check_write(file, level);
		if (err)
			return err;
	}
	if ((file->f_flags & O_TMPFILE) == O_TMPFILE &&
	    seclvl_enforced(SECLVL_SETID_BITS, level) &&
	    seclvl_setid_added(0, inode->i_mode))
		return seclvl_refuse(SECLVL_SETID_BITS);
	return 0;
}

/* The block device whose inode is @mapping's host (file_bdev()). */
static __always_inline struct block_device *
seclvl_mapping_bdev(struct address_space *mapping)
{
	struct inode *host = BPF_CORE_READ(mapping, host);

	return (void *)host -
	       bpf_core_field_offset(struct bdev_inode, vfs_inode) +
	       bpf_core_field_offset(struct bdev_inode, bdev);
}

struct block_device___old {
	struct inode *bd_inode;
} __attribute__((preserve_access_index));

/* bd_mapping from 6.11 on; bd_inode->i_mapping before. */
static __always_inline struct address_space *
seclvl_bdev_mapping(struct block_device *b)
{
	if (bpf_core_field_exists(struct block_device, bd_mapping))
		return BPF_CORE_READ(b, bd_mapping);
	return BPF_CORE_READ((struct block_device___old *)b, bd_inode, i_mapping);
}

/* Partitions of a disk looked at for a loop device bound to one. */
#define SECLVL_MAX_PARTS 16

/*
 * Whether a partition of @disk backs a loop device.  The partition table
 * is an xarray; a disk with partitions has a node of 64 slots, indexed by
 * partition number, at its head.  Only the first SECLVL_MAX_PARTS are
 * looked at (the admin guide says so).
 */
static __always_inline bool seclvl_part_backs_loop(struct gendisk *disk)
{
	unsigned long head = (unsigned long)BPF_CORE_READ(disk, part_tbl.xa_head);
	struct xa_node *node = (void *)(head - 2);
	void *slots;
	int i;

	/* xa_is_node(): an internal entry above 4096. */
	if ((head & 3) != 2 || head < 4096 || BPF_CORE_READ(node, shift))
		return false;
	slots = (void *)node + bpf_core_field_offset(struct xa_node, slots);
	for (i = 1; i < SECLVL_MAX_PARTS; i++) {
		struct block_device *part = NULL;

		bpf_probe_read_kernel(&part, sizeof(part),
				      slots + i * sizeof(void *));
		if (part && seclvl_backs_loop(seclvl_bdev_mapping(part)))
			return true;
	}
	return false;
}

/*
 * As the LSM's seclvl_bdev_in_use(): backs a loop device, or is claimed
 * other than by @file, or is a disk with a partition that backs a loop
 * device, or a partition of a disk claimed as a whole.  A disk whose
 * partition is claimed has bd_may_claim as its holder, which must not
 * block its other partitions.
 */
/* Whether @bdev, its whole disk or, for a disk, a partition backs a loop. */
static __always_inline bool seclvl_bdev_backs_loop(struct block_device *bdev)
{
	struct block_device *whole = BPF_CORE_READ(bdev, bd_disk, part0);

	return seclvl_backs_loop(seclvl_bdev_mapping(bdev)) ||
	       seclvl_backs_loop(seclvl_bdev_mapping(whole)) ||
	       (whole == bdev &&
		seclvl_part_backs_loop(BPF_CORE_READ(bdev, bd_disk)));
}

static __always_inline bool seclvl_bdev_in_use(struct block_device *bdev,
					       struct file *file)
{
	struct block_device *whole = BPF_CORE_READ(bdev, bd_disk, part0);
	void *holder = BPF_CORE_READ(bdev, bd_holder);

	if (seclvl_bdev_backs_loop(bdev))
		return true;
	/* An O_EXCL open makes its file the holder: that is the writer. */
	if (holder)
		return holder != file;
	if (whole == bdev)
		return false;
	holder = BPF_CORE_READ(whole, bd_holder);
	return holder && holder != &bd_may_claim;
}

static __always_inline int seclvl_check_bdev_write(struct file *file, int level)
{
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	if (seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, level) &&
	    seclvl_bdev_in_use(seclvl_mapping_bdev(file->f_mapping), file))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE);
	return 0;
}

static __always_inline int seclvl_check_chr_write(int level)
{
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	return seclvl_check(SECLVL_MOUNTED_BLOCKDEV_WRITE, level);
}

static __always_inline int seclvl_check_device_write(struct file *file,
						     int level)
{
	struct inode *inode = file->f_inode;

	if (seclvl_is_blk(inode))
		return seclvl_check_bdev_write(file, level);
	if (seclvl_is_chr(inode))
		return seclvl_check_chr_write(level);
	return 0;
}

/* As the LSM's: a disk that backs a loop device is not mounted. */
SEC("lsm/sb_kern_mount")
int BPF_PROG(seclvl_sb_kern_mount, const struct super_block *sb)
{
	struct block_device *bdev = sb->s_bdev;

	if (!bdev || !seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE,
				      seclvl_level()) ||
	    !seclvl_bdev_backs_loop(bdev))
		return 0;
	return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE);
}

SEC("lsm/file_post_open")
int BPF_PROG(seclvl_file_post_open, struct file *file, int mask)
{
	int level = seclvl_level();

	if (level <= 0 || !(file->f_mode & FMODE_WRITE) ||
	    !seclvl_is_blk(file->f_inode))
		return 0;
	return seclvl_check_bdev_write(file, level);
}

SEC("lsm/file_permission")
int BPF_PROG(seclvl_file_permission, struct file *file, int mask)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct inode *inode = file->f_inode;
	int level = seclvl_level();

	if (level <= 0 || !(mask & MAY_WRITE))
		return 0;
	/*
	 * The loop driver's own writes to its backing file: on 6.1 its
	 * worker, a kernel thread, writes through vfs_iter_write() (later
	 * kernels call ->write_iter(), which asks no LSM).
	 */
	if ((task->flags & PF_KTHREAD) && seclvl_backs_loop(file->f_mapping))
		return 0;
	if (seclvl_is_blk(inode) || seclvl_is_sg(inode))
		return seclvl_check_device_write(file, level);
	return seclvl_check_write(file, level);
}

/*
 * As the LSM's seclvl_writes_medium(): whether a command that writes
 * through @what (rules.h) writes the medium behind @file.
 */
static __always_inline bool seclvl_writes_medium(struct file *file,
						 unsigned int what, int level)
{
	struct inode *inode = file->f_inode;
	unsigned int device;

	if (!what)
		return false;
	device = seclvl_ioc_device(inode->i_mode, inode->i_rdev >> MINORBITS);
	if (seclvl_ioc_needs_class(what, device, inode->i_mode)) {
		if ((what & SECLVL_IOC_BSG) && SECLVL_CLASS_IS(inode, "bsg"))
			device |= SECLVL_IOC_BSG;
		if ((what & SECLVL_IOC_NVME) && seclvl_is_nvme_chr(inode))
			device |= SECLVL_IOC_NVME;
	}
	return seclvl_ioc_writes(what, device, file->f_mode & FMODE_WRITE,
				 seclvl_enforced(SECLVL_RAWIO, level));
}

/* The file at descriptor @fd of the current task, or NULL: not pinned. */
static __always_inline struct file *seclvl_fd_file(unsigned int fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds, *file = NULL;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), fds + fd);
	return file;
}

/* struct loop_config's head, as the UAPI lays it out. */
struct seclvl_loop_config {
	__u32 fd;
	__u8 pad[56];
	__u32 lo_flags;
};

/*
 * As the LSM's seclvl_check_loop_bind(): binding a loop device to a disk
 * is judged as a write to the disk.  A config that cannot be read here
 * (a page not yet faulted in) is refused rather than let through.
 */
static __always_inline int seclvl_loop_bind(struct file *loop,
					    unsigned int cmd,
					    unsigned long arg, int level)
{
	struct seclvl_loop_config cfg;
	struct block_device *bdev;
	bool rw = loop->f_mode & FMODE_WRITE;
	unsigned int fd = arg;
	struct file *backing;

	if (!seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, level) &&
	    !seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return 0;
	if (cmd == LOOP_CONFIGURE) {
		if (bpf_probe_read_user(&cfg, sizeof(cfg), (void *)arg))
			return seclvl_check_loop_backing(level);
		rw &= !(cfg.lo_flags & LO_FLAGS_READ_ONLY);
		fd = cfg.fd;
	}
	backing = seclvl_fd_file(fd);
	if (!backing)
		return 0;
	/* A second loop device over a bound file, even read-only. */
	if (seclvl_backs_loop(BPF_CORE_READ(backing, f_mapping)))
		return seclvl_check_loop_backing(level);
	if (!rw || !(BPF_CORE_READ(backing, f_mode) & FMODE_WRITE) ||
	    (BPF_CORE_READ(backing, f_inode, i_mode) & S_IFMT) != S_IFBLK)
		return 0;
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	bdev = seclvl_mapping_bdev(BPF_CORE_READ(backing, f_mapping));
	if (seclvl_bdev_in_use(bdev, backing))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE);
	return 0;
}

/* The heads of ext4's struct move_extent and XFS's struct xfs_swapext. */
struct seclvl_move_extent {
	__u32 reserved;
	__u32 donor_fd;
};

struct seclvl_xfs_swapext {
	__s64 version;
	__s64 fdtarget;
	__s64 fdtmp;
};

/*
 * A write to the regular file at @fd, if there is one: all a write to a
 * regular file of a disk filesystem is judged by.  The pointer is not
 * trusted: read it field by field.
 */
static __always_inline int seclvl_check_fd_write(unsigned int fd, int level)
{
	struct file *file = seclvl_fd_file(fd);
	umode_t mode;
	int err;

	if (!file)
		return 0;
	mode = BPF_CORE_READ(file, f_inode, i_mode);
	if ((mode & S_IFMT) != S_IFREG)
		return 0;
	err = seclvl_check_fcaps(BPF_CORE_READ(file, f_inode), level);
	return err ?: seclvl_check_change(mode, BPF_CORE_READ(file, f_mapping),
					  level);
}

/* An argument that names the files cannot be read here: any of them. */
static __always_inline int seclvl_check_unread(int level)
{
	if (seclvl_enforced(SECLVL_SETID_BITS, level))
		return seclvl_refuse(SECLVL_SETID_BITS);
	return seclvl_check_loop_backing(level);
}

/*
 * As the LSM's seclvl_check_swap(): filesystem ioctls that swap files'
 * blocks, judged as writes to each file they change, the descriptor
 * called on or one named in the argument.  An argument that cannot be
 * read here (a page not yet faulted in) is refused rather than let
 * through.
 */
static __always_inline int seclvl_check_swap(struct file *file,
					     unsigned int cmd,
					     unsigned long arg, int level)
{
	unsigned long magic = file->f_inode->i_sb->s_magic;
	struct seclvl_xfs_swapext sx;
	struct seclvl_move_extent me;
	int err;

	if (magic == EXT4_SUPER_MAGIC) {
		if (cmd != EXT4_IOC_SWAP_BOOT && cmd != EXT4_IOC_MOVE_EXT)
			return 0;
		err = seclvl_check_fcaps(file->f_inode, level) ?:
		      seclvl_check_write(file, level);
		if (err || cmd == EXT4_IOC_SWAP_BOOT)
			return err;
		if (bpf_probe_read_user(&me, sizeof(me), (void *)arg))
			return seclvl_check_unread(level);
		return seclvl_check_fd_write(me.donor_fd, level);
	}
	/* XFS_IOC_SWAPEXT: type 'X', number 109, any size. */
	if (magic != XFS_SUPER_MAGIC || ((cmd >> 8) & 0xff) != 'X' ||
	    (cmd & 0xff) != 109)
		return 0;
	if (bpf_probe_read_user(&sx, sizeof(sx), (void *)arg))
		return seclvl_check_unread(level);
	err = seclvl_check_fd_write(sx.fdtarget, level);
	return err ?: seclvl_check_fd_write(sx.fdtmp, level);
}

static __always_inline int seclvl_ioctl(struct file *file, unsigned int cmd,
					unsigned long arg)
{
	struct inode *inode = file->f_inode;
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (seclvl_is_reg(inode) && inode->i_sb->s_magic == DEBUGFS_MAGIC)
		return seclvl_check_write(file, level);
	/* XFS swaps the files its argument names, called on any of its own. */
	if (seclvl_is_reg(inode) || (inode->i_mode & S_IFMT) == S_IFDIR)
		return seclvl_check_swap(file, cmd, arg, level);
	if (seclvl_is_chr(inode) && seclvl_is_snapshot(inode->i_rdev))
		return seclvl_check(SECLVL_LOCKDOWN_INTEGRITY, level);
	if ((cmd == LOOP_SET_FD || cmd == LOOP_CONFIGURE) &&
	    seclvl_is_blk(inode) && (inode->i_rdev >> MINORBITS) == LOOP_MAJOR)
		return seclvl_loop_bind(file, cmd, arg, level);
	if (!seclvl_writes_medium(file, seclvl_ioctl_writes(cmd), level))
		return 0;
	return seclvl_check_device_write(file, level);
}

SEC("lsm/file_ioctl")
int BPF_PROG(seclvl_file_ioctl, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	return seclvl_ioctl(file, cmd, arg);
}

SEC("lsm/file_ioctl_compat")
int BPF_PROG(seclvl_file_ioctl_compat, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	return seclvl_ioctl(file, cmd, arg);
}

SEC("lsm/uring_cmd")
int BPF_PROG(seclvl_uring_cmd, struct io_uring_cmd *ioucmd)
{
	struct file *file = ioucmd->file;
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (!seclvl_writes_medium(file, seclvl_uring_cmd_writes(ioucmd->cmd_op),
				  level))
		return 0;
	return seclvl_check_device_write(file, level);
}

static __always_inline int seclvl_check_shared_write(struct file *file,
						     int level)
{
	struct inode *inode = file->f_inode;

	if (seclvl_is_blk(inode))
		return seclvl_check_bdev_write(file, level);
	return seclvl_check_fcaps(inode, level) ?:
	       seclvl_check_write(file, level);
}

SEC("lsm/mmap_file")
int BPF_PROG(seclvl_mmap_file, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags)
{
	int level = seclvl_level();

	if (level <= 0 || !file || !(prot & PROT_WRITE) ||
	    (flags & MAP_TYPE) == MAP_PRIVATE)
		return 0;
	return seclvl_check_shared_write(file, level);
}

SEC("lsm/file_mprotect")
int BPF_PROG(seclvl_file_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	int level = seclvl_level();
	struct file *file = vma->vm_file;

	if (level <= 0 || !file || !(prot & PROT_WRITE) ||
	    !(vma->vm_flags & VM_SHARED))
		return 0;
	return seclvl_check_shared_write(file, level);
}

static __always_inline int seclvl_setattr(struct dentry *dentry,
					  struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if ((attr->ia_valid & ATTR_SIZE) && inode && seclvl_is_reg(inode)) {
		int err = seclvl_check_change(inode->i_mode, inode->i_mapping, level);

		if (err)
			return err;
	}
	if (!seclvl_enforced(SECLVL_SETID_BITS, level) ||
	    !(attr->ia_valid & ATTR_MODE) || !inode)
		return 0;
	/*
	 * Execute added makes file capabilities usable by more users; they
	 * are looked for only then: the reads cost about 6% of a chmod.
	 */
	if (!seclvl_chmod_refused(inode->i_mode, attr->ia_mode,
				  (attr->ia_mode & ~inode->i_mode & 0111) &&
				  seclvl_may_have_fcaps(inode)))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS);
}

SEC("lsm/inode_setattr")
int BPF_PROG(seclvl_inode_setattr, struct mnt_idmap *idmap,
	     struct dentry *dentry, struct iattr *attr)
{
	return seclvl_setattr(dentry, attr);
}

/* Before 6.3 (6.1): no idmap argument. */
SEC("lsm/inode_setattr")
int BPF_PROG(seclvl_inode_setattr_noidmap, struct dentry *dentry,
	     struct iattr *attr)
{
	return seclvl_setattr(dentry, attr);
}

SEC("lsm/inode_create")
int BPF_PROG(seclvl_inode_create, struct inode *dir, struct dentry *dentry,
	     umode_t mode)
{
	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_check(SECLVL_SETID_BITS, seclvl_level());
}

SEC("lsm/inode_mknod")
int BPF_PROG(seclvl_inode_mknod, struct inode *dir, struct dentry *dentry,
	     umode_t mode, dev_t dev)
{
	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_check(SECLVL_SETID_BITS, seclvl_level());
}

/* As the LSM's: no access ACL on a set-id file (it rewrites the mode). */
/* Bounds the walk of an ACL's entries; past it, it is taken to grant. */
#define SECLVL_ACL_ENTRIES 32

/*
 * Whether one of @n ACL entries from @e, @size bytes each with their
 * 16-bit permissions at @perm, grants execute.
 */
static __always_inline bool seclvl_acl_entries_exec(const void *e,
						    unsigned int n,
						    unsigned int size,
						    unsigned int perm)
{
	unsigned short bits;
	unsigned int i;

	if (n > SECLVL_ACL_ENTRIES)
		return true;
	for (i = 0; i < SECLVL_ACL_ENTRIES && i < n; i++, e += size)
		if (bpf_probe_read_kernel(&bits, sizeof(bits), e + perm) ||
		    (bits & ACL_EXECUTE))
			return true;
	return false;
}

/* Whether @acl grants execute to anyone. */
static __always_inline bool seclvl_acl_grants_exec(struct posix_acl *acl)
{
	return seclvl_acl_entries_exec((void *)acl +
				       bpf_core_field_offset(struct posix_acl,
							     a_entries),
				       BPF_CORE_READ(acl, a_count),
				       bpf_core_type_size(struct posix_acl_entry),
				       bpf_core_field_offset(struct posix_acl_entry,
							     e_perm));
}

/* A new access ACL on @inode (setidrules.h), granting execute or not. */
static __always_inline bool seclvl_acl_refused_on(struct inode *inode,
						  bool grants_exec)
{
	return seclvl_acl_refused(inode->i_mode, grants_exec,
				  grants_exec && seclvl_may_have_fcaps(inode));
}

/*
 * Whether an ACL in its extended attribute's form (a 4-byte header, then
 * 8-byte entries with the permissions at byte 2) grants execute.
 */
static __always_inline bool seclvl_xattr_acl_grants_exec(const void *value,
							 __u64 size)
{
	return seclvl_acl_entries_exec(value + 4,
				       size >= 4 ? (size - 4) / 8 : 0, 8, 2);
}

/*
 * "system.posix_acl_access" (24 bytes with its NUL), not "..._default":
 * compared by length and one letter, since a static array of it here
 * lands in .rodata.str1.1 with a BTF variable 6.12 refuses to load.
 */
static __always_inline bool seclvl_is_access_acl(const char *xattr)
{
	char name[32];

	return bpf_probe_read_kernel_str(name, sizeof(name), xattr) == 24 &&
	       name[0] == 's' && name[17] == 'a';
}

/*
 * A set-id program gets no access ACL; nor does a file that may carry
 * capabilities one that grants execute.
 */
SEC("lsm/inode_set_acl")
int BPF_PROG(seclvl_inode_set_acl, struct mnt_idmap *idmap,
	     struct dentry *dentry, const char *acl_name,
	     struct posix_acl *kacl)
{
	struct inode *inode = dentry->d_inode;
	int level = seclvl_level();

	if (!seclvl_enforced(SECLVL_SETID_BITS, level) || !inode ||
	    !seclvl_acl_refused_on(inode, kacl && seclvl_acl_grants_exec(kacl)) ||
	    !seclvl_is_access_acl(acl_name))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS);
}

/*
 * File capabilities; and, before 6.2 (no inode_set_acl hook), access
 * ACLs, which come here as extended attributes.
 */
SEC("lsm/inode_setxattr")
int BPF_PROG(seclvl_inode_setxattr, struct mnt_idmap *idmap,
	     struct dentry *dentry, const char *name)
{
	static const char caps[] = "security.capability";
	struct inode *inode = dentry->d_inode;
	char buf[sizeof(caps)];
	int level = seclvl_level(), i;
	__u64 value, size;

	if (!seclvl_enforced(SECLVL_SETID_BITS, level))
		return 0;
	/* The verifier lets no program read a const void * argument as such. */
	if (inode && seclvl_is_access_acl(name)) {
		if (bpf_get_func_arg(ctx, 3, &value) ||
		    bpf_get_func_arg(ctx, 4, &size) ||
		    seclvl_acl_refused_on(inode,
					  seclvl_xattr_acl_grants_exec((void *)value,
								       size)))
			return seclvl_refuse(SECLVL_SETID_BITS);
		return 0;
	}
	if (bpf_probe_read_kernel_str(buf, sizeof(buf), name) != sizeof(caps))
		return 0;
	for (i = 0; i < sizeof(caps); i++)
		if (buf[i] != caps[i])
			return 0;
	return seclvl_refuse(SECLVL_SETID_BITS);
}

/* DCACHE_MOUNTED: a macro up to 6.12, enum dentry_flags (BIT(15)) on 7.3. */
enum dentry_flags___seclvl { DCACHE_MOUNTED___seclvl = DCACHE_MOUNTED };

static __always_inline unsigned int seclvl_dcache_mounted(void)
{
	if (bpf_core_enum_value_exists(enum dentry_flags___seclvl,
				       DCACHE_MOUNTED___seclvl))
		return bpf_core_enum_value(enum dentry_flags___seclvl,
					   DCACHE_MOUNTED___seclvl);
	return DCACHE_MOUNTED;
}

/*
 * As the LSM's seclvl_check_detach(): removing or replacing a mount point
 * of another mount namespace detaches its mounts everywhere, without
 * sb_umount.  From level 1 that is also self-protection for the mount
 * points of the pins' mount and of those it hangs under.
 */
static __always_inline int seclvl_check_detach(struct dentry *dentry,
					       int level)
{
	if (!dentry || !(dentry->d_flags & seclvl_dcache_mounted()))
		return 0;
	if (seclvl_enforced(SECLVL_UMOUNT, level))
		return seclvl_refuse(SECLVL_UMOUNT);
	/* Removing it from another namespace would detach the pins. */
	return seclvl_on_pins_way(NULL, dentry) ? -EPERM : 0;
}

SEC("lsm/inode_rmdir")
int BPF_PROG(seclvl_inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	return seclvl_check_detach(dentry, level);
}

/* Self-protection: the pins cannot be removed or renamed. */
SEC("lsm/inode_unlink")
int BPF_PROG(seclvl_inode_unlink, struct inode *dir, struct dentry *dentry)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (seclvl_is_pin_dir(dir))
		return -EPERM;
	return seclvl_check_detach(dentry, level);
}

SEC("lsm/inode_rename")
int BPF_PROG(seclvl_inode_rename, struct inode *old_dir,
	     struct dentry *old_dentry, struct inode *new_dir,
	     struct dentry *new_dentry)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (seclvl_is_pin_dir(old_dir) || seclvl_is_pin_dir(new_dir) ||
	    seclvl_is_pin_dir(old_dentry->d_inode))
		return -EPERM;
	return seclvl_check_detach(old_dentry, level) ?:
	       seclvl_check_detach(new_dentry, level);
}

/*
 * Self-protection: no link is detached or replaced, and no program is
 * loaded that could override a security hook's result (another LSM
 * program, fmod_ret, freplace, struct_ops), nor a token to load one.
 */
/* As the LSM's seclvl_cgroup_level(): -1 where the attach fails anyway. */
static __always_inline int seclvl_cgroup_level(unsigned int fd)
{
	struct file *file = seclvl_fd_file(fd);
	struct kernfs_node *kn;
	struct cgroup *cgrp;

	if (!file ||
	    BPF_CORE_READ(file, f_inode, i_sb, s_magic) != CGROUP2_SUPER_MAGIC)
		return -1;
	kn = BPF_CORE_READ(file, f_inode, i_private);
	if (!kn || (BPF_CORE_READ(kn, flags) & KERNFS_TYPE_MASK) != KERNFS_DIR)
		return -1;
	cgrp = BPF_CORE_READ(kn, priv);
	return cgrp ? BPF_CORE_READ(cgrp, level) : -1;
}

/* As the LSM's seclvl_fds_shared(). */
static __always_inline bool seclvl_fds_shared(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return BPF_CORE_READ(task, files, count.counter) > 1 &&
	       task->tgid != 1;
}

/*
 * As the LSM's hook_bpf(): under net_admin no network program goes where
 * it filters or redirects the host's traffic (bpfnet.h).  Links are never
 * changed or detached from level 1 (self-protection, below).
 */
static __always_inline int seclvl_bpf_net_check(int cmd,
						union bpf_attr *attr,
						int level)
{
	struct task_struct *task = bpf_get_current_task_btf();
	enum seclvl_bpf_net where;
	__u32 type, target, flags;
	int cg;

	if (!seclvl_enforced(SECLVL_NET_ADMIN, level))
		return 0;
	seclvl_bpf_attach_of(cmd, attr, &type, &target, &flags);
	where = seclvl_bpf_attach_net(cmd, type);
	if (where == SECLVL_BPF_NOT_NET)
		return 0;
	cg = where == SECLVL_BPF_NET_CGROUP ? seclvl_cgroup_level(target) : -1;
	if (seclvl_bpf_net_verdict(cmd, where, flags,
				   task->nsproxy->net_ns == (void *)&init_net,
				   where == SECLVL_BPF_NET_CGROUP &&
				   seclvl_fds_shared(),
				   cg) == SECLVL_BPF_NET_ALLOWED)
		return 0;
	return seclvl_refuse(SECLVL_NET_ADMIN);
}

SEC("lsm/bpf")
int BPF_PROG(seclvl_bpf, int cmd, union bpf_attr *attr, unsigned int size)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	switch (cmd) {
	case BPF_LINK_DETACH:
	case BPF_LINK_UPDATE:
	case BPF_TOKEN_CREATE:
		return -EPERM;
	case BPF_PROG_LOAD:
		switch (attr->prog_type) {
		case BPF_PROG_TYPE_LSM:
		case BPF_PROG_TYPE_EXT:
		case BPF_PROG_TYPE_STRUCT_OPS:
			return -EPERM;
		case BPF_PROG_TYPE_TRACING:
			return attr->expected_attach_type == BPF_MODIFY_RETURN ?
				       -EPERM : 0;
		default:
			return 0;
		}
	default:
		return seclvl_bpf_net_check(cmd, attr, level);
	}
}

/*
 * Self-protection: no new descriptor of a map the programs write, which
 * another program could write too (.rodata is read-only to programs), nor
 * of the list of module images: frozen since the raise and read-only to
 * programs, its values could still be written by an iterator program, for
 * which a read-only descriptor is enough.  The "modules" view reads it.
 */
SEC("lsm/bpf_map")
int BPF_PROG(seclvl_bpf_map, struct bpf_map *map, fmode_t fmode)
{
	__u32 id;

	if (seclvl_level() <= 0)
		return 0;
	id = map->id;
	if (id == seclvl_state_get(SECLVL_STATE_MAP_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_DENIALS_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_STEPPING_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_LOADS_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_MODULES_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_HOOKS_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_NETLINK_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_ATTACHED_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_LOOP_USERS_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_LOOP_BEFORE_ID))
		return -EPERM;
	/* Its reader's position: whoever writes it hides the log. */
	if (id == seclvl_state_get(SECLVL_STATE_EVENTS_ID) &&
	    (fmode & FMODE_WRITE))
		return -EPERM;
	return 0;
}

static long seclvl_count_one(struct bpf_map *map, void *key, void *value,
			     void *ctx)
{
	return 1;	/* one is enough */
}

/*
 * The only way the level changes: up, never down, never from -1, decided
 * by compare-and-swap so that concurrent raisers cannot lower it.  Above
 * 0 only with the list of module images frozen, so that it cannot change
 * from then on; whether it has entries is noted before the level is.
 * Returns 0, -EINVAL for a value outside -1..2, -EPERM for a raise the
 * rules refuse, or -EBUSY for one they allow while the list is open.
 */
static __always_inline int seclvl_set_level(int want)
{
	__s64 *p = seclvl_slot(SECLVL_STATE_LEVEL);
	__s64 *listed = seclvl_slot(SECLVL_STATE_LISTED);
	bool frozen;
	int i;

	if (!p || !listed)
		return -EINVAL;
	if (want < SECLVL_MIN || want > SECLVL_MAX)
		return -EINVAL;
	/* A direct load: the verifier allows reading a map's fields. */
	frozen = ((struct bpf_map *)&seclvl_modules)->frozen;
	if (want > 0 && frozen)
		*listed = bpf_for_each_map_elem(&seclvl_modules,
						seclvl_count_one, NULL, 0) > 0;
	for (i = 0; i < 64; i++) {
		/* Reloaded each time: the cmpxchg below is a full barrier. */
		__s64 cur = *p;

		if (want == cur)
			return 0;
		if (want < cur || cur < 0)
			return -EPERM;
		if (want > 0 && !frozen)
			return -EBUSY;
		if (__sync_val_compare_and_swap(p, cur, want) == cur) {
			seclvl_report(SECLVL_EVENT_LEVEL, cur, want);
			return 0;
		}
	}
	return -EAGAIN;
}

/*
 * Pinned as "raise": levels -1 and 0, which need no hook.  Above 0 it
 * returns -ENOLINK: only the raise iterators, which check that the hooks
 * are attached, take the level there.
 */
SEC("syscall")
int seclvl_raise(struct seclvl_raise_ctx *ctx)
{
	int want = ctx->level;

	return want > 0 ? -ENOLINK : seclvl_set_level(want);
}

/*
 * The first raise above 0 notes which mount of the pins' bpffs it was read
 * through, one of the initial namespace: from then on the self-protection
 * hooks keep that mount, and every mount it hangs under, in place.
 */
static __always_inline bool seclvl_note_pin_mount(const struct file *file)
{
	struct vfsmount *mnt = file->f_path.mnt;
	struct mount *m = seclvl_real_mount(mnt);
	__s64 *slot = seclvl_slot(SECLVL_STATE_PIN_MNT);

	if (!slot || !seclvl_is_pin_sb(mnt->mnt_sb) ||
	    BPF_CORE_READ(m, mnt_ns) != seclvl_init_mnt_ns_ptr())
		return false;
	*slot = (__s64)m;
	return true;
}

/*
 * Pinned as "raise1" and "raise2": reading one walks every bpf_link,
 * notes each hook program it finds attached, and at the end takes the
 * level up to 1 or 2 only if all of them are, but those that serve only
 * a restriction the policy turns off (the loader's mask), printing 0 or
 * the raise's -errno (-ENOLINK if one is not attached).  A tracing link stays
 * attached until it is released, and from level 1 nothing may release
 * the pinned ones, so no raise, by whatever tool or by hand, leaves a
 * level above 0 with a hook missing.
 */
static __always_inline int seclvl_raise_attached(struct bpf_iter__bpf_link *ctx,
						 int want)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct bpf_link *link = ctx->link;
	__u64 *seen, all, need;
	__u32 id, *bit;
	__s64 n;
	int cur, ret;

	seen = bpf_task_storage_get(&seclvl_attached, task, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
	/* The walk starts afresh; a task that joins one midway sees none. */
	if (seen && ctx->meta->seq_num == 0)
		*seen = 0;
	if (link) {
		id = link->prog->aux->id;
		bit = bpf_map_lookup_elem(&seclvl_hooks, &id);
		if (seen && bit && *bit < SECLVL_HOOKS_MAX)
			*seen |= 1ULL << *bit;
		return 0;
	}
	/* A raise that cannot go up is decided without the hooks. */
	cur = seclvl_level();
	n = seclvl_state_get(SECLVL_STATE_NR_HOOKS);
	all = n >= SECLVL_HOOKS_MAX ? ~0ULL : (1ULL << (n & 63)) - 1;
	need = seclvl_state_get(SECLVL_STATE_HOOKS_NEEDED);
	if (cur < 0 || want <= cur)
		ret = seclvl_set_level(want);
	else if (cur == 0 && !seclvl_note_pin_mount(ctx->meta->seq->file))
		ret = -EXDEV;
	else if (n <= 0 || n > SECLVL_HOOKS_MAX || !need || (need & ~all))
		ret = -EINVAL;
	else if (!seen)
		ret = -ENOMEM;
	else
		ret = (*seen & need) == need ? seclvl_set_level(want) :
					       -ENOLINK;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%d\n", ret);
	return 0;
}

/*
 * Pinned as "log_reader": "seclvl-bpf log" reads it once it holds the ring
 * buffer of events, and at level 0 (or -1) that notes its process as the
 * log reader, which from level 1 nobody may attach to (its descriptor of
 * the events could be taken, or its memory written, to move the position
 * past what the log should show).  Prints 0, or -EPERM above 0.
 */
SEC("iter/bpf_link")
int seclvl_note_log_reader(struct bpf_iter__bpf_link *ctx)
{
	__s64 *slot = seclvl_slot(SECLVL_STATE_LOG_READER);
	int ret = -EPERM;

	if (ctx->link)
		return 0;
	if (slot && seclvl_level() <= 0) {
		*slot = bpf_get_current_pid_tgid() >> 32;
		ret = 0;
	}
	BPF_SEQ_PRINTF(ctx->meta->seq, "%d\n", ret);
	return 0;
}

SEC("iter/bpf_link")
int seclvl_raise_1(struct bpf_iter__bpf_link *ctx)
{
	return seclvl_raise_attached(ctx, 1);
}

SEC("iter/bpf_link")
int seclvl_raise_2(struct bpf_iter__bpf_link *ctx)
{
	return seclvl_raise_attached(ctx, 2);
}

/* For the loader's check that the clock reads right on this kernel. */
SEC("syscall")
int seclvl_clock_check(__s64 *now)
{
	*now = seclvl_realtime_ns();
	return 0;
}

/* Pinned as "level": reading it prints the level, as securityfs does. */
SEC("iter/bpf_map_elem")
int seclvl_show_level(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__s64 *value = ctx->value;

	if (!key || !value || *key != SECLVL_STATE_LEVEL)
		return 0;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%d\n", (int)*value);
	return 0;
}

/* Pinned as "dropped": the events the full ring buffer lost. */
SEC("iter/bpf_map_elem")
int seclvl_show_dropped(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__s64 *value = ctx->value;

	if (!key || !value || *key != SECLVL_STATE_DROPPED)
		return 0;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%lld\n", *value);
	return 0;
}

/* Pinned as "policy": "name level denials" per restriction. */
SEC("iter/bpf_map_elem")
int seclvl_show_policy(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__u64 *value = ctx->value;
	__u32 r;
	int rule;

	if (!key || !value)
		return 0;
	r = *key;
	if (r >= SECLVL_NR_RESTRICTIONS)
		return 0;
	rule = seclvl_rule_level(r);
	BPF_SEQ_PRINTF(ctx->meta->seq, "%s %s %llu\n", seclvl_rules[r].name,
		       rule == 1 ? "1" : rule == 2 ? "2" : "off", *value);
	return 0;
}

/*
 * Pinned as "modules": "sha256:<hex> <name or -> <loads>" per image, as
 * the LSM's modules file.
 */
SEC("iter/bpf_map_elem")
int seclvl_show_modules(struct bpf_iter__bpf_map_elem *ctx)
{
	const struct seclvl_module *m = ctx->value;
	const __u8 *key = ctx->key;
	__u8 digest[SECLVL_DIGEST_SIZE];
	__u64 d[4], *loads;
	int i;

	if (!key || !m)
		return 0;
	__builtin_memcpy(digest, key, sizeof(digest));
	__builtin_memcpy(d, digest, sizeof(d));
	for (i = 0; i < 4; i++)
		d[i] = bpf_be64_to_cpu(d[i]);
	loads = bpf_map_lookup_elem(&seclvl_module_loads, digest);
	BPF_SEQ_PRINTF(ctx->meta->seq, "sha256:%016llx%016llx%016llx%016llx %s %llu\n",
		       d[0], d[1], d[2], d[3], m->name[0] ? m->name : "-",
		       loads ? *loads : 0);
	return 0;
}
