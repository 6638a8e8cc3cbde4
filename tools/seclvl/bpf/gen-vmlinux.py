#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write vmlinux.h: the types seclvl.bpf.c uses, from one kernel's BTF.

    gen-vmlinux.py FULL_HEADER CLANG_ARGS... > vmlinux.h

FULL_HEADER is "bpftool btf dump file BTF format c" of the reference
kernel (Debian 12's 6.12).  The programs are relocated to the running
kernel's types when they load (CO-RE), so these definitions only have to
name the members the programs read; keeping the few thousand lines they
need, rather than the whole kernel's, lets the tree carry them, so that
no build depends on the build host's kernel.

A block of the full header (a definition, separated by a blank line) is
kept if the sources name it, if a kept block embeds it (by value), or if
clang, compiling seclvl.bpf.c against the result, says it is missing;
every struct and union a kept block points to is declared ahead.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ['seclvl.bpf.c', 'seclvl_bpf.h', 'kconst.h', 'sha256.bpf.h',
           '../../../security/seclvl/restrictions.h',
           '../../../security/seclvl/levels.h',
           '../../../security/seclvl/bpfnet.h',
           '../../../security/seclvl/mountrules.h',
           '../../../security/seclvl/caprules.h',
           '../../../security/seclvl/devrules.h',
           '../../../security/seclvl/ioctlrules.h',
           '../../../security/seclvl/setidrules.h']
LIBBPF = ['bpf_helper_defs.h', 'bpf_tracing.h', 'bpf_core_read.h',
          'bpf_helpers.h']


def blocks_of(full):
    start = full.index('\n\n', full.index('#pragma clang attribute push')) + 2
    end = full.rindex('#ifndef BPF_NO_PRESERVE_ACCESS_INDEX')
    body = [b for b in full[start:end].split('\n\n') if b.strip()]
    return full[:start], body, full[end:]


def index(blocks):
    defs, enumerators = {}, {}
    for i, b in enumerate(blocks):
        m = re.match(r'(struct|union|enum) (\w+) \{', b)
        if m:
            defs[(m.group(1), m.group(2))] = i
        if b.startswith('typedef') and '{' not in b:
            m = (re.search(r'\(\*(\w+)\)\(', b) or
                 re.match(r'typedef [^(]*?(\w+)\(', b) or
                 re.search(r'(\w+)\s*(\[[^\]]*\])*\s*;\s*$', b))
            if m:
                defs[('typedef', m.group(1))] = i
        elif b.startswith('typedef'):
            m = re.search(r'\}\s*(\w+)\s*;\s*$', b)
            if m:
                defs[('typedef', m.group(1))] = i
        if re.match(r'enum (\w+ )?\{', b):
            for e in re.findall(r'^\t(\w+) = ', b, re.M):
                enumerators[e] = i
    return defs, enumerators


def trim(full, text):
    prologue, blocks, epilogue = blocks_of(full)
    defs, enumerators = index(blocks)
    need, ahead = set(), set()

    def name(tok):
        for i in (enumerators.get(tok), defs.get(('typedef', tok))):
            if i is not None:
                need.add(i)

    for kind, tag in re.findall(r'\b(struct|union|enum) (\w+)', text):
        if (kind, tag) in defs:
            need.add(defs[(kind, tag)])
    for tok in set(re.findall(r'\b[A-Za-z_]\w*\b', text)):
        name(tok)
    done = set()
    while need - done:
        i = min(need - done)
        done.add(i)
        for m in re.finditer(r'\b(struct|union|enum) (\w+)(\s*\**)',
                             blocks[i]):
            kind, tag, stars = m.group(1), m.group(2), m.group(3).strip()
            if (kind, tag) not in defs:
                continue
            if stars and kind != 'enum':
                ahead.add((kind, tag))
            else:
                need.add(defs[(kind, tag)])
        for tok in set(re.findall(r'\b[A-Za-z_]\w*\b', blocks[i])):
            name(tok)
    out = [prologue]
    out += ['%s %s;\n\n' % kt for kt in sorted(ahead)]
    out += [blocks[i] + '\n\n' for i in sorted(need)]
    out.append(epilogue)
    return ''.join(out)


def main():
    full = open(sys.argv[1]).read()
    clang = sys.argv[2:]
    inc = '/usr/include/bpf'
    text = ''.join(open(os.path.join(HERE, f)).read() for f in SOURCES)
    text += ''.join(open(os.path.join(inc, f)).read() for f in LIBBPF)
    missing = re.compile(r"(?:incomplete definition of type|declaration of|"
                         r"incomplete type|unknown type name|"
                         r"undeclared identifier) '((?:struct |union |enum )?"
                         r"\w+)'")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(50):
            header = trim(full, text)
            with open(os.path.join(tmp, 'vmlinux.h'), 'w') as f:
                f.write(header)
            r = subprocess.run(clang + ['-I', tmp, '-I', HERE, '-c',
                                        os.path.join(HERE, 'seclvl.bpf.c'),
                                        '-o', os.path.join(tmp, 'x.o')],
                               capture_output=True, text=True)
            if r.returncode == 0:
                sys.stdout.write('/*\n * The types seclvl.bpf.c uses, as the reference kernel has them:\n'
                                 ' * generated by "make regen-vmlinux BTF=...", not edited.\n */\n')
                sys.stdout.write(header)
                return 0
            more = ' '.join(missing.findall(r.stderr))
            if not more or more in text:
                sys.stderr.write(r.stderr)
                return 1
            text += '\n' + more
    return 1


if __name__ == '__main__':
    sys.exit(main())
