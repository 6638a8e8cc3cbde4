// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the BPF backend defends itself
 *
 * From level 1 root must not be able to detach, unpin, rename or replace
 * the backend's programs, reach its state through a map or a program, load
 * a program that could override a hook, or unmount the bpffs that holds
 * the pins.  Each attempt is made here; at level 0 each must get past the
 * backend (and the guest runs this last there, since some then succeed for
 * good).
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <sched.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define LINK_PIN BPF_DIR "/seclvl_capable"
#define PROG_PIN BPF_DIR "/seclvl_capable-lsm"

static bool raised(void)
{
	return current_level() > 0;
}

/* A hook's pin: its program's at level 0, its link's from the raise. */
static const char *hook_pin(void)
{
	return raised() ? LINK_PIN : PROG_PIN;
}

/*
 * Attach each hook program but @except, by descriptor: closing them
 * detaches them.  Returns how many are in @links.
 */
static int attach_hooks_but(struct __test_metadata *const _metadata,
			    int *links, int max, const char *except)
{
	DIR *dir = opendir(BPF_DIR);
	struct dirent *d;
	int n = 0;

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max) {
		size_t len;

		if (bpf_hook_kind(d->d_name, &len) < 0 ||
		    (except && !strcmp(d->d_name, except)))
			continue;
		links[n] = bpf_attach_hook(d->d_name);
		EXPECT_LE(0, links[n]) TH_LOG("%s: %s", d->d_name,
					      strerror(errno));
		if (links[n] >= 0)
			n++;
	}
	closedir(dir);
	return n;
}

static void close_all(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

FIXTURE(bpf) {};

FIXTURE_SETUP(bpf)
{
	const char *expect = getenv("SECLVL_EXPECT_LEVEL");

	if (!bpf_backend())
		SKIP(return, "the in-tree LSM has no programs to protect");
	if (expect)
		ASSERT_EQ(atoi(expect), current_level());
	ASSERT_EQ(0, access(hook_pin(), F_OK));
}

FIXTURE_TEARDOWN(bpf) {}

/* Refused with EPERM from level 1; at level 0 not by the backend. */
static void expect_guarded(struct __test_metadata *const _metadata, int ret,
			   int err)
{
	if (raised()) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, err) TH_LOG("%s", strerror(err));
	} else if (ret < 0) {
		EXPECT_NE(EPERM, err) TH_LOG("refused at level 0");
	}
}

#define EXPECT_GUARDED(call)                                \
	do {                                                \
		int __ret = (call);                         \
		int __err = errno;                          \
		expect_guarded(_metadata, __ret, __err);    \
	} while (0)

/* One instruction pair: r0 = 0; exit. */
static int load_prog(enum bpf_prog_type type, enum bpf_attach_type attach,
		     const char *btf_name)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach);
	int id = btf_name ? libbpf_find_vmlinux_btf_id(btf_name, attach) : 0;

	if (id < 0)
		return errno = -id, -1;
	opts.attach_btf_id = id;
	return bpf_prog_load(type, "attack", "GPL", insns, ARRAY_SIZE(insns),
			     &opts);
}

/* Anyone may read the level and the policy; only root may raise. */
TEST_F(bpf, pin_modes)
{
	EXPECT_EQ(0755, mode_of(BPF_DIR));
	EXPECT_EQ(0644, mode_of(BPF_LEVEL_FILE));
	EXPECT_EQ(0644, mode_of(BPF_POLICY_FILE));
	EXPECT_EQ(0644, mode_of(BPF_DIR "/dropped"));
	EXPECT_EQ(0644, mode_of(BPF_DIR "/modules"));
	EXPECT_EQ(0600, mode_of(BPF_RAISE_PIN));
	EXPECT_EQ(0600, mode_of(BPF_DIR "/raise1"));
	EXPECT_EQ(0600, mode_of(BPF_DIR "/raise2"));
	EXPECT_EQ(0600, mode_of(BPF_DIR "/log_reader"));
	EXPECT_EQ(0600, mode_of(PROG_PIN));
	if (raised())
		EXPECT_EQ(0600, mode_of(LINK_PIN));
	EXPECT_EQ(0600, mode_of(BPF_DIR "/module_list"));
	EXPECT_EQ(0600, mode_of(BPF_DIR "/module_loads"));
}

TEST_F(bpf, load_lsm_program)
{
	EXPECT_GUARDED(opened(load_prog(BPF_PROG_TYPE_LSM, BPF_LSM_MAC,
					"file_open")));
}

TEST_F(bpf, load_fmod_ret_on_security_hook)
{
	EXPECT_GUARDED(opened(load_prog(BPF_PROG_TYPE_TRACING,
					BPF_MODIFY_RETURN,
					"security_file_open")));
}

TEST_F(bpf, load_freplace)
{
	/* No target given: at level 0 the kernel refuses it, not EPERM. */
	int ret = opened(load_prog(BPF_PROG_TYPE_EXT, 0, NULL));

	EXPECT_EQ(-1, ret);
	expect_guarded(_metadata, ret, errno);
}

TEST_F(bpf, load_struct_ops)
{
	int ret = opened(load_prog(BPF_PROG_TYPE_STRUCT_OPS, 0, NULL));

	EXPECT_EQ(-1, ret);
	expect_guarded(_metadata, ret, errno);
}

/* The maps the programs write, by id as root would find them. */
TEST_F(bpf, map_fd_by_id)
{
	__u32 id = 0;
	int ours = 0, refused_ours = 0;

	while (!bpf_map_get_next_id(id, &id)) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id(id);

		if (fd < 0) {
			EXPECT_EQ(EPERM, errno) TH_LOG("map %u", id);
			refused_ours++;
			continue;
		}
		ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, &info, &len));
		if (!strcmp(info.name, "seclvl_state")) {
			__u32 key = 0;
			__s64 zero = 0;

			/* Frozen: no syscall writes, at any level. */
			EXPECT_EQ(-1, bpf_map_update_elem(fd, &key, &zero, 0));
			EXPECT_EQ(EPERM, errno);
		}
		/* Names are cut to 15 characters. */
		if (!strcmp(info.name, "seclvl_state") ||
		    !strcmp(info.name, "seclvl_denials") ||
		    !strcmp(info.name, "seclvl_stepping") ||
		    !strcmp(info.name, "seclvl_modules") ||
		    !strcmp(info.name, "seclvl_module_l") ||
		    !strcmp(info.name, "seclvl_hooks") ||
		    !strcmp(info.name, "seclvl_netlink_") ||
		    !strcmp(info.name, "seclvl_attached") ||
		    !strcmp(info.name, "seclvl_events") ||
		    !strcmp(info.name, "seclvl_loop_use") ||
		    !strcmp(info.name, "seclvl_loop_bef"))
			ours++;
		close(fd);
	}
	if (raised()) {
		EXPECT_EQ(0, ours);
		EXPECT_EQ(11, refused_ours);
	} else {
		EXPECT_EQ(11, ours);
		EXPECT_EQ(0, refused_ours);
	}
}

#define EVENTS_PIN BPF_DIR "/events"

/*
 * The ring buffer of events reads at every level; written, its reader's
 * position would skip or drop what the log shows.
 */
TEST_F(bpf, events_reader_position)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	int fd = bpf_obj_get_opts(EVENTS_PIN, &ro);

	EXPECT_LE(0, fd) TH_LOG("%s", strerror(errno));
	close(fd);
	fd = bpf_obj_get(EVENTS_PIN);
	EXPECT_GUARDED(fd);
	if (fd >= 0)
		close(fd);
}

/* The pid of the running "seclvl-bpf log", or 0. */
static pid_t log_reader(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	pid_t pid = 0;

	while (proc && !pid && (d = readdir(proc))) {
		char path[300], argv[64] = "";
		ssize_t n;
		int fd;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, argv, sizeof(argv) - 1);
		if (fd >= 0)
			close(fd);
		/* "seclvl-bpf\0log\0", under whatever directory */
		if (n > 0 && (size_t)n > strlen(argv) + 1 &&
		    !strcmp(strrchr(argv, '/') ? strrchr(argv, '/') + 1 : argv,
			    "seclvl-bpf") &&
		    !strcmp(argv + strlen(argv) + 1, "log"))
			pid = atoi(d->d_name);
	}
	if (proc)
		closedir(proc);
	return pid;
}

/*
 * The log reader's descriptor of the events, or its memory, would move
 * the position past what the log shows: from level 1 nobody attaches to
 * it, and nobody else can become the reader.
 */
TEST_F(bpf, log_reader_attach)
{
	pid_t pid = log_reader();
	char path[64], buf[16] = "";
	int fd, pidfd, n;

	if (!pid && !raised())
		SKIP(return, "no log reader runs at level 0 here");
	ASSERT_LT(0, pid) TH_LOG("seclvl-bpf log is not running");
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	/* proc reports a refused attach as EACCES. */
	if (raised()) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EACCES, errno);
	} else {
		EXPECT_LE(0, fd) TH_LOG("%s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	ASSERT_LE(0, pidfd);
	for (n = 0; n < 8; n++) {
		fd = syscall(SYS_pidfd_getfd, pidfd, n, 0);
		if (raised()) {
			EXPECT_EQ(-1, fd);
			EXPECT_EQ(EPERM, errno);
		}
		if (fd >= 0)
			close(fd);
	}
	close(pidfd);
	if (!raised())
		return;	/* reading it here would make this test the reader */
	fd = open(BPF_DIR "/log_reader", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_LT(0, read(fd, buf, sizeof(buf) - 1));
	EXPECT_STREQ("-1\n", buf);
	close(fd);
}

#define MODULE_LIST_PIN BPF_DIR "/module_list"
#define MODULE_LOADS_PIN BPF_DIR "/module_loads"

/*
 * A program that adds an entry to the map @map_fd names: the list of
 * module images is read-only to programs, whoever holds a descriptor.
 */
static int load_list_writer(int map_fd)
{
	const struct bpf_insn insns[] = {
		/* key and value: 64 zero bytes at fp-64 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -8 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -16 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -24 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -32 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -40 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -48 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -56 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -64 },
		/* r1 = the map */
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		/* r2 = r3 = fp - 64; r4 = BPF_ANY */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -64 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 3, .src_reg = 2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_update_elem },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "attack", "GPL",
			     insns, ARRAY_SIZE(insns), NULL);
}

/*
 * The list of module images: frozen before any raise above 0, read-only
 * to programs, and from level 1 no descriptor of it or its counts at all
 * (an iterator program could write its values with a read-only one).
 */
TEST_F(bpf, module_list)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u8 key[32] = { 0x5e, 0xed };
	char value[56] = "bpf_test";
	int fd = bpf_obj_get(MODULE_LIST_PIN), err = errno;
	int links[64], n;

	if (raised()) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EPERM, err);
		EXPECT_EQ(-1, opened(bpf_obj_get_opts(MODULE_LIST_PIN, &ro)));
		EXPECT_EQ(EPERM, errno);
		EXPECT_EQ(-1, opened(bpf_obj_get(MODULE_LOADS_PIN)));
		EXPECT_EQ(EPERM, errno);
		return;
	}
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(err));
	ASSERT_EQ(0, bpf_map_update_elem(fd, key, value, BPF_NOEXIST))
		TH_LOG("%s (frozen at level <= 0?)", strerror(errno));
	/* libbpf returns the negative errno. */
	EXPECT_EQ(-EEXIST, bpf_map_update_elem(fd, key, value, BPF_NOEXIST));
	/* Not frozen: even with the hooks attached, the level stays. */
	n = attach_hooks_but(_metadata, links, 64, NULL);
	EXPECT_EQ(EBUSY, bpf_raise_iter(1));
	close_all(links, n);
	EXPECT_GE(0, current_level());
	/* Not written by a program, even one given a descriptor that writes. */
	EXPECT_EQ(-1, opened(load_list_writer(fd)));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, bpf_map_delete_elem(fd, key));
	close(fd);
}

/*
 * The hook programs cost nothing at level 0: none is attached until the
 * first raise above 0, which attaches them all.
 */
TEST_F(bpf, hooks_attached)
{
	int total = 0, missing = bpf_hooks_unattached(&total);

	EXPECT_LT(30, total);
	EXPECT_EQ(raised() ? 0 : total, missing);
}

/*
 * A program that serves only a restriction the policy turns off is never
 * attached, and the raise does not wait for it (stock0's reload turns
 * time_backward off); with every restriction on there is none.
 */
TEST_F(bpf, hooks_of_what_is_off)
{
	int total, missing, time_rule = RULE_OFF, setid_rule = RULE_OFF;

	missing = bpf_hooks_unattached_of(true, &total);
	ASSERT_TRUE(policy_row("time_backward", &time_rule, NULL));
	ASSERT_TRUE(policy_row("setid_bits", &setid_rule, NULL));
	EXPECT_EQ((time_rule == RULE_OFF ? 3 : 0) +
		  (setid_rule == RULE_OFF ? 2 : 0), total);
	EXPECT_EQ(total, missing);
}

/*
 * Above 0 only with every hook program attached: with one missing, the
 * raise iterators, read by hand, and the raise program refuse.
 */
TEST_F(bpf, raise_needs_every_hook)
{
	int links[64], n, total, level = current_level();

	/* The raise program never takes the level above 0. */
	EXPECT_EQ(ENOLINK, bpf_raise_prog(level > 0 ? level : 1));
	if (raised()) {
		/* Every hook is attached: asking for the level is a no-op. */
		EXPECT_EQ(0, bpf_raise_iter(level));
		EXPECT_EQ(level == 2 ? EPERM : 0, bpf_raise_iter(1));
		EXPECT_EQ(level, current_level());
		return;
	}
	EXPECT_EQ(ENOLINK, bpf_raise_iter(1));
	n = attach_hooks_but(_metadata, links, 64, "seclvl_capable-lsm");
	EXPECT_LT(30, n);
	EXPECT_EQ(1, bpf_hooks_unattached(&total));
	EXPECT_EQ(ENOLINK, bpf_raise_iter(1));
	EXPECT_EQ(ENOLINK, bpf_raise_iter(2));
	EXPECT_EQ(0, current_level());
	close_all(links, n);
	EXPECT_EQ(total, bpf_hooks_unattached(&total));
}

/*
 * The loop watchers count the loop devices that use each file (bypass_test
 * loop_failed_configure_binds_nothing): attached by the raise with the
 * hooks, and from then on for good.
 */
TEST_F(bpf, loop_watchers)
{
	static const char *const names[] = {
		"seclvl_loop_ioctl_enter", "seclvl_loop_ioctl_exit",
		"seclvl_loop_clear",
	};
	char path[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);
		int link;

		snprintf(path, sizeof(path), "%s/%s", BPF_DIR, names[i]);
		link = bpf_obj_get(path);
		if (!raised()) {
			/* libbpf returns -errno. */
			EXPECT_EQ(-ENOENT, link)
				TH_LOG("%s is attached at level 0", path);
			continue;
		}
		ASSERT_LE(0, link) TH_LOG("%s: %s", path, strerror(errno));
		ASSERT_EQ(0, bpf_obj_get_info_by_fd(link, &info, &len));
		EXPECT_EQ(BPF_LINK_TYPE_TRACING, info.type);
		EXPECT_EQ(-1, bpf_link_detach(link));
		EXPECT_EQ(EPERM, errno);
		close(link);
	}
}

/*
 * Level 0 costs nothing: no program of the backend's is attached to a
 * hook or a kernel function, pinned or not (its iterators are no hooks).
 */
TEST_F(bpf, nothing_attached_at_level_0)
{
	__u32 id = 0;
	int ours = 0;

	if (raised())
		SKIP(return, "raised: the hooks are attached");
	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_prog_info prog = {};
		struct bpf_link_info link = {};
		__u32 len = sizeof(link);
		int fd = bpf_link_get_fd_by_id(id), pfd;

		if (fd < 0)
			continue;
		ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, &link, &len));
		close(fd);
		if (link.type == BPF_LINK_TYPE_ITER)
			continue;
		pfd = bpf_prog_get_fd_by_id(link.prog_id);
		if (pfd < 0)
			continue;
		len = sizeof(prog);
		ASSERT_EQ(0, bpf_obj_get_info_by_fd(pfd, &prog, &len));
		close(pfd);
		if (!strncmp(prog.name, "seclvl_", 7)) {
			TH_LOG("attached at level 0: %s (link %u)", prog.name, id);
			ours++;
		}
	}
	EXPECT_EQ(0, ours);
}

TEST_F(bpf, link_update_and_detach)
{
	int link = raised() ? bpf_obj_get(LINK_PIN) :
			      bpf_attach_hook("seclvl_capable-lsm");
	int prog = load_prog(BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL);
	int total, missing;

	ASSERT_LE(0, link);
	ASSERT_LE(0, prog);
	EXPECT_GUARDED(bpf_link_update(link, prog, NULL));
	EXPECT_GUARDED(bpf_link_detach(link));
	close(prog);
	/* At level 0 too: 6.12's LSM links cannot be detached. */
	missing = bpf_hooks_unattached(&total);
	EXPECT_EQ(raised() ? 0 : total - 1, missing);
	close(link);
	EXPECT_EQ(raised() ? 0 : total, bpf_hooks_unattached(&total));
}

TEST_F(bpf, token_create)
{
	union bpf_attr attr = {};
	int fd = open("/sys/fs/bpf", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	attr.token_create.bpffs_fd = fd;
	EXPECT_GUARDED(opened(syscall(SYS_bpf, BPF_TOKEN_CREATE, &attr,
				      sizeof(attr))));
	close(fd);
}

static int do_umount(const char *path, int flags)
{
	return umount2(path, flags);
}

static int do_mount_tmpfs(const char *path, int flags)
{
	return mount("none", path, "tmpfs", MS_NOSUID | flags, NULL);
}

/*
 * @op(@path, @flags) in a mount namespace of its own, its mounts made
 * private (@peer false) so that level 0 loses nothing, or kept peers of
 * the initial namespace's shared ones; -1 with its errno, or 0.
 */
static int in_ns(int (*op)(const char *, int), const char *path, int flags,
		 bool peer)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (unshare(CLONE_NEWNS) ||
		    (!peer && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
				    NULL)))
			_exit(100);
		_exit(op(path, flags) ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return errno = EIO, -1;
	errno = WEXITSTATUS(status);
	return errno ? -1 : 0;
}

static int in_child_ns(int (*op)(const char *, int), const char *path,
		       int flags)
{
	return in_ns(op, path, flags, false);
}

/*
 * In the initial mount namespace the bpffs that holds the pins stays
 * mounted, and nothing above it is lazily detached.  Tried only once
 * raised: at level 0 it would work, and take the backend down.
 */
TEST_F(bpf, umount_bpffs)
{
	if (!raised())
		SKIP(return, "at level 0 this would unpin the backend");
	EXPECT_GUARDED(umount2("/sys/fs/bpf", 0));
	EXPECT_GUARDED(umount2("/sys/fs/bpf", MNT_DETACH));
	EXPECT_GUARDED(umount2("/sys", MNT_DETACH));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
}

/* Another namespace's copies do not hold the pins: they may go. */
TEST_F(bpf, umount_bpffs_other_ns)
{
	EXPECT_EQ(0, in_child_ns(do_umount, "/sys/fs/bpf", 0));
	EXPECT_EQ(0, in_child_ns(do_umount, "/sys", MNT_DETACH));
}

/*
 * An unmount in a namespace that kept the initial one's peers propagates
 * to the host's copies (fs/pnode.c): with /sys shared, as systemd makes
 * every mount, the pins' bpffs would go from the initial namespace too,
 * named or under a lazily detached /sys.
 */
TEST_F(bpf, umount_bpffs_peer_ns)
{
	if (!raised())
		SKIP(return, "at level 0 this would unpin the backend");
	ASSERT_EQ(0, mount(NULL, "/sys", NULL, MS_SHARED, NULL));
	EXPECT_GUARDED(in_ns(do_umount, "/sys/fs/bpf", 0, true));
	EXPECT_GUARDED(in_ns(do_umount, "/sys/fs/bpf", MNT_DETACH, true));
	EXPECT_GUARDED(in_ns(do_umount, "/sys", MNT_DETACH, true));
	EXPECT_TRUE(mounted_at("/sys/fs/bpf"));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
}

/* Keeping the flags it has, as systemd does: nosuid, nodev, noexec. */
static int do_bind_remount_ro(const char *path, int flags)
{
	return mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY |
		     MS_NOSUID | MS_NODEV | MS_NOEXEC | flags, NULL);
}

/* Hiding the pins, or reconfiguring their bpffs. */
TEST_F(bpf, mount_over_pins)
{
	if (raised()) {
		EXPECT_GUARDED(do_mount_tmpfs(BPF_DIR, 0));
		EXPECT_GUARDED(do_mount_tmpfs("/sys/fs/bpf", 0));
	}
	EXPECT_GUARDED(in_child_ns(do_mount_tmpfs, "/sys/fs/bpf", MS_REMOUNT));
	EXPECT_EQ(0, access(hook_pin(), F_OK));
}

/*
 * A mount over the pins in a namespace that kept the initial one's peers
 * propagates there and hides them.  systemd makes every mount shared; in
 * this guest the bpffs is made shared first, with mount_setattr(2), which
 * calls no LSM hook on a stock kernel.
 */
TEST_F(bpf, mount_over_pins_peer_ns)
{
	struct mount_attr attr = { .propagation = MS_SHARED };

	if (!raised())
		SKIP(return, "at level 0 this would hide the host's pins");
	ASSERT_EQ(0, mount_setattr(AT_FDCWD, "/sys/fs/bpf", 0, &attr,
				   sizeof(attr))) TH_LOG("%s", strerror(errno));
	EXPECT_GUARDED(in_ns(do_mount_tmpfs, BPF_DIR, 0, true));
	EXPECT_GUARDED(in_ns(do_mount_tmpfs, "/sys/fs/bpf", 0, true));
	EXPECT_FALSE(mounted_at(BPF_DIR));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
}

/* A child that waits to be killed: its /proc directory vanishes then. */
static pid_t sleeper(char *dir, size_t len)
{
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(dir, len, "/proc/%d", pid);
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#ifndef MOVE_MOUNT_BENEATH
#define MOVE_MOUNT_BENEATH 0x00000200
#endif

/*
 * Moved under a directory that vanishes, a mount is detached without an
 * unmount (fs/dcache.c): the pins' mount and those it hangs under stay
 * where they are, by mount(2) or move_mount(2), and nothing slips beneath
 * them.  mount(2) names what it moves, so from level 1 it moves nothing
 * in the initial namespace on this backend.
 */
TEST_F(bpf, move_pins_under_proc)
{
	char dir[32];
	pid_t pid;
	int fd;

	if (!raised())
		SKIP(return, "at level 0 this would unpin the backend");
	ASSERT_EQ(0, mount(NULL, "/sys", NULL, MS_PRIVATE, NULL));
	pid = sleeper(dir, sizeof(dir));
	ASSERT_LT(0, pid);
	EXPECT_GUARDED(mount("/sys/fs/bpf", dir, NULL, MS_MOVE, NULL));
	EXPECT_GUARDED(mount("/sys", dir, NULL, MS_MOVE, NULL));
	EXPECT_GUARDED(move_mount(AT_FDCWD, "/sys/fs/bpf", AT_FDCWD, dir, 0));
	EXPECT_GUARDED(move_mount(AT_FDCWD, "/sys", AT_FDCWD, dir, 0));
	fd = open_tree(AT_FDCWD, dir, OPEN_TREE_CLONE);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	/* Before 6.5 the kernel itself refuses MOVE_MOUNT_BENEATH (EINVAL). */
	if (move_mount(-1, "", -1, "", MOVE_MOUNT_BENEATH) && errno == EBADF) {
		EXPECT_GUARDED(move_mount(fd, "", AT_FDCWD, "/sys",
					  MOVE_MOUNT_F_EMPTY_PATH |
					  MOVE_MOUNT_BENEATH));
		EXPECT_GUARDED(move_mount(fd, "", AT_FDCWD, "/sys/fs/bpf",
					  MOVE_MOUNT_F_EMPTY_PATH |
					  MOVE_MOUNT_BENEATH));
	}
	close(fd);
	reap(pid);
	EXPECT_TRUE(mounted_at("/sys/fs/bpf"));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
}

/*
 * Other mounts still move at level 1, by move_mount(2), which names the
 * mount it moves; mount(2) with MS_MOVE is refused in the initial
 * namespace.
 */
TEST_F(bpf, move_other_mount)
{
	char base[] = "/tmp/seclvl-moveXXXXXX", from[64], to[64];

	ASSERT_NE(NULL, mkdtemp(base));
	ASSERT_EQ(0, do_mount_tmpfs(base, 0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, mount(NULL, base, NULL, MS_PRIVATE, NULL));
	snprintf(from, sizeof(from), "%s/from", base);
	snprintf(to, sizeof(to), "%s/to", base);
	ASSERT_EQ(0, mkdir(from, 0700));
	ASSERT_EQ(0, mkdir(to, 0700));
	ASSERT_EQ(0, do_mount_tmpfs(from, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_GUARDED(mount(from, to, NULL, MS_MOVE, NULL));
	/* At level 2 the umount restriction refuses every move there. */
	if (raised() && !refused("umount"))
		EXPECT_EQ(0, move_mount(AT_FDCWD, from, AT_FDCWD, to, 0))
			TH_LOG("%s", strerror(errno));
	EXPECT_EQ(!refused("umount"), mounted_at(to));
	umount2(base, MNT_DETACH);
	rmdir(base);
}

/*
 * Removed from a namespace where it is no mount point, the directory the
 * pins' way is mounted on takes its mounts along everywhere.
 */
static int do_umount_rmdir(const char *path, int flags)
{
	return umount2(path, MNT_DETACH) ?: rmdir(path);
}

TEST_F(bpf, detach_pins_mountpoint)
{
	if (!raised())
		SKIP(return, "at level 0 this would unpin the backend");
	EXPECT_GUARDED(in_child_ns(do_umount_rmdir, "/sys", 0));
	EXPECT_TRUE(mounted_at("/sys/fs/bpf"));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
}

/* A filesystem over the way to the pins would hide them. */
TEST_F(bpf, mount_over_pins_path)
{
	if (!raised())
		SKIP(return, "at level 0 this would hide the host's pins");
	EXPECT_GUARDED(do_mount_tmpfs("/sys/fs", 0));
	EXPECT_GUARDED(do_mount_tmpfs("/sys", 0));
	EXPECT_TRUE(mounted_at("/sys/fs/bpf"));
	EXPECT_EQ(0, access(LINK_PIN, F_OK));
	/* Beside the way, mounts come and go. */
	EXPECT_EQ(0, do_mount_tmpfs("/sys/kernel/config", 0))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, umount2("/sys/kernel/config", 0));
}

static int do_pivot_self(const char *path, int flags)
{
	(void)flags;
	if (chdir(path))
		return -1;
	return syscall(SYS_pivot_root, ".", ".");
}

/* pivot_root(2) puts the old root, with the pins, where it is told. */
TEST_F(bpf, pivot_root_host)
{
	int cwd = open(".", O_RDONLY | O_DIRECTORY);

	if (!raised())
		SKIP(return, "at level 0 this would move the host's root");
	EXPECT_GUARDED(do_pivot_self("/", 0));
	EXPECT_EQ(0, fchdir(cwd));
	close(cwd);
	/* In a namespace of its own, the root is its own. */
	EXPECT_NE(EPERM, in_child_ns(do_pivot_self, "/", 0) ? errno : 0);
}

/* Reconfiguring the pins' bpffs, with the new mount API too. */
static int do_fspick_reconfigure(const char *path, int flags)
{
	int fd = fspick(AT_FDCWD, path, 0), ret;

	(void)flags;
	if (fd < 0)
		return -1;
	ret = fsconfig(fd, FSCONFIG_SET_STRING, "mode", "1777", 0);
	if (!ret)
		ret = fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0);
	close(fd);
	return ret;
}

TEST_F(bpf, reconfigure_pins_fs)
{
	EXPECT_GUARDED(do_fspick_reconfigure("/sys/fs/bpf", 0));
	EXPECT_GUARDED(in_child_ns(do_fspick_reconfigure, "/sys/fs/bpf", 0));
}

/*
 * What systemd's ProtectKernelTunables= does in a service's namespace:
 * make one mount of the bpffs read-only.  The pins are untouched.
 */
TEST_F(bpf, bind_remount_ro_other_ns)
{
	EXPECT_EQ(0, in_child_ns(do_bind_remount_ro, "/sys/fs/bpf", 0))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, in_child_ns(do_mount_tmpfs, BPF_DIR, 0))
		TH_LOG("%s", strerror(errno));
}

/* Disabling ftrace would take the hooks' trampolines out. */
TEST_F(bpf, ftrace_disabled)
{
	int err = write_str("/proc/sys/kernel/ftrace_enabled", "0");

	if (raised()) {
		EXPECT_EQ(EPERM, err);
		/* And the hooks still refuse. */
		EXPECT_EQ(-1, syscall(SYS_iopl, 3));
		EXPECT_EQ(EPERM, errno);
	} else {
		EXPECT_EQ(0, err);
	}
	write_str("/proc/sys/kernel/ftrace_enabled", "1");
}

/*
 * Nor through a descriptor opened at level 0 and taken now from the
 * process that holds it, whichever way the write is made.  "1" keeps
 * ftrace on where the write goes through.
 */
TEST_F(bpf, ftrace_disabled_held)
{
	int fd = held_fd(HELD_FTRACE), way;
	char buf[8];

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	for (way = 0; way < WAY_NR; way++) {
		ssize_t ret = write_way(way, fd, "1\n", 2, 0);
		int err = errno;

		if (way == WAY_AIO && !aio_present())
			continue;
		if (raised()) {
			/* A way the file does not take fails before the hook. */
			EXPECT_EQ(-1, ret) TH_LOG("%s", way_names[way]);
			if (way <= WAY_PWRITE)
				EXPECT_EQ(EPERM, err) TH_LOG("%s", way_names[way]);
		} else if (way <= WAY_PWRITE) {
			EXPECT_EQ(2, ret) TH_LOG("%s: %s", way_names[way],
						 strerror(err));
		} else if (ret < 0) {
			EXPECT_NE(EPERM, err) TH_LOG("%s", way_names[way]);
		}
	}
	close(fd);
	ASSERT_LT(0, read_file("/proc/sys/kernel/ftrace_enabled", buf,
			       sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
}

TEST_F(bpf, rename_pin)
{
	int ret = rename(hook_pin(), BPF_DIR "/renamed");

	EXPECT_GUARDED(ret);
	if (!ret)
		EXPECT_EQ(0, rename(BPF_DIR "/renamed", hook_pin()));
}

TEST_F(bpf, rename_pin_dir)
{
	int ret = rename(BPF_DIR, "/sys/fs/bpf/moved");

	EXPECT_GUARDED(ret);
	if (!ret)
		EXPECT_EQ(0, rename("/sys/fs/bpf/moved", BPF_DIR));
}

TEST_F(bpf, replace_pin)
{
	int fd = bpf_obj_get(BPF_RAISE_PIN);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bpf_obj_pin(fd, "/sys/fs/bpf/decoy"));
	close(fd);
	EXPECT_GUARDED(rename("/sys/fs/bpf/decoy", hook_pin()));
	unlink("/sys/fs/bpf/decoy");
}

/* Last: at level 0 this one takes a hook program away for good. */
TEST_F(bpf, unlink_pin)
{
	const char *pin = hook_pin();

	EXPECT_GUARDED(unlink(pin));
	EXPECT_EQ(raised(), !access(pin, F_OK));
}

TEST_HARNESS_MAIN
