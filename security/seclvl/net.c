// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: what configures the host's network
 *
 * net_admin refuses CAP_NET_ADMIN (cap.c) except where it configures
 * nothing of the host; and what configures the host's network without it:
 * files root may write by their mode alone, and BPF programs attached
 * where they filter or redirect the host's traffic.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/bpf.h>
#include <linux/cgroup.h>
#include <linux/compat.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/kernfs.h>
#include <linux/lsm_hooks.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/nsproxy.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <asm/syscall.h>

#include "bpfnet.h"
#include "seclvl.h"

#ifdef CONFIG_SECURITY_NETWORK
/*
 * Two uses of CAP_NET_ADMIN change nothing in the kernel's configuration.
 * Netlink lets a socket send to other sockets (a process's, or a multicast
 * group: udev telling libudev listeners of a device) only with it
 * (netlink_allowed()); a message to the kernel needs no capability there
 * and is judged by its handler.  And SO_SNDBUFFORCE and SO_RCVBUFFORCE
 * (udevd, journald, systemd) size the caller's own socket past the
 * sysctl's limit.  socket_sendmsg and socket_setsockopt mark such a call,
 * and the first capability check after it is its own: it finds and clears
 * the mark.  A call that fails before that check leaves the mark, so it
 * counts only within a send or setsockopt system call, each of which marks
 * afresh.
 */
static int hook_socket_sendmsg(struct socket *sock, struct msghdr *msg,
			       int size)
{
	struct sockaddr_nl *addr = msg->msg_name;

	/* Nothing reads the mark at level 0 or below, and each send resets it. */
	if (seclvl_current() <= 0)
		return 0;
	seclvl_task(current)->net_admin_noop =
		sock->sk && sock->sk->sk_family == AF_NETLINK && addr &&
		msg->msg_namelen >= sizeof(*addr) &&
		addr->nl_family == AF_NETLINK &&
		(addr->nl_pid || addr->nl_groups);
	return 0;
}

static int hook_socket_setsockopt(struct socket *sock, int level, int optname)
{
	if (seclvl_current() <= 0)
		return 0;
	seclvl_task(current)->net_admin_noop =
		level == SOL_SOCKET &&
		(optname == SO_SNDBUFFORCE || optname == SO_RCVBUFFORCE);
	return 0;
}

/**
 * seclvl_net_admin_noop - whether this CAP_NET_ADMIN check configures nothing
 *
 * Reads and clears the mark left by socket_sendmsg or socket_setsockopt;
 * called by the capable hook for CAP_NET_ADMIN.
 *
 * Return: true within a send to other netlink sockets, or a setsockopt
 * forcing the caller's own socket buffer.
 */
bool seclvl_net_admin_noop(void)
{
	struct seclvl_task *t = seclvl_task(current);
	long nr;

	if (!t->net_admin_noop)
		return false;
	t->net_admin_noop = false;
	if (in_compat_syscall())
		return false;
	nr = syscall_get_nr(current, task_pt_regs(current));
	return nr == __NR_sendmsg || nr == __NR_sendto ||
	       nr == __NR_sendmmsg || nr == __NR_setsockopt;
}
#else
bool seclvl_net_admin_noop(void)
{
	return false;
}
#endif

#ifdef CONFIG_BPF_SYSCALL
/**
 * seclvl_in_bpf - whether the current system call is bpf(2)
 *
 * There every CAP_NET_ADMIN check also accepts CAP_SYS_ADMIN: hook_bpf()
 * judges what the capability would, by where a program attaches, and
 * refusing the capability would only count and log what the kernel then
 * allows.
 *
 * Return: true in a native bpf(2) call.
 */
bool seclvl_in_bpf(void)
{
	return current->mm && !in_compat_syscall() &&
	       syscall_get_nr(current, task_pt_regs(current)) == __NR_bpf;
}
#else
bool seclvl_in_bpf(void)
{
	return false;
}
#endif

/*
 * A setting of the initial network namespace under /proc/sys/net: root
 * passes net_ctl_permissions() by its uid alone, whatever its capabilities.
 */
static bool seclvl_is_net_sysctl(struct file *file)
{
#if defined(CONFIG_NET) && defined(CONFIG_SYSCTL)
	return proc_sys_set(file) == &init_net.sysctls;
#else
	return false;
#endif
}

/*
 * A file of the initial network namespace's /proc/net, guarded by its mode
 * alone (xt_recent's address lists, pktgen).  The caches under rpc/ are
 * the NFS server's, which mountd and gssd answer all the time.
 */
static bool seclvl_is_net_proc(struct file *file)
{
#ifdef CONFIG_NET
	struct dentry *d;

	if (proc_file_net(file) != &init_net)
		return false;
	for (d = file->f_path.dentry->d_parent; !IS_ROOT(d); d = d->d_parent)
		if (!strcmp(d->d_name.name, "rpc") &&
		    !strcmp(d->d_parent->d_name.name, "net"))
			return false;
	return true;
#else
	return false;
#endif
}

#ifdef CONFIG_NET
/* Whether @kn is called @name: kernfs_name() reads it under kernfs's lock. */
static bool seclvl_kn_named(struct kernfs_node *kn, const char *name)
{
	char buf[8];

	return kernfs_name(kn, buf, sizeof(buf)) >= 0 && !strcmp(buf, name);
}
#endif

/*
 * A file of a network device, or of the network class, of the initial
 * namespace in sysfs: byte queue limits and bonding options, for two, are
 * guarded by their mode alone.  The nodes of those are tagged with their
 * namespace.  Synthesised uevents (udevadm trigger) and a device's power
 * management are not network settings.
 */
static bool seclvl_is_net_sysfs(struct file *file)
{
#ifdef CONFIG_NET
	struct kernfs_node *kn = kernfs_node_from_dentry(file->f_path.dentry);
	struct kernfs_node *parent;
	bool host = false;

	if (!kn || seclvl_kn_named(kn, "uevent"))
		return false;
	/* Each parent is held, as kernfs wants it, while it is looked at. */
	kernfs_get(kn);
	while ((parent = kernfs_get_parent(kn))) {
		if (kn->ns) {
			/* The tag of the initial namespace, whatever its type. */
			host = kn->ns == net_ns_type_operations.initial_ns();
			kernfs_put(parent);
			break;
		}
		if (parent->ns && seclvl_kn_named(kn, "power")) {
			kernfs_put(parent);
			break;
		}
		kernfs_put(kn);
		kn = parent;
	}
	kernfs_put(kn);
	return host;
#else
	return false;
#endif
}

/**
 * seclvl_net_setting - whether a file is a network setting of the host
 * @file: a regular file open for writing
 *
 * Return: true for a file of the initial network namespace under
 * /proc/sys/net, /proc/net or a network device's sysfs directory.
 */
bool seclvl_net_setting(struct file *file)
{
	switch (file_inode(file)->i_sb->s_magic) {
	case SYSFS_MAGIC:
		return seclvl_is_net_sysfs(file);
	case PROC_SUPER_MAGIC:
		return seclvl_is_net_sysctl(file) || seclvl_is_net_proc(file);
	default:
		return false;
	}
}

#ifdef CONFIG_BPF_SYSCALL
/* The level of the cgroup at descriptor @fd, or -1: the attach then fails. */
#ifdef CONFIG_CGROUP_BPF
static int seclvl_cgroup_level(u32 fd)
{
	struct cgroup *cgrp = cgroup_get_from_fd(fd);
	int level;

	if (IS_ERR(cgrp))
		return -1;
	level = cgrp->level;
	cgroup_put(cgrp);
	return level;
}
#else
static int seclvl_cgroup_level(u32 fd)
{
	return -1;
}
#endif

/*
 * Whether another task can swap the caller's descriptors between this
 * hook and the kernel's own lookup of them: a thread, or an io_uring
 * worker, sharing the table.  Init does not race itself (ptrace_init
 * keeps others out of it); systemd closes descriptors on a thread of its
 * own while it attaches its units' programs.
 */
static bool seclvl_fds_shared(void)
{
	return atomic_read(&current->files->count) > 1 &&
	       !is_global_init(current);
}

/*
 * A network program attached where it filters or redirects the host's
 * traffic (bpfnet.h): a device or netfilter hook of the initial network
 * namespace, a namespace named by a descriptor, a cgroup above a unit's.
 * Links are not changed or detached either, since which one a descriptor
 * names can change before the kernel looks.  A unit's own cgroup keeps
 * its programs (systemd's IPAddressDeny=, SocketBindDeny=): a program
 * there acts on processes root may trace anyway.
 */
static int hook_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	enum seclvl_bpf_net where;
	u32 type, target, flags;
	bool fds_shared;
	int cg;

	if (!seclvl_applies(SECLVL_NET_ADMIN))
		return 0;
	if (cmd == BPF_LINK_UPDATE || cmd == BPF_LINK_DETACH)
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "change or detach a BPF link");
	/*
	 * freplace rewrites an attached program, a device's as well; fmod_ret
	 * on security_socket_*() refuses sockets host-wide, a firewall.
	 */
	if (cmd == BPF_PROG_LOAD &&
	    (attr->prog_type == BPF_PROG_TYPE_EXT ||
	     (attr->prog_type == BPF_PROG_TYPE_TRACING &&
	      attr->expected_attach_type == BPF_MODIFY_RETURN)))
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "load a BPF program that replaces or overrides others");
	seclvl_bpf_attach_of(cmd, attr, &type, &target, &flags);
	where = seclvl_bpf_attach_net(cmd, type);
	if (where == SECLVL_BPF_NOT_NET)
		return 0;
	fds_shared = where == SECLVL_BPF_NET_CGROUP && seclvl_fds_shared();
	cg = where == SECLVL_BPF_NET_CGROUP ? seclvl_cgroup_level(target) : -1;
	switch (seclvl_bpf_net_verdict(cmd, where, flags,
				       net_eq(current->nsproxy->net_ns, &init_net),
				       fds_shared, cg)) {
	case SECLVL_BPF_NET_HOST:
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "attach or detach BPF program type %u on the host's network",
				     type);
	case SECLVL_BPF_NET_NAMED:
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "attach BPF program type %u to a network namespace",
				     type);
	case SECLVL_BPF_NET_ALONE:
		/* One alone would make systemd's later attaches fail. */
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "attach BPF program type %u to a cgroup without BPF_F_ALLOW_MULTI",
				     type);
	case SECLVL_BPF_NET_SHARED:
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "attach or detach BPF program type %u on a cgroup, sharing descriptors",
				     type);
	case SECLVL_BPF_NET_SHALLOW:
		return seclvl_deny(SECLVL_NET_ADMIN, true,
				   "attach or detach BPF program type %u on a cgroup of level %d",
				     type, cg);
	default:
		return 0;
	}
}

/*
 * Newer kernels (7.3) also tell the bpf hook whether the command comes
 * from a BPF program (bpf_sys_bpf()) rather than from the bpf() system
 * call: the same command on the same descriptors, which root can issue
 * either way, so it is judged alike.
 */
static int hook_bpf_kernel(int cmd, union bpf_attr *attr, unsigned int size,
			   bool kernel)
{
	return hook_bpf(cmd, attr, size);
}

/* The one of the two that has the type of this kernel's bpf hook. */
#define SECLVL_HOOK_BPF							\
	__builtin_choose_expr(						\
		__same_type(((union security_list_options *)NULL)->bpf,	\
			    &hook_bpf_kernel),				\
		hook_bpf_kernel, hook_bpf)
#endif

static struct security_hook_list net_hooks[] __ro_after_init = {
#ifdef CONFIG_SECURITY_NETWORK
	LSM_HOOK_INIT(socket_sendmsg, hook_socket_sendmsg),
	LSM_HOOK_INIT(socket_setsockopt, hook_socket_setsockopt),
#endif
#ifdef CONFIG_BPF_SYSCALL
	LSM_HOOK_INIT(bpf, SECLVL_HOOK_BPF),
#endif
};

const struct seclvl_hook_set seclvl_net_hooks = {
	.hooks = net_hooks,
	.count = ARRAY_SIZE(net_hooks),
	.serves = BIT(SECLVL_NET_ADMIN),
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_bpf_attach_net(struct kunit *const test)
{
	/* The caller's namespace: its devices and hooks. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_XDP));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH, BPF_TCX_INGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_DETACH, BPF_TCX_EGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_NETFILTER));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_FLOW_DISSECTOR));
	/* A namespace named by a descriptor: any. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_FLOW_DISSECTOR));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_SK_LOOKUP));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_NETKIT_PEER));
	/* Sockets under a cgroup; not its devices or sysctls. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_CGROUP,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_CGROUP_INET_EGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_CGROUP,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_CGROUP_UNIX_CONNECT));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_CGROUP_DEVICE));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_LSM_MAC));
	/* Not an attach. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_PROG_LOAD, BPF_XDP));
}

static void test_bpf_net_verdict(struct kunit *test)
{
	const unsigned int multi = BPF_F_ALLOW_MULTI;

	/* A device: the host's, not a namespace of one's own. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_HOST,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_NS,
					       multi, true, false, -1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_NS,
					       multi, false, false, -1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NAMED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_ANY,
					       multi, false, false, -1));
	/* A cgroup: a unit's with MULTI, alone, shared, or shallower. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_PROG_ATTACH,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 2));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALONE,
			seclvl_bpf_net_verdict(BPF_PROG_ATTACH,
					       SECLVL_BPF_NET_CGROUP, 0, true,
					       false, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_PROG_DETACH,
					       SECLVL_BPF_NET_CGROUP, 0, true,
					       false, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHARED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, true, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHALLOW,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHALLOW,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 0));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, -1));
}

static struct kunit_case net_test_cases[] = {
	KUNIT_CASE(test_bpf_attach_net),
	KUNIT_CASE(test_bpf_net_verdict),
	{}
};

static struct kunit_suite net_test_suite = {
	.name = "seclvl_net",
	.test_cases = net_test_cases,
};

kunit_test_suite(net_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
