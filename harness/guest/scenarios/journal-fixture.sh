#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A stand-in journalctl for seclvlctl log in the busybox guests, which have
# no journal: five kernel-log records in journalctl's export format, one
# of them with a binary MESSAGE (18 bytes with a newline and a tab), one
# from another program, one whose comm holds " (pid ".  seclvlctl probes
# with "-n 0" first; a --since of "bad" is refused as journalctl does.
case " $* " in
*" --since bad "*) echo "Failed to parse timestamp: bad" >&2; exit 1 ;;
*" -n 0 "*) exit 0 ;;
esac
printf '__REALTIME_TIMESTAMP=1765126800000001\nSYSLOG_IDENTIFIER=kernel\nMESSAGE=seclvl: denied rawio at level 1: iopl() (pid 42 comm a (pid 1 comm b)\n\n'
printf '__REALTIME_TIMESTAMP=1765126801000000\nSYSLOG_IDENTIFIER=seclvl-bpf\nMESSAGE=level changed from 0 to 1 (pid 7 comm seclvlctl)\n\n'
printf 'MESSAGE\n\022\000\000\000\000\000\000\000denied "x"\nat\tend.\nSYSLOG_IDENTIFIER=seclvl-bpf\n__REALTIME_TIMESTAMP=1765126802000000\n\n'
printf '__REALTIME_TIMESTAMP=1765126803000000\nSYSLOG_IDENTIFIER=sshd\nMESSAGE=seclvl: not ours\n\n'
printf '__REALTIME_TIMESTAMP=1765126804000000\nSYSLOG_IDENTIFIER=kernel\nMESSAGE=seclvl: 12 more refusals of rawio not logged (rate limit)\n\n'
