// SPDX-License-Identifier: GPL-2.0-only
/*
 * modsum: the digests of a module file, for seclvlctl and seclvl-bpf.
 * A module may reach the kernel as its file (finit_module) or, compressed,
 * as the image kmod decompressed itself (init_module): both digests are
 * listed.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "modsum.h"
#include "sha256.h"
#include "spawn.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *suffix, *tool;
} compressions[] = {
	{ ".ko.xz", "xz" }, { ".ko.zst", "zstd" }, { ".ko.gz", "gzip" },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The tool that decompresses @path, by its suffix, or NULL. */
const char *decompressor(const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(compressions); i++)
		if (ends_with(path, compressions[i].suffix))
			return compressions[i].tool;
	return NULL;
}

/* A module's file, compressed or not, by its suffix. */
bool is_module_file(const char *path)
{
	return ends_with(path, ".ko") || decompressor(path);
}

/* The digest of what @fd gives until its end; 0 or the errno. */
int digest_fd(int fd, char hex[SHA256_HEX + 1])
{
	static char buf[1 << 16];
	struct sha256 s;
	ssize_t n;

	sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&s, buf, n);
	if (n < 0)
		return errno;
	sha256_hex(&s, hex);
	return 0;
}

/* The digest of @path's decompressed image, by "TOOL -dc PATH". */
int digest_decompressed(const char *path, const char *tool,
			char hex[SHA256_HEX + 1])
{
	char *argv[4] = { (char *)tool, "-dc", (char *)path, NULL };
	int fd, err, status;
	pid_t pid;

	pid = spawn_reader(argv, &fd);
	if (pid < 0)
		return -pid;
	err = digest_fd(fd, hex);
	close(fd);
	status = spawn_wait(pid);
	if (status < 0)
		return -status;
	if (!err && status)
		err = status == 127 ? ENOENT : EIO;
	return err;
}

/* A module's name from its file: "kernel/fs/minix/minix.ko.xz" -> minix. */
void module_name(const char *path, char *name, size_t size)
{
	const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i;

	snprintf(name, size, "%s", b);
	name[strcspn(name, ".")] = '\0';
	for (i = 0; name[i]; i++)
		if (name[i] == '-')
			name[i] = '_';
}

/* "sha256:" and 64 hex digits. */
bool is_digest(const char *s)
{
	size_t i;

	if (strncmp(s, "sha256:", 7) || strlen(s) != 7 + SHA256_HEX)
		return false;
	for (i = 7; s[i]; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}
