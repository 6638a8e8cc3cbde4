// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl-bpf: load the seclvl BPF backend, raise its level, show it
 *
 *   seclvl-bpf load [--level N] [--config FILE] [--policy NAME=1|2|off]...
 *   seclvl-bpf raise N
 *   seclvl-bpf status
 *   seclvl-bpf log
 *
 * "load" checks that the kernel can enforce the programs, loads them,
 * checks that each hook program attaches, pins the programs and the state
 * under /sys/fs/bpf/seclvl, lists the module images of the configuration's
 * "module" lines and exits.  It fails, and leaves nothing behind, when
 * anything would make the backend a silent no-op.  The hook programs are
 * attached by the first raise above 0 (bpfraise.c): until then they cost
 * nothing.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfraise.h"
#include "lsmlist.h"
#include "modsum.h"
#include "seclvl_bpf.h"
#include "seclvl.skel.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BTF_FILE "/sys/kernel/btf/vmlinux"
#define BPF_FS "/sys/fs/bpf"
#define BPF_FS_MAGIC 0xcafe4a11
#define RAISE_PIN SECLVL_PIN_DIR "/raise"
#define RAISE1_PIN SECLVL_PIN_DIR "/raise1"
#define RAISE2_PIN SECLVL_PIN_DIR "/raise2"
#define LEVEL_PIN SECLVL_PIN_DIR "/level"
#define POLICY_PIN SECLVL_PIN_DIR "/policy"
#define DROPPED_PIN SECLVL_PIN_DIR "/dropped"
#define EVENTS_PIN SECLVL_PIN_DIR "/events"
#define MODULES_PIN SECLVL_PIN_DIR "/modules"
#define MODULE_LIST_PIN SECLVL_PIN_DIR "/module_list"
#define MODULE_LOADS_PIN SECLVL_PIN_DIR "/module_loads"
#define LOG_READER_PIN SECLVL_PIN_DIR "/log_reader"
/* As seclvlctl's: module lines in one configuration. */
#define MAX_MODULE_LINES 256

static const struct seclvl_rule rules[SECLVL_NR_RESTRICTIONS] = {
#define SECLVL_RESTRICTION(id, rule_name, rule_level) \
	[SECLVL_##id] = { .name = rule_name, .level = rule_level },
#include "../../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
};

static bool verbose;
static char last_error[256];	/* for the alert of a failed load */

static void error(const char *fmt, ...)
{
	va_list ap;

	fputs("seclvl-bpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

/* libbpf's own messages: its warnings say why a load failed. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bool parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* Everything that would make loaded programs enforce nothing. */
static int check_kernel(void)
{
	char lsms[512], want[600];
	struct statfs fs;
	int ret;

	ret = lsm_read_active(lsms, sizeof(lsms));
	if (ret < 0) {
		error("cannot read %s (%s): mount securityfs there first",
		      LSM_FILE, strerror(-ret));
		return 3;
	}
	if (!lsm_lists(lsms, "bpf")) {
		error("bpf is not an active LSM (%s lists %s): %s", LSM_FILE,
		      lsms, "its programs would load and enforce nothing");
		if (!lsm_with_bpf(lsms, want, sizeof(want)))
			fprintf(stderr, "seclvl-bpf: %s\n  lsm=%s\n%s\n",
				"boot with this parameter (lsm= replaces the whole list, so it names the active ones too):",
				want, "seclvlctl grub-lsm writes it for GRUB");
		return 3;
	}
	if (access(BTF_FILE, R_OK)) {
		error("this kernel has no BTF (%s): it needs CONFIG_DEBUG_INFO_BTF=y",
		      BTF_FILE);
		return 3;
	}
	if (statfs(BPF_FS, &fs) || fs.f_type != BPF_FS_MAGIC) {
		error("no BPF filesystem at %s: mount -t bpf none %s", BPF_FS,
		      BPF_FS);
		return 3;
	}
	return 0;
}

static int map_id(int fd, __u32 *id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*id = info.id;
	return 0;
}

static int set_state(int fd, __u32 slot, __s64 value)
{
	return bpf_map_update_elem(fd, &slot, &value, BPF_ANY) ? -errno : 0;
}

/* A hook program: one that a raise above 0 attaches. */
static bool is_hook(const struct bpf_program *prog)
{
	return bpfraise_kind(bpf_program__expected_attach_type(prog)) &&
	       bpf_program__autoload(prog);
}

/* The loop watchers attach to its functions: opening loop-control loads it. */
static void want_loop_driver(void)
{
	int fd;

	if (!access("/sys/module/loop", F_OK))
		return;
	fd = open("/dev/loop-control", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
}

/* The number of arguments of function @name in @btf, or -1. */
static int func_args(const struct btf *btf, const char *name)
{
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;

	if (id < 0)
		return -1;
	return btf_vlen(btf__type_by_id(btf, btf__type_by_id(btf, id)->type));
}

/* The number of arguments @prog's hook or traced function takes, or -1. */
static int target_args(const struct bpf_program *prog, const struct btf *vm,
		       const struct btf *loop)
{
	const char *sec = bpf_program__section_name(prog);
	const char *fn = strchr(sec, '/');
	char name[128];
	int n;

	if (!fn || !strncmp(sec, "iter/", 5))
		return 0;
	snprintf(name, sizeof(name), "%s%s",
		 strncmp(sec, "lsm/", 4) ? "" : "bpf_lsm_", fn + 1);
	n = func_args(vm, name);
	return n >= 0 ? n : func_args(loop, name);
}

/*
 * Probe the running kernel's BTF for each program's hook or function:
 * leave out what it lacks and say what is partial without it, or fail
 * (-ENOENT) when a program that has no stand-in cannot attach.
 */
static int select_programs(struct seclvl *skel)
{
	struct btf *vm = btf__load_vmlinux_btf(), *loop = NULL;
	struct bpf_program *prog;
	int ret = 0;
	size_t i;

	if (!vm)
		return -errno;
	want_loop_driver();
	if (!access("/sys/kernel/btf/loop", F_OK))
		loop = btf__load_module_btf("loop", vm);
	bpf_object__for_each_program(prog, skel->obj) {
		const char *name = bpf_program__name(prog);
		int n = target_args(prog, vm, loop);
		bool keep = n >= 0;

		if (!strcmp(name, "seclvl_inode_setattr"))
			keep = n == 3;
		else if (!strcmp(name, "seclvl_inode_setattr_noidmap"))
			keep = n == 2;
		if (keep)
			continue;
		bpf_program__set_autoload(prog, false);
		for (i = 0; i < bpf_nr_optional; i++)
			if (!strcmp(name, bpf_optional_progs[i].prog))
				break;
		if (i == bpf_nr_optional) {
			error("this kernel has no %s for %s: %s",
			      bpf_program__section_name(prog), name,
			      "the backend cannot enforce without it");
			ret = -ENOENT;
		} else if (bpf_optional_progs[i].restriction) {
			fprintf(stderr, "seclvl-bpf: partial on this kernel: %s: %s\n",
				bpf_optional_progs[i].restriction,
				bpf_optional_progs[i].missing);
		}
	}
	btf__free(loop);
	btf__free(vm);
	return ret;
}

/*
 * Whether hook program @prog serves only a restriction (bpfraise.c) that
 * the policy loaded turns off: then no raise attaches it.
 */
static bool hook_off(const struct seclvl *skel, const struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog);
	size_t i;
	int r;

	for (i = 0; i < bpf_nr_deferred; i++)
		if (!strcmp(name, bpf_deferred_hooks[i].prog))
			break;
	for (r = 0; i < bpf_nr_deferred && r < SECLVL_NR_RESTRICTIONS; r++)
		if (!strcmp(rules[r].name, bpf_deferred_hooks[i].restriction))
			return skel->rodata->seclvl_rules[r].level > SECLVL_MAX;
	return false;
}

/*
 * Each hook program's id, with its bit in the raise's check that those
 * not off (in *@need) are attached; then no syscall writes.  Returns the
 * number of hook programs or a negative errno.
 */
static int index_hooks(struct seclvl *skel, __u32 *hooks_id, __u64 *need)
{
	int fd = bpf_map__fd(skel->maps.seclvl_hooks);
	struct bpf_program *prog;
	__u32 n = 0;

	*need = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (!is_hook(prog))
			continue;
		if (n == SECLVL_HOOKS_MAX)
			return -E2BIG;
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) ||
		    bpf_map_update_elem(fd, &info.id, &n, BPF_NOEXIST))
			return -errno;
		if (!hook_off(skel, prog))
			*need |= 1ULL << n;
		n++;
	}
	if (bpf_map_freeze(fd))
		return -errno;
	return map_id(fd, hooks_id) ?: (int)n;
}

/*
 * The level, the pin directory and the ids of the maps that the hooks
 * keep from everyone from level 1; then no syscall writes.
 */
static int write_state(struct seclvl *skel, int level)
{
	const struct {
		__u32 slot;
		struct bpf_map *map;
	} ids[] = {
		{ SECLVL_STATE_MAP_ID, skel->maps.seclvl_state },
		{ SECLVL_STATE_DENIALS_ID, skel->maps.seclvl_denials },
		{ SECLVL_STATE_STEPPING_ID, skel->maps.seclvl_stepping_back },
		{ SECLVL_STATE_MODULES_ID, skel->maps.seclvl_modules },
		{ SECLVL_STATE_LOADS_ID, skel->maps.seclvl_module_loads },
		{ SECLVL_STATE_NETLINK_ID, skel->maps.seclvl_netlink_ipc },
		{ SECLVL_STATE_ATTACHED_ID, skel->maps.seclvl_attached },
		{ SECLVL_STATE_EVENTS_ID, skel->maps.seclvl_events },
		{ SECLVL_STATE_LOOP_USERS_ID, skel->maps.seclvl_loop_users },
		{ SECLVL_STATE_LOOP_BEFORE_ID, skel->maps.seclvl_loop_before },
	};
	int fd = bpf_map__fd(skel->maps.seclvl_state);
	__u32 hooks_id = 0, id = 0;
	struct stat st;
	int ret, nr_hooks;
	__u64 need;
	size_t i;

	if (stat(SECLVL_PIN_DIR, &st))
		return -errno;
	nr_hooks = index_hooks(skel, &hooks_id, &need);
	if (nr_hooks < 0)
		return nr_hooks;
	ret = set_state(fd, SECLVL_STATE_LEVEL, level);
	if (!ret)
		ret = set_state(fd, SECLVL_STATE_PIN_INO, st.st_ino);
	if (!ret)
		ret = set_state(fd, SECLVL_STATE_PIN_DEV, st.st_dev);
	if (!ret)
		ret = set_state(fd, SECLVL_STATE_HOOKS_ID, hooks_id);
	if (!ret)
		ret = set_state(fd, SECLVL_STATE_NR_HOOKS, nr_hooks);
	if (!ret)
		ret = set_state(fd, SECLVL_STATE_HOOKS_NEEDED, need);
	for (i = 0; !ret && i < ARRAY_SIZE(ids); i++) {
		ret = map_id(bpf_map__fd(ids[i].map), &id);
		if (!ret)
			ret = set_state(fd, ids[i].slot, id);
	}
	if (!ret && bpf_map_freeze(fd))
		ret = -errno;
	return ret;
}

/* The programs read the clock from the timekeeper: check it here. */
static int check_clock(struct seclvl *skel)
{
	__s64 now = 0;
	/* A syscall program's context is copied back to ctx_in. */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &now,
		    .ctx_size_in = sizeof(now));
	struct timespec ts;
	__s64 real;

	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.seclvl_clock_check),
				   &opts)) {
		int err = errno;

		error("running the clock check: %s", strerror(err));
		return -err;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	real = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (llabs(real - now) > 1000000000LL) {
		error("unsupported kernel: %s %lld s, the kernel %lld s",
		      "the programs read the time as",
		      (long long)(now / 1000000000LL), (long long)ts.tv_sec);
		return -ENOTSUP;
	}
	return 0;
}

/*
 * An iterator's link, pinned: over @map, or over every bpf_link when @map
 * is NULL.  @mode 0644 for the views, readable by all as the in-tree
 * LSM's files are.
 */
static int attach_iter(struct bpf_program *prog, struct bpf_map *map,
		       const char *pin, struct bpf_link **link, mode_t mode)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info info = {};

	if (map) {
		info.map.map_fd = bpf_map__fd(map);
		opts.link_info = &info;
		opts.link_info_len = sizeof(info);
	}
	*link = bpf_program__attach_iter(prog, map ? &opts : NULL);
	if (!*link)
		return -errno;
	if (bpf_link__pin(*link, pin))
		return -errno;
	return chmod(pin, mode) ? -errno : 0;
}

/*
 * Pin each hook program as "<name>-<kind>", with "_off" after it if it
 * serves only a restriction that is off, for the raise to attach or not
 * (bpfraise.c).  With @trial, first check that it attaches, and detach it
 * again: a load at level 0 then fails, rather than the raise to come.
 */
static int pin_hooks(struct seclvl *skel, bool trial)
{
	struct bpf_program *prog;
	char path[PATH_MAX];
	int ret;

	bpf_object__for_each_program(prog, skel->obj) {
		const char *name = bpf_program__name(prog);
		struct bpf_link *link;

		if (!is_hook(prog))
			continue;
		link = trial ? bpf_program__attach(prog) : NULL;
		if (trial && !link) {
			ret = -errno;
			error("attaching %s: %s", name, strerror(-ret));
			return ret;
		}
		bpf_link__destroy(link);
		snprintf(path, sizeof(path), "%s/%s-%s%s", SECLVL_PIN_DIR, name,
			 bpfraise_kind(bpf_program__expected_attach_type(prog)),
			 hook_off(skel, prog) ? "_off" : "");
		ret = bpf_program__pin(prog, path);
		if (ret) {
			error("pinning %s: %s", name, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * Pin the hook programs, the raise program and iterators, the list of
 * module images and the four views.  The iterators' links stay open
 * until the loader exits; by then the pins hold them.
 */
static int pin_all(struct seclvl *skel, struct bpf_link **links, int max,
		   bool trial)
{
	int n = 0, ret;

	if (max < 7)
		return -E2BIG;
	ret = pin_hooks(skel, trial);
	if (ret)
		return ret;
	ret = bpf_program__pin(skel->progs.seclvl_raise, RAISE_PIN);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_raise_1, NULL, RAISE1_PIN,
				  &links[n++], 0600);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_raise_2, NULL, RAISE2_PIN,
				  &links[n++], 0600);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_note_log_reader, NULL,
				  LOG_READER_PIN, &links[n++], 0600);
	if (!ret)
		ret = bpf_map__pin(skel->maps.seclvl_events, EVENTS_PIN);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_show_level,
				  skel->maps.seclvl_state, LEVEL_PIN, &links[n++],
				  0644);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_show_policy,
				  skel->maps.seclvl_denials, POLICY_PIN,
				  &links[n++], 0644);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_show_dropped,
				  skel->maps.seclvl_state, DROPPED_PIN,
				  &links[n++], 0644);
	/* Pinned maps are mode 0600: only root lists modules. */
	if (!ret)
		ret = bpf_map__pin(skel->maps.seclvl_modules, MODULE_LIST_PIN);
	if (!ret)
		ret = bpf_map__pin(skel->maps.seclvl_module_loads,
				   MODULE_LOADS_PIN);
	if (!ret)
		ret = attach_iter(skel->progs.seclvl_show_modules,
				  skel->maps.seclvl_modules, MODULES_PIN,
				  &links[n++], 0644);
	if (ret)
		error("pinning the raise program and the views: %s",
		      strerror(-ret));
	return ret;
}

/* Take down a half-made pin directory: nothing stays half-enforced. */
static void unpin_all(void)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir = opendir(SECLVL_PIN_DIR);

	if (dir) {
		while ((d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", SECLVL_PIN_DIR,
				 d->d_name);
			unlink(path);
		}
		closedir(dir);
	}
	rmdir(SECLVL_PIN_DIR);
}

/*
 * The raise program takes the level above 0 only with the list of module
 * images frozen: freeze it first, when the raise would take it from 0
 * (so that a refused raise leaves the list open).  A failure is left to
 * the raise program to report (-EBUSY): a concurrent raise may have
 * frozen it, and a frozen map no longer opens for writing.
 */
static void freeze_list(int level, int before)
{
	int fd;

	if (level <= 0 || before != 0)
		return;
	fd = bpf_obj_get(MODULE_LIST_PIN);
	if (fd < 0)
		return;
	bpf_map_freeze(fd);
	close(fd);
}

/*
 * Raise from @before: above 0 attach the hook programs and read the raise
 * iterator, else run the pinned raise program.  Returns 0 or a negative
 * errno.
 */
static int raise_to(int level, int before)
{
	struct seclvl_raise_ctx ctx = { .level = level };
	struct bpf_test_run_opts opts = {
		.sz = sizeof(opts),
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
	};
	char what[NAME_MAX + 1] = "";
	int fd, ret;

	if (level > 0) {
		/* Not for a raise that cannot go up: it would refuse anyway. */
		if (before >= 0 && before < level)
			ret = bpfraise_attach_hooks(SECLVL_PIN_DIR, what,
						    sizeof(what));
		else
			ret = 0;
		if (ret) {
			error("attaching %s: %s", what, strerror(-ret));
			return ret;
		}
		return bpfraise_raise(SECLVL_PIN_DIR, level);
	}
	fd = bpf_obj_get(RAISE_PIN);
	if (fd < 0)
		return -errno;
	ret = bpf_prog_test_run_opts(fd, &opts) ? -errno : (int)opts.retval;
	close(fd);
	return ret;
}

/* A pinned view's first line, without its newline; false if unreadable. */
static bool read_view(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return false;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static int read_level(void)
{
	char buf[16];
	int level;

	if (!read_view(LEVEL_PIN, buf, sizeof(buf)))
		return INT_MIN;
	return parse_int(buf, SECLVL_MIN, SECLVL_MAX, &level) ? level : INT_MIN;
}

/*
 * One record in the kernel log, one write(2): /dev/kmsg cannot take a
 * FILE's seeks.  Unless booted with printk.devkmsg=on, the kernel takes 10
 * records every 5 s from each open file and drops the rest, so each record
 * gets an open of its own; the log reader limits its lines itself.
 */
static void kmsg_write(const char *msg, int len)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, msg, len) != len)
		error("could not log to /dev/kmsg: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * Loads, changes of level and the log reader's records go to the kernel
 * log, as the LSM's do; journald takes them from there.
 */
static void log_kernel(const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(msg))
		len = sizeof(msg) - 1;
	kmsg_write(msg, len);
}

/*
 * A load that failed leaves the machine without secure levels: say so at
 * alert priority in the kernel log, and in BPF_FAILED_FILE for seclvlctl.
 */
static void not_enforcing(void)
{
	FILE *f;

	log_kernel("<1>seclvl-bpf: NOT ENFORCING: the load failed: %s\n",
		   last_error);
	fprintf(stderr, "seclvl-bpf: NOT ENFORCING: %s\n",
		"no secure level is in force on this boot");
	f = fopen(BPF_FAILED_FILE, "we");
	if (!f)
		return;
	fprintf(f, "%s\n", last_error);
	if (fclose(f))
		error("writing %s: %s", BPF_FAILED_FILE, strerror(errno));
}

static void log_load(int level)
{
	log_kernel("seclvl-bpf: loaded at level %d (pid %d)\n", level, getpid());
}

/* One policy row, from --policy or a seclvl.conf line. */
static int set_policy(const char *name, const char *value, int *rule_level)
{
	int r, level;

	for (r = 0; r < SECLVL_NR_RESTRICTIONS; r++)
		if (!strcmp(rules[r].name, name))
			break;
	if (r == SECLVL_NR_RESTRICTIONS) {
		error("no restriction named '%s'", name);
		return -1;
	}
	if (!strcmp(value, "off")) {
		level = SECLVL_OFF;
	} else if (!parse_int(value, 1, SECLVL_MAX, &level)) {
		error("invalid level '%s' for %s: use 1, 2 or off", value, name);
		return -1;
	}
	rule_level[r] = level;
	return 0;
}

static int parse_policy(const char *arg, int *rule_level)
{
	char name[SECLVL_NAME_MAX];
	const char *eq = strchr(arg, '=');

	if (!eq || (size_t)(eq - arg) >= sizeof(name)) {
		error("--policy takes NAME=1, NAME=2 or NAME=off, not '%s'", arg);
		return -1;
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	return set_policy(name, eq + 1, rule_level);
}

/* The module lines of a seclvl.conf: files or sha256:HEX. */
struct module_lines {
	char line[MAX_MODULE_LINES][PATH_MAX];
	int nr;
};

/*
 * The policy and module lines of a seclvl.conf (seclvlctl(8));
 * seclvlctl apply reads the rest of it, and checks it all, after the
 * backend is loaded.
 */
static int read_config(const char *path, int *rule_level,
		       struct module_lines *mods)
{
	char line[4096], kw[16], name[64], value[16], extra[2];
	int n = 0, fields, ret = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		error("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		n++;
		line[strcspn(line, "#\n")] = '\0';
		fields = sscanf(line, "%15s %63s %15s %1s", kw, name, value, extra);
		if (fields > 0 && !strcmp(kw, "module")) {
			char m[PATH_MAX], more[2];

			if (sscanf(line, "%*s %4095s %1s", m, more) != 1 ||
			    (!is_digest(m) &&
			     (m[0] != '/' || !is_module_file(m)))) {
				error("%s:%d: expected 'module FILE' (an absolute path to a %s) %s",
				      path, n, ".ko, .ko.xz, .ko.zst or .ko.gz",
				      "or 'module sha256:HEX'");
				ret = -1;
			} else if (mods->nr == MAX_MODULE_LINES) {
				error("%s:%d: more than %d module lines", path, n,
				      MAX_MODULE_LINES);
				ret = -1;
			} else {
				snprintf(mods->line[mods->nr++], PATH_MAX, "%s", m);
			}
			continue;
		}
		if (fields <= 0 || strcmp(kw, "policy"))
			continue;
		if (fields != 3) {
			error("%s:%d: expected 'policy NAME 1|2|off'", path, n);
			ret = -1;
			break;
		}
		ret = set_policy(name, value, rule_level);
	}
	fclose(f);
	return ret;
}

/* One entry of the list; one already there counts as done. */
static int list_digest(int fd, const char *hex, const char *name)
{
	__u8 key[SECLVL_DIGEST_SIZE];
	struct seclvl_module value = {};
	unsigned int i, byte;

	for (i = 0; i < sizeof(key); i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return -EINVAL;
		key[i] = byte;
	}
	snprintf(value.name, sizeof(value.name), "%s", name);
	if (bpf_map_update_elem(fd, key, &value, BPF_NOEXIST) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The digest of the file @path as it is; 0 or a negative errno. */
static int file_digest(const char *path, char hex[SHA256_HEX + 1])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = -digest_fd(fd, hex);
	close(fd);
	return ret;
}

/*
 * The configuration's module lines, as seclvlctl modules pin lists them:
 * a file by its digest, and a compressed one also by its image's.
 */
static int list_modules(struct seclvl *skel, const struct module_lines *mods)
{
	int fd = bpf_map__fd(skel->maps.seclvl_modules), i, ret = 0;
	char hex[SHA256_HEX + 1], name[SECLVL_MODULE_NAME_LEN];
	const char *m, *tool;

	for (i = 0; !ret && i < mods->nr; i++) {
		m = mods->line[i];
		if (is_digest(m)) {
			ret = list_digest(fd, m + 7, "");
			continue;
		}
		module_name(m, name, sizeof(name));
		tool = decompressor(m);
		ret = file_digest(m, hex);
		if (!ret)
			ret = list_digest(fd, hex, name);
		if (!ret && tool) {
			ret = -digest_decompressed(m, tool, hex);
			if (!ret)
				ret = list_digest(fd, hex, name);
		}
		if (ret)
			error("listing the module image %s: %s%s", m, strerror(-ret),
			      tool && ret == -ENOENT ? " (or its decompressor)" : "");
	}
	if (!ret && mods->nr)
		printf("seclvl-bpf: %d module lines listed\n", mods->nr);
	return ret;
}

static int cmd_load(int argc, char **argv)
{
	int rule_level[SECLVL_NR_RESTRICTIONS], level = 0, ret, i;
	static struct module_lines mods;
	struct bpf_link *links[8] = {};
	struct seclvl *skel;

	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++)
		rule_level[i] = -1;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--level") && i + 1 < argc) {
			if (!parse_int(argv[++i], SECLVL_MIN, SECLVL_MAX, &level)) {
				error("invalid level '%s': levels are -1, 0, 1 and 2",
				      argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			if (read_config(argv[++i], rule_level, &mods))
				return 2;
		} else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
			if (parse_policy(argv[++i], rule_level))
				return 2;
		} else {
			error("load: unknown or incomplete option '%s'", argv[i]);
			return 2;
		}
	}
	ret = check_kernel();
	if (ret)
		return ret;
	if (!access(SECLVL_PIN_DIR, F_OK)) {
		error("already loaded (%s exists): use 'seclvl-bpf raise'",
		      SECLVL_PIN_DIR);
		return 1;
	}

	skel = seclvl__open();
	if (!skel) {
		error("opening the BPF object: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++)
		if (rule_level[i] >= 0)
			skel->rodata->seclvl_rules[i].level = rule_level[i];
	bpf_program__set_autoattach(skel->progs.seclvl_show_level, false);
	bpf_program__set_autoattach(skel->progs.seclvl_show_policy, false);
	bpf_program__set_autoattach(skel->progs.seclvl_show_dropped, false);
	bpf_program__set_autoattach(skel->progs.seclvl_show_modules, false);
	bpf_program__set_autoattach(skel->progs.seclvl_raise_1, false);
	bpf_program__set_autoattach(skel->progs.seclvl_raise_2, false);
	bpf_program__set_autoattach(skel->progs.seclvl_note_log_reader, false);
	ret = select_programs(skel);
	if (ret)
		goto out;
	ret = seclvl__load(skel);
	if (ret) {
		error("loading the programs: %s (%s)", strerror(-ret),
		      "this kernel lacks a hook, a symbol or a type they need");
		goto out;
	}
	ret = check_clock(skel);
	if (ret)
		goto out;
	if (mkdir(SECLVL_PIN_DIR, 0755) || chmod(SECLVL_PIN_DIR, 0755)) {
		ret = -errno;
		error("mkdir %s: %s", SECLVL_PIN_DIR, strerror(-ret));
		goto out;
	}
	/*
	 * Up at 0 (or -1), so that a failure can still take the pins down;
	 * raised, as any raise, once all is in place.
	 */
	ret = write_state(skel, level > 0 ? 0 : level);
	if (ret) {
		error("setting up the state map: %s", strerror(-ret));
		goto out;
	}
	/* A raise above 0 attaches the hooks right away. */
	ret = pin_all(skel, links, ARRAY_SIZE(links), level <= 0);
	if (!ret)
		ret = list_modules(skel, &mods);
	if (!ret && level > 0) {
		freeze_list(level, 0);
		ret = raise_to(level, 0);
		if (ret)
			error("raising to %d: %s", level, strerror(-ret));
	}
	if (ret)
		goto out;
	if (read_level() != level) {
		error("the pinned level reads %d, not %d", read_level(), level);
		ret = -EIO;
		goto out;
	}
	log_load(level);
	unlink(BPF_FAILED_FILE);
	printf("seclvl-bpf: loaded, level %d\n", level);
out:
	if (ret)
		unpin_all();
	for (i = 0; i < (int)ARRAY_SIZE(links); i++)
		bpf_link__destroy(links[i]);
	seclvl__destroy(skel);
	return ret ? 1 : 0;
}

static int cmd_raise(const char *arg)
{
	int level, before, ret;

	if (!parse_int(arg, INT_MIN, INT_MAX, &level) || level < SECLVL_MIN ||
	    level > SECLVL_MAX) {
		error("invalid level '%s': levels are -1, 0, 1 and 2", arg);
		return 2;
	}
	before = read_level();
	if (before == INT_MIN) {
		error("not loaded (no %s): run 'seclvl-bpf load' first", LEVEL_PIN);
		return 3;
	}
	freeze_list(level, before);
	ret = raise_to(level, before);
	if (ret == -ENOLINK) {
		error("level %d refused: a hook program is not attached", level);
		return 1;
	}
	if (ret == -EBUSY) {
		error("level %d refused: the list of module images (%s) %s",
		      level, MODULE_LIST_PIN, "could not be frozen");
		return 1;
	}
	if (ret == -EPERM) {
		error("level %d refused: the level is %d%s", level, read_level(),
		      before < 0 ? ", which cannot be raised" :
		      " and can only go up (reboot to lower it)");
		return 1;
	}
	if (ret) {
		error("raising to %d: %s", level, strerror(-ret));
		return 1;
	}
	return 0;
}

/* What the load left out on this kernel: partial restrictions. */
static void print_partial(void)
{
	size_t i;

	for (i = 0; i < bpf_nr_optional; i++)
		if (bpf_optional_progs[i].restriction &&
		    bpfraise_left_out(SECLVL_PIN_DIR, i))
			printf("partial: %s: %s\n",
			       bpf_optional_progs[i].restriction,
			       bpf_optional_progs[i].missing);
}

static int cmd_status(void)
{
	char buf[4096];
	ssize_t len;
	int fd, level = read_level(), attached, total;

	if (level == INT_MIN) {
		printf("seclvl-bpf: not loaded\n");
		return 3;
	}
	printf("level %d\n", level);
	attached = bpfraise_hooks_attached(SECLVL_PIN_DIR, &total);
	if (attached < 0)
		printf("hooks: cannot tell (%s)\n", strerror(-attached));
	else
		printf("hooks: %d of %d attached%s\n", attached, total,
		       attached == total ? "" : level > 0 ? ": NOT ENFORCED" :
		       " (from the first raise above 0)");
	print_partial();
	fd = open(POLICY_PIN, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	while ((len = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, len, stdout);
	close(fd);
	return len < 0;
}

/* The names of system calls by number, from the C library's headers. */
static const char *const syscall_names[] = {
#include "syscalls.h"
};

/* Refusals are logged as the LSM's are: at most 10 per 5 s per restriction. */
#define LOG_INTERVAL_NS (5 * 1000000000LL)
#define LOG_BURST 10
/* How often the reader looks for windows to close and lost events. */
#define LOG_IDLE_MS 1000

struct log_limit {
	long long begin;	/* of the window, CLOCK_MONOTONIC ns */
	int printed;
	long missed;
};

struct log_state {
	struct log_limit limits[SECLVL_NR_RESTRICTIONS];
	long long dropped;	/* lost events already reported */
	long long idle;		/* when log_idle() last looked */
};

static long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Close @r's window if it is over, saying how many it left out. */
static void log_window_end(struct log_state *st, int r, long long now)
{
	struct log_limit *l = &st->limits[r];

	if (l->begin && now - l->begin < LOG_INTERVAL_NS)
		return;
	if (l->missed)
		log_kernel("<5>seclvl-bpf: %ld more refusals of %s not logged (rate limit)\n",
			   l->missed, rules[r].name);
	l->begin = 0;
	l->printed = 0;
	l->missed = 0;
}

/* The events the full ring buffer lost since the load, or -1. */
static long long read_dropped(void)
{
	char buf[32];

	return read_view(DROPPED_PIN, buf, sizeof(buf)) ? atoll(buf) : -1;
}

/*
 * Between events: end the windows that are over, and say how many events
 * the full ring buffer lost since the last look.
 */
static void log_idle(struct log_state *st)
{
	long long now = monotonic_ns(), dropped;
	int r;

	if (now - st->idle < LOG_IDLE_MS * 1000000LL)
		return;
	st->idle = now;
	dropped = read_dropped();
	for (r = 0; r < SECLVL_NR_RESTRICTIONS; r++)
		log_window_end(st, r, now);
	if (dropped < 0)
		return;
	if (st->dropped >= 0 && dropped > st->dropped)
		log_kernel("<4>seclvl-bpf: %lld events not logged: %s\n",
			   dropped - st->dropped,
			   "the event buffer was full (the counts stay exact)");
	st->dropped = dropped;
}

/* Whether this refusal may be logged now; says what the last window lost. */
static bool log_allowed(struct log_state *st, int r)
{
	struct log_limit *l = &st->limits[r];
	long long now = monotonic_ns();

	log_window_end(st, r, now);
	if (!l->begin)
		l->begin = now;
	if (l->printed < LOG_BURST) {
		l->printed++;
		return true;
	}
	l->missed++;
	return false;
}

/* A module image refused by its digest, worded as the LSM's. */
static int log_module(const void *data, size_t size, const char *comm)
{
	const struct seclvl_module_event *me = data;
	char file[sizeof(me->file) + 1], hex[2 * SECLVL_DIGEST_SIZE + 1];
	char what[sizeof(file) + sizeof(hex) + 48];
	int i;

	if (size < sizeof(*me))
		return 0;
	memcpy(file, me->file, sizeof(me->file));
	file[sizeof(me->file)] = '\0';
	for (i = 0; i < SECLVL_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", me->digest[i]);
	snprintf(what, sizeof(what), "module load %s%s, sha256:%s, not listed",
		 file[0] ? "of " : "from memory", file, hex);
	log_kernel("<5>seclvl-bpf: denied %s at level %d: %s (pid %u comm %s)\n",
		   rules[me->e.a].name, me->e.b, what, me->e.pid, comm);
	return 0;
}

static int log_event(void *ctx, void *data, size_t size)
{
	const struct seclvl_event *e = data;
	struct log_state *st = ctx;
	char comm[sizeof(e->comm) + 1], call[48];

	if (size < sizeof(*e))
		return 0;
	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = '\0';
	if (e->kind == SECLVL_EVENT_LEVEL) {
		log_kernel("<5>seclvl-bpf: level changed from %d to %d (pid %u comm %s)\n",
			   e->a, e->b, e->pid, comm);
		return 0;
	}
	if ((e->kind != SECLVL_EVENT_DENIED && e->kind != SECLVL_EVENT_MODULE) ||
	    e->a < 0 || e->a >= SECLVL_NR_RESTRICTIONS || !log_allowed(st, e->a))
		return 0;
	if (e->kind == SECLVL_EVENT_MODULE)
		return log_module(data, size, comm);
	if (e->syscall >= 0 && e->syscall < (long long)ARRAY_SIZE(syscall_names) &&
	    syscall_names[e->syscall])
		snprintf(call, sizeof(call), "%s()", syscall_names[e->syscall]);
	else if (e->syscall >= 0)
		snprintf(call, sizeof(call), "system call %lld", (long long)e->syscall);
	else
		snprintf(call, sizeof(call), "a kernel thread");
	log_kernel("<5>seclvl-bpf: denied %s at level %d: %s (pid %u comm %s)\n",
		   rules[e->a].name, e->b, call, e->pid, comm);
	return 0;
}

/*
 * Have the backend note this process as the log reader, which from level
 * 1 nobody may attach to.  Only at level 0: say so if it is too late.
 */
static void note_log_reader(void)
{
	if (bpfraise_read_iter(LOG_READER_PIN))
		fprintf(stderr, "seclvl-bpf: %s: %s\n", LOG_READER_PIN,
			"not noted as the log reader (started above level 0?): from level 1 it is not kept from ptrace");
}

/*
 * Put the programs' refusals and changes of level in the kernel log until
 * killed: the BPF programs cannot printk themselves.
 */
static int cmd_log(void)
{
	struct log_state st = {};
	struct ring_buffer *rb;
	int fd, ret;

	fd = bpf_obj_get(EVENTS_PIN);
	if (fd < 0 && errno == EPERM) {
		error("%s: from level 1 no new reader may take the events (%s)",
		      EVENTS_PIN, "start it before the raise; the counts in seclvlctl stay exact");
		return 3;
	}
	if (fd < 0) {
		error("not loaded (no %s): run 'seclvl-bpf load' first", EVENTS_PIN);
		return 3;
	}
	if (access("/dev/kmsg", W_OK)) {
		error("cannot write /dev/kmsg: %s", strerror(errno));
		close(fd);
		return 1;
	}
	note_log_reader();
	rb = ring_buffer__new(fd, log_event, &st, NULL);
	if (!rb) {
		error("reading %s: %s", EVENTS_PIN, strerror(errno));
		close(fd);
		return 1;
	}
	/* Events lost before this reader started are not its to tell. */
	st.dropped = read_dropped();
	do {
		ret = ring_buffer__poll(rb, LOG_IDLE_MS);
		log_idle(&st);
	} while (ret >= 0 || ret == -EINTR);
	error("reading %s: %s", EVENTS_PIN, strerror(-ret));
	ring_buffer__free(rb);
	close(fd);
	return 1;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: seclvl-bpf load [--level N] [--config FILE] [--policy NAME=1|2|off]...\n"
		"       seclvl-bpf raise N\n"
		"       seclvl-bpf status\n"
		"       seclvl-bpf log        put refusals and level changes in the kernel log\n"
		"       seclvl-bpf [-v] ...   show libbpf's debug messages\n"
		"exit: 0 done, 1 refused or failed, 2 bad usage or value,\n"
		"      3 the kernel cannot run the backend, or it is not loaded\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	if (i < argc && !strcmp(argv[i], "-v")) {
		verbose = true;
		i++;
	}
	libbpf_set_print(libbpf_print);
	if (i < argc && !strcmp(argv[i], "load")) {
		int ret = cmd_load(argc - i - 1, argv + i + 1);

		if (ret && access(SECLVL_PIN_DIR, F_OK))
			not_enforcing();
		return ret;
	}
	if (i + 2 == argc && !strcmp(argv[i], "raise"))
		return cmd_raise(argv[i + 1]);
	if (i + 1 == argc && !strcmp(argv[i], "status"))
		return cmd_status();
	if (i + 1 == argc && !strcmp(argv[i], "log"))
		return cmd_log();
	if (i + 1 == argc && !strcmp(argv[i], "--help")) {
		print_usage(stdout);
		return 0;
	}
	print_usage(stderr);
	return 2;
}
