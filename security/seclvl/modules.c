// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the list of module images
 *
 * While the modules restriction applies, a module loads if, and only if,
 * the SHA-256 of its image, as the kernel read it from the file or from
 * user memory (compressed or not), is on a list the administrator wrote
 * while the level was <= 0.  The list names code, not places: a file
 * swapped after the check is judged by the bytes that are loaded.  With
 * an empty list, the restriction refuses every load, as before.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <crypto/sha2.h>
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "seclvl.h"

#define SECLVL_DIGEST_PREFIX "sha256:"

struct seclvl_module {
	u8 digest[SHA256_DIGEST_SIZE];
	char name[SECLVL_MODULE_NAME_MAX + 1];
	atomic_long_t loads;
};

/*
 * Changed under seclvl_lock (after the level check) and this lock; read
 * under this lock alone.  From level 1 nobody changes it.
 */
static DEFINE_MUTEX(seclvl_modules_lock);
static struct seclvl_module *seclvl_modules;
static unsigned int seclvl_nr_modules, seclvl_modules_room;

/**
 * seclvl_modules_listed - whether the list of module images has entries
 *
 * Return: true if a module load is judged by its digest rather than
 * refused outright while the modules restriction applies.
 */
bool seclvl_modules_listed(void)
{
	return READ_ONCE(seclvl_nr_modules) > 0;
}

/**
 * seclvl_parse_module - parse a write to the modules file
 * @buf: the text, NUL-terminated at @len
 * @len: its length
 * @digest: set to the digest named
 * @name: set to the name that follows it, or to ""; room for
 *        %SECLVL_MODULE_NAME_MAX characters and the NUL
 *
 * The text is "sha256:<64 hex digits>", optionally followed by one space
 * and a name of letters, digits, '_' and '-', and by a newline: one entry
 * per write.
 *
 * Return: 0 or -EINVAL.
 */
int seclvl_parse_module(const char *buf, size_t len, u8 *digest, char *name)
{
	const size_t prefix = strlen(SECLVL_DIGEST_PREFIX);
	const size_t hex = 2 * SHA256_DIGEST_SIZE;
	size_t i, name_len;

	if (len == 0 || len > SECLVL_MODULE_WRITE_MAX || strnlen(buf, len) != len)
		return -EINVAL;
	if (buf[len - 1] == '\n')
		len--;
	if (len < prefix + hex || strncmp(buf, SECLVL_DIGEST_PREFIX, prefix))
		return -EINVAL;
	buf += prefix;
	len -= prefix;
	for (i = 0; i < hex; i++)
		if (!isxdigit(buf[i]))
			return -EINVAL;
	if (hex2bin(digest, buf, SHA256_DIGEST_SIZE))
		return -EINVAL;
	buf += hex;
	len -= hex;
	name[0] = '\0';
	if (len == 0)
		return 0;
	name_len = len - 1;
	if (buf[0] != ' ' || name_len == 0 || name_len > SECLVL_MODULE_NAME_MAX)
		return -EINVAL;
	for (i = 1; i <= name_len; i++)
		if (!isalnum(buf[i]) && buf[i] != '_' && buf[i] != '-')
			return -EINVAL;
	memcpy(name, buf + 1, name_len);
	name[name_len] = '\0';
	return 0;
}

static struct seclvl_module *seclvl_find_module(const u8 *digest)
{
	unsigned int i;

	lockdep_assert_held(&seclvl_modules_lock);
	for (i = 0; i < seclvl_nr_modules; i++)
		if (!memcmp(seclvl_modules[i].digest, digest,
			    SHA256_DIGEST_SIZE))
			return &seclvl_modules[i];
	return NULL;
}

static int seclvl_add_module(const u8 *digest, const char *name)
{
	struct seclvl_module *list, *m;

	if (seclvl_find_module(digest))
		return -EEXIST;
	if (seclvl_nr_modules >= SECLVL_MODULES_MAX)
		return -ENOSPC;
	/* Room doubles: --all writes thousands of entries one by one. */
	if (seclvl_nr_modules == seclvl_modules_room) {
		unsigned int room = max(16U, 2 * seclvl_modules_room);

		list = kvrealloc(seclvl_modules, room * sizeof(*list),
				 GFP_KERNEL);
		if (!list)
			return -ENOMEM;
		seclvl_modules = list;
		seclvl_modules_room = room;
	}
	list = seclvl_modules;
	m = &list[seclvl_nr_modules];
	memcpy(m->digest, digest, SHA256_DIGEST_SIZE);
	strscpy(m->name, name);
	atomic_long_set(&m->loads, 0);
	WRITE_ONCE(seclvl_nr_modules, seclvl_nr_modules + 1);
	return 0;
}

static bool seclvl_is_clear(const char *buf, size_t len)
{
	return len == 0 || (len == 1 && buf[0] == '\n');
}

/**
 * seclvl_write_module - what a write to the modules file does
 * @buf: the text written, NUL-terminated at @len
 * @len: its length
 *
 * Adds one entry, or, for an empty line, empties the list.  The list
 * changes only while the level is <= 0, like the policy rows.
 *
 * Return: 0, -EPERM without CAP_SYS_ADMIN or at level >= 1, -EINVAL for a
 * bad line, -EEXIST for a digest already listed, -ENOSPC when the list is
 * full, -ENOMEM.
 */
int seclvl_write_module(char *buf, size_t len)
{
	char name[SECLVL_MODULE_NAME_MAX + 1];
	u8 digest[SHA256_DIGEST_SIZE];
	bool clear = seclvl_is_clear(buf, len);
	int err = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (seclvl_current() > 0) {
		seclvl_audit_frozen(clear ? "clear_modules" : "add_module");
		return -EPERM;
	}
	if (!clear) {
		err = seclvl_parse_module(buf, len, digest, name);
		if (err)
			return err;
	}

	mutex_lock(&seclvl_lock);
	mutex_lock(&seclvl_modules_lock);
	if (seclvl_level > 0) {
		err = -EPERM;
	} else if (clear) {
		WRITE_ONCE(seclvl_nr_modules, 0);
		kvfree(seclvl_modules);
		seclvl_modules = NULL;
		seclvl_modules_room = 0;
		pr_notice("modules: list emptied (pid %d comm %s)\n",
			  task_pid_nr(current), current->comm);
		seclvl_audit_module(NULL, NULL);
	} else {
		err = seclvl_add_module(digest, name);
		if (!err) {
			pr_notice("modules: added sha256:%*phN %s (pid %d comm %s)\n",
				  SHA256_DIGEST_SIZE, digest, name,
				  task_pid_nr(current), current->comm);
			seclvl_audit_module(digest, name);
		}
	}
	mutex_unlock(&seclvl_modules_lock);
	mutex_unlock(&seclvl_lock);
	return err;
}

/**
 * seclvl_show_modules - the text of the modules file
 * @m: the seq_file to write it to
 * @v: unused
 *
 * One line per entry: "sha256:<hex> <name or -> <loads allowed>".
 *
 * Return: 0.
 */
int seclvl_show_modules(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&seclvl_modules_lock);
	for (i = 0; i < seclvl_nr_modules; i++) {
		const struct seclvl_module *e = &seclvl_modules[i];

		seq_printf(m, SECLVL_DIGEST_PREFIX "%*phN %s %ld\n",
			   SHA256_DIGEST_SIZE, e->digest, e->name[0] ? e->name : "-",
			   atomic_long_read(&e->loads));
	}
	mutex_unlock(&seclvl_modules_lock);
	return 0;
}

/**
 * seclvl_check_module - judge a module image the kernel has read
 * @buf: the image, as read from the file or user memory
 * @size: its length
 * @file: the file it was read from, or NULL for init_module(2)
 *
 * Called while the modules restriction applies, before the kernel
 * decompresses or parses the image.
 *
 * Return: 0 if its SHA-256 is listed, else -EPERM, counted and logged with
 * the digest so that an administrator can list it.
 */
int seclvl_check_module(const void *buf, size_t size, struct file *file)
{
	u8 digest[SHA256_DIGEST_SIZE];
	struct seclvl_module *e;

	/* sha256() takes an unsigned int; no module image comes near. */
	if (size > UINT_MAX)
		return seclvl_deny(SECLVL_MODULES, true,
				   "module load of a %zu-byte image", size);
	sha256(buf, size, digest);
	mutex_lock(&seclvl_modules_lock);
	e = seclvl_find_module(digest);
	if (e)
		atomic_long_inc(&e->loads);
	mutex_unlock(&seclvl_modules_lock);
	if (e)
		return 0;
	if (file)
		return seclvl_deny(SECLVL_MODULES, true,
				   "module load of %pD, sha256:%*phN, not listed",
				   file, SHA256_DIGEST_SIZE, digest);
	return seclvl_deny(SECLVL_MODULES, true,
			   "module load from memory, sha256:%*phN, not listed",
			   SHA256_DIGEST_SIZE, digest);
}

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

#define HEX_A "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void test_parse_module_ok(struct kunit *const test)
{
	static const struct {
		const char *text;
		const char *name;
	} cases[] = {
		{ "sha256:" HEX_A, "" },
		{ "sha256:" HEX_A "\n", "" },
		{ "sha256:" HEX_A " dummy", "dummy" },
		{ "sha256:" HEX_A " nf_conntrack-2\n", "nf_conntrack-2" },
		{ "sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855 x",
		  "x" },
	};
	static const u8 want[SHA256_DIGEST_SIZE] = {
		0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14,
		0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
		0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c,
		0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char name[SECLVL_MODULE_NAME_MAX + 1] = "junk";
		u8 digest[SHA256_DIGEST_SIZE] = {};

		KUNIT_EXPECT_EQ_MSG(test, 0,
				    seclvl_parse_module(cases[i].text,
							strlen(cases[i].text),
							digest, name),
				    "\"%s\"", cases[i].text);
		KUNIT_EXPECT_MEMEQ(test, want, digest, SHA256_DIGEST_SIZE);
		KUNIT_EXPECT_STREQ(test, cases[i].name, name);
	}
}

static void test_parse_module_bad(struct kunit *const test)
{
	static const char *const cases[] = {
		"", "\n", "sha256:", HEX_A, "sha256 " HEX_A, "SHA256:" HEX_A,
		"sha1:" HEX_A, "sha256:" HEX_A "0", "sha256:" HEX_A "\n\n",
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85",
		"sha256:g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"sha256:" HEX_A " ", "sha256:" HEX_A "  x", "sha256:" HEX_A "\tx",
		"sha256:" HEX_A " a b", "sha256:" HEX_A " a/b", "sha256:" HEX_A " a.ko",
		" sha256:" HEX_A, "sha256:" HEX_A " x\nsha256:" HEX_A,
	};
	static const char nul[] = "sha256:" HEX_A "\0x";
	char name[SECLVL_MODULE_NAME_MAX + 1], line[SECLVL_MODULE_WRITE_MAX + 2];
	u8 digest[SHA256_DIGEST_SIZE];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    seclvl_parse_module(cases[i],
							strlen(cases[i]),
							digest, name),
				    "\"%s\"", cases[i]);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			seclvl_parse_module(nul, sizeof(nul) - 1, digest,
					    name));
	/* A name one longer than a module's may be; then as long. */
	i = scnprintf(line, sizeof(line), "sha256:" HEX_A " ");
	memset(line + i, 'a', SECLVL_MODULE_NAME_MAX + 1);
	line[i + SECLVL_MODULE_NAME_MAX + 1] = '\0';
	KUNIT_EXPECT_EQ(test, -EINVAL,
			seclvl_parse_module(line, strlen(line), digest, name));
	line[i + SECLVL_MODULE_NAME_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_parse_module(line, strlen(line), digest, name));
}

/* The digest is of the bytes given: the empty image's is HEX_A. */
static void test_digest(struct kunit *const test)
{
	u8 want[SHA256_DIGEST_SIZE], digest[SHA256_DIGEST_SIZE];

	KUNIT_ASSERT_EQ(test, 0, hex2bin(want, HEX_A, SHA256_DIGEST_SIZE));
	sha256(NULL, 0, digest);
	KUNIT_EXPECT_MEMEQ(test, want, digest, SHA256_DIGEST_SIZE);
	sha256((const u8 *)"abc", 3, digest);
	KUNIT_EXPECT_MEMNEQ(test, want, digest, SHA256_DIGEST_SIZE);
}

/*
 * A listed image is let through and counted.  Runs at boot, at level 0,
 * before anyone can write the modules file; leaves the list empty.
 */
static void test_listed_image(struct kunit *const test)
{
	u8 digest[SHA256_DIGEST_SIZE];
	struct seclvl_module *e;

	sha256((const u8 *)"abc", 3, digest);
	mutex_lock(&seclvl_modules_lock);
	KUNIT_ASSERT_EQ(test, 0, seclvl_nr_modules);
	KUNIT_EXPECT_EQ(test, 0, seclvl_add_module(digest, "abc"));
	KUNIT_EXPECT_EQ(test, -EEXIST, seclvl_add_module(digest, "abc"));
	mutex_unlock(&seclvl_modules_lock);
	KUNIT_EXPECT_TRUE(test, seclvl_modules_listed());

	KUNIT_EXPECT_EQ(test, 0, seclvl_check_module("abc", 3, NULL));
	mutex_lock(&seclvl_modules_lock);
	e = seclvl_find_module(digest);
	KUNIT_EXPECT_NOT_NULL(test, e);
	if (e)
		KUNIT_EXPECT_EQ(test, 1, atomic_long_read(&e->loads));
	sha256((const u8 *)"abd", 3, digest);
	KUNIT_EXPECT_NULL(test, seclvl_find_module(digest));
	WRITE_ONCE(seclvl_nr_modules, 0);
	kvfree(seclvl_modules);
	seclvl_modules = NULL;
	seclvl_modules_room = 0;
	mutex_unlock(&seclvl_modules_lock);
}

static struct kunit_case modules_test_cases[] = {
	KUNIT_CASE(test_parse_module_ok),
	KUNIT_CASE(test_parse_module_bad),
	KUNIT_CASE(test_digest),
	KUNIT_CASE(test_listed_image),
	{}
};

static struct kunit_suite modules_test_suite = {
	.name = "seclvl_modules",
	.test_cases = modules_test_cases,
};

kunit_test_suite(modules_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
