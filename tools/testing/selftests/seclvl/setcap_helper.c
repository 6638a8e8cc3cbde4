// SPDX-License-Identifier: GPL-2.0-only
/*
 * setcap_helper FILE...: give each FILE the permitted and effective
 * capability CAP_NET_RAW, as "setcap cap_net_raw+ep" does.  The test
 * guests have no setcap; their scenarios make fixtures with this at
 * level 0.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	struct vfs_cap_data caps = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
		.data = { { .permitted = 1U << CAP_NET_RAW } },
	};
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: setcap_helper FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (setxattr(argv[i], "security.capability", &caps,
			     sizeof(caps), 0)) {
			fprintf(stderr, "setcap_helper: %s: %s\n", argv[i],
				strerror(errno));
			return 1;
		}
	}
	return 0;
}
