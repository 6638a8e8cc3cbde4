// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl_true - the smallest static program: exits 0.  seclvl_bench
 * executes it, so that execve is timed rather than a libc's start-up.
 *
 * Copyright (C) 2026 The seclvl authors
 */
#include <sys/syscall.h>

#if defined(__x86_64__)
void _start(void)
{
	__asm__ volatile("syscall" : : "a"(SYS_exit), "D"(0) : "rcx", "r11", "memory");
	__builtin_unreachable();
}
#else
int main(void)
{
	return 0;
}
#endif
