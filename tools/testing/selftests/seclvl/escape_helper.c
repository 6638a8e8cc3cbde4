// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the program escape_test names as the escape; it only
 * has to be executed.
 *
 * Copyright (C) 2026 The seclvl authors
 */

int main(void)
{
	return 0;
}
