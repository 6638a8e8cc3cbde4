#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make demo: boot the demo scenario and show its tour from the console.
set -euo pipefail
. "$(dirname "$0")/common.sh"

SECLVL_BOOT_TIMEOUT=${SECLVL_BOOT_TIMEOUT:-300} "$TOP/harness/boot.sh" demo quiet
log=$BUILD/results/demo/console.log
tr -d '\r' < "$log" | sed -n '/^=== seclvl demo/,/^=== end of demo/p'
grep -q '^=== end of demo' <(tr -d '\r' < "$log") ||
	die "the demo did not finish; see $log"
