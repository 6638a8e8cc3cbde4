/* SPDX-License-Identifier: GPL-2.0-only */
/* The digests of a module file, for seclvlctl and seclvl-bpf: modsum.c. */
#ifndef SECLVL_MODSUM_H
#define SECLVL_MODSUM_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256.h"

const char *decompressor(const char *path);
bool is_module_file(const char *path);
int digest_fd(int fd, char hex[SHA256_HEX + 1]);
int digest_decompressed(const char *path, const char *tool,
			char hex[SHA256_HEX + 1]);
void module_name(const char *path, char *name, size_t size);
bool is_digest(const char *s);

#endif
