// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the level and the rules that change it
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "seclvl.h"

int seclvl_level __read_mostly;

/* Serializes changes of the level, the policy rows and the escape. */
DEFINE_MUTEX(seclvl_lock);
static int seclvl_boot_level;

/**
 * seclvl_transition - decide whether the secure level may change
 * @cur: the current level
 * @new: the requested level
 * @origin: who asks
 * @privileged: whether the asker has CAP_SYS_ADMIN in the initial user
 *              namespace; only writes need it
 *
 * Every change of the level is decided here and nowhere else.
 *
 * Return: 0 if the level may become @new (there is nothing to do when it
 * equals @cur), -EINVAL if @new is not a level, -EPERM if it is refused.
 */
int seclvl_transition(int cur, int new, enum seclvl_origin origin,
		      bool privileged)
{
	if (new < SECLVL_MIN || new > SECLVL_MAX)
		return -EINVAL;
	if (origin == SECLVL_ORIGIN_BOOT)
		return 0;
	/* The escape brings a raised level back to 0 and never raises -1. */
	if (origin == SECLVL_ORIGIN_ESCAPE)
		return new == 0 && cur >= 0 ? 0 : -EPERM;
	if (!privileged)
		return -EPERM;
	if (new != cur && (cur < 0 || new < cur))
		return -EPERM;
	return 0;
}

/**
 * seclvl_parse_level - parse a level as written to a level interface
 * @buf: the text, NUL-terminated at @len
 * @len: its length
 * @level: set to the decimal integer read
 *
 * An optional trailing newline is taken; anything else around the number,
 * an embedded NUL or a number that does not fit an int is not.
 *
 * Return: 0 or -EINVAL.
 */
int seclvl_parse_level(const char *buf, size_t len, int *level)
{
	if (len == 0 || len > SECLVL_LEVEL_WRITE_MAX || strnlen(buf, len) != len)
		return -EINVAL;
	return kstrtoint(buf, 10, level) ? -EINVAL : 0;
}

static const char *const seclvl_origin_names[] = {
	[SECLVL_ORIGIN_BOOT] = "boot parameter",
	[SECLVL_ORIGIN_WRITE] = "write",
	[SECLVL_ORIGIN_ESCAPE] = "EMERGENCY ESCAPE",
};

/**
 * seclvl_set_level - change the secure level
 * @new: the requested level
 * @origin: who asks
 *
 * Writers are serialized, so concurrent raises end at the highest level
 * any of them was allowed to set.  Hooks read the level without a lock.
 *
 * Return: 0 on success or when @new is the current level, -EINVAL if @new
 * is not a level, -EPERM if the change is refused.
 */
int seclvl_set_level(int new, enum seclvl_origin origin)
{
	bool privileged = origin != SECLVL_ORIGIN_WRITE ||
			  capable(CAP_SYS_ADMIN);
	int cur, err;

	mutex_lock(&seclvl_lock);
	cur = seclvl_level;
	err = seclvl_transition(cur, new, origin, privileged);
	if (!err && new != cur) {
		/* Every CPU calls the hooks before any sees the new level. */
		seclvl_enable_hooks(new);
		WRITE_ONCE(seclvl_level, new);
		if (origin == SECLVL_ORIGIN_ESCAPE)
			pr_alert("level changed from %d to %d by %s (pid %d comm %s)\n",
				 cur, new, seclvl_origin_names[origin],
				 task_pid_nr(current), current->comm);
		else
			pr_notice("level changed from %d to %d by %s (pid %d comm %s)\n",
				  cur, new, seclvl_origin_names[origin],
				  task_pid_nr(current), current->comm);
	}
	mutex_unlock(&seclvl_lock);
	/* The boot parameter's level is recorded once audit is up. */
	if ((err || new != cur) && origin != SECLVL_ORIGIN_BOOT)
		seclvl_audit_level(cur, new, origin, err);
	return err;
}

/**
 * seclvl_write_level - what a write to any level interface does
 * @buf: the text written, NUL-terminated at @len
 * @len: its length
 *
 * Return: 0, -EINVAL for a bad value or -EPERM for a refused change.
 */
int seclvl_write_level(char *buf, size_t len)
{
	int level, err;

	err = seclvl_parse_level(buf, len, &level);
	if (err)
		return err;
	return seclvl_set_level(level, SECLVL_ORIGIN_WRITE);
}

static int seclvl_param_set(const char *val, const struct kernel_param *kp)
{
	int level;

	if (seclvl_parse_level(val, strlen(val), &level) ||
	    seclvl_transition(0, level, SECLVL_ORIGIN_BOOT, true)) {
		pr_err("invalid seclvl.level=%s, using 0\n", val);
		level = 0;
	}
	*(int *)kp->arg = level;
	return 0;
}

static const struct kernel_param_ops seclvl_param_ops = {
	.set = seclvl_param_set,
	.get = param_get_int,
};

/* Read once at boot, so not in sysfs (perm 0). */
module_param_cb(level, &seclvl_param_ops, &seclvl_boot_level, 0);
MODULE_PARM_DESC(level, "Secure level at boot: -1, 0 (default), 1 or 2");

void __init seclvl_init_level(void)
{
	seclvl_set_level(seclvl_boot_level, SECLVL_ORIGIN_BOOT);
	pr_info("initialized at level %d\n", seclvl_current());
}

/* Audit starts after the LSMs: record the boot parameter's level then. */
static int __init seclvl_audit_boot_level(void)
{
	if (seclvl_initialized && seclvl_boot_level)
		seclvl_audit_level(0, seclvl_boot_level, SECLVL_ORIGIN_BOOT, 0);
	return 0;
}
late_initcall(seclvl_audit_boot_level);

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

struct transition_case {
	int cur, new;
	enum seclvl_origin origin;
	bool privileged;
	int expected;
};

static const struct transition_case transition_cases[] = {
	/* Raising, and writing the current value. */
	{ 0, 1, SECLVL_ORIGIN_WRITE, true, 0 },
	{ 0, 2, SECLVL_ORIGIN_WRITE, true, 0 },
	{ 1, 2, SECLVL_ORIGIN_WRITE, true, 0 },
	{ 0, 0, SECLVL_ORIGIN_WRITE, true, 0 },
	{ 1, 1, SECLVL_ORIGIN_WRITE, true, 0 },
	{ 2, 2, SECLVL_ORIGIN_WRITE, true, 0 },
	{ -1, -1, SECLVL_ORIGIN_WRITE, true, 0 },
	/* Lowering, and leaving -1. */
	{ 0, -1, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ 1, 0, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ 1, -1, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ 2, 1, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ 2, 0, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ 2, -1, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ -1, 0, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ -1, 1, SECLVL_ORIGIN_WRITE, true, -EPERM },
	{ -1, 2, SECLVL_ORIGIN_WRITE, true, -EPERM },
	/* Out of range, whoever asks. */
	{ 0, 3, SECLVL_ORIGIN_WRITE, true, -EINVAL },
	{ 0, -2, SECLVL_ORIGIN_WRITE, true, -EINVAL },
	{ 0, INT_MAX, SECLVL_ORIGIN_WRITE, false, -EINVAL },
	{ 0, INT_MIN, SECLVL_ORIGIN_BOOT, true, -EINVAL },
	{ 2, 3, SECLVL_ORIGIN_ESCAPE, true, -EINVAL },
	/* Without CAP_SYS_ADMIN nothing is written, not even the same value. */
	{ 0, 1, SECLVL_ORIGIN_WRITE, false, -EPERM },
	{ 0, 0, SECLVL_ORIGIN_WRITE, false, -EPERM },
	/* The boot parameter sets any level. */
	{ 0, -1, SECLVL_ORIGIN_BOOT, true, 0 },
	{ 0, 2, SECLVL_ORIGIN_BOOT, true, 0 },
	/* The escape only brings a level >= 0 back to 0. */
	{ 2, 0, SECLVL_ORIGIN_ESCAPE, true, 0 },
	{ 1, 0, SECLVL_ORIGIN_ESCAPE, true, 0 },
	{ 0, 0, SECLVL_ORIGIN_ESCAPE, true, 0 },
	{ -1, 0, SECLVL_ORIGIN_ESCAPE, true, -EPERM },
	{ 2, 1, SECLVL_ORIGIN_ESCAPE, true, -EPERM },
	{ 1, 2, SECLVL_ORIGIN_ESCAPE, true, -EPERM },
};

static void test_transition(struct kunit *const test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(transition_cases); i++) {
		const struct transition_case *c = &transition_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, c->expected,
				    seclvl_transition(c->cur, c->new, c->origin,
						      c->privileged),
				    "case %zu: %d -> %d origin %d privileged %d",
				    i, c->cur, c->new, c->origin, c->privileged);
	}
}

/* A level never goes down through a write, from any start, to any value. */
static void test_transition_monotonic(struct kunit *const test)
{
	int cur, new;

	for (cur = SECLVL_MIN; cur <= SECLVL_MAX; cur++) {
		for (new = SECLVL_MIN - 2; new <= SECLVL_MAX + 2; new++) {
			int err = seclvl_transition(cur, new, SECLVL_ORIGIN_WRITE,
						    true);

			if (!err)
				KUNIT_EXPECT_TRUE(test, new == cur ||
						  (cur >= 0 && new > cur));
		}
	}
}

static void test_parse_level_ok(struct kunit *const test)
{
	static const struct {
		const char *text;
		int level;
	} cases[] = {
		{ "0", 0 }, { "1", 1 }, { "2", 2 }, { "-1", -1 },
		{ "1\n", 1 }, { "-1\n", -1 }, { "+2", 2 }, { "3", 3 },
		{ "-7\n", -7 }, { "007", 7 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int level = 42;

		KUNIT_EXPECT_EQ_MSG(test, 0,
				    seclvl_parse_level(cases[i].text,
						       strlen(cases[i].text),
						       &level),
				    "\"%s\"", cases[i].text);
		KUNIT_EXPECT_EQ(test, cases[i].level, level);
	}
}

static void test_parse_level_bad(struct kunit *const test)
{
	static const char *const cases[] = {
		"", "\n", " 1", "1 ", "1\n\n", "\n1", "x", "1x", "0x1",
		"1.0", "--1", "99999999999", "-99999999999", "1\t",
		"00000000000000001",
	};
	static const char nul[] = { '1', '\0', '2' };
	size_t i;
	int level;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    seclvl_parse_level(cases[i], strlen(cases[i]),
						       &level),
				    "\"%s\"", cases[i]);
	/* An embedded NUL must not hide trailing garbage. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			seclvl_parse_level(nul, sizeof(nul), &level));
}

static struct kunit_case level_test_cases[] = {
	KUNIT_CASE(test_transition),
	KUNIT_CASE(test_transition_monotonic),
	KUNIT_CASE(test_parse_level_ok),
	KUNIT_CASE(test_parse_level_bad),
	{}
};

static struct kunit_suite level_test_suite = {
	.name = "seclvl_level",
	.test_cases = level_test_cases,
};

kunit_test_suite(level_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
