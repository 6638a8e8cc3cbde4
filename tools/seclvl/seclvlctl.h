/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What seclvlctl.c shares with the commands kept in files of their own.
 */
#ifndef SECLVL_SECLVLCTL_H
#define SECLVL_SECLVLCTL_H

#include <stdbool.h>

enum exit_code {
	EXIT_OK = 0,
	EXIT_REFUSED = 1,	/* the kernel refused the change; check found some */
	EXIT_USAGE = 2,		/* bad command line or value */
	EXIT_UNAVAILABLE = 3,	/* seclvl is not active in this kernel */
	EXIT_IO = 4,		/* any other failure */
};

void error(const char *fmt, ...);
void json_string(const char *s);

int cmd_log(int argc, char **argv);

#endif
