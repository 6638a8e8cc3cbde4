// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: a storm of refusals.  One process is refused iopl(2)
 * (rawio) as fast as it can for STORM_SECONDS while another calls
 * getpid(2) in a loop.  The count must equal the attempts exactly, the
 * second process must keep running, and the kernel log must stay bounded
 * yet account for every refusal: the lines logged, plus the numbers in
 * the "N more refusals of rawio not logged" lines, plus, on the BPF
 * backend, the events its full buffer lost.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <signal.h>
#include <sys/io.h>
#include <time.h>

#define STORM_SECONDS 10
/* The rate limit: a burst of 10 lines per 5 s window (both backends). */
#define LOG_BURST 10
#define LOG_WINDOW_S 5
/*
 * After the storm: the last window ends and its summary is written.  The
 * BPF backend's reader may still be working through the ring buffer then.
 */
#define SUMMARY_WAIT_S (4 * LOG_WINDOW_S)

struct shared {
	long ticks;	/* the getpid loop's iterations */
	long attempts;	/* iopl(3) calls refused with EPERM */
	long other;	/* iopl(3) calls that did anything else */
};

static long ticks(struct shared *sh)
{
	return __atomic_load_n(&sh->ticks, __ATOMIC_RELAXED);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the log said of rawio since @fd was opened. */
struct log_count {
	long lines;	/* "denied rawio" */
	long summed;	/* the N of "N more refusals of rawio not logged" */
	long dropped;	/* the N of "N events not logged" (BPF backend) */
	long summaries;
};

static void read_log(int fd, struct log_count *c)
{
	char rec[8192];
	ssize_t len;

	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		const char *msg;
		long n;

		if (len < 0)	/* records overwritten: count on */
			continue;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		if (!strncmp(msg, "seclvl-bpf: ", 12))
			msg += 12;
		else if (!strncmp(msg, "seclvl: ", 8))
			msg += 8;
		else
			continue;
		if (!strncmp(msg, "denied rawio at level", 21)) {
			c->lines++;
		} else if (sscanf(msg, "%ld more refusals of rawio not logged", &n) == 1 &&
			   strstr(msg, "more refusals of rawio not logged")) {
			c->summed += n;
			c->summaries++;
		} else if (sscanf(msg, "%ld events not logged", &n) == 1 &&
			   strstr(msg, "events not logged")) {
			c->dropped += n;
		}
	}
}

TEST(refusal_storm)
{
	long before, after, base_rate, min_rate = -1, last, accounted;
	struct log_count c = {};
	struct shared *sh;
	pid_t ticker, storm;
	int level, rule, fd, s, status;
	double end;

	level = current_level();
	ASSERT_TRUE(policy_row("rawio", &rule, NULL));
	if (level < 1 || rule > level)
		SKIP(return, "rawio is not enforced at level %d", level);
	/* Earlier tests' windows and summaries must be over. */
	sleep(LOG_WINDOW_S + 2);
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, lseek(fd, 0, SEEK_END));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);

	ticker = fork();
	ASSERT_LE(0, ticker);
	if (ticker == 0) {
		for (;;) {
			syscall(SYS_getpid);
			__atomic_fetch_add(&sh->ticks, 1, __ATOMIC_RELAXED);
		}
	}
	sleep(1);
	last = ticks(sh);
	sleep(1);
	base_rate = ticks(sh) - last;

	before = denials("rawio");
	storm = fork();
	ASSERT_LE(0, storm);
	if (storm == 0) {
		long refused = 0, other = 0;

		end = now_s() + STORM_SECONDS;
		while (now_s() < end) {
			if (iopl(3) == -1 && errno == EPERM)
				refused++;
			else
				other++;
		}
		/* Read by the parent once this child has exited. */
		sh->attempts = refused;
		sh->other = other;
		_exit(0);
	}
	for (s = 0; s < STORM_SECONDS; s++) {
		last = ticks(sh);
		sleep(1);
		last = ticks(sh) - last;
		if (min_rate < 0 || last < min_rate)
			min_rate = last;
	}
	ASSERT_EQ(storm, waitpid(storm, &status, 0));
	after = denials("rawio");
	kill(ticker, SIGKILL);
	waitpid(ticker, NULL, 0);
	ASSERT_EQ(0, status);
	EXPECT_EQ(0, sh->other);
	EXPECT_LT(0, sh->attempts);
	TH_LOG("%ld refusals in %d s; getpid loop: %ld/s before, at least %ld/s during",
	       sh->attempts, STORM_SECONDS, base_rate, min_rate);
	/* Counted exactly. */
	EXPECT_EQ(sh->attempts, after - before);
	/* The other process kept running: not starved below a twentieth. */
	EXPECT_LT(0, min_rate);
	EXPECT_LE(base_rate / 20, min_rate);

	/* Every refusal accounted for in the log once the summaries are out. */
	end = now_s() + SUMMARY_WAIT_S;
	do {
		read_log(fd, &c);
		accounted = c.lines + c.summed + c.dropped;
		if (accounted >= sh->attempts)
			break;
		usleep(200000);
	} while (now_s() < end);
	TH_LOG("log: %ld lines, %ld summaries of %ld more, %ld lost events",
	       c.lines, c.summaries, c.summed, c.dropped);
	EXPECT_EQ(sh->attempts, accounted);
	/* Bounded: a burst per window, one summary per window. */
	EXPECT_LE(c.lines, LOG_BURST * (STORM_SECONDS / LOG_WINDOW_S + 2));
	EXPECT_LE(c.summaries, STORM_SECONDS / LOG_WINDOW_S + 2);
	close(fd);
	munmap(sh, sizeof(*sh));
}

TEST_HARNESS_MAIN
