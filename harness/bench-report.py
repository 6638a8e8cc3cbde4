#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Report of `make bench`, from the boots harness/bench.sh ran.

usage: bench-report.py OUTDIR DATE MACHINE ROUNDS REPS MS

OUTDIR/boots lists "CONFIG ROUND RESULTDIR" per boot; OUTDIR/sizes has
"LSM TEXT DATA".  Per path and configuration: the median over the rounds
of each boot's median time per operation, and the ratio to the baseline
booted in the same round (median, lowest and highest over the rounds).
Writes OUTDIR/results.csv (the table), OUTDIR/raw.csv (every timing),
OUTDIR/summary.md and OUTDIR/chart.png; prints the table.
"""
import csv
import os
import statistics
import subprocess
import sys

# Each configuration and the baseline it is measured against: the in-tree
# LSM on the test kernel, the BPF backend on Debian's own kernel.
BASE_OF = {"baseline": None, "level0": "baseline", "level1": "baseline",
           "level2": "baseline", "stock": None, "bpf0": "stock",
           "bpf1": "stock", "bpf2": "stock"}
CONFIGS = list(BASE_OF)
HEADS = ["baseline", "level 0", "level 1", "level 2", "stock kernel",
         "BPF 0", "BPF 1", "BPF 2"]
LEVEL0 = ("level0", "bpf0")  # should cost nothing measurable
TARGET = 1.01  # within 1% of the baseline


def parse_boot(path):
    """Each path's repetitions (rep, ns, iterations), skips, the time to /init."""
    reps, skips, init = {}, {}, None
    with open(os.path.join(path, "results.log"), errors="replace") as f:
        for line in f:
            word = line.split()
            if len(word) == 5 and word[0] == "bench":
                reps.setdefault(word[1], []).append((word[2], float(word[3]), word[4]))
            elif len(word) >= 2 and word[0] == "skip":
                skips[word[1]] = " ".join(word[2:])
            elif len(word) == 2 and word[0] == "init_at":
                init = float(word[1])
    return reps, skips, init


def main():
    outdir, date, machine, rounds, reps, ms = sys.argv[1:7]
    runs = {}  # config -> round -> (median ns per path, skips, init)
    ops = []
    raw = []
    baseline_reps = {}  # (baseline, op) -> its every repetition
    with open(os.path.join(outdir, "boots")) as f:
        for line in f:
            config, rnd, path = line.split()
            boot, skips, init = parse_boot(path)
            med = {op: statistics.median(ns for _, ns, _ in r) for op, r in boot.items()}
            runs.setdefault(config, {})[int(rnd)] = (med, skips, init)
            for op in list(med) + list(skips):
                if op not in ops:
                    ops.append(op)
            for op, r in boot.items():
                raw += [[config, rnd, op, rep, f"{ns:.1f}", n] for rep, ns, n in r]
                if BASE_OF.get(config, "") is None:
                    baseline_reps.setdefault((config, op), []).extend(
                        ns for _, ns, _ in r)

    def noise_of(baseline, op):
        """How much a baseline differs from itself, relative."""
        med = statistics.median(m[op] for m, _, _ in runs[baseline].values()
                                if op in m)
        spread = [abs(v / med - 1) for v in baseline_reps.get((baseline, op), [])]
        return max(spread) if spread else 0.0
    rows = []  # op, config, median ns, ratio, low, high, verdict
    for op in ops:
        for config in CONFIGS:
            per_round = runs.get(config, {})
            values = [m[op] for m, _, _ in per_round.values() if op in m]
            skipped = [s[op] for _, s, _ in per_round.values() if op in s]
            if not values:
                why = skipped[0] if skipped else "no data"
                rows.append([op, config, None, None, None, None,
                             "refused: " + why if skipped else why])
                continue
            if BASE_OF[config] is None:
                rows.append([op, config, statistics.median(values), 1.0, 1.0, 1.0, ""])
                continue
            base = runs.get(BASE_OF[config], {})
            ratios = [per_round[r][0][op] / base[r][0][op]
                      for r in per_round
                      if op in per_round[r][0] and r in base and op in base[r][0]]
            ratio = statistics.median(ratios)
            low, high = min(ratios), max(ratios)
            verdict = "ok" if ratio <= TARGET else "over 1%"
            # Level 0 should cost nothing measurable: no more than the
            # baseline differs from itself between rounds and repetitions.
            if config in LEVEL0 and ratio <= TARGET:
                noise = noise_of(BASE_OF[config], op)
                verdict = ("ok, not measurable" if abs(ratio - 1) <= noise else
                           f"ok, measurable ({(ratio - 1) * 100:+.2f}%)")
            rows.append([op, config, statistics.median(values), ratio, low, high, verdict])

    inits = {}
    for config in CONFIGS:
        t = [i for _, _, i in runs.get(config, {}).values() if i is not None]
        inits[config] = statistics.median(t) if t else None

    sizes = []
    with open(os.path.join(outdir, "sizes")) as f:
        for line in f:
            lsm, text, data = line.split()
            sizes.append((lsm, text, data))

    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["path", "config", "median_ns_per_op", "ratio_to_baseline",
                    "ratio_lowest", "ratio_highest", "verdict"])
        for r in rows:
            w.writerow([r[0], r[1]] + ["" if v is None else
                                       (f"{v:.1f}" if i == 0 else f"{v:.4f}")
                                       for i, v in enumerate(r[2:6])] + [r[6]])
    with open(os.path.join(outdir, "raw.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "round", "path", "rep", "ns_per_op", "iterations"])
        w.writerows(raw)

    # The table: one line per path, the configurations side by side.
    def cell(r):
        if r[2] is None:
            return "refused"
        if BASE_OF[r[1]] is None:
            return f"{r[2]:,.0f}"
        return f"{r[3]:.3f} ({r[4]:.3f}-{r[5]:.3f})"

    by = {(r[0], r[1]): r for r in rows}
    head = ["path"] + HEADS
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    misses = []
    for op in ops:
        cells = [cell(by[(op, c)]) for c in CONFIGS]
        lines.append(f"| {op} | " + " | ".join(cells) + " |")
        for c in CONFIGS:
            if by[(op, c)][6] == "over 1%":
                misses.append(f"{op} at {c}")
    def boot_cell(c):
        b = BASE_OF[c] or c
        if not inits.get(c) or not inits.get(b):
            return "-"
        if c == b:
            return f"{inits[c] * 1e9:,.0f}"
        base = runs[b]
        ratios = [runs[c][r][2] / base[r][2] for r in runs[c]
                  if r in base and runs[c][r][2] and base[r][2]]
        return (f"{statistics.median(ratios):.3f} "
                f"({min(ratios):.3f}-{max(ratios):.3f})")
    lines.append("| boot to /init (guest ns) | " +
                 " | ".join(boot_cell(c) for c in CONFIGS) + " |")

    size_lines = ["| LSM | text (bytes) | data (bytes) |", "|---|---|---|"]
    for lsm, text, data in sizes:
        size_lines.append(f"| {lsm} | {text} | {data} |")

    summary = [
        f"Measured {date} on {machine}: {rounds} rounds of the eight boots,"
        f" interleaved; in each boot each path ran {reps} times for about"
        f" {ms} ms of guest time. The guest clock counts instructions (QEMU"
        " icount, 1 ns each), so a path's cost is its length in instructions."
        " Baseline: instructions per operation, the test kernel with seclvl"
        " left out of lsm=. Levels 0-2: the in-tree LSM, ratio to the baseline"
        " of the same round, median (lowest-highest) over the rounds. Stock"
        " kernel: instructions per operation on Debian's own kernel without"
        " the BPF backend; BPF 0-2: the BPF backend loaded on it and raised,"
        " ratio to the stock kernel of the same round. The two kernels differ"
        " (the test kernel has KASAN and lockdep), so compare ratios, not"
        f" instructions, across them; target {TARGET:.2f}.",
        "",
    ] + lines + [
        "",
        "Verdict: " + ("every path within 1% of the baseline at every level."
                       if not misses else "over 1%: " + ", ".join(misses) + "."),
    ] + [
        f"{label}: " + "; ".join(f"{op} {by[(op, c)][6]}" for op in ops
                                 if by[(op, c)][2] is not None) + "."
        for c, label in zip(LEVEL0, ("Level 0", "BPF backend at level 0"))
    ] + [
        "",
        "Object code in this build (KASAN-instrumented, KUnit tests left out);"
        " for seclvl-bpf, its programs' BPF instructions before the JIT and"
        " its .rodata:",
        "",
    ] + size_lines
    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))

    # The chart: ratio to the baseline per path, one bar per level, the
    # spread over the rounds as error bars, lines at 1 and the target.
    dat = os.path.join(outdir, "chart.dat")
    with open(dat, "w") as f:
        for op in ops:
            vals = []
            for c in [c for c in CONFIGS if BASE_OF[c]]:
                r = by[(op, c)]
                vals += ["NaN"] * 3 if r[3] is None else [f"{r[3]:.4f}", f"{r[4]:.4f}", f"{r[5]:.4f}"]
            f.write(op + " " + " ".join(vals) + "\n")
    plot = f"""
set terminal pngcairo size 1100,520 font ',10' noenhanced
set output '{os.path.join(outdir, "chart.png")}'
set title "seclvl: cost per path relative to the same kernel without it ({date})"
set ylabel 'ratio to baseline (median, bars: lowest-highest round)'
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set xtics rotate by -30
set key top left
set yrange [0.9:*]
set grid ytics
plot '{dat}' using 2:3:4:xtic(1) title 'LSM level 0', \\
     '' using 5:6:7 title 'LSM level 1', \\
     '' using 8:9:10 title 'LSM level 2', \\
     '' using 11:12:13 title 'BPF level 0', \\
     '' using 14:15:16 title 'BPF level 1', \\
     '' using 17:18:19 title 'BPF level 2', \\
     1 with lines lc 'black' notitle, \\
     {TARGET} with lines dt 2 lc 'red' title '+1%'
"""
    terminal = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True,
                              text=True)
    if "pngcairo" not in terminal.stdout + terminal.stderr:
        plot = plot.replace("pngcairo size 1100,520 font ',10' noenhanced",
                            "png size 1100,520 noenhanced")
    subprocess.run(["gnuplot"], input=plot, text=True, check=True)
    print(f"\nWritten: {outdir}/results.csv, raw.csv, summary.md, chart.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
