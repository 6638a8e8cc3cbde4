// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the clock
 *
 * time_backward refuses setting CLOCK_REALTIME to a time before now, by
 * any system call: the kernel asks the settime hook for each of them.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/lsm_hooks.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>

#include "seclvl.h"

static int hook_settime(const struct timespec64 *ts, const struct timezone *tz)
{
	s64 now;

	if (!seclvl_applies(SECLVL_TIME_BACKWARD))
		return 0;
	if (ts) {
		/*
		 * The NMI-safe reader: the seqcount one cost a sixth of a
		 * clock_settime() under lockdep.  Either can race a clock
		 * change on another CPU; the check and the change are not
		 * atomic with any reader.
		 */
		now = ktime_get_real_fast_ns();
		if (timespec64_to_ns(ts) >= now)
			return 0;
		return seclvl_deny(SECLVL_TIME_BACKWARD, true,
				   "set the clock back from %lld to %lld",
				   div_s64(now, NSEC_PER_SEC), (long long)ts->tv_sec);
	}
	/*
	 * The first timezone set without a time warps the clock by the
	 * timezone's offset; seclvl cannot tell the first from the others.
	 */
	if (tz && tz->tz_minuteswest < 0)
		return seclvl_deny(SECLVL_TIME_BACKWARD, true,
				   "set timezone %d minutes west, which may warp the clock back",
				   tz->tz_minuteswest);
	return 0;
}

static struct security_hook_list time_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(settime, hook_settime),
};

const struct seclvl_hook_set seclvl_time_hooks = {
	.hooks = time_hooks,
	.count = ARRAY_SIZE(time_hooks),
	.serves = BIT(SECLVL_TIME_BACKWARD),
};
