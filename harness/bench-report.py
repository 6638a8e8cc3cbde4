#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Report of `make bench`, from the boots harness/bench.sh ran.

usage: bench-report.py OUTDIR DATE MACHINE ROUNDS REPS MS TOOK

OUTDIR/boots lists "CONFIG ROUND RESULTDIR" per boot; OUTDIR/sizes has
"LSM TEXT DATA"; OUTDIR/{release,stock}.config are the configurations of
the two kernels booted.  The guests ran with QEMU's icount (1 ns of guest
time per instruction), so a time per operation is a count of instructions.
Per path and configuration: the median over the rounds of each boot's
median per operation; for a backend, the instructions it adds to its own
kernel's baseline booted in the same round (median, lowest and highest
over the rounds) and that as a ratio.  Writes OUTDIR/results.csv (the
table), OUTDIR/raw.csv (every timing), OUTDIR/summary.md and
OUTDIR/chart.png; prints the summary.
"""
import csv
import os
import statistics
import subprocess
import sys

# Each configuration, its kernel, and the baseline it is measured against:
# the in-tree LSM on the release kernel, the BPF backend on Debian's own.
BASE_OF = {"baseline": None, "level0": "baseline", "level1": "baseline",
           "level2": "baseline", "stock": None, "bpf0": "stock",
           "bpf1": "stock", "bpf2": "stock"}
KERNEL_OF = {c: ("stock" if c.startswith(("stock", "bpf")) else "release")
             for c in BASE_OF}
CONFIGS = list(BASE_OF)
LABEL = {"baseline": "release, no seclvl", "stock": "Debian, no BPF",
         "level0": "seclvl 0", "level1": "seclvl 1", "level2": "seclvl 2",
         "bpf0": "BPF 0", "bpf1": "BPF 1", "bpf2": "BPF 2"}
# The backends side by side, level by level.
PAIRS = ["level0", "bpf0", "level1", "bpf1", "level2", "bpf2"]
LEVEL0 = ("level0", "bpf0")  # should cost nothing measurable
TARGET = 1.01  # within 1% of the baseline
WORKLOADS = {"source_tree": "unpack, walk and remove a tree of 2,048 files",
             "shell_command": "fork, set groups, exec a tiny program, wait"}
# Options that make a kernel a debug kernel: named if the config has them.
DEBUG_OPTIONS = ["KASAN", "KCSAN", "KMSAN", "UBSAN", "PROVE_LOCKING",
                 "DEBUG_LOCK_ALLOC", "LOCK_STAT", "DEBUG_ATOMIC_SLEEP",
                 "DEBUG_VM", "DEBUG_PAGEALLOC", "DEBUG_OBJECTS", "KCOV",
                 "PROVE_RCU", "DEBUG_KMEMLEAK", "SLUB_DEBUG_ON", "KUNIT"]


def parse_boot(path):
    """Each path's repetitions (rep, ns, iterations), skips, uname."""
    reps, skips, uname = {}, {}, ""
    with open(os.path.join(path, "results.log"), errors="replace") as f:
        for line in f:
            word = line.split()
            if len(word) == 5 and word[0] == "bench":
                reps.setdefault(word[1], []).append((word[2], float(word[3]), word[4]))
            elif len(word) >= 2 and word[0] == "skip":
                skips[word[1]] = " ".join(word[2:])
            elif line.startswith("# kernel "):
                uname = line[len("# kernel "):].strip()
    return reps, skips, uname


def read_config(path):
    conf = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("CONFIG_") and "=" in line:
                    k, v = line.split("=", 1)
                    conf[k[7:]] = v.strip('"')
    except OSError:
        pass
    return conf


def describe(conf):
    """A kernel's configuration in a sentence, from what was booted."""
    if not conf:
        return "configuration unknown"
    preempt = ("full preemption" if conf.get("PREEMPT") == "y" else
               "voluntary preemption" if conf.get("PREEMPT_VOLUNTARY") == "y"
               else "no forced preemption")
    if conf.get("PREEMPT_DYNAMIC") == "y":
        preempt += " (dynamic)"
    debug = [o for o in DEBUG_OPTIONS if conf.get(o) == "y"]
    info = ("no debug info" if conf.get("DEBUG_INFO_NONE") == "y" else
            "debug info" + (" with BTF" if conf.get("DEBUG_INFO_BTF") == "y" else ""))
    mods = sum(1 for v in conf.values() if v == "m")
    hard = [o for o in ("INIT_ON_ALLOC_DEFAULT_ON", "KFENCE", "LIST_HARDENED",
                        "DEBUG_LIST", "MITIGATION_RETPOLINE",
                        "MITIGATION_PAGE_TABLE_ISOLATION") if conf.get(o) == "y"]
    return (f"{preempt}, HZ={conf.get('HZ', '?')}, "
            + ("debug options " + ", ".join(debug) if debug else
               "none of " + ", ".join(DEBUG_OPTIONS[:6]) + " or the other debug options")
            + f", {info}, {mods} modules"
            + (", hardening " + ", ".join(hard) if hard else "")
            + f"; CONFIG_LSM={conf.get('LSM', '?')}")


def fmt_int(v):
    return f"{v:,.0f}"


def fmt_extra(v):
    """One decimal where a whole instruction is a visible share."""
    return f"{v:+.1f}" if abs(v) < 10 else f"{round(v):+,d}"


def main():
    outdir, date, machine, rounds, reps, ms = sys.argv[1:7]
    took = sys.argv[7] if len(sys.argv) > 7 else ""
    runs = {}  # config -> round -> (median ns per path, skips)
    unames = {}
    ops = []
    raw = []
    baseline_reps = {}  # (baseline, op) -> its every repetition
    with open(os.path.join(outdir, "boots")) as f:
        for line in f:
            config, rnd, path = line.split()
            boot, skips, uname = parse_boot(path)
            if uname:
                unames.setdefault(KERNEL_OF[config], uname)
            med = {op: statistics.median(ns for _, ns, _ in r) for op, r in boot.items()}
            runs.setdefault(config, {})[int(rnd)] = (med, skips)
            for op in list(med) + list(skips):
                if op not in ops:
                    ops.append(op)
            for op, r in boot.items():
                raw += [[config, rnd, op, rep, f"{ns:.1f}", n] for rep, ns, n in r]
                if BASE_OF.get(config, "") is None:
                    baseline_reps.setdefault((config, op), []).extend(
                        ns for _, ns, _ in r)

    def noise_of(baseline, op):
        """How much a baseline differs from itself, relative: the largest
        difference of one repetition from the median of its boots."""
        meds = [m[op] for m, _ in runs.get(baseline, {}).values() if op in m]
        if not meds:
            return None
        med = statistics.median(meds)
        spread = [abs(v / med - 1) for v in baseline_reps.get((baseline, op), [])]
        # One repetition in one round says nothing of the noise.
        return max(spread) if len(spread) > 1 else None

    # One row per path and configuration:
    # op, config, instructions, extra, extra low, extra high, ratio, low,
    # high, verdict
    rows = []
    for op in ops:
        for config in CONFIGS:
            per_round = runs.get(config, {})
            values = [m[op] for m, _ in per_round.values() if op in m]
            skipped = [s[op] for _, s in per_round.values() if op in s]
            if not values:
                why = "refused: " + skipped[0] if skipped else "no data"
                rows.append([op, config] + [None] * 7 + [why])
                continue
            if BASE_OF[config] is None:
                rows.append([op, config, statistics.median(values),
                             0.0, 0.0, 0.0, 1.0, 1.0, 1.0, ""])
                continue
            base = runs.get(BASE_OF[config], {})
            pairs = [(per_round[r][0][op], base[r][0][op]) for r in per_round
                     if op in per_round[r][0] and r in base and op in base[r][0]]
            if not pairs:
                rows.append([op, config, statistics.median(values)] + [None] * 6
                            + ["no baseline"])
                continue
            extras = [v - b for v, b in pairs]
            ratios = [v / b for v, b in pairs]
            ratio = statistics.median(ratios)
            verdict = "ok" if ratio <= TARGET else "over 1%"
            # Level 0 should cost nothing measurable: no more than the
            # baseline differs from itself between rounds and repetitions.
            if config in LEVEL0 and ratio <= TARGET:
                noise = noise_of(BASE_OF[config], op) or 0.0
                verdict = ("ok, not measurable" if abs(ratio - 1) <= noise else
                           f"ok, measurable ({(ratio - 1) * 100:+.2f}%)")
            rows.append([op, config, statistics.median(values),
                         statistics.median(extras), min(extras), max(extras),
                         ratio, min(ratios), max(ratios), verdict])
    by = {(r[0], r[1]): r for r in rows}

    sizes = []
    with open(os.path.join(outdir, "sizes")) as f:
        for line in f:
            lsm, text, data = line.split()
            sizes.append((lsm, text, data))

    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["path", "config", "kernel", "instructions_per_op",
                    "baseline", "extra_instructions_per_op", "extra_lowest",
                    "extra_highest", "ratio_to_baseline", "ratio_lowest",
                    "ratio_highest", "baseline_noise", "verdict"])
        for r in rows:
            base = BASE_OF[r[1]] or r[1]
            noise = noise_of(base, r[0])
            w.writerow([r[0], r[1], KERNEL_OF[r[1]]]
                       + ["" if r[2] is None else f"{r[2]:.1f}", base]
                       + ["" if v is None else f"{v:.1f}" for v in r[3:6]]
                       + ["" if v is None else f"{v:.4f}" for v in r[6:9]]
                       + ["" if noise is None else f"{noise:.4f}", r[9]])
    with open(os.path.join(outdir, "raw.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "round", "path", "rep", "ns_per_op", "iterations"])
        w.writerows(raw)

    def name(op):
        return f"{op} (workload)" if op in WORKLOADS else op

    # Table 1: instructions per operation, every configuration.
    cols1 = ["baseline", "stock"] + PAIRS
    t1 = ["| path | " + " | ".join(LABEL[c] for c in cols1) + " |",
          "|---|" + "---:|" * len(cols1)]
    for op in ops:
        cells = []
        for c in cols1:
            r = by[(op, c)]
            cells.append(("-" if r[9] == "no data" else "refused")
                         if r[2] is None else fmt_int(r[2]))
        t1.append(f"| {name(op)} | " + " | ".join(cells) + " |")

    # Table 2: what each backend adds to its own kernel, level by level.
    t2 = ["| path | " + " | ".join(LABEL[c] for c in PAIRS)
          + " | noise (release / Debian) |",
          "|---|" + "---:|" * (len(PAIRS) + 1)]
    misses = []
    for op in ops:
        cells = []
        for c in PAIRS:
            r = by[(op, c)]
            if r[3] is None:
                cells.append("refused" if r[2] is None and r[9] != "no data"
                             else "-")
                continue
            cells.append(f"{fmt_extra(r[3])} ({(r[6] - 1) * 100:+.1f}%)")
            if r[9] == "over 1%":
                misses.append(f"{op} at {LABEL[c]}")
        noise = [noise_of(b, op) for b in ("baseline", "stock")]
        cells.append(" / ".join("-" if n is None else f"±{n * 100:.2f}%" for n in noise))
        t2.append(f"| {name(op)} | " + " | ".join(cells) + " |")

    # Table 3: the two kernels without either backend, same configuration.
    t3 = ["| path | release, no seclvl | Debian, no BPF | difference |",
          "|---|---:|---:|---:|"]
    for op in ops:
        a, b = by[(op, "baseline")][2], by[(op, "stock")][2]
        if a is None or b is None:
            continue
        t3.append(f"| {name(op)} | {fmt_int(a)} | {fmt_int(b)} | "
                  f"{fmt_extra(a - b)} ({(a / b - 1) * 100:+.1f}%) |")

    size_lines = ["| LSM | text (bytes) | data (bytes) |", "|---|---:|---:|"]
    for lsm, text, data in sizes:
        size_lines.append(f"| {lsm} | {text} | {data} |")

    rconf = read_config(os.path.join(outdir, "release.config"))
    sconf = read_config(os.path.join(outdir, "stock.config"))
    summary = [
        f"Measured {date} on {machine}: {rounds} rounds of the"
        f" {len(runs)} boots,"
        f" interleaved{f' ({took} of boots)' if took else ''}; in each boot"
        f" each path ran {reps} times for about {ms} ms of guest time. The"
        " guest clock counts instructions (QEMU icount, 1 ns each), so a"
        " path's cost is its length in instructions, and a workload's is the"
        " instructions of one iteration.",
        "",
        f"The kernels: **release** is `{unames.get('release', '?')}`, built by"
        " `make release` from linux-source-6.12 with Debian's configuration"
        " for it, seclvl built in, modules trimmed by localmodconfig to those"
        f" the bench loads: {describe(rconf)}. **Debian** is Debian's own"
        f" `{unames.get('stock', '?')}`: {describe(sconf)}. Both boot with"
        " their CONFIG_LSM order; the release baseline passes the same list"
        " without seclvl in `lsm=`.",
        "",
        "Instructions per operation (median over the rounds of each boot's"
        " median); seclvl N is the release kernel with the in-tree LSM raised"
        " to N, BPF N Debian's kernel with the BPF backend loaded and raised"
        " to N:",
        "",
    ] + t1 + [
        "",
        "Extra instructions per operation that each backend adds to its own"
        " kernel without it, in the same round (median over the rounds), and"
        " that as a share of the baseline; noise is how far one repetition"
        " of the baseline strayed from its median, so an extra within it is"
        " not measurable:",
        "",
    ] + t2 + [
        "",
        "The two baselines side by side (same source and configuration;"
        " the release kernel lacks the modules localmodconfig left out and"
        " the built-in options only they select, and has no debug info):",
        "",
    ] + t3 + [
        "",
        f"Target: within 1% of the baseline ({TARGET:.2f}). "
        + ("Every path is." if not misses else
           "Over 1%: " + ", ".join(misses) + "."),
    ] + [
        f"{label}: " + "; ".join(f"{op} {by[(op, c)][9]}" for op in ops
                                 if by[(op, c)][3] is not None) + "."
        for c, label in zip(LEVEL0, ("seclvl at level 0", "BPF backend at level 0"))
        if c in runs
    ] + [
        "",
        "Object code in the release build (no debug info, no KUnit tests);"
        " for seclvl-bpf, its programs' BPF instructions before the JIT and"
        " its .rodata:",
        "",
    ] + size_lines
    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))

    # The chart: extra instructions in percent of the baseline per path,
    # the two backends level by level, the spread over the rounds as error
    # bars, a line at the target.
    dat = os.path.join(outdir, "chart.dat")
    with open(dat, "w") as f:
        for op in ops:
            vals = []
            for c in PAIRS:
                r = by[(op, c)]
                vals += (["NaN"] * 3 if r[6] is None else
                         [f"{(v - 1) * 100:.3f}" for v in r[6:9]])
            f.write(op + " " + " ".join(vals) + "\n")
    # Only the configurations booted: gnuplot refuses a column of NaN.
    shown = [(i, c) for i, c in enumerate(PAIRS) if c in runs]
    colors = ["#9ecae1", "#fdae6b", "#4292c6", "#f16913", "#08519c", "#a63603"]
    plot = f"""
set terminal pngcairo size 1200,560 font ',10' noenhanced
set output '{os.path.join(outdir, "chart.png")}'
set title "seclvl: extra instructions per path, % of the same kernel without it ({date})"
set ylabel '% more instructions (median, bars: lowest-highest round)'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set key top left
set grid ytics
plot """ + ", \\\n     ".join(
        f"'{dat if n == 0 else ''}' using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}"
        + (":xtic(1)" if n == 0 else "")
        + f" title '{LABEL[c]}' lc rgb '{colors[i]}'"
        for n, (i, c) in enumerate(shown)) + f""", \\
     0 with lines lc 'black' notitle, \\
     {(TARGET - 1) * 100} with lines dt 2 lc 'red' title '+1%'
"""
    terminal = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True,
                              text=True)
    if "pngcairo" not in terminal.stdout + terminal.stderr:
        plot = plot.replace("pngcairo size 1200,560 font ',10' noenhanced",
                            "png size 1200,560 noenhanced")
    subprocess.run(["gnuplot"], input=plot, text=True, check=True)
    print(f"\nWritten: {outdir}/results.csv, raw.csv, summary.md, chart.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
