/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl BPF backend: SHA-256 (FIPS 180-4) of a kernel buffer
 *
 * For hashing what the kernel has read into memory (a module image in
 * kernel_post_read_file or kernel_post_load_data) before it is used.  The
 * buffer is copied in 64-byte blocks with bpf_probe_read_kernel(), one
 * block per bpf_loop() iteration, so this works in non-sleepable programs
 * and on buffers of any address the kernel can read (vmalloc included).
 *
 * Stack: the caller's frame holds the state (about 64 bytes), the loop
 * callback holds one block that doubles as the rolling 16-word message
 * schedule.  No maps and no global state, so
 * any number of CPUs may hash at once.
 *
 * Include after vmlinux.h.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECLVL_SHA256_BPF_H
#define _SECLVL_SHA256_BPF_H

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "../sha256_k.h"

#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef E2BIG
#define E2BIG 7
#endif

#define SECLVL_SHA256_DIGEST_SIZE 32
#define SECLVL_SHA256_BLOCK_SIZE 64

/*
 * The largest input: bpf_loop() runs at most 1 << 23 callbacks, one per
 * block, and the padding may take one block more than the data.  That is
 * 512 MiB less 9 bytes; at this speed hashing it takes seconds with
 * preemption off, so callers should keep their own, lower limit.
 */
#define SECLVL_SHA256_MAX_SIZE \
	((1ULL << 23) * SECLVL_SHA256_BLOCK_SIZE - 9)

struct seclvl_sha256_ctx {
	const void *kbuf;
	__u64 size;
	__u64 nblocks;
	__u32 h[8];
	int err;
};

/*
 * BPF has no rotate instruction.  With x in both halves of a 64-bit
 * register, a rotation is one shift (the upper half is then ignored):
 * a sum of three rotations takes 9 instructions instead of 17.
 */
static __always_inline __u64 seclvl_sha256_dup(__u32 x)
{
	return (__u64)x << 32 | x;
}

static __always_inline __u32 seclvl_sha256_S0(__u32 x)
{
	__u64 d = seclvl_sha256_dup(x);

	return (d >> 2) ^ (d >> 13) ^ (d >> 22);
}

static __always_inline __u32 seclvl_sha256_S1(__u32 x)
{
	__u64 d = seclvl_sha256_dup(x);

	return (d >> 6) ^ (d >> 11) ^ (d >> 25);
}

static __always_inline __u32 seclvl_sha256_s0(__u32 x)
{
	__u64 d = seclvl_sha256_dup(x);

	return (d >> 7) ^ (d >> 18) ^ (x >> 3);
}

static __always_inline __u32 seclvl_sha256_s1(__u32 x)
{
	__u64 d = seclvl_sha256_dup(x);

	return (d >> 17) ^ (d >> 19) ^ (x >> 10);
}

static const __u32 seclvl_sha256_k[64] = SECLVL_SHA256_K;

/*
 * One block, bpf_loop() callback: copies block @i (or builds the padded
 * tail), compresses it into ctx->h.  Returns 1, ending the loop, on error.
 */
static int seclvl_sha256_block(__u64 i, void *data)
{
	struct seclvl_sha256_ctx *ctx = data;
	__u64 off = i * SECLVL_SHA256_BLOCK_SIZE;
	__u32 a, b, c, d, e, f, g, h, t1, t2, wt;
	/* The message schedule rolls in w: w[t & 15] holds W[t - 16]. */
	__u32 w[16];
	int err, t;

	if (off + SECLVL_SHA256_BLOCK_SIZE <= ctx->size) {
		err = bpf_probe_read_kernel(w, sizeof(w), ctx->kbuf + off);
	} else {
		/* The tail: the last data bytes, 0x80, zeros, the length. */
		__u64 n = ctx->size > off ? ctx->size - off : 0;

		__builtin_memset(w, 0, sizeof(w));
		/* Known to be below 64 here; the mask is for the verifier. */
		n &= SECLVL_SHA256_BLOCK_SIZE - 1;
		/* Reading 0 bytes still checks the address: don't. */
		err = n ? bpf_probe_read_kernel(w, n, ctx->kbuf + off) : 0;
		if (off <= ctx->size)
			((__u8 *)w)[n] = 0x80;
		if (i == ctx->nblocks - 1) {
			w[14] = bpf_htonl(ctx->size >> 29);
			w[15] = bpf_htonl(ctx->size << 3);
		}
	}
	if (err) {
		ctx->err = err;
		return 1;
	}

	for (t = 0; t < 16; t++)
		w[t] = bpf_ntohl(w[t]);

	a = ctx->h[0];
	b = ctx->h[1];
	c = ctx->h[2];
	d = ctx->h[3];
	e = ctx->h[4];
	f = ctx->h[5];
	g = ctx->h[6];
	h = ctx->h[7];
	/*
	 * Not unrolled: unrolled, clang keeps the whole schedule in
	 * registers and spills past the 512 bytes of stack BPF allows.
	 */
#pragma clang loop unroll(disable)
	for (t = 0; t < 64; t++) {
		wt = w[t & 15];
		if (t >= 16) {
			wt += seclvl_sha256_s1(w[(t - 2) & 15]) + w[(t - 7) & 15] +
			      seclvl_sha256_s0(w[(t - 15) & 15]);
			w[t & 15] = wt;
		}
		t1 = h + seclvl_sha256_S1(e) + (g ^ (e & (f ^ g))) +
		     seclvl_sha256_k[t] + wt;
		t2 = seclvl_sha256_S0(a) + ((a & b) | (c & (a | b)));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}

	ctx->h[0] += a;
	ctx->h[1] += b;
	ctx->h[2] += c;
	ctx->h[3] += d;
	ctx->h[4] += e;
	ctx->h[5] += f;
	ctx->h[6] += g;
	ctx->h[7] += h;
	return 0;
}

/**
 * seclvl_sha256 - SHA-256 of a buffer in kernel memory
 * @kbuf: kernel address of the data, read with bpf_probe_read_kernel()
 * @size: its length in bytes, at most SECLVL_SHA256_MAX_SIZE
 * @digest: where the 32-byte digest goes
 *
 * Takes one bpf_loop() iteration per 64 bytes and about 200 bytes of
 * stack beyond the caller's; allowed in non-sleepable programs.
 *
 * Return: 0, or -E2BIG if @size is too large, or the error of a failed
 * read (the buffer was not all readable); @digest is undefined then.
 */
static __always_inline int seclvl_sha256(const void *kbuf, __u64 size,
					 __u8 digest[SECLVL_SHA256_DIGEST_SIZE])
{
	struct seclvl_sha256_ctx ctx = {
		.kbuf = kbuf,
		.size = size,
		/* Data, then at least 9 bytes: 0x80 and the 64-bit length. */
		.nblocks = (size + 8) / SECLVL_SHA256_BLOCK_SIZE + 1,
		.h = {
			0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
		},
	};
	long ret;
	int j;

	if (size > SECLVL_SHA256_MAX_SIZE)
		return -E2BIG;
	ret = bpf_loop(ctx.nblocks, seclvl_sha256_block, &ctx, 0);
	if (ctx.err)
		return ctx.err;
	/* Cannot happen with the limit above, unless bpf_loop changes. */
	if (ret != ctx.nblocks)
		return ret < 0 ? ret : -E2BIG;
	/* Byte stores: @digest need not be aligned, and BPF insists. */
	for (j = 0; j < 8; j++) {
		digest[4 * j] = ctx.h[j] >> 24;
		digest[4 * j + 1] = ctx.h[j] >> 16;
		digest[4 * j + 2] = ctx.h[j] >> 8;
		digest[4 * j + 3] = ctx.h[j];
	}
	return 0;
}

#endif /* _SECLVL_SHA256_BPF_H */
