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
 * enum bpf_cmd and enum bpf_attach_type in scope.
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

#endif /* _SECURITY_SECLVL_BPFNET_H */
