// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: many raisers at once
 *
 * Writers race through all three level files (or the BPF backend's raise
 * programs, each writer attaching the hook programs before it raises
 * above 0, as the backend's tools do) with values from -1 to 2 while
 * readers watch.  No reader may see the level go down, every write
 * must be decided by the level it met, and the level ends at the highest
 * value any writer set.  This raises the level: the guest runs it from
 * level 0 or 1, in the boot that goes on to test level 2.  And a raise
 * to 1 or 2 is watched: no one may see the new level before its
 * restrictions apply.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <time.h>

#define WRITERS 6
#define READERS 2
#define ROUNDS 300

/* Exit status: 0, or the first rule broken. */
static int writer(unsigned int seed)
{
	int best = -2, i;

	srand(seed);
	for (i = 0; i < ROUNDS; i++) {
		/* Mostly refused values, so that the race is mostly refusals. */
		int v = (rand() % 8) - 5;
		const char *path = level_files[rand() % 3];
		char buf[8];
		int err, after;

		if (v < -1)
			v = -1;
		if (i == ROUNDS - 1 && seed % 2)
			v = 2;
		snprintf(buf, sizeof(buf), "%d\n", v);
		if (!bpf_backend())
			err = write_str(path, buf);
		else if (v > 0)
			err = bpf_attach_hooks() ?: bpf_raise(v);
		else
			err = bpf_raise(v);
		after = current_level();
		if (err == 0) {
			if (after < v)
				return 10;
			if (v > best)
				best = v;
		} else if (err == EPERM) {
			if (after <= v && after != -1)
				return 11;
		} else {
			return 12;
		}
	}
	/* Report the highest value set, shifted to be an exit status. */
	return 20 + best + 2;
}

static int reader(int stop_fd)
{
	int last = -2;
	long reads = 0;

	for (;;) {
		int level = bpf_backend() ? current_level() :
				level_from(level_files[reads % 3]);
		char c;

		if (level < -1 || level > 2)
			return 2;
		if (level < last)
			return 1;
		last = level;
		reads++;
		if (reads % 16 == 0 && read(stop_fd, &c, 1) == 0)
			return 0;
	}
}

TEST(concurrent_raisers)
{
	pid_t writers[WRITERS], readers[READERS];
	int stop[2], i, best = -2, start = current_level();

	ASSERT_TRUE(start == 0 || start == 1)
		TH_LOG("start at level 0 or 1, not %d", start);
	if (bpf_backend() && start == 0)
		ASSERT_EQ(0, bpf_freeze_list());
	ASSERT_EQ(0, pipe(stop));
	ASSERT_EQ(0, fcntl(stop[0], F_SETFL, O_NONBLOCK));

	for (i = 0; i < READERS; i++) {
		readers[i] = fork();
		ASSERT_LE(0, readers[i]);
		if (readers[i] == 0) {
			close(stop[1]);
			_exit(reader(stop[0]));
		}
	}
	close(stop[0]);
	for (i = 0; i < WRITERS; i++) {
		writers[i] = fork();
		ASSERT_LE(0, writers[i]);
		if (writers[i] == 0)
			_exit(writer(1000 + i));
	}
	for (i = 0; i < WRITERS; i++) {
		int status, code;

		ASSERT_EQ(writers[i], waitpid(writers[i], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		code = WEXITSTATUS(status);
		EXPECT_LE(20, code) TH_LOG("writer %d broke rule %d", i, code);
		if (code >= 20 && code - 22 > best)
			best = code - 22;
	}
	close(stop[1]);
	for (i = 0; i < READERS; i++) {
		int status;

		ASSERT_EQ(readers[i], waitpid(readers[i], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("reader %d saw the level go down or out of range",
			       i);
	}
	/* Odd writers end with 2: the highest value set is 2. */
	EXPECT_EQ(2, best);
	EXPECT_EQ(2, current_level());
	for (i = 0; i < 3 && !bpf_backend(); i++)
		EXPECT_EQ(2, level_from(level_files[i]));
	/* Each raiser attached the hooks: every one is, once. */
	if (bpf_backend()) {
		int total;

		EXPECT_EQ(0, bpf_hooks_unattached(&total));
		EXPECT_LT(30, total);
	}
}

/*
 * A watcher that sees the new level must find its restrictions in force
 * at once: the raise switches on the hooks they need (the BPF backend's
 * tools attach its programs) before the new level is visible.  At 1 it
 * tries to add a set-id bit to @file, at 2 to set the clock back a
 * second.  Exit status: 0, 1 for a change made once the level read
 * @target, 2 for an error.
 */
static int watcher(int target, const char *file)
{
	time_t give_up = time(NULL) + 60;
	long seen = 0;

	for (;;) {
		int level = current_level();
		struct timespec ts;

		if (level < 0 || level > target)
			return 2;
		if (level < target) {
			if (seen || time(NULL) > give_up)
				return 2;
			continue;
		}
		if (target == 1) {
			if (!chmod(file, 04755))
				return 1;
		} else {
			if (clock_gettime(CLOCK_REALTIME, &ts))
				return 2;
			ts.tv_sec--;
			if (!clock_settime(CLOCK_REALTIME, &ts))
				return 1;
		}
		if (errno != EPERM)
			return 2;
		if (++seen == 100)
			return 0;
	}
}

/*
 * Raises from level 0 to 1 or from 1 to 2 while watchers try what the new
 * level refuses: run it in the boot that raises to that level.
 */
TEST(hooks_on_before_level)
{
	char file[] = "/tmp/raise_test.XXXXXX";
	const char *row, *what;
	pid_t watchers[WRITERS];
	int fd, i, err, target, rule = RULE_OFF;

	target = current_level() + 1;
	if (target != 1 && target != 2)
		SKIP(return, "raises from level 0 or 1 only");
	row = target == 1 ? "setid_bits" : "time_backward";
	what = target == 1 ? "a set-id bit was added" : "the clock was set back";
	ASSERT_TRUE(policy_row(row, &rule, NULL));
	ASSERT_EQ(target, rule) TH_LOG("%s must apply from level %d", row,
				       target);
	fd = mkstemp(file);
	ASSERT_LE(0, fd);
	close(fd);
	for (i = 0; i < WRITERS; i++) {
		watchers[i] = fork();
		ASSERT_LE(0, watchers[i]);
		if (watchers[i] == 0)
			_exit(watcher(target, file));
	}
	usleep(100 * 1000);
	if (!bpf_backend())
		err = write_str(LEVEL_FILE, target == 1 ? "1\n" : "2\n");
	else if (target == 1)
		err = bpf_freeze_list() ?: bpf_attach_hooks() ?: bpf_raise(1);
	else
		err = bpf_attach_hooks() ?: bpf_raise(2);
	ASSERT_EQ(0, err) TH_LOG("raising to %d: %s", target, strerror(err));
	for (i = 0; i < WRITERS; i++) {
		int status;

		ASSERT_EQ(watchers[i], waitpid(watchers[i], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("watcher %d: %s", i, WEXITSTATUS(status) == 1 ?
			       what : "error");
	}
	unlink(file);
}

TEST_HARNESS_MAIN
