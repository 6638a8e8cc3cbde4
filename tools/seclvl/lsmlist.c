// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lsm= list that adds bpf to the active LSMs
 *
 * lsm= on the kernel command line replaces the whole list of LSMs, so
 * "lsm=bpf" alone would switch AppArmor and the others off: the list to
 * give is the active one (/sys/kernel/security/lsm) with bpf appended.
 * capability, ima and evm are left out: the kernel always puts them
 * first and last itself.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lsmlist.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The active LSMs, as the kernel lists them; 0 or a negative errno. */
int lsm_read_active(char *buf, size_t size)
{
	int fd = open(LSM_FILE, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Whether the comma-separated @list names @name. */
bool lsm_lists(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

/* Whether the kernel places the LSM @name (@len bytes) itself. */
static bool lsm_always(const char *name, size_t len)
{
	static const char *const always[] = { "capability", "ima", "evm" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(always); i++)
		if (len == strlen(always[i]) && !strncmp(name, always[i], len))
			return true;
	return false;
}

/*
 * @active with bpf appended and those left out, in @buf.  Returns 0,
 * -EEXIST if it names bpf already, or -EINVAL if it is no list of LSM
 * names (lower-case letters, digits and '_', separated by commas).
 */
int lsm_with_bpf(const char *active, char *buf, size_t size)
{
	size_t used = 0;
	const char *p = active;

	if (!*active || strspn(active, "abcdefghijklmnopqrstuvwxyz0123456789_,") !=
			strlen(active))
		return -EINVAL;
	if (lsm_lists(active, "bpf"))
		return -EEXIST;
	buf[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len)
			return -EINVAL;
		if (!lsm_always(p, len)) {
			if (used + len + 2 > size)
				return -EINVAL;
			used += snprintf(buf + used, size - used, "%.*s,",
					 (int)len, p);
		}
		p += len;
		if (*p && !*++p)
			return -EINVAL;
	}
	if (used + sizeof("bpf") > size)
		return -EINVAL;
	snprintf(buf + used, size - used, "bpf");
	return 0;
}
