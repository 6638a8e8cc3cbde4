// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: init, its memory and ptrace
 *
 * ptrace_init keeps every tracer out of init and of the tasks that share
 * its memory; file.c refuses writes to init's memory through /proc.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/lsm_hooks.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "seclvl.h"

/**
 * seclvl_is_init_mm - whether a memory descriptor is init's
 * @mm: the mm_struct, or NULL
 *
 * Return: true if @mm is the memory of the initial namespace's init.
 */
bool seclvl_is_init_mm(const void *mm)
{
	struct task_struct *init;
	bool ret;

	if (!mm)
		return false;
	rcu_read_lock();
	init = find_task_by_pid_ns(1, &init_pid_ns);
	ret = init && READ_ONCE(init->mm) == mm;
	rcu_read_unlock();
	return ret;
}

/*
 * A task other than init that shares init's memory (a CLONE_VM child,
 * such as the vfork()ed helpers an init system spawns): writing its
 * memory writes init's.  Only a shared mm can be init's, so the lookup of
 * init is made for those alone.  ptrace_may_access() holds @child's task
 * lock, so ->mm is stable.
 */
static bool seclvl_shares_init_mm(struct task_struct *child)
{
	struct mm_struct *mm = child->mm;

	return mm && atomic_read(&mm->mm_users) > 1 && seclvl_is_init_mm(mm);
}

/* Init, or a task sharing its memory. */
static int hook_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	if (!seclvl_applies(SECLVL_PTRACE_INIT) ||
	    !(mode & PTRACE_MODE_ATTACH) ||
	    !(is_global_init(child) || seclvl_shares_init_mm(child)))
		return 0;
	return seclvl_deny(SECLVL_PTRACE_INIT, !(mode & PTRACE_MODE_NOAUDIT),
			   "ptrace attach to init (tid %d)", task_pid_nr(child));
}

static struct security_hook_list task_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
};

const struct seclvl_hook_set seclvl_task_hooks = {
	.hooks = task_hooks,
	.count = ARRAY_SIZE(task_hooks),
	.serves = BIT(SECLVL_PTRACE_INIT),
};
