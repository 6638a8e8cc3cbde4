// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-256 (FIPS 180-4), for seclvlctl's list of module images: nothing
 * on a Debian system may be assumed to offer it as a library.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <string.h>

#include "sha256.h"
#include "sha256_k.h"

static const uint32_t k[64] = SECLVL_SHA256_K;

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10)) +
		       w[i - 7] +
		       (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 16];
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
		     ((e & f) ^ (~e & g)) + k[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->n = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	while (len) {
		size_t take = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, take);
		s->n += take;
		p += take;
		len -= take;
		if (s->n == 64) {
			block(s, s->buf);
			s->n = 0;
		}
	}
}

void sha256_hex(struct sha256 *s, char hex[SHA256_HEX + 1])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (s->n < 56 ? 56 : 120) - s->n;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = bits >> (56 - 8 * i);
	sha256_update(s, pad, padlen + 8);
	for (i = 0; i < 8; i++)
		sprintf(hex + 8 * i, "%08x", s->h[i]);
}
