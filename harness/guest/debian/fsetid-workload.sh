#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Who asks for CAP_FSETID on a Debian server (the design document's
# setid_bits decision, Documentation/security/seclvl.rst).  Not part of
# make test: run as root, at level 0, in a guest booted from
# build/debian/debian.img (Debian's kernel; tracefs mounted), then read
# the trace's stacks by step.
T=/sys/kernel/tracing
echo 'p:fsetid cap_capable cap=%dx:s32' > $T/kprobe_events
echo 'cap==4' > $T/events/kprobes/fsetid/filter
echo stacktrace > $T/events/kprobes/fsetid/trigger
echo > $T/trace
echo 1 > $T/events/kprobes/fsetid/enable
step() { echo "=== $*" > $T/trace_marker; sh -c "$*" >/dev/null 2>&1; }
step dpkg -i /home/alice/seclvl-test-plain.deb
step dpkg -i /home/alice/seclvl-test-setuid.deb
step dpkg -i /home/alice/seclvl-test-setuid.deb
step dpkg -r seclvl-test-setuid seclvl-test-plain
step systemd-tmpfiles --create
step useradd -m bob
step usermod -aG users bob
step userdel -r bob
step journalctl --rotate
step journalctl --vacuum-time=1s
step 'cp /bin/true /root/suid && chmod 4755 /root/suid && echo x >> /root/suid'
step 'cp /bin/true /root/sgid && chgrp mail /root/sgid && chmod 2755 /root/sgid'
step 'chown root:alice /root/sgid'
step 'install -m 2775 -g mail -d /root/maildir && touch /root/maildir/f && mkdir /root/maildir/d'
step 'truncate -s 0 /root/suid'
step 'su -s /bin/sh alice -c true'
step 'systemctl restart cron'
step 'ssh-keygen -A'
echo 0 > $T/events/kprobes/fsetid/enable
cat $T/trace
