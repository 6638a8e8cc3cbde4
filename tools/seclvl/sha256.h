/* SPDX-License-Identifier: GPL-2.0-only */
/* SHA-256 for seclvlctl: init, update, then the hex digest. */
#ifndef SECLVL_SHA256_H
#define SECLVL_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SHA256_HEX 64

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Ends @s: the digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(struct sha256 *s, char hex[SHA256_HEX + 1]);

#endif
