// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvlctl log - either backend's refusals and level changes, from the
 * journal
 *
 * Both backends write to the kernel log: the in-tree LSM as the kernel
 * ("seclvl: ..."), the BPF backend's log reader through /dev/kmsg, which
 * journald files under the identifier seclvl-bpf.  journalctl's export
 * format gives each record's fields as they are, whatever bytes they hold.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seclvlctl.h"
#include "spawn.h"

#define FIELD_MAX 2048

struct record {
	char message[FIELD_MAX];
	char ident[64];
	uint64_t usec;		/* __REALTIME_TIMESTAMP */
};

/* What a line of either backend says, parsed. */
struct event {
	const char *backend;	/* "lsm" or "bpf" */
	const char *text;	/* the line without its prefix */
	const char *kind;	/* "denied", "level", "summary" or "other" */
	char restriction[64];
	char what[FIELD_MAX];
	char comm[64];
	int level, from, to, pid;
};

/* Which backend wrote @r, and its text without the prefix; NULL if none. */
static const char *backend_of(const struct record *r, const char **text)
{
	if (!strcmp(r->ident, "kernel") && !strncmp(r->message, "seclvl: ", 8)) {
		*text = r->message + 8;
		return "lsm";
	}
	if (!strcmp(r->ident, "seclvl-bpf")) {
		*text = r->message;
		if (!strncmp(*text, "seclvl-bpf: ", 12))
			*text += 12;
		return "bpf";
	}
	return NULL;
}

/*
 * "denied R at level L: WHAT (pid P comm C)", "level changed from A to B
 * ...", or a summary of what the rate limit or a full buffer left out.
 */
static void parse_event(struct event *e)
{
	const char *tail;
	int off = 0, comm;
	size_t len;

	e->kind = "other";
	if (sscanf(e->text, "denied %63s at level %d: %n", e->restriction,
		   &e->level, &off) == 2 && off) {
		/*
		 * What was tried and comm may both hold " (pid ": take the
		 * first that leaves a comm the kernel could have (at most 15
		 * bytes, TASK_COMM_LEN).
		 */
		for (tail = e->text + off; (tail = strstr(tail, " (pid ")); tail++) {
			len = strlen(tail);
			comm = 0;
			if (tail[len - 1] == ')' &&
			    sscanf(tail, " (pid %d comm %n", &e->pid, &comm) == 1 &&
			    comm && len - comm - 1 <= 15)
				break;
		}
		if (!tail)
			return;
		snprintf(e->comm, sizeof(e->comm), "%.*s",
			 (int)(len - comm - 1), tail + comm);
		snprintf(e->what, sizeof(e->what), "%.*s",
			 (int)(tail - (e->text + off)), e->text + off);
		e->kind = "denied";
	} else if (sscanf(e->text, "level changed from %d to %d", &e->from,
			  &e->to) == 2) {
		e->kind = "level";
	} else if (strstr(e->text, " not logged")) {
		e->kind = "summary";
	}
}

static void format_time(uint64_t usec, char *buf, size_t size)
{
	time_t t = usec / 1000000;
	char sec[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%06uZ", sec, (unsigned int)(usec % 1000000));
}

static void print_event(const struct record *r, const struct event *e,
			bool json, bool *first)
{
	char when[64];

	format_time(r->usec, when, sizeof(when));
	if (!json) {
		printf("%s  %s  %s\n", when, e->backend, e->text);
		return;
	}
	printf("%s\n  {\"time\": ", *first ? "" : ",");
	*first = false;
	json_string(when);
	printf(", \"backend\": \"%s\", \"event\": \"%s\"", e->backend, e->kind);
	if (!strcmp(e->kind, "denied")) {
		printf(", \"restriction\": ");
		json_string(e->restriction);
		printf(", \"level\": %d, \"what\": ", e->level);
		json_string(e->what);
		printf(", \"pid\": %d, \"comm\": ", e->pid);
		json_string(e->comm);
	} else if (!strcmp(e->kind, "level")) {
		printf(", \"from\": %d, \"to\": %d", e->from, e->to);
	}
	printf(", \"message\": ");
	json_string(e->text);
	putchar('}');
}

/* Keep a field of the record being read: the ones asked for, and the time. */
static void keep_field(struct record *r, const char *name, const char *value,
		       size_t len)
{
	char *to = NULL;
	size_t size = 0;

	if (!strcmp(name, "MESSAGE")) {
		to = r->message;
		size = sizeof(r->message);
	} else if (!strcmp(name, "SYSLOG_IDENTIFIER")) {
		to = r->ident;
		size = sizeof(r->ident);
	} else if (!strcmp(name, "__REALTIME_TIMESTAMP")) {
		r->usec = strtoull(value, NULL, 10);
		return;
	}
	if (!to)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(to, value, len);
	to[len] = '\0';
	/* A binary field may hold NULs and newlines: keep one line. */
	for (; len; len--)
		if (to[len - 1] == '\0' || to[len - 1] == '\n')
			to[len - 1] = ' ';
}

/*
 * Read journalctl's export format from @in: "NAME=value" lines, or for a
 * value with control characters "NAME", a 64-bit little-endian length,
 * the bytes and a newline; a blank line ends a record.  Returns how many
 * seclvl records it printed, or -1 on a malformed stream.
 */
static int read_export(FILE *in, bool json)
{
	struct record r = { 0 };
	char *line = NULL, *eq;
	size_t cap = 0, i;
	bool first = true;
	ssize_t n;
	int count = 0;

	if (json)
		putchar('[');
	while ((n = getline(&line, &cap, in)) >= 0) {
		unsigned char le[8];
		uint64_t len = 0;
		char *value;

		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n == 0) {
			struct event e = { 0 };

			e.backend = backend_of(&r, &e.text);
			if (e.backend) {
				parse_event(&e);
				print_event(&r, &e, json, &first);
				count++;
			}
			memset(&r, 0, sizeof(r));
			continue;
		}
		eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			keep_field(&r, line, eq + 1, strlen(eq + 1));
			continue;
		}
		if (fread(le, 1, sizeof(le), in) != sizeof(le))
			break;
		for (i = 0; i < sizeof(le); i++)
			len |= (uint64_t)le[i] << (8 * i);
		if (len > 1 << 20)
			break;
		value = malloc(len + 1);
		if (!value || fread(value, 1, len, in) != len || fgetc(in) != '\n') {
			free(value);
			break;
		}
		keep_field(&r, line, value, len);
		free(value);
	}
	free(line);
	if (json)
		printf("%s]\n", first ? "" : "\n");
	return ferror(in) || !feof(in) ? -1 : count;
}

/*
 * Run journalctl with @args and return its exit status (127: not found),
 * or -1.  With @count, read its export output and set *@count to what
 * read_export() returns; without, discard what it prints.
 */
static int journalctl(char *const args[], bool json, int *count)
{
	int fd, got = 0, status;
	FILE *in;
	pid_t pid;

	pid = spawn_reader(args, &fd);
	if (pid < 0)
		return -1;
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		spawn_wait(pid);
		return -1;
	}
	if (count)
		got = read_export(in, json);
	else
		while (fgetc(in) != EOF)
			;
	fclose(in);
	status = spawn_wait(pid);
	if (count)
		*count = got;
	return status < 0 ? -1 : status;
}

/**
 * cmd_log - list the refusals and level changes of either backend
 * @argc: arguments after "log"
 * @argv: [--since TIME] [--json]
 *
 * Without --since, this boot's; with it, every boot's since TIME (in any
 * form journalctl takes).
 *
 * Return: an exit code.
 */
int cmd_log(int argc, char **argv)
{
	char *args[16] = { "journalctl", "--no-pager", "-q",
			   "_TRANSPORT=kernel" };
	char *probe[8] = { "journalctl", "--no-pager", "-q", "-n", "0" };
	const char *since = NULL;
	int i, n = 4, ret, count = 0;
	bool json = false;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json") && !json) {
			json = true;
		} else if (!strcmp(argv[i], "--since") && i + 1 < argc && !since) {
			since = argv[++i];
		} else {
			error("log: unexpected '%s' (log [--since TIME] [--json])",
			      argv[i]);
			return EXIT_USAGE;
		}
	}
	/* Whether there is a journal, and whether it reads TIME, first. */
	probe[5] = since ? "--since" : NULL;
	probe[6] = (char *)since;
	ret = journalctl(probe, false, NULL);
	if (ret == 127) {
		error("log reads the journal: there is no journalctl here (dmesg | grep seclvl)");
		return EXIT_IO;
	}
	if (ret && since) {
		error("log: journalctl does not take --since '%s'", since);
		return EXIT_USAGE;
	}
	if (ret) {
		error("log: journalctl cannot read the journal (exit %d)", ret);
		return EXIT_IO;
	}
	if (since) {
		args[n++] = "--since";
		args[n++] = (char *)since;
	} else {
		args[n++] = "-b";
	}
	args[n++] = "-o";
	args[n++] = "export";
	args[n++] = "--output-fields=MESSAGE,SYSLOG_IDENTIFIER";
	args[n] = NULL;
	ret = journalctl(args, json, &count);
	if (ret || count < 0) {
		error("log: journalctl failed (exit %d)", ret);
		return EXIT_IO;
	}
	return EXIT_OK;
}
