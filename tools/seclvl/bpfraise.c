// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF backend's raise above 0, for seclvlctl and seclvl-bpf
 *
 * The loader pins each hook program as "<program>-<kind>", or as
 * "<program>-<kind>_off" when it serves only a restriction that the loaded
 * policy turns off, and attaches none: at level 0 they cost nothing.  A
 * raise above 0 attaches each one that is not off and pins its link as
 * "<program>", then reads the raise iterator of the level it wants, which
 * takes the level up only if it finds each of them attached
 * (seclvl.bpf.c).
 * Concurrent raisers each try every program: the kernel attaches each
 * once (EBUSY for the others), and a raiser that finds one attached waits
 * for the link's pin, or attaches it itself if its attacher died before
 * pinning it.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpfraise.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	enum bpf_attach_type type;
} kinds[] = {
	{ "lsm", BPF_LSM_MAC },
	{ "fentry", BPF_TRACE_FENTRY },
	{ "fexit", BPF_TRACE_FEXIT },
};

/* The suffix the loader pins a hook program of @type with, or NULL. */
const char *bpfraise_kind(enum bpf_attach_type type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].type == type)
			return kinds[i].name;
	return NULL;
}

/**
 * bpfraise_hook_pin - parse the name of a hook program's pin
 * @name: "<program>-<kind>" or "<program>-<kind>_off" (bpffs takes no dot)
 * @type: set to the attach type of <kind>, if not NULL
 * @off: set to whether it is "_off": a raise never attaches it
 *
 * Return: the length of <program>, or 0 if @name is no hook program's pin.
 */
size_t bpfraise_hook_pin(const char *name, enum bpf_attach_type *type,
			 bool *off)
{
	const char *dash = strrchr(name, '-'), *mark;
	size_t i, len;

	if (!dash || dash == name)
		return 0;
	mark = strchr(dash, '_');
	len = mark ? (size_t)(mark - dash - 1) : strlen(dash + 1);
	*off = mark;
	if (mark && strcmp(mark, "_off"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strlen(kinds[i].name) == len &&
		    !strncmp(dash + 1, kinds[i].name, len)) {
			if (type)
				*type = kinds[i].type;
			return dash - name;
		}
	}
	return 0;
}

/*
 * Hook programs that serve one restriction and nothing else (no other
 * restriction, no self-protection): never attached where the policy turns
 * it off.  One of a restriction that applies from level 2 is attached by
 * the first raise all the same: attached later, root at level 1 could
 * attach it first, unpinned, raise to 2 and detach it.
 */
const struct bpf_deferred bpf_deferred_hooks[] = {
	{ "seclvl_settime", "time_backward" },
	{ "seclvl_adjtimex_enter", "time_backward" },
	{ "seclvl_adjtimex_exit", "time_backward" },
	{ "seclvl_inode_create", "setid_bits" },
	{ "seclvl_inode_mknod", "setid_bits" },
};

const size_t bpf_nr_deferred = ARRAY_SIZE(bpf_deferred_hooks);

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int obj_get(const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (unsigned long)path;
	return sys_bpf(BPF_OBJ_GET, &attr);
}

/*
 * Attach the program pinned at @prog_path and pin its link at @link_path.
 * Returns 0, or -errno: -EBUSY when the program is attached already.
 */
static int attach_one(const char *prog_path, const char *link_path,
		      enum bpf_attach_type type)
{
	union bpf_attr attr;
	int prog, link, err = 0;

	prog = obj_get(prog_path);
	if (prog < 0)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = type;
	link = sys_bpf(BPF_LINK_CREATE, &attr);
	if (link < 0) {
		err = -errno;
	} else {
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (unsigned long)link_path;
		attr.bpf_fd = link;
		/* Unpinned, the link goes with its descriptor. */
		if (sys_bpf(BPF_OBJ_PIN, &attr))
			err = -errno;
		close(link);
	}
	close(prog);
	return err;
}

/*
 * Attached by another raiser: wait up to 2 s for its pin, and attach the
 * program again if the link went before it was pinned.
 */
static int attach_or_wait(const char *prog_path, const char *link_path,
			  enum bpf_attach_type type)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int err, i;

	for (i = 0; i < 200; i++) {
		if (!access(link_path, F_OK))
			return 0;
		err = attach_one(prog_path, link_path, type);
		if (err != -EBUSY)
			return err;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

/**
 * bpfraise_attach_hooks - attach every hook program pinned in @dir that is
 * not off
 * @dir: the backend's pin directory
 * @what: set to the name of the program that failed
 * @size: size of @what
 *
 * Return: 0 when each program's link is pinned, or -errno.
 */
int bpfraise_attach_hooks(const char *dir, char *what, size_t size)
{
	char prog_path[PATH_MAX], link_path[PATH_MAX];
	struct dirent *d;
	int err = 0, n = 0;
	bool off;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (!err && (d = readdir(dp))) {
		enum bpf_attach_type type;
		size_t len = bpfraise_hook_pin(d->d_name, &type, &off);

		if (!len || off)
			continue;
		snprintf(what, size, "%.*s", (int)len, d->d_name);
		snprintf(prog_path, sizeof(prog_path), "%s/%s", dir, d->d_name);
		snprintf(link_path, sizeof(link_path), "%s/%s", dir, what);
		err = attach_or_wait(prog_path, link_path, type);
		n++;
	}
	closedir(dp);
	if (!err && !n) {
		snprintf(what, size, "%s", "(none pinned)");
		err = -ENOENT;
	}
	return err;
}

/**
 * bpfraise_raise - take the level above 0 through the raise iterator
 * @dir: the backend's pin directory
 * @level: 1 or 2
 *
 * Return: 0, or -errno: the raise program's (-EPERM, -EBUSY for an open
 * list of module images, -ENOLINK for a hook program not attached) or
 * the read's.
 */
int bpfraise_raise(const char *dir, int level)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/raise%d", dir, level);
	return bpfraise_read_iter(path);
}

/*
 * Read the iterator pinned at @path, which prints one 0 or -errno: returns
 * it, the errno of the read, or -EPROTO for anything else.
 */
int bpfraise_read_iter(const char *path)
{
	char buf[32];
	ssize_t len;
	long ret;
	char *end;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0) {
		len = -errno;
		close(fd);
		return len;
	}
	close(fd);
	buf[len] = '\0';
	errno = 0;
	ret = strtol(buf, &end, 10);
	if (!len || errno || *end != '\n' || ret > 0 || ret < -4095)
		return -EPROTO;
	return ret;
}

static __u32 prog_id_of(int fd, bool link)
{
	struct bpf_link_info li;
	struct bpf_prog_info pi;
	union bpf_attr attr;

	memset(&li, 0, sizeof(li));
	memset(&pi, 0, sizeof(pi));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = link ? sizeof(li) : sizeof(pi);
	attr.info.info = link ? (unsigned long)&li : (unsigned long)&pi;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return 0;
	if (link)
		return li.type == BPF_LINK_TYPE_TRACING ? li.prog_id : 0;
	return pi.id;
}

/**
 * bpfraise_hooks_attached - how many hook programs pinned in @dir that are
 * not off are attached, as the kernel lists its links
 * @dir: the backend's pin directory
 * @total: set to how many of them are pinned
 *
 * Return: the number attached, or -errno.
 */
int bpfraise_hooks_attached(const char *dir, int *total)
{
	__u32 ids[64], id = 0;
	char path[PATH_MAX];
	union bpf_attr attr;
	int n = 0, found = 0, i;
	struct dirent *d;
	bool off;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp)) && n < 64) {
		int fd;

		if (!bpfraise_hook_pin(d->d_name, NULL, &off) || off)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		fd = obj_get(path);
		if (fd < 0)
			continue;
		ids[n] = prog_id_of(fd, false);
		close(fd);
		if (ids[n])
			n++;
	}
	closedir(dp);
	*total = n;
	for (;;) {
		__u32 prog;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_LINK_GET_NEXT_ID, &attr))
			break;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.link_id = id;
		fd = sys_bpf(BPF_LINK_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;
		prog = prog_id_of(fd, true);
		close(fd);
		for (i = 0; i < n; i++) {
			if (ids[i] && ids[i] == prog) {
				ids[i] = 0;
				found++;
			}
		}
	}
	return errno == ENOENT ? found : -errno;
}

/*
 * The programs a kernel may lack, and what is partial without them: the
 * restriction still holds on every other path.  seclvl-bpf load leaves
 * out a program the running kernel has no hook or function for; one
 * missing that is not here fails the load.
 */
const struct bpf_optional bpf_optional_progs[] = {
	/* No file_post_open hook before 6.8. */
	{ "seclvl_file_post_open", "blockdev_write, mounted_blockdev_write",
	  "a disk opened for writing is refused at its first write, not at the open" },
	/* Before 6.2 access ACLs come through inode_setxattr. */
	{ "seclvl_inode_set_acl", NULL, NULL },
	/* No loop driver at the load, or one whose lo_ioctl() is not in BTF. */
	{ "seclvl_loop_ioctl_enter", "mounted_blockdev_write",
	  "a file whose LOOP_CONFIGURE failed keeps the loop driver's mark" },
	{ "seclvl_loop_ioctl_exit", NULL, NULL },
	{ "seclvl_loop_clear", NULL, NULL },
	/* One of the two: the hook gained an idmap argument in 6.3. */
	{ "seclvl_inode_setattr", NULL, NULL },
	{ "seclvl_inode_setattr_noidmap", NULL, NULL },
};

const size_t bpf_nr_optional = ARRAY_SIZE(bpf_optional_progs);

/*
 * Whether the load of @dir left optional program @i out: it made no pin
 * of it ("<name>-<kind>", or with "_off" after it, for a hook program,
 * "<name>" for its link or a watcher's).
 */
bool bpfraise_left_out(const char *dir, size_t i)
{
	const char *prog = bpf_optional_progs[i].prog;
	char path[PATH_MAX];
	size_t k;
	int off;

	snprintf(path, sizeof(path), "%s/%s", dir, prog);
	if (!access(path, F_OK))
		return false;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (off = 0; off < 2; off++) {
			snprintf(path, sizeof(path), "%s/%s-%s%s", dir, prog,
				 kinds[k].name, off ? "_off" : "");
			if (!access(path, F_OK))
				return false;
		}
	}
	return true;
}

/*
 * Whether @restriction is partial under @dir's load; what is not judged
 * in *@missing.
 */
bool bpfraise_partial(const char *dir, const char *restriction,
		      const char **missing)
{
	size_t i, n = strlen(restriction);

	for (i = 0; i < bpf_nr_optional; i++) {
		const char *r = bpf_optional_progs[i].restriction;

		for (; r && *r; r += strspn(r, ", ")) {
			size_t len = strcspn(r, ", ");

			if (len == n && !strncmp(r, restriction, n) &&
			    bpfraise_left_out(dir, i)) {
				*missing = bpf_optional_progs[i].missing;
				return true;
			}
			r += len;
		}
	}
	return false;
}
