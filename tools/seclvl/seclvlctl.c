// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvlctl - show and change the secure level, the policy and the escape
 *
 * A front end to /sys/kernel/security/seclvl that says in words what the
 * kernel's errno means, and a preflight check of what a raise would refuse.
 * See seclvlctl(8) for the exit codes.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bpf.h>

/* MS_* are <sys/mount.h>'s; mountrules.h also names the kernel's mount flag */
#include <sys/mount.h>
#define MNT_NOSUID 0x01
#include "../../security/seclvl/mountrules.h"
#include "../../security/seclvl/levels.h"

#include "bpfraise.h"
#include "lsmlist.h"
#include "modsum.h"
#include "seclvlctl.h"
#include "sha256.h"

#define SECLVL_DIR "/sys/kernel/security/seclvl"
/* The BPF backend (seclvl-bpf) on a kernel without the LSM. */
#define BPF_DIR "/sys/fs/bpf/seclvl"
#define MAX_RULES 64
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MODULES_FILE SECLVL_DIR "/modules"
/* The BPF backend's list of module images: its view, and the map. */
#define BPF_MODULES_FILE BPF_DIR "/modules"
#define BPF_MODULE_LIST BPF_DIR "/module_list"
#define BPF_MODULE_LOADS BPF_DIR "/module_loads"
/* Events the BPF backend's ring buffer had no room for. */
#define BPF_DROPPED_FILE BPF_DIR "/dropped"
#define DIGEST_SIZE 32
#define MODULE_NAME_LEN 56	/* struct seclvl_module, bpf/seclvl_bpf.h */
#define MAX_MODULE_LINES 64

struct rule {
	char name[64];
	char level[8];		/* "1", "2" or "off" */
	long denials;
};

struct state {
	bool bpf;		/* the BPF backend, not the in-tree LSM */
	int level;
	struct rule rules[MAX_RULES];
	int nr_rules;
	char escape[4096];	/* empty if none */
	bool escape_readable;	/* root only */
	long long dropped;	/* log events lost; the LSM logs as it refuses */
};

static const char *prog = "seclvlctl";

static const char *level_name(int level)
{
	switch (level) {
	case -1: return "permanently insecure";
	case 0: return "insecure";
	case 1: return "secure";
	case 2: return "highly secure";
	default: return "unknown";
	}
}

void error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Explain why seclvl's files are missing; returns EXIT_UNAVAILABLE. */
/* Why the BPF backend's last load failed, or "" if it did not. */
static void bpf_failure(char *buf, size_t size)
{
	FILE *f = fopen(BPF_FAILED_FILE, "re");

	buf[0] = '\0';
	if (f && !fgets(buf, size, f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * No backend: nothing is enforced, whatever /etc/seclvl.conf says.  The
 * first line, on standard output, is what a monitor or a glance looks for.
 */
static int unavailable(void)
{
	char lsm[512] = "", failed[256];
	FILE *f;

	printf("NOT ENFORCING: no secure level is in force on this boot\n");
	fflush(stdout);
	bpf_failure(failed, sizeof(failed));
	if (failed[0])
		error("the BPF backend did not load: %s", failed);
	f = fopen(LSM_FILE, "re");
	if (f) {
		if (!fgets(lsm, sizeof(lsm), f))
			lsm[0] = '\0';
		fclose(f);
		lsm[strcspn(lsm, "\n")] = '\0';
		error("seclvl is not active in this kernel: %s lists \"%s\".\n"
		      "Build the kernel with CONFIG_SECURITY_SECLVL=y and name seclvl in\n"
		      "CONFIG_LSM or in the lsm= boot parameter (cat /proc/cmdline),\n"
		      "or, where bpf is listed, load the BPF backend: seclvl-bpf load.",
		      LSM_FILE, lsm);
	} else {
		error("%s is missing: securityfs is not mounted on\n"
		      "/sys/kernel/security (mount -t securityfs none\n"
		      "/sys/kernel/security), or this kernel has no LSM support.",
		      LSM_FILE);
	}
	return EXIT_UNAVAILABLE;
}

static ssize_t read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

/* One write of @text; returns 0 or the errno. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(text);

	if (fd < 0)
		return errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* The list of module images to read: the LSM's, or the BPF backend's. */
static const char *modules_file = MODULES_FILE;

/* Whether either backend is active: the LSM's files, or the pinned level. */
static bool backend_loaded(void)
{
	return !access(SECLVL_DIR, F_OK) || !access(BPF_DIR "/level", F_OK);
}

static int load_state(struct state *st)
{
	char buf[8192], *line, *save = NULL;
	const char *dir = SECLVL_DIR;

	if (!backend_loaded())
		return unavailable();
	st->bpf = access(SECLVL_DIR, F_OK) != 0;
	if (st->bpf) {
		dir = BPF_DIR;
		modules_file = BPF_MODULES_FILE;
	}
	snprintf(buf, sizeof(buf), "%s/level", dir);
	if (read_text(buf, buf, sizeof(buf)) <= 0) {
		error("cannot read %s/level: %s", dir, strerror(errno));
		return EXIT_IO;
	}
	st->level = atoi(buf);
	snprintf(buf, sizeof(buf), "%s/policy", dir);
	if (read_text(buf, buf, sizeof(buf)) <= 0) {
		error("cannot read %s/policy: %s", dir, strerror(errno));
		return EXIT_IO;
	}
	st->nr_rules = 0;
	for (line = strtok_r(buf, "\n", &save);
	     line && st->nr_rules < MAX_RULES;
	     line = strtok_r(NULL, "\n", &save)) {
		struct rule *r = &st->rules[st->nr_rules];

		if (sscanf(line, "%63s %7s %ld", r->name, r->level,
			   &r->denials) == 3)
			st->nr_rules++;
	}
	st->dropped = 0;
	if (st->bpf) {
		if (read_text(BPF_DROPPED_FILE, buf, sizeof(buf)) <= 0) {
			error("cannot read %s: %s", BPF_DROPPED_FILE,
			      strerror(errno));
			return EXIT_IO;
		}
		st->dropped = atoll(buf);
	}
	/* The BPF backend has no escape. */
	st->escape[0] = '\0';
	st->escape_readable = st->bpf ||
			      read_text(SECLVL_DIR "/escape", st->escape,
					sizeof(st->escape)) >= 0;
	st->escape[strcspn(st->escape, "\n")] = '\0';
	return EXIT_OK;
}

/* A policy row's level: 1, 2, or SECLVL_OFF for "off". */
static int rule_level(const struct rule *r)
{
	return strcmp(r->level, "off") ? atoi(r->level) : SECLVL_OFF;
}

static bool rule_active(const struct state *st, const struct rule *r)
{
	return seclvl_rule_applies(st->level, rule_level(r));
}

static void show(const struct state *st)
{
	int i, partial = 0;

	printf("secure level: %d (%s)\n", st->level, level_name(st->level));
	printf("enforced by: %s\n\n", st->bpf ? "the BPF backend (seclvl-bpf)" :
						 "the in-tree LSM");
	printf("%-26s %-5s %-6s %s\n", "restriction", "level", "active",
	       "denials");
	for (i = 0; i < st->nr_rules; i++) {
		const struct rule *r = &st->rules[i];

		printf("%-26s %-5s %-6s %ld\n", r->name, r->level,
		       rule_active(st, r) ? "yes" : "no", r->denials);
	}
	for (i = 0; st->bpf && i < st->nr_rules; i++) {
		const char *missing;

		if (bpfraise_partial(BPF_DIR, st->rules[i].name, &missing))
			printf("%spartial on this kernel: %s: %s\n",
			       partial++ ? "" : "\n", st->rules[i].name,
			       missing);
	}
	if (!st->escape_readable)
		printf("\nescape: unknown (only root can read it)\n");
	else
		printf("\nescape: %s\n", st->escape[0] ? st->escape : "none");
	if (st->dropped)
		printf("events not logged (the log reader fell behind): %lld\n",
		       st->dropped);
}

/* A JSON string: the escape's path may hold any byte. */
void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void show_json(const struct state *st)
{
	const char *missing;
	int i;

	printf("{\"enforcing\": true, \"level\": %d, \"name\": ", st->level);
	json_string(level_name(st->level));
	printf(", \"backend\": \"%s\"", st->bpf ? "bpf" : "lsm");
	printf(", \"restrictions\": [");
	for (i = 0; i < st->nr_rules; i++) {
		const struct rule *r = &st->rules[i];

		printf("%s{\"name\": ", i ? ", " : "");
		json_string(r->name);
		if (strcmp(r->level, "off"))
			printf(", \"level\": %s", r->level);
		else
			printf(", \"level\": null");
		printf(", \"active\": %s, \"denials\": %ld",
		       rule_active(st, r) ? "true" : "false", r->denials);
		/* Only where the BPF backend's kernel lacks a hook for it. */
		if (st->bpf && bpfraise_partial(BPF_DIR, r->name, &missing)) {
			printf(", \"partial\": ");
			json_string(missing);
		}
		putchar('}');
	}
	printf("], \"escape\": ");
	if (st->escape[0])
		json_string(st->escape);
	else
		printf("null");
	printf(", \"escape_readable\": %s, \"events_dropped\": %lld}\n",
	       st->escape_readable ? "true" : "false", st->dropped);
}

static int show_json_unavailable(void)
{
	char failed[256];

	bpf_failure(failed, sizeof(failed));
	printf("{\"enforcing\": false, \"level\": null, \"bpf_load_error\": ");
	if (failed[0])
		json_string(failed);
	else
		printf("null");
	printf("}\n");
	return EXIT_UNAVAILABLE;
}

/* One metric's HELP and TYPE lines, as the exposition format has them. */
static void metric_head(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * seclvlctl metrics: the state in Prometheus's text format, for
 * node_exporter's textfile collector.  Not enforcing is a value, not an
 * error, so that the file a timer writes always says it.
 */
static int cmd_metrics(void)
{
	struct state st;
	int i;

	metric_head("seclvl_enforcing", "gauge",
		    "Whether a secure level is in force on this boot (1) or not (0).");
	if (!backend_loaded()) {
		printf("seclvl_enforcing 0\n");
		return EXIT_OK;
	}
	if (load_state(&st))
		return EXIT_IO;
	printf("seclvl_enforcing 1\n");
	metric_head("seclvl_backend_info", "gauge",
		    "What enforces the level: the in-tree LSM or the BPF backend.");
	printf("seclvl_backend_info{backend=\"%s\"} 1\n", st.bpf ? "bpf" : "lsm");
	metric_head("seclvl_level", "gauge", "The secure level: -1, 0, 1 or 2.");
	printf("seclvl_level %d\n", st.level);
	metric_head("seclvl_restriction_level", "gauge",
		    "The lowest level a restriction applies at; 3 if it is off.");
	for (i = 0; i < st.nr_rules; i++)
		printf("seclvl_restriction_level{restriction=\"%s\"} %d\n",
		       st.rules[i].name, rule_level(&st.rules[i]));
	metric_head("seclvl_restriction_active", "gauge",
		    "Whether a restriction refuses at the current level.");
	for (i = 0; i < st.nr_rules; i++)
		printf("seclvl_restriction_active{restriction=\"%s\"} %d\n",
		       st.rules[i].name, rule_active(&st, &st.rules[i]));
	metric_head("seclvl_denials_total", "counter",
		    "Refusals since boot, exact.");
	for (i = 0; i < st.nr_rules; i++)
		printf("seclvl_denials_total{restriction=\"%s\"} %ld\n",
		       st.rules[i].name, st.rules[i].denials);
	metric_head("seclvl_events_dropped_total", "counter",
		    "Refusals and level changes the BPF backend could not log; the counts stay exact.");
	printf("seclvl_events_dropped_total %lld\n", st.dropped);
	return EXIT_OK;
}

static int not_root(const char *what)
{
	error("%s needs root (CAP_SYS_ADMIN in the initial user namespace)",
	      what);
	return EXIT_REFUSED;
}

/*
 * A write to a file that freezes above level 0 was refused (EPERM or
 * EACCES): by the level, or because the caller may not.  @what names the
 * file's content, @doing the change, @hint what to do instead.
 */
static int frozen_refusal(const struct state *st, const char *what,
			  const char *doing, const char *hint)
{
	if (geteuid() || st->level <= 0)
		return not_root(doing);
	error("%s is frozen: the level is already %d; %s", what, st->level,
	      hint);
	return EXIT_REFUSED;
}

static bool parse_level(const char *s, int *level)
{
	if (!strcmp(s, "-1") || !strcmp(s, "0") || !strcmp(s, "1") ||
	    !strcmp(s, "2")) {
		*level = atoi(s);
		return true;
	}
	return false;
}

/*
 * The BPF backend's raise: above 0 its hook programs are attached and
 * the raise iterator read (bpfraise.c), else its pinned raise program is
 * run once.  0 or the errno.
 */
static int bpf_raise(int from, int level)
{
	char what[NAME_MAX + 1] = "";
	union bpf_attr attr;
	int fd, err = 0;

	if (level > 0) {
		/* Not for a raise that cannot go up: it would refuse anyway. */
		if (from >= 0 && from < level)
			err = -bpfraise_attach_hooks(BPF_DIR, what,
						     sizeof(what));
		if (err) {
			error("the BPF backend's hook %s cannot be attached: %s",
			      what, strerror(err));
			return err;
		}
		return -bpfraise_raise(BPF_DIR, level);
	}
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (unsigned long)BPF_DIR "/raise";
	fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return errno;
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	attr.test.ctx_in = (unsigned long)&level;
	attr.test.ctx_size_in = sizeof(level);
	err = syscall(SYS_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr)) ?
		      errno : -(int)attr.test.retval;
	close(fd);
	return err;
}

static int bpf_obj_get(const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (unsigned long)path;
	return syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
}

/*
 * The BPF backend takes the level above 0 only with its list of module
 * images frozen (BPF_MAP_FREEZE): freeze it when this raise takes the
 * level from 0.  A failure is the raise program's to report (EBUSY).
 */
static void bpf_freeze_list(int from, int to)
{
	union bpf_attr attr;
	int fd;

	if (from != 0 || to <= 0)
		return;
	fd = bpf_obj_get(BPF_MODULE_LIST);
	if (fd < 0)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	syscall(SYS_bpf, BPF_MAP_FREEZE, &attr, sizeof(attr));
	close(fd);
}

static unsigned char hex_value(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* One entry of the BPF backend's list; 0 or the errno. */
static int bpf_list_digest(const char *hex, const char *name)
{
	unsigned char key[DIGEST_SIZE];
	char value[MODULE_NAME_LEN] = "";
	union bpf_attr attr;
	unsigned int i;
	int fd, err = 0;

	/* @hex is 64 hex digits: is_digest() or digest_fd() made sure. */
	for (i = 0; i < sizeof(key); i++)
		key[i] = hex_value(hex[2 * i]) << 4 | hex_value(hex[2 * i + 1]);
	snprintf(value, sizeof(value), "%s", name);
	fd = bpf_obj_get(BPF_MODULE_LIST);
	if (fd < 0)
		return errno;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)key;
	attr.value = (unsigned long)value;
	attr.flags = BPF_NOEXIST;
	if (syscall(SYS_bpf, BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)))
		err = errno;
	close(fd);
	/* A full hash map says E2BIG. */
	return err == E2BIG ? ENOSPC : err;
}

/* Every entry of a pinned map of the BPF backend's; 0 or the errno. */
static int bpf_empty_map(const char *pin)
{
	unsigned char key[DIGEST_SIZE];
	union bpf_attr attr;
	int fd = bpf_obj_get(pin), err = 0;

	if (fd < 0)
		return errno;
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		attr.next_key = (unsigned long)key;
		if (syscall(SYS_bpf, BPF_MAP_GET_NEXT_KEY, &attr, sizeof(attr))) {
			err = errno == ENOENT ? 0 : errno;
			break;
		}
		attr.key = (unsigned long)key;
		if (syscall(SYS_bpf, BPF_MAP_DELETE_ELEM, &attr, sizeof(attr))) {
			err = errno;
			break;
		}
	}
	close(fd);
	return err;
}

static int cmd_raise(const struct state *st, const char *arg)
{
	char text[8];
	int level, err;

	if (!parse_level(arg, &level)) {
		error("invalid level '%s': levels are -1, 0, 1 and 2", arg);
		return EXIT_USAGE;
	}
	snprintf(text, sizeof(text), "%d\n", level);
	if (st->bpf)
		bpf_freeze_list(st->level, level);
	err = st->bpf ? bpf_raise(st->level, level) :
			  write_text(SECLVL_DIR "/level", text);
	if (!err)
		return EXIT_OK;
	if (err == ENOLINK && st->bpf) {
		error("the BPF backend's hook programs are not all attached: %s",
		      "the level is unchanged");
		return EXIT_REFUSED;
	}
	if (err == EXDEV && st->bpf) {
		error("the BPF backend's pins (%s) %s", BPF_DIR,
		      "must be reached from the initial mount namespace to raise above 0: the level is unchanged");
		return EXIT_REFUSED;
	}
	if (err == EBUSY && st->bpf) {
		error("the BPF backend's list of module images (%s) %s",
		      BPF_MODULE_LIST, "could not be frozen: the level is unchanged");
		return EXIT_REFUSED;
	}
	if (err == EPERM || err == EACCES) {
		if (geteuid())
			return not_root("raising the level");
		if (st->level == -1)
			error("the level is -1 (permanently insecure): %s",
			      "it cannot be raised until reboot");
		else if (level < st->level)
			error("cannot lower the level from %d to %d: only a reboot lowers it",
			      st->level, level);
		else
			return not_root("raising the level");
		return EXIT_REFUSED;
	}
	error("cannot raise the level: %s", strerror(err));
	return EXIT_IO;
}

static void list_rules(const struct state *st)
{
	int i;

	fprintf(stderr, "restrictions:");
	for (i = 0; i < st->nr_rules; i++)
		fprintf(stderr, " %s", st->rules[i].name);
	fputc('\n', stderr);
}

static int cmd_policy(const struct state *st, const char *name,
		      const char *value)
{
	char text[128];
	int i, err;

	for (i = 0; i < st->nr_rules; i++)
		if (!strcmp(st->rules[i].name, name))
			break;
	if (i == st->nr_rules) {
		error("no restriction named '%s'", name);
		list_rules(st);
		return EXIT_USAGE;
	}
	if (strcmp(value, "1") && strcmp(value, "2") && strcmp(value, "off")) {
		error("invalid level '%s' for %s: use 1, 2 or off", value, name);
		return EXIT_USAGE;
	}
	if (st->bpf) {
		error("the BPF backend takes its policy when it is loaded: %s",
		      "seclvl-bpf load --policy NAME=LEVEL");
		return EXIT_REFUSED;
	}
	snprintf(text, sizeof(text), "%s %s\n", name, value);
	err = write_text(SECLVL_DIR "/policy", text);
	if (!err)
		return EXIT_OK;
	if (err == EPERM || err == EACCES)
		return frozen_refusal(st, "the policy", "changing the policy",
				      "change the policy at level 0, before raising it");
	error("cannot write %s/policy: %s", SECLVL_DIR, strerror(err));
	return EXIT_IO;
}

static int cmd_escape(const struct state *st, const char *arg)
{
	char text[4096];
	int err;

	if (strcmp(arg, "--clear") && arg[0] != '/') {
		error("the escape must be an absolute path, not '%s'", arg);
		return EXIT_USAGE;
	}
	if (strlen(arg) + 2 > sizeof(text)) {
		error("the escape's path is too long");
		return EXIT_USAGE;
	}
	if (st->bpf) {
		error("the BPF backend has no emergency escape");
		return EXIT_REFUSED;
	}
	/* An empty line clears it. */
	snprintf(text, sizeof(text), "%s\n", strcmp(arg, "--clear") ? arg : "");
	err = write_text(SECLVL_DIR "/escape", text);
	if (!err)
		return EXIT_OK;
	if (err == EPERM || err == EACCES)
		return frozen_refusal(st, "the escape", "setting the escape",
				      "set or clear it at level 0");
	if (err == EINVAL) {
		error("%s cannot be the escape: it must be an existing %s",
		      arg, "regular file, owned by root and writable by no one else");
		return EXIT_USAGE;
	}
	error("cannot write %s/escape: %s", SECLVL_DIR, strerror(err));
	return EXIT_IO;
}

/* /etc/seclvl.conf, checked in full before anything is changed. */
/*
 * modules: the list of module images the kernel loads while the modules
 * restriction applies, by SHA-256 (modsum.c computes them).
 */
struct pin {
	int added, listed, failed;
};

/* Write one entry; an entry already listed counts as done. */
static int pin_digest(const struct state *st, const char *hex,
		      const char *name, struct pin *p)
{
	char text[160];
	int err;

	snprintf(text, sizeof(text), "sha256:%s%s%s\n", hex, name[0] ? " " : "",
		 name);
	err = st->bpf ? bpf_list_digest(hex, name) : write_text(MODULES_FILE, text);
	if (!err) {
		p->added++;
		return EXIT_OK;
	}
	if (err == EEXIST) {
		p->listed++;
		return EXIT_OK;
	}
	if (err == EPERM || err == EACCES)
		return frozen_refusal(st, "the list of modules",
				      "listing modules",
				      "list modules at level 0, before raising it");
	if (err == ENOSPC) {
		error("the list of modules is full");
		return EXIT_REFUSED;
	}
	if (err == ENOENT) {
		error("this %s has no list of modules (%s)",
		      st->bpf ? "BPF backend" : "kernel's seclvl",
		      st->bpf ? BPF_MODULE_LIST : MODULES_FILE);
		return EXIT_UNAVAILABLE;
	}
	error("cannot write %s: %s", st->bpf ? BPF_MODULE_LIST : MODULES_FILE,
	      strerror(err));
	return EXIT_IO;
}

/* Both digests of a module file; a file it cannot read is reported. */
static int pin_file(const struct state *st, const char *path, struct pin *p)
{
	char hex[SHA256_HEX + 1], name[64];
	const char *tool = decompressor(path);
	int fd = open(path, O_RDONLY | O_CLOEXEC), err, ret;

	module_name(path, name, sizeof(name));
	if (fd < 0) {
		error("cannot read %s: %s", path, strerror(errno));
		p->failed++;
		return EXIT_OK;
	}
	err = digest_fd(fd, hex);
	close(fd);
	if (err) {
		error("cannot read %s: %s", path, strerror(err));
		p->failed++;
		return EXIT_OK;
	}
	ret = pin_digest(st, hex, name, p);
	if (ret || !tool)
		return ret;
	err = digest_decompressed(path, tool, hex);
	if (err) {
		error("cannot decompress %s with %s: %s; %s", path, tool,
		      err == ENOENT ? "not installed" : strerror(err),
		      "only its file's digest is listed");
		p->failed++;
		return EXIT_OK;
	}
	return pin_digest(st, hex, name, p);
}

static const struct state *walk_state;
static struct pin *walk_pin;
static int walk_ret;

static int pin_walked(const char *path, const struct stat *sb, int type,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type != FTW_F || !is_module_file(path))
		return 0;
	walk_ret = pin_file(walk_state, path, walk_pin);
	return walk_ret ? 1 : 0;
}

static void modules_dir(char *dir, size_t size)
{
	struct utsname u;

	uname(&u);
	snprintf(dir, size, "/lib/modules/%s", u.release);
}

/* --loaded: the file of each module in /proc/modules, from modules.dep. */
static int pin_loaded(const struct state *st, struct pin *p)
{
	char dir[PATH_MAX], dep[PATH_MAX + 32], line[PATH_MAX], name[64];
	char path[2 * PATH_MAX + 2];
	static char loaded[4096][64];
	int nr = 0, i, ret = EXIT_OK;
	bool *found;
	FILE *f = fopen("/proc/modules", "re");

	if (!f) {
		error("cannot read /proc/modules: %s", strerror(errno));
		return EXIT_IO;
	}
	while (nr < 4096 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s", loaded[nr]) == 1)
			nr++;
	fclose(f);
	found = calloc(nr ? nr : 1, sizeof(*found));
	if (!found)
		return EXIT_IO;
	modules_dir(dir, sizeof(dir));
	snprintf(dep, sizeof(dep), "%s/modules.dep", dir);
	f = fopen(dep, "re");
	if (!f) {
		error("cannot read %s: %s (run depmod)", dep, strerror(errno));
		free(found);
		return EXIT_IO;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, ":")] = '\0';
		module_name(line, name, sizeof(name));
		for (i = 0; i < nr; i++) {
			if (found[i] || strcmp(loaded[i], name))
				continue;
			found[i] = true;
			snprintf(path, sizeof(path), "%s/%s", dir, line);
			ret = pin_file(st, path, p);
			break;
		}
	}
	fclose(f);
	for (i = 0; !ret && i < nr; i++)
		if (!found[i]) {
			error("%s is loaded but not in %s: list its file by name",
			      loaded[i], dep);
			p->failed++;
		}
	free(found);
	return ret;
}

/* An empty line empties the list. */
static int clear_modules(const struct state *st)
{
	int err;

	if (st->bpf) {
		err = bpf_empty_map(BPF_MODULE_LIST);
		if (!err)
			err = bpf_empty_map(BPF_MODULE_LOADS);
	} else {
		err = write_text(MODULES_FILE, "\n");
	}
	if (!err)
		return EXIT_OK;
	if (err == EPERM || err == EACCES)
		return frozen_refusal(st, "the list of modules",
				      "emptying the list of modules",
				      "empty it at level 0, before raising it");
	error("cannot write %s: %s", st->bpf ? BPF_MODULE_LIST : MODULES_FILE,
	      strerror(err));
	return err == ENOENT ? EXIT_UNAVAILABLE : EXIT_IO;
}

static int show_modules(bool json)
{
	char line[256], hex[SHA256_HEX + 8], name[64];
	long loads;
	int n = 0;
	FILE *f = fopen(modules_file, "re");

	if (!f) {
		error("cannot read %s: %s", modules_file, strerror(errno));
		return errno == ENOENT ? EXIT_UNAVAILABLE : EXIT_IO;
	}
	if (json)
		printf("{\"modules\": [");
	else
		printf("%-71s %-24s %s\n", "digest", "name", "loads");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%71s %63s %ld", hex, name, &loads) != 3)
			continue;
		if (json) {
			printf("%s{\"digest\": ", n ? ", " : "");
			json_string(hex);
			printf(", \"name\": ");
			if (strcmp(name, "-"))
				json_string(name);
			else
				printf("null");
			printf(", \"loads\": %ld}", loads);
		} else {
			printf("%-71s %-24s %ld\n", hex, name, loads);
		}
		n++;
	}
	fclose(f);
	if (json)
		printf("]}\n");
	else if (!n)
		printf("(none: while modules applies, every module load is refused)\n");
	return EXIT_OK;
}

static int pin_done(const struct pin *p, int ret)
{
	if (ret)
		return ret;
	printf("%d added, %d already listed%s\n", p->added, p->listed,
	       p->failed ? ", some not (see above)" : "");
	return p->failed ? EXIT_REFUSED : EXIT_OK;
}

/* seclvlctl modules [--json] | pin (--loaded | --all | FILE...) | clear */
static int cmd_modules(const struct state *st, int argc, char **argv)
{
	struct pin p = { 0 };
	char dir[PATH_MAX];
	int i, ret = EXIT_OK;

	if (argc == 0 || (argc == 1 && !strcmp(argv[0], "--json")))
		return show_modules(argc == 1);
	if (argc == 1 && !strcmp(argv[0], "clear"))
		return clear_modules(st);
	if (strcmp(argv[0], "pin") || argc < 2) {
		error("usage: modules [--json] | modules pin %s | modules clear",
		      "--loaded | --all | FILE...");
		return EXIT_USAGE;
	}
	if (argc == 2 && !strcmp(argv[1], "--loaded"))
		return pin_done(&p, pin_loaded(st, &p));
	if (argc == 2 && !strcmp(argv[1], "--all")) {
		modules_dir(dir, sizeof(dir));
		walk_state = st;
		walk_pin = &p;
		walk_ret = EXIT_OK;
		if (nftw(dir, pin_walked, 16, FTW_PHYS) < 0) {
			error("cannot read %s: %s", dir, strerror(errno));
			return EXIT_IO;
		}
		return pin_done(&p, walk_ret);
	}
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' || !is_module_file(argv[i])) {
			error("'%s' is not a module file (*.ko, *.ko.xz, *.ko.zst, *.ko.gz)",
			      argv[i]);
			return EXIT_USAGE;
		}
	}
	for (i = 1; !ret && i < argc; i++)
		ret = pin_file(st, argv[i], &p);
	return pin_done(&p, ret);
}

struct conf {
	int level;
	struct { char name[64], value[8]; } policy[MAX_RULES];
	int nr_policy;
	char escape[4096];
	bool has_escape;
	char modules[MAX_MODULE_LINES][4096];	/* sha256:HEX or a file */
	int nr_modules;
};

static int find_rule(const struct state *st, const char *name)
{
	int i;

	for (i = 0; i < st->nr_rules; i++)
		if (!strcmp(st->rules[i].name, name))
			return i;
	return -1;
}

/* What the kernel will ask of an escape, asked first. */
static bool escape_file_ok(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISREG(sb.st_mode) && sb.st_uid == 0 &&
	       !(sb.st_mode & 0022);
}

static int conf_line(const struct state *st, struct conf *c, char *line,
		     const char *where)
{
	char kw[16], a[4096], b[16], extra[2];
	int fields;

	line[strcspn(line, "#\n")] = '\0';
	fields = sscanf(line, "%15s %4095s %15s %1s", kw, a, b, extra);
	if (fields <= 0)
		return EXIT_OK;
	if (!strcmp(kw, "level") && fields == 2) {
		if (c->level != -2) {
			error("%s: a second 'level' line", where);
			return EXIT_USAGE;
		}
		if (!parse_level(a, &c->level)) {
			error("%s: invalid level '%s': levels are -1, 0, 1 and 2",
			      where, a);
			return EXIT_USAGE;
		}
	} else if (!strcmp(kw, "policy") && fields == 3) {
		if (find_rule(st, a) < 0) {
			error("%s: no restriction named '%s'", where, a);
			list_rules(st);
			return EXIT_USAGE;
		}
		if (strcmp(b, "1") && strcmp(b, "2") && strcmp(b, "off")) {
			error("%s: invalid level '%s' for %s: use 1, 2 or off",
			      where, b, a);
			return EXIT_USAGE;
		}
		/* Both fit: a is a rule's name, b one of 1, 2, off. */
		snprintf(c->policy[c->nr_policy].name, 64, "%.63s", a);
		snprintf(c->policy[c->nr_policy].value, 8, "%.7s", b);
		c->nr_policy++;
	} else if (!strcmp(kw, "escape") && fields == 2) {
		if (c->has_escape) {
			error("%s: a second 'escape' line", where);
			return EXIT_USAGE;
		}
		if (a[0] != '/' || !escape_file_ok(a)) {
			error("%s: %s cannot be the escape: it must be an absolute path to %s",
			      where, a, "a regular file owned by root and writable by no one else");
			return EXIT_USAGE;
		}
		snprintf(c->escape, sizeof(c->escape), "%s", a);
		c->has_escape = true;
	} else if (!strcmp(kw, "module") && fields == 2) {
		if (c->nr_modules == MAX_MODULE_LINES) {
			error("%s: more than %d 'module' lines", where,
			      MAX_MODULE_LINES);
			return EXIT_USAGE;
		}
		if (!is_digest(a) &&
		    (a[0] != '/' || !is_module_file(a) || access(a, R_OK))) {
			error("%s: 'module %s': expected sha256:<64 hex digits> or %s",
			      where, a, "the absolute path of a readable module file");
			return EXIT_USAGE;
		}
		snprintf(c->modules[c->nr_modules++], 4096, "%s", a);
	} else {
		error("%s: expected 'level N', 'policy NAME 1|2|off', %s",
		      where, "'escape PATH' or 'module FILE|sha256:HEX'");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int read_conf(const struct state *st, const char *path,
		     struct conf *c)
{
	char line[4200], where[4200];
	FILE *f = fopen(path, "re");
	int n = 0, ret = EXIT_OK;

	if (!f) {
		error("cannot read %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	c->level = -2;
	c->nr_policy = 0;
	c->has_escape = false;
	c->nr_modules = 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		snprintf(where, sizeof(where), "%s:%d", path, ++n);
		if (c->nr_policy == MAX_RULES) {
			error("%s: too many policy lines", where);
			ret = EXIT_USAGE;
		} else {
			ret = conf_line(st, c, line, where);
		}
	}
	fclose(f);
	if (!ret && c->level == -2) {
		error("%s: no 'level' line", path);
		ret = EXIT_USAGE;
	}
	return ret;
}

/* Whether @hex is on the kernel's list. */
static bool listed(const char *hex)
{
	char line[256];
	bool ret = false;
	FILE *f = fopen(modules_file, "re");

	while (f && !ret && fgets(line, sizeof(line), f))
		ret = !strncasecmp(line + 7, hex, SHA256_HEX);
	if (f)
		fclose(f);
	return ret;
}

/* Above level 0 a file passes only if its modules are listed already. */
static int modules_in_force(const struct state *st, const struct conf *c)
{
	char hex[SHA256_HEX + 1];
	int i, fd, err;

	for (i = 0; i < c->nr_modules; i++) {
		const char *m = c->modules[i];

		if (is_digest(m)) {
			snprintf(hex, sizeof(hex), "%s", m + 7);
		} else {
			fd = open(m, O_RDONLY | O_CLOEXEC);
			err = fd < 0 ? errno : digest_fd(fd, hex);
			if (fd >= 0)
				close(fd);
			if (err) {
				error("cannot read %s: %s", m, strerror(err));
				return EXIT_IO;
			}
		}
		if (!listed(hex)) {
			error("the level is already %d: 'module %s' can no longer be applied",
			      st->level, m);
			return EXIT_REFUSED;
		}
	}
	return EXIT_OK;
}

/*
 * Policy and escape first, while the level is still 0, then the raise.
 * Above 0 they are frozen: only a file already in force passes, so that
 * applying it twice is harmless.
 */
static int cmd_apply(const struct state *st, const char *path)
{
	char level[8];
	struct conf c;
	int i, ret;

	ret = read_conf(st, path, &c);
	if (ret)
		return ret;
	/* The BPF backend's policy is set when it is loaded. */
	for (i = 0; (st->level > 0 || st->bpf) && i < c.nr_policy; i++) {
		const struct rule *r = &st->rules[find_rule(st, c.policy[i].name)];

		if (strcmp(r->level, c.policy[i].value) && st->bpf) {
			error("'policy %s %s' differs from the BPF backend's: %s %s=%s",
			      r->name, c.policy[i].value,
			      "load it with seclvl-bpf load --policy", r->name,
			      c.policy[i].value);
			return EXIT_REFUSED;
		}
		if (strcmp(r->level, c.policy[i].value)) {
			error("the level is already %d: 'policy %s %s' can no longer be applied",
			      st->level, r->name, c.policy[i].value);
			return EXIT_REFUSED;
		}
	}
	if (st->bpf && c.has_escape) {
		error("the BPF backend has no emergency escape: remove 'escape' from %s",
		      path);
		return EXIT_REFUSED;
	}
	if (st->level > 0 && c.nr_modules) {
		ret = modules_in_force(st, &c);
		if (ret)
			return ret;
	}
	if (st->level > 0 && c.has_escape && strcmp(st->escape, c.escape)) {
		error("the level is already %d: 'escape %s' can no longer be applied",
		      st->level, c.escape);
		return EXIT_REFUSED;
	}
	if (c.level < st->level) {
		error("%s asks for level %d, below the current %d: only a reboot lowers it",
		      path, c.level, st->level);
		return EXIT_REFUSED;
	}
	for (i = 0; st->level <= 0 && !st->bpf && i < c.nr_policy; i++) {
		ret = cmd_policy(st, c.policy[i].name, c.policy[i].value);
		if (ret)
			return ret;
	}
	if (st->level <= 0 && c.has_escape) {
		ret = cmd_escape(st, c.escape);
		if (ret)
			return ret;
	}
	for (i = 0; st->level <= 0 && i < c.nr_modules; i++) {
		struct pin p = { 0 };

		ret = is_digest(c.modules[i]) ?
		      pin_digest(st, c.modules[i] + 7, "", &p) :
		      pin_file(st, c.modules[i], &p);
		if (!ret && p.failed)
			ret = EXIT_REFUSED;
		if (ret)
			return ret;
	}
	snprintf(level, sizeof(level), "%d", c.level);
	ret = cmd_raise(st, level);
	if (!ret)
		printf("secure level %d (%s)\n", c.level, level_name(c.level));
	return ret;
}

/*
 * check: what this system does, or will do, that a raise would refuse.
 * One detector per thing to look for, each a short function that only
 * reads; what a user may not read is skipped, and said once.
 */
struct detector {
	const char *restriction;
	void (*fn)(const struct detector *d);
	const char *what;
	const char *names[6];	/* processes or files, for fn */
};

static struct {
	bool json;
	int found;
	char denied[PATH_MAX];	/* the first path we may not read */
	const struct conf *conf;	/* --config's, or NULL */
	const struct state *st;		/* the policy checked against */
	int level;			/* the level checked */
} chk;

/* Whether restriction @name applies at @level under @st's policy. */
static bool applies(const struct state *st, const char *name, int level)
{
	int i = find_rule(st, name);

	return i >= 0 && strcmp(st->rules[i].level, "off") &&
	       atoi(st->rules[i].level) <= level;
}

static void found(const struct detector *d, const char *what,
		  const char *fmt, ...)
{
	char detail[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (chk.json) {
		printf("%s{\"restriction\": ", chk.found ? ", " : "");
		json_string(d->restriction);
		printf(", \"what\": ");
		json_string(what);
		printf(", \"detail\": ");
		json_string(detail);
		putchar('}');
	} else {
		printf("%-22s %s: %s\n", d->restriction, detail, what);
	}
	chk.found++;
}

static void cannot_read(const char *path, int err)
{
	if ((err == EACCES || err == EPERM) && !chk.denied[0])
		snprintf(chk.denied, sizeof(chk.denied), "%s", path);
}

static FILE *open_file(const char *path)
{
	FILE *f = fopen(path, "re");

	if (!f)
		cannot_read(path, errno);
	return f;
}

static int glob_err(const char *path, int err)
{
	cannot_read(path, err);
	return 0;
}

/* The paths that match @pattern, sorted; globfree() them. */
static size_t find(const char *pattern, glob_t *g, int flags)
{
	if (!(flags & GLOB_APPEND))
		memset(g, 0, sizeof(*g));
	glob(pattern, flags, glob_err, g);
	return g->gl_pathc;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

struct proc {
	int pid, ppid;
	unsigned int uid;	/* the real one */
	char comm[64];
};

/* The next process in /proc; false at the end. */
static bool next_proc(DIR *dir, struct proc *p)
{
	char path[64], line[256];
	struct dirent *de;
	FILE *f;

	while ((de = readdir(dir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/status", de->d_name);
		f = open_file(path);
		if (!f)
			continue;	/* gone since, or hidden */
		p->pid = atoi(de->d_name);
		p->ppid = -1;
		p->uid = 0;
		p->comm[0] = '\0';
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Name:\t", 6))
				snprintf(p->comm, sizeof(p->comm), "%.*s",
					 (int)strcspn(line + 6, "\n"), line + 6);
			else if (!strncmp(line, "PPid:", 5))
				p->ppid = atoi(line + 5);
			else if (!strncmp(line, "Uid:", 4))
				p->uid = strtoul(line + 4, NULL, 10);
		}
		fclose(f);
		return true;
	}
	return false;
}

static DIR *open_proc(void)
{
	DIR *dir = opendir("/proc");

	if (!dir)
		cannot_read("/proc", errno);
	else if (access("/proc/1", F_OK))	/* hidepid=invisible */
		cannot_read("/proc/1", EACCES);
	return dir;
}

/* Running processes whose comm is one of d->names, one finding a name. */
static void procs(const struct detector *d)
{
	int count[6] = { 0 }, first[6] = { 0 }, i;
	DIR *dir = open_proc();
	struct proc p;

	if (!dir)
		return;
	while (next_proc(dir, &p))
		for (i = 0; d->names[i]; i++)
			if (!strcmp(p.comm, d->names[i]) && !count[i]++)
				first[i] = p.pid;
	closedir(dir);
	for (i = 0; d->names[i]; i++) {
		if (count[i] == 1)
			found(d, d->what, "%s (pid %d)", d->names[i], first[i]);
		else if (count[i])
			found(d, d->what, "%s (pid %d and %d more)",
			      d->names[i], first[i], count[i] - 1);
	}
}

/* Daemons that changed user IDs at start, children of init. */
static void daemons(const struct detector *d)
{
	DIR *dir = open_proc();
	struct proc p;
	int n = 0;

	if (!dir)
		return;
	while (next_proc(dir, &p))
		if (p.ppid == 1 && p.uid && p.pid != getpid() && ++n <= 10)
			found(d, d->what, "%s (pid %d, uid %u)", p.comm, p.pid,
			      p.uid);
	closedir(dir);
	if (n > 10)
		found(d, d->what, "... and %d more", n - 10);
}

static char *trim(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

/* User= and DynamicUser= in one unit file or drop-in; false if none. */
static bool unit_file(const char *path, char *user, size_t size,
		      bool *dynamic)
{
	char line[512], *key, *value;
	FILE *f = open_file(path);

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		value = strchr(line, '=');
		if (!value)
			continue;
		*value++ = '\0';
		key = trim(line);
		value = trim(value);
		if (!strcmp(key, "User"))
			snprintf(user, size, "User=%s", value);
		else if (!strcmp(key, "DynamicUser"))
			*dynamic = !strcmp(value, "yes") || !strcmp(value, "true") ||
				   !strcmp(value, "on") || !strcmp(value, "1");
	}
	fclose(f);
	return true;
}

static const char *const unit_dirs[] = {
	"/etc/systemd/system", "/run/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system",
};

/*
 * Whether unit @name starts as another user: its file (or its template's)
 * from the first directory that has it, then its drop-ins, the
 * directories of least precedence first.  @user says how.
 */
static bool unit_user(const char *name, char *user, size_t size)
{
	const char *at = strchr(name, '@');
	char path[PATH_MAX];
	bool dynamic = false, got = false;
	glob_t g;
	size_t i;
	int k;

	user[0] = '\0';
	for (k = 0; k < 4 && !got; k++) {
		snprintf(path, sizeof(path), "%s/%s", unit_dirs[k], name);
		got = unit_file(path, user, size, &dynamic);
	}
	for (k = 0; k < 4 && !got && at; k++) {
		snprintf(path, sizeof(path), "%s/%.*s.service", unit_dirs[k],
			 (int)(at - name + 1), name);
		got = unit_file(path, user, size, &dynamic);
	}
	for (k = 3; k >= 0; k--) {
		snprintf(path, sizeof(path), "%s/%s.d/*.conf", unit_dirs[k],
			 name);
		for (i = 0; i < find(path, &g, 0); i++)
			unit_file(g.gl_pathv[i], user, size, &dynamic);
		globfree(&g);
	}
	if (dynamic)
		snprintf(user, size, "DynamicUser=yes");
	return dynamic || (user[0] && strcmp(user, "User=") &&
			   strcmp(user, "User=root") && strcmp(user, "User=0"));
}

/* systemd services running or enabled that start as another user. */
static void units(const struct detector *d)
{
	char user[300], what[400];
	glob_t g;
	size_t i, j;

	find("/sys/fs/cgroup/system.slice/*.service", &g, 0);
	find("/sys/fs/cgroup/system.slice/*.slice/*.service", &g, GLOB_APPEND);
	find("/etc/systemd/system/*.wants/*.service", &g, GLOB_APPEND);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *name = base(g.gl_pathv[i]);
		bool running = false, enabled = false, seen = false;

		for (j = 0; j < g.gl_pathc; j++) {
			if (strcmp(base(g.gl_pathv[j]), name))
				continue;
			seen |= j < i;
			running |= !strncmp(g.gl_pathv[j], "/sys/", 5);
			enabled |= !strncmp(g.gl_pathv[j], "/etc/", 5);
		}
		if (seen || !unit_user(name, user, sizeof(user)))
			continue;
		snprintf(what, sizeof(what),
			 "starting it changes user IDs (%s)", user);
		found(d, what, "%s (%s%s%s)", name, running ? "running" : "",
		      running && enabled ? ", " : "", enabled ? "enabled" : "");
	}
	globfree(&g);
}

static bool unit_enabled(const char *name)
{
	char pattern[128];
	glob_t g;
	bool yes;

	snprintf(pattern, sizeof(pattern), "/etc/systemd/system/*.wants/%s",
		 name);
	yes = find(pattern, &g, 0) > 0;
	globfree(&g);
	return yes;
}

static void ssh_logins(const struct detector *d)
{
	int before = chk.found;

	procs(d);
	if (chk.found > before || access("/usr/sbin/sshd", F_OK))
		return;
	if (unit_enabled("ssh.service"))
		found(d, d->what, "ssh.service (enabled)");
	else if (unit_enabled("sshd.service"))
		found(d, d->what, "sshd.service (enabled)");
}

/* Set-uid root programs among d->names. */
static void setuid_files(const struct detector *d)
{
	struct stat sb;
	int i;

	for (i = 0; d->names[i]; i++)
		if (!stat(d->names[i], &sb) && S_ISREG(sb.st_mode) &&
		    (sb.st_mode & S_ISUID) && !sb.st_uid)
			found(d, d->what, "%s", d->names[i]);
}

/* Option @name in a mount's comma-separated @opts, alone or with '='. */
static bool has_opt(const char *opts, const char *name)
{
	size_t len = strlen(name);

	for (;;) {
		/* strchr() finds the terminating NUL too: the last option */
		if (!strncmp(opts, name, len) && strchr(",=", opts[len]))
			return true;
		opts = strchr(opts, ',');
		if (!opts++)
			return false;
	}
}

/* Whether /proc/filesystems (@known) lists one of @types ("udf,iso9660"). */
static bool fs_listed(const char *known, const char *types)
{
	char needle[72];

	for (;;) {
		/* fuse.sshfs is fuse's */
		snprintf(needle, sizeof(needle), "\t%.*s\n",
			 (int)strcspn(types, ",."), types);
		if (strstr(known, needle))
			return true;
		types += strcspn(types, ",");
		if (!*types++)
			return false;
	}
}

/* Whether image @hex is listed, in the kernel or by --config's lines. */
static bool image_listed(const char *hex)
{
	char fhex[SHA256_HEX + 1];
	int i, fd, err;

	if (listed(hex))
		return true;
	for (i = 0; chk.conf && i < chk.conf->nr_modules; i++) {
		const char *m = chk.conf->modules[i];

		if (is_digest(m)) {
			if (!strcasecmp(m + 7, hex))
				return true;
			continue;
		}
		fd = open(m, O_RDONLY | O_CLOEXEC);
		err = fd < 0 ? errno : digest_fd(fd, fhex);
		if (fd >= 0)
			close(fd);
		if (!err && !strcmp(fhex, hex))
			return true;
	}
	return false;
}

/* The file of the module that @alias names (modules.alias, modules.dep). */
static bool alias_file(const char *alias, char *path, size_t size)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], line[PATH_MAX];
	char a[128], name[64] = "", n[64];
	FILE *f;

	modules_dir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/modules.alias", dir);
	f = fopen(file, "re");
	while (f && !name[0] && fgets(line, sizeof(line), f))
		if (sscanf(line, "alias %127s %63s", a, n) == 2 && !strcmp(a, alias))
			snprintf(name, sizeof(name), "%s", n);
	if (f)
		fclose(f);
	snprintf(file, sizeof(file), "%s/modules.dep", dir);
	f = name[0] ? fopen(file, "re") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, ":")] = '\0';
		module_name(line, n, sizeof(n));
		if (!strcmp(n, name)) {
			snprintf(path, size, "%s/%s", dir, line);
			fclose(f);
			return true;
		}
	}
	if (f)
		fclose(f);
	return false;
}

/*
 * Whether filesystem @type's module may load at the raised level: its
 * image, as the file is or decompressed, is on the list of modules.
 */
static bool fs_module_listed(const char *type)
{
	char alias[80], path[2 * PATH_MAX], hex[SHA256_HEX + 1];
	const char *tool;
	int fd, err;

	snprintf(alias, sizeof(alias), "fs-%s", type);
	if (!alias_file(alias, path, sizeof(path)))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	err = digest_fd(fd, hex);
	close(fd);
	if (!err && image_listed(hex))
		return true;
	tool = decompressor(path);
	return tool && !digest_decompressed(path, tool, hex) &&
	       image_listed(hex);
}

/* /etc/fstab entries whose filesystem's module is not loaded yet. */
static void fstab_modules(const struct detector *d)
{
	char known[8192];
	struct mntent *m;
	FILE *f;

	if (read_text("/proc/filesystems", known, sizeof(known)) <= 0)
		return;
	f = open_file("/etc/fstab");
	while (f && (m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "swap") || !strcmp(m->mnt_type, "none") ||
		    !strcmp(m->mnt_type, "bind") || !strcmp(m->mnt_type, "auto") ||
		    has_opt(m->mnt_opts, "bind") || has_opt(m->mnt_opts, "rbind"))
			continue;
		if (!fs_listed(known, m->mnt_type) &&
		    !fs_module_listed(m->mnt_type))
			found(d, d->what, "%s (%s)", m->mnt_dir, m->mnt_type);
	}
	if (f)
		fclose(f);
}

/* /etc/fstab entries mounted later, on demand, that may carry set-id files. */
static void fstab_suid(const struct detector *d)
{
	const char *opts, *later;
	struct mntent *m;
	FILE *f = open_file("/etc/fstab");
	bool user;

	while (f && (m = getmntent(f))) {
		opts = m->mnt_opts;
		later = has_opt(opts, "noauto") ? "noauto" :
			has_opt(opts, "x-systemd.automount") ?
			"x-systemd.automount" : NULL;
		/* mount(8): user, users, owner and group imply nosuid */
		user = has_opt(opts, "user") || has_opt(opts, "users") ||
		       has_opt(opts, "owner") || has_opt(opts, "group");
		if (!later || !strcmp(m->mnt_type, "swap") ||
		    has_opt(opts, "bind") || has_opt(opts, "rbind") ||
		    has_opt(opts, "nosuid") || (user && !has_opt(opts, "suid")))
			continue;
		if (seclvl_fs_starts_empty(m->mnt_type) &&
		    applies(chk.st, "setid_bits", chk.level))
			continue;
		found(d, d->what, "%s (%s, %s)", m->mnt_dir, m->mnt_fsname, later);
	}
	if (f)
		fclose(f);
}

/* Bound loop devices: their backing files count as disks in use. */
static void loops(const struct detector *d)
{
	char backing[PATH_MAX], what[PATH_MAX + 64];
	const char *path;
	glob_t g;
	size_t i;

	for (i = 0; i < find("/sys/block/loop*/loop/backing_file", &g, 0); i++) {
		path = g.gl_pathv[i];
		if (read_text(path, backing, sizeof(backing)) <= 0) {
			cannot_read(path, errno);
			continue;
		}
		backing[strcspn(backing, "\n")] = '\0';
		snprintf(what, sizeof(what),
			 "writes to %s are refused while it is bound", backing);
		/* /sys/block/NAME/loop/backing_file */
		found(d, what, "/dev/%.*s", (int)strcspn(path + 11, "/"),
		      path + 11);
	}
	globfree(&g);
}

/* Filesystems on block devices mounted now, but the root. */
static void disks(const struct detector *d)
{
	struct mntent *m;
	FILE *f = open_file("/proc/self/mounts");

	while (f && (m = getmntent(f)))
		if (!strncmp(m->mnt_fsname, "/dev/", 5) && strcmp(m->mnt_dir, "/"))
			found(d, d->what, "%s on %s", m->mnt_fsname, m->mnt_dir);
	if (f)
		fclose(f);
}

static struct {
	int count;
	char names[1024];	/* the first five */
} setid;

static int setid_file(const char *path, const struct stat *sb, int type,
		      struct FTW *ftw)
{
	size_t len = strlen(setid.names);

	(void)ftw;
	if (type == FTW_DNR || type == FTW_NS)
		cannot_read(path, EACCES);
	else if (type == FTW_F && S_ISREG(sb->st_mode) &&
		 (sb->st_mode & (S_ISUID | S_ISGID)) && ++setid.count <= 5)
		snprintf(setid.names + len, sizeof(setid.names) - len, "%s%s",
			 len ? ", " : "", path);
	return 0;
}

/* Set-id programs in d->names, not following links or crossing mounts. */
static void setid_bits(const struct detector *d)
{
	int i;

	setid.count = 0;
	setid.names[0] = '\0';
	for (i = 0; d->names[i]; i++)
		nftw(d->names[i], setid_file, 16, FTW_PHYS | FTW_MOUNT);
	if (setid.count)
		found(d, d->what, "%d set-id file%s (%s%s)", setid.count,
		      setid.count == 1 ? "" : "s", setid.names,
		      setid.count > 5 ? ", ..." : "");
}

/* In the order of the findings: grouped by restriction. */
static const struct detector detectors[] = {
	{ .restriction = "setuid", .fn = units },
	{ .restriction = "setuid", .fn = ssh_logins, .names = { "sshd" },
	  .what = "every login changes user IDs (privilege separation)" },
	{ .restriction = "setuid", .fn = procs, .names = { "cron", "crond" },
	  .what = "runs users' jobs under their user IDs" },
	{ .restriction = "setuid", .fn = setuid_files,
	  .names = { "/usr/bin/sudo", "/bin/su" },
	  .what = "switching to another user changes user IDs" },
	{ .restriction = "setuid", .fn = procs, .names = { "agetty", "getty" },
	  .what = "every login changes user IDs" },
	{ .restriction = "setuid", .fn = daemons,
	  .what = "changed user IDs when it started: it cannot be restarted after the raise" },
	{ .restriction = "net_admin", .fn = procs,
	  .names = { "systemd-network", "dhclient", "dhcpcd",
		     "NetworkManager", "wpa_supplicant" },
	  .what = "renews addresses and routes" },
	{ .restriction = "modules", .fn = fstab_modules,
	  .what = "module neither loaded nor listed: a mount after the raise would load it" },
	{ .restriction = "suid_mount", .fn = fstab_suid,
	  .what = "a mount after the raise is refused: it has no nosuid" },
	{ .restriction = "mounted_blockdev_write", .fn = loops },
	{ .restriction = "time_backward", .fn = procs,
	  .names = { "chronyd", "ntpd", "systemd-timesyn", "openntpd" },
	  .what = "may step the clock back" },
	{ .restriction = "umount", .fn = disks,
	  .what = "cannot be unmounted; shutdown remounts it read-only" },
	{ .restriction = "setid_bits", .fn = setid_bits,
	  .names = { "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/lib" },
	  .what = "package upgrades that replace these files are refused (dpkg)" },
	{ }
};

/* The policy a boot starts from (restrictions.h, shared with the kernel). */
enum {
#define SECLVL_RESTRICTION(id, ...) SECLVL_##id,
#include "../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
	SECLVL_NR_RESTRICTIONS
};

static const struct {
	const char *name;
	unsigned char level;
} default_policy[SECLVL_NR_RESTRICTIONS] = {
#define SECLVL_RESTRICTION(id, name, level) \
	[SECLVL_##id] = { name, level },
#include "../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
};

static void set_default_policy(struct state *st)
{
	size_t i;
	int r;

	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++) {
		r = find_rule(st, default_policy[i].name);
		if (r < 0)
			continue;
		snprintf(st->rules[r].level, sizeof(st->rules[r].level),
			 default_policy[i].level == SECLVL_OFF ? "off" : "%d",
			 default_policy[i].level);
	}
}

/* seclvlctl check [LEVEL] [--config FILE] [--json]: usage errors first. */
static int cmd_check(int argc, char **argv)
{
	const char *path = NULL, *arg = NULL;
	const struct detector *d;
	struct state st;
	struct conf c;
	int i, level = 1, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			chk.json = true;
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			path = argv[++i];
		else if (strncmp(argv[i], "--", 2) && !arg)
			arg = argv[i];
		else
			break;
	}
	if (i < argc) {
		if (!strcmp(argv[i], "--config"))
			error("check: --config needs a FILE");
		else if (!strncmp(argv[i], "--", 2))
			error("check: unknown option '%s'", argv[i]);
		else
			error("check: one LEVEL only, not '%s' and '%s'", arg,
			      argv[i]);
		return EXIT_USAGE;
	}
	if (arg && strcmp(arg, "1") && strcmp(arg, "2")) {
		error("check: invalid level '%s': check takes 1 or 2", arg);
		return EXIT_USAGE;
	}
	ret = load_state(&st);
	if (ret)
		return ret;
	if (path) {
		ret = read_conf(&st, path, &c);
		if (ret)
			return ret;
		/* At boot, FILE's policy is applied over the defaults. */
		set_default_policy(&st);
		for (i = 0; i < c.nr_policy; i++)
			snprintf(st.rules[find_rule(&st, c.policy[i].name)].level,
				 sizeof(st.rules[0].level), "%s", c.policy[i].value);
		level = c.level;
		chk.conf = &c;
	}
	if (arg)
		level = atoi(arg);

	chk.st = &st;
	chk.level = level;
	/* A file that stays at 0 or -1 (seclvl.service runs check first). */
	if (chk.json)
		printf("{\"level\": %d, \"findings\": [", level);
	for (d = detectors; level > 0 && d->fn; d++)
		if (applies(&st, d->restriction, level))
			d->fn(d);
	if (chk.json)
		printf("], \"count\": %d}\n", chk.found);
	else if (level <= 0)
		printf("level %d refuses nothing\n", level);
	else if (!chk.found)
		printf("nothing found that level %d would refuse\n", level);
	else if (st.level < level)
		printf("%d finding%s: raising to %d now would refuse %s; see seclvl(7)\n",
		       chk.found, chk.found == 1 ? "" : "s", level,
		       chk.found == 1 ? "it" : "them");
	else
		printf("%d finding%s: level %d, in force now, refuses %s; see seclvl(7)\n",
		       chk.found, chk.found == 1 ? "" : "s", level,
		       chk.found == 1 ? "it" : "them");
	fflush(stdout);
	if (chk.denied[0])
		error("skipped what it may not read, such as %s: %s",
		      chk.denied, "run it as root for a full check");
	return chk.found ? EXIT_REFUSED : EXIT_OK;
}

#define GRUB_DROPIN "/etc/default/grub.d/seclvl-bpf.cfg"

/*
 * grub-lsm [--lsm LIST] [--root DIR]: write a GRUB drop-in that boots
 * with bpf among the active LSMs (LIST, by default the active ones, with
 * bpf appended), for the BPF backend.  Nothing else is touched; a drop-in
 * that already says so is left as it is.
 */
static int cmd_grub_lsm(int argc, char **argv)
{
	const char *root = "", *list = NULL;
	char active[512], want[600], text[1024], old[1024] = "";
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	ssize_t len;
	int i, ret, fd;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--lsm") && i + 1 < argc) {
			list = argv[++i];
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			root = argv[++i];
		} else {
			error("grub-lsm: unknown or incomplete option '%s'", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!list) {
		ret = lsm_read_active(active, sizeof(active));
		if (ret) {
			error("cannot read %s: %s", LSM_FILE, strerror(-ret));
			return EXIT_IO;
		}
		list = active;
	}
	ret = lsm_with_bpf(list, want, sizeof(want));
	if (ret == -EEXIST) {
		printf("bpf is an active LSM already (%s): nothing to write\n", list);
		return EXIT_OK;
	}
	if (ret) {
		error("grub-lsm: '%s' is not a list of LSM names (as %s lists them)",
		      list, LSM_FILE);
		return EXIT_USAGE;
	}
	snprintf(text, sizeof(text),
		 "# Written by seclvlctl grub-lsm: seclvl's BPF backend needs bpf among\n"
		 "# the active LSMs.  lsm= replaces the kernel's whole list, so this\n"
		 "# one is the list that was active, with bpf added.\n"
		 "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX lsm=%s\"\n", want);
	snprintf(path, sizeof(path), "%s/etc/default", root);
	if (access(path, F_OK)) {
		error("grub-lsm: %s is missing: is GRUB installed?", path);
		return EXIT_IO;
	}
	snprintf(path, sizeof(path), "%s/etc/default/grub.d", root);
	if (mkdir(path, 0755) && errno != EEXIST) {
		error("grub-lsm: mkdir %s: %s", path, strerror(errno));
		return EXIT_IO;
	}
	snprintf(path, sizeof(path), "%s" GRUB_DROPIN, root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, old, sizeof(old) - 1);
		close(fd);
		old[len > 0 ? len : 0] = '\0';
		if (!strcmp(old, text)) {
			printf("%s says lsm=%s already: unchanged\n", path, want);
			return EXIT_OK;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    fsync(fd) || close(fd) || rename(tmp, path)) {
		error("grub-lsm: writing %s: %s", path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
		return EXIT_IO;
	}
	printf("wrote %s: lsm=%s\nrun update-grub, then reboot\n", path, want);
	return EXIT_OK;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: %s [--json]                  show the level, the policy and the escape\n"
		"       %s raise LEVEL               raise the secure level (-1, 0, 1 or 2)\n"
		"       %s policy NAME LEVEL|off     change one restriction (only at level 0)\n"
		"       %s escape PATH|--clear       set or clear the emergency escape (only at level 0)\n"
		"       %s apply [FILE]              apply /etc/seclvl.conf (or FILE): policy, escape, modules, level\n"
		"       %s modules [--json]          the module images loads are allowed for, by SHA-256\n"
		"       %s modules pin --loaded|--all|FILE...\n"
		"                                           list the images of loaded, installed or given modules\n"
		"       %s modules clear             empty that list (only at level 0)\n"
		"       %s check [LEVEL] [--config FILE] [--json]\n"
		"                                           what raising to LEVEL (1 or 2) would refuse here\n"
		"       %s grub-lsm [--lsm LIST] [--root DIR]\n"
		"                                           have GRUB boot with bpf among the LSMs (BPF backend)\n"
		"       %s log [--since TIME] [--json]\n"
		"                                           refusals and level changes, from the journal\n"
		"       %s metrics                   the state in Prometheus's text format\n"
		"       %s --help\n"
		"exit: 0 done, 1 refused by the kernel (check: something found),\n"
		"      2 bad usage or value, 3 seclvl not active, 4 other error.\n"
		"      See seclvlctl(8).\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog, prog, prog,
		prog, prog);
}

int main(int argc, char **argv)
{
	struct state st;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1 && argv[1][0] == '-' && strcmp(argv[1], "--json")) {
		error("unknown option '%s'", argv[1]);
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (argc > 1 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "grub-lsm"))
		return cmd_grub_lsm(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "log"))
		return cmd_log(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "metrics")) {
		if (argc == 2)
			return cmd_metrics();
		error("metrics takes no arguments");
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (argc == 2 && !strcmp(argv[1], "--json") && !backend_loaded())
		return show_json_unavailable();
	ret = load_state(&st);
	if (ret)
		return ret;
	if (argc == 1) {
		show(&st);
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--json")) {
		show_json(&st);
		return EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "raise"))
		return cmd_raise(&st, argv[2]);
	if (argc == 4 && !strcmp(argv[1], "policy"))
		return cmd_policy(&st, argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "escape"))
		return cmd_escape(&st, argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "modules"))
		return cmd_modules(&st, argc - 2, argv + 2);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "apply"))
		return cmd_apply(&st, argc == 3 ? argv[2] : "/etc/seclvl.conf");
	error("unknown command or wrong number of arguments");
	print_usage(stderr);
	return EXIT_USAGE;
}
