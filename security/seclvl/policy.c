// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the policy table and refusals
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "seclvl.h"

/* What each restriction refuses, and from which level: restrictions.h. */
struct seclvl_rule seclvl_rules[SECLVL_NR_RESTRICTIONS] = {
#define SECLVL_RESTRICTION(id, rule_name, rule_level) \
	[SECLVL_##id] = { .name = rule_name, .level = rule_level },
#include "restrictions.h"
#undef SECLVL_RESTRICTION
};

static int seclvl_refuse_rule(struct seclvl_rule *rule, int level, bool audit,
			      const char *fmt, va_list *args)
{
	struct va_format vaf = { .fmt = fmt, .va = args };

	if (!audit)
		return -EPERM;
	atomic_long_inc(&rule->denials);
	if (!__ratelimit(&rule->rs)) {
		/* Not logged, but summed up when the rate limit's window ends. */
		atomic_long_inc(&rule->unlogged);
		schedule_delayed_work(&rule->summary, DEFAULT_RATELIMIT_INTERVAL);
		return -EPERM;
	}
	pr_notice("denied %s at level %d: %pV (pid %d comm %s)\n", rule->name,
		  level, &vaf, task_pid_nr(current), current->comm);
	seclvl_audit_denied(rule->name, level, &vaf);
	return -EPERM;
}

/*
 * A storm of refusals logs a burst, then one line per window with the
 * number left out, so that the log accounts for every refusal.  A refusal
 * counted after the exchange queues the work again.
 */
static void seclvl_log_unlogged(struct work_struct *work)
{
	struct seclvl_rule *rule = container_of(to_delayed_work(work),
						struct seclvl_rule, summary);
	long n = atomic_long_xchg(&rule->unlogged, 0);

	if (n) {
		pr_notice("%ld more refusals of %s not logged (rate limit)\n",
			  n, rule->name);
		seclvl_audit_unlogged(rule->name, n);
	}
}

static void seclvl_init_rule_log(struct seclvl_rule *rule, int burst)
{
	ratelimit_state_init(&rule->rs, DEFAULT_RATELIMIT_INTERVAL, burst);
	/* seclvl_log_unlogged() says what was left out, naming the rule. */
	ratelimit_set_flags(&rule->rs, RATELIMIT_MSG_ON_RELEASE);
	INIT_DELAYED_WORK(&rule->summary, seclvl_log_unlogged);
}

/**
 * __seclvl_deny - count and log a refusal, rate-limited
 * @r: the restriction that refuses it
 * @level: the secure level the decision was made at
 * @audit: false for checks the caller asked not to audit; those are
 *         neither counted nor logged
 * @fmt: what was refused, printf-style
 *
 * The report half of seclvl_deny(), which is the one to call.  Safe in
 * atomic context: it only takes the rate limit's raw spinlock.
 *
 * Return: -EPERM.
 */
int __seclvl_deny(enum seclvl_restriction r, int level, bool audit,
		  const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = seclvl_refuse_rule(&seclvl_rules[r], level, audit, fmt, &args);
	va_end(args);
	return ret;
}

static const char *seclvl_rule_level_name(int level)
{
	static const char *const names[] = { "0", "1", "2", "off" };

	return level >= 0 && level <= SECLVL_OFF ? names[level] : "?";
}

/**
 * seclvl_parse_rule - parse a write to the policy file
 * @buf: the text, NUL-terminated at @len
 * @len: its length
 * @r: set to the restriction named
 * @level: set to its new level, 1, 2 or %SECLVL_OFF
 *
 * The text is "<name> <1|2|off>" with one space and an optional trailing
 * newline: one row per write.
 *
 * Return: 0 or -EINVAL.
 */
int seclvl_parse_rule(const char *buf, size_t len,
		      enum seclvl_restriction *r, int *level)
{
	const char *value;
	size_t name_len, value_len, i;

	if (len == 0 || len > SECLVL_RULE_WRITE_MAX || strnlen(buf, len) != len)
		return -EINVAL;
	if (buf[len - 1] == '\n')
		len--;
	value = strnchr(buf, len, ' ');
	if (!value)
		return -EINVAL;
	name_len = value - buf;
	value++;
	value_len = len - name_len - 1;

	if (value_len == 1 && (value[0] == '1' || value[0] == '2'))
		*level = value[0] - '0';
	else if (value_len == 3 && !strncmp(value, "off", 3))
		*level = SECLVL_OFF;
	else
		return -EINVAL;

	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++) {
		if (strlen(seclvl_rules[i].name) == name_len &&
		    !strncmp(seclvl_rules[i].name, buf, name_len)) {
			*r = i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * seclvl_write_rule - what a write to the policy file does
 * @buf: the text written, NUL-terminated at @len
 * @len: its length
 *
 * Rows change only while the level is <= 0, so the rules in force at
 * level 1 and 2 are the ones in place when the level was raised.
 *
 * Return: 0, -EPERM without CAP_SYS_ADMIN or at level >= 1, -EINVAL for a
 * bad row.
 */
int seclvl_write_rule(char *buf, size_t len)
{
	enum seclvl_restriction r;
	int level, old, err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (seclvl_current() > 0) {
		seclvl_audit_frozen("set_policy");
		return -EPERM;
	}
	err = seclvl_parse_rule(buf, len, &r, &level);
	if (err)
		return err;

	mutex_lock(&seclvl_lock);
	if (seclvl_level > 0) {
		err = -EPERM;
	} else {
		old = seclvl_rules[r].level;
		WRITE_ONCE(seclvl_rules[r].level, level);
		pr_notice("policy: %s changed from %s to %s (pid %d comm %s)\n",
			  seclvl_rules[r].name, seclvl_rule_level_name(old),
			  seclvl_rule_level_name(level), task_pid_nr(current),
			  current->comm);
		seclvl_audit_rule(seclvl_rules[r].name,
				  seclvl_rule_level_name(old),
				  seclvl_rule_level_name(level));
	}
	mutex_unlock(&seclvl_lock);
	return err;
}

/**
 * seclvl_applying - the restrictions that apply at a level
 * @level: a secure level
 *
 * Called with seclvl_lock held, which keeps the rules as they are.
 *
 * Return: the restrictions whose rule is @level or below, as
 * BIT(restriction); none at levels below 1.
 */
unsigned long seclvl_applying(int level)
{
	unsigned long applying = 0;
	size_t i;

	BUILD_BUG_ON(SECLVL_NR_RESTRICTIONS > BITS_PER_LONG);
	lockdep_assert_held(&seclvl_lock);
	if (level <= 0)
		return 0;
	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++)
		if (level >= seclvl_rules[i].level)
			applying |= BIT(i);
	return applying;
}

/**
 * seclvl_format_policy - the text of the policy file
 * @buf: where to write it
 * @size: room in @buf
 *
 * One line per restriction: "<name> <level|off> <denials>".
 *
 * Return: the length written.
 */
size_t seclvl_format_policy(char *buf, size_t size)
{
	size_t len = 0, i;

	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++) {
		const struct seclvl_rule *rule = &seclvl_rules[i];

		len += scnprintf(buf + len, size - len, "%s %s %ld\n",
				 rule->name,
				 seclvl_rule_level_name(READ_ONCE(rule->level)),
				 atomic_long_read(&rule->denials));
	}
	return len;
}

void __init seclvl_init_rules(void)
{
	size_t i;

	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++)
		seclvl_init_rule_log(&seclvl_rules[i], DEFAULT_RATELIMIT_BURST);
}

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_rules_table(struct kunit *const test)
{
	static const char *const names[SECLVL_NR_RESTRICTIONS] = {
		"ptrace_init", "immutable", "rawio", "net_admin", "setuid",
		"modules", "mounted_blockdev_write", "devmem_write",
		"setid_bits", "time_backward", "blockdev_write", "umount",
		"kexec", "suid_mount", "lockdown_integrity",
		"lockdown_confidentiality",
	};
	static const int levels[SECLVL_NR_RESTRICTIONS] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, SECLVL_OFF,
	};
	size_t i, j;

	/* Runs at boot, before anyone can write the policy file. */
	for (i = 0; i < SECLVL_NR_RESTRICTIONS; i++) {
		KUNIT_ASSERT_NOT_NULL(test, seclvl_rules[i].name);
		KUNIT_EXPECT_STREQ(test, names[i], seclvl_rules[i].name);
		KUNIT_EXPECT_EQ(test, levels[i], seclvl_rules[i].level);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, seclvl_rules[i].name,
					    seclvl_rules[j].name);
	}
}

static void test_parse_rule_ok(struct kunit *const test)
{
	static const struct {
		const char *text;
		enum seclvl_restriction r;
		int level;
	} cases[] = {
		{ "setuid off", SECLVL_SETUID, SECLVL_OFF },
		{ "setuid off\n", SECLVL_SETUID, SECLVL_OFF },
		{ "umount 1", SECLVL_UMOUNT, 1 },
		{ "ptrace_init 2\n", SECLVL_PTRACE_INIT, 2 },
		{ "mounted_blockdev_write 2", SECLVL_MOUNTED_BLOCKDEV_WRITE, 2 },
		{ "lockdown_confidentiality 1\n",
		  SECLVL_LOCKDOWN_CONFIDENTIALITY, 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum seclvl_restriction r = SECLVL_NR_RESTRICTIONS;
		int level = -42;

		KUNIT_EXPECT_EQ_MSG(test, 0,
				    seclvl_parse_rule(cases[i].text,
						      strlen(cases[i].text),
						      &r, &level),
				    "\"%s\"", cases[i].text);
		KUNIT_EXPECT_EQ(test, cases[i].r, r);
		KUNIT_EXPECT_EQ(test, cases[i].level, level);
	}
}

static void test_parse_rule_bad(struct kunit *const test)
{
	static const char *const cases[] = {
		"", "\n", "setuid", "setuid ", "setuid 0", "setuid 3",
		"setuid -1", "setuid on", "setuid OFF", "setuid  1",
		" setuid 1", "setuid 1 ", "setuid\t1", "setuid 1\n\n",
		"setui 1", "setuidd 1", "SETUID 1", "nosuch off",
		"setuid 1\nrawio 1", "setuid 11", "setuid offf",
		"setuid off setuid off setuid off setuid off setuid off setuid off",
	};
	static const char nul[] = { 's', 'e', 't', 'u', 'i', 'd', ' ', '1',
				    '\0', 'x' };
	enum seclvl_restriction r;
	size_t i;
	int level;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    seclvl_parse_rule(cases[i], strlen(cases[i]),
						      &r, &level),
				    "\"%s\"", cases[i]);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			seclvl_parse_rule(nul, sizeof(nul), &r, &level));
}

static __printf(4, 5) int refuse_rule(struct seclvl_rule *rule, int level,
				       bool audit, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = seclvl_refuse_rule(rule, level, audit, fmt, &args);
	va_end(args);
	return ret;
}

/*
 * Some callers of the hooks hold spinlocks or run with interrupts off.  A
 * burst of 0 keeps the refusal out of the kernel log, where it would read
 * as the system's own; the summary is queued, then cancelled for the same
 * reason.
 */
static void test_refuse_atomic(struct kunit *const test)
{
	struct seclvl_rule rule = { .name = "kunit_atomic", .level = 1 };
	unsigned long flags;
	bool queued;
	int ret, quiet;

	seclvl_init_rule_log(&rule, 0);
	local_irq_save(flags);
	ret = refuse_rule(&rule, 1, true, "with interrupts off");
	quiet = refuse_rule(&rule, 1, false, "not audited");
	local_irq_restore(flags);
	queued = cancel_delayed_work_sync(&rule.summary);
	KUNIT_EXPECT_EQ(test, -EPERM, ret);
	KUNIT_EXPECT_EQ(test, -EPERM, quiet);
	KUNIT_EXPECT_EQ(test, 1, atomic_long_read(&rule.denials));
	KUNIT_EXPECT_EQ(test, 1, atomic_long_read(&rule.unlogged));
	KUNIT_EXPECT_TRUE(test, queued);
}

static struct kunit_case policy_test_cases[] = {
	KUNIT_CASE(test_refuse_atomic),
	KUNIT_CASE(test_rules_table),
	KUNIT_CASE(test_parse_rule_ok),
	KUNIT_CASE(test_parse_rule_bad),
	{}
};

static struct kunit_suite policy_test_suite = {
	.name = "seclvl_policy",
	.test_cases = policy_test_cases,
};

kunit_test_suite(policy_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
