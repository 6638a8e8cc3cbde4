// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: many raisers at once
 *
 * Writers race through all three level files (or the BPF backend's raise
 * program) with values from -1 to 2
 * while readers watch.  No reader may see the level go down, every write
 * must be decided by the level it met, and the level ends at the highest
 * value any writer set.  This raises the level: the guest runs it from
 * level 0 or 1, in the boot that goes on to test level 2.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

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
		err = bpf_backend() ? bpf_raise(v) : write_str(path, buf);
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
}

TEST_HARNESS_MAIN
