/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - where a BPF program attaches, as net_admin judges it
 *
 * In bpf(2) every check for CAP_NET_ADMIN also accepts CAP_SYS_ADMIN
 * (bpf_token_capable()), and attaching a program to a network device, a
 * netfilter hook or a cgroup checks nothing more, so refusing the
 * capability does not keep root from filtering or redirecting the host's
 * traffic.  net_admin judges such an attach by where it goes instead.
 * Pure: the LSM and the BPF backend both include it, with the UAPI's
 * enum bpf_cmd, enum bpf_attach_type and union bpf_attr in scope.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_BPFNET_H
#define _SECURITY_SECLVL_BPFNET_H

/**
 * enum seclvl_bpf_net - what a bpf(2) command attaches a program to
 * @SECLVL_BPF_NOT_NET: nothing of the network, or not an attach
 * @SECLVL_BPF_NET_NS: a device, a netfilter hook or the flow dissector of
 *	the caller's network namespace
 * @SECLVL_BPF_NET_ANY: a network namespace named by a descriptor, or a
 *	netkit device's peer, which may be in any namespace
 * @SECLVL_BPF_NET_CGROUP: the sockets of the processes under a cgroup
 */
enum seclvl_bpf_net {
	SECLVL_BPF_NOT_NET,
	SECLVL_BPF_NET_NS,
	SECLVL_BPF_NET_ANY,
	SECLVL_BPF_NET_CGROUP,
};

/*
 * The shallowest cgroup (the root is 0) a network program may be attached
 * to from the level of net_admin: a unit's, under systemd.  Shallower ones
 * hold every service, user and future process (system.slice), init and
 * its listening sockets (init.scope), kernel sockets (the root).
 */
#define SECLVL_BPF_CGROUP_LEVEL 2

/**
 * seclvl_bpf_attach_net - what a bpf(2) command attaches to
 * @cmd: the command
 * @type: its attach type (attach_type, or link_create.attach_type)
 *
 * Return: where the program would act, for BPF_PROG_ATTACH,
 * BPF_PROG_DETACH and BPF_LINK_CREATE; %SECLVL_BPF_NOT_NET otherwise.
 */
static inline enum seclvl_bpf_net
seclvl_bpf_attach_net(int cmd, unsigned int type)
{
	if (cmd != BPF_PROG_ATTACH && cmd != BPF_PROG_DETACH &&
	    cmd != BPF_LINK_CREATE)
		return SECLVL_BPF_NOT_NET;
	switch (type) {
	case BPF_XDP:
	case BPF_TCX_INGRESS:
	case BPF_TCX_EGRESS:
	case BPF_NETKIT_PRIMARY:
	case BPF_NETFILTER:
		return SECLVL_BPF_NET_NS;
	case BPF_FLOW_DISSECTOR:
		/* A link names its namespace by a descriptor. */
		return cmd == BPF_LINK_CREATE ? SECLVL_BPF_NET_ANY :
						SECLVL_BPF_NET_NS;
	case BPF_NETKIT_PEER:
	case BPF_SK_LOOKUP:
		return SECLVL_BPF_NET_ANY;
	case BPF_CGROUP_INET_INGRESS:
	case BPF_CGROUP_INET_EGRESS:
	case BPF_CGROUP_INET_SOCK_CREATE:
	case BPF_CGROUP_INET_SOCK_RELEASE:
	case BPF_CGROUP_SOCK_OPS:
	case BPF_CGROUP_INET4_BIND:
	case BPF_CGROUP_INET6_BIND:
	case BPF_CGROUP_INET4_CONNECT:
	case BPF_CGROUP_INET6_CONNECT:
	case BPF_CGROUP_INET4_POST_BIND:
	case BPF_CGROUP_INET6_POST_BIND:
	case BPF_CGROUP_UDP4_SENDMSG:
	case BPF_CGROUP_UDP6_SENDMSG:
	case BPF_CGROUP_UDP4_RECVMSG:
	case BPF_CGROUP_UDP6_RECVMSG:
	case BPF_CGROUP_GETSOCKOPT:
	case BPF_CGROUP_SETSOCKOPT:
	case BPF_CGROUP_INET4_GETPEERNAME:
	case BPF_CGROUP_INET6_GETPEERNAME:
	case BPF_CGROUP_INET4_GETSOCKNAME:
	case BPF_CGROUP_INET6_GETSOCKNAME:
	case BPF_CGROUP_UNIX_CONNECT:
	case BPF_CGROUP_UNIX_SENDMSG:
	case BPF_CGROUP_UNIX_RECVMSG:
	case BPF_CGROUP_UNIX_GETPEERNAME:
	case BPF_CGROUP_UNIX_GETSOCKNAME:
		return SECLVL_BPF_NET_CGROUP;
	default:
		return SECLVL_BPF_NOT_NET;
	}
}

/*
 * The attach type, target descriptor and flags of a bpf(2) attach, detach
 * or link_create: a link to a cgroup always lets others attach too.
 */
static inline void seclvl_bpf_attach_of(int cmd, const union bpf_attr *attr,
					unsigned int *type,
					unsigned int *target,
					unsigned int *flags)
{
	if (cmd == BPF_LINK_CREATE) {
		*type = attr->link_create.attach_type;
		*target = attr->link_create.target_fd;
		*flags = BPF_F_ALLOW_MULTI;
	} else {
		*type = attr->attach_type;
		*target = attr->target_fd;
		*flags = attr->attach_flags;
	}
}

/**
 * enum seclvl_bpf_net_verdict - net_admin's verdict on a bpf(2) attach
 * @SECLVL_BPF_NET_ALLOWED: not refused
 * @SECLVL_BPF_NET_HOST: it acts on the initial network namespace
 * @SECLVL_BPF_NET_NAMED: it acts on whatever namespace a descriptor names
 * @SECLVL_BPF_NET_ALONE: a cgroup program attached without
 *	BPF_F_ALLOW_MULTI, after which systemd's own attaches there fail
 * @SECLVL_BPF_NET_SHARED: by a task that shares its descriptor table, so
 *	that the cgroup judged may not be the one the kernel looks up
 * @SECLVL_BPF_NET_SHALLOW: on a cgroup above a unit's
 */
enum seclvl_bpf_net_verdict {
	SECLVL_BPF_NET_ALLOWED,
	SECLVL_BPF_NET_HOST,
	SECLVL_BPF_NET_NAMED,
	SECLVL_BPF_NET_ALONE,
	SECLVL_BPF_NET_SHARED,
	SECLVL_BPF_NET_SHALLOW,
};

/**
 * seclvl_bpf_net_verdict - net_admin's rule for a bpf(2) attach
 * @cmd: the command
 * @where: what it attaches to (seclvl_bpf_attach_net())
 * @flags: its attach flags (BPF_F_ALLOW_MULTI for a link, as a cgroup
 *	link always is)
 * @host_ns: whether the caller is in the initial network namespace
 * @fds_shared: whether the caller shares its descriptor table
 * @cg_level: the cgroup's level for %SECLVL_BPF_NET_CGROUP (the root is
 *	0), or -1 where it cannot be told
 *
 * Return: why net_admin refuses it, or %SECLVL_BPF_NET_ALLOWED.
 */
static inline enum seclvl_bpf_net_verdict
seclvl_bpf_net_verdict(int cmd, enum seclvl_bpf_net where, unsigned int flags,
		       bool host_ns, bool fds_shared, int cg_level)
{
	switch (where) {
	case SECLVL_BPF_NET_NS:
		return host_ns ? SECLVL_BPF_NET_HOST : SECLVL_BPF_NET_ALLOWED;
	case SECLVL_BPF_NET_ANY:
		return SECLVL_BPF_NET_NAMED;
	case SECLVL_BPF_NET_CGROUP:
		if (cmd == BPF_PROG_ATTACH && !(flags & BPF_F_ALLOW_MULTI))
			return SECLVL_BPF_NET_ALONE;
		if (fds_shared)
			return SECLVL_BPF_NET_SHARED;
		if (cg_level >= 0 && cg_level < SECLVL_BPF_CGROUP_LEVEL)
			return SECLVL_BPF_NET_SHALLOW;
		return SECLVL_BPF_NET_ALLOWED;
	default:
		return SECLVL_BPF_NET_ALLOWED;
	}
}

#endif /* _SECURITY_SECLVL_BPFNET_H */
