#!/usr/bin/env python3
"""Seeds to the first failure, per strategy, on the evaluation corpus (docs/evaluation.md,
"Search power per strategy").

For every corpus program (instrumented build) and every strategy column it runs

    ctrlsched --seeds CAP --stop-after 1 --jobs 1 --no-save --quiet --json R.json [--strategy S] BIN

and reads the first failing seed from the JSON report (seeds start at 0, so seeds to the first
failure = that seed + 1). One first failure is one sample of a geometric distribution (a strategy
"at seed 1" is often one lucky seed), so --rate N measures instead: every cell runs N seeds without
--stop-after, and shows the expected seeds to the first failure, N / failures (the mean of the
geometric distribution with the measured per-seed failure rate; ">N" when none failed). Use N a
multiple of 52 so the portfolio runs whole rotations (13 slots, sync-only points every 4th seed). A cell may also be given a time budget (--budget seconds): ctrlsched is
then stopped with SIGTERM, which still writes the report of the seeds that finished, and the cell
says how many seeds ran without a failure. Results are cached in --work (one JSON per cell), so
an interrupted measurement resumes, and --render-only prints the table from the cache.

Standard library only. Output: Markdown on stdout.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# column name -> extra ctrlsched arguments
STRATEGIES = [
    ("pct d=3", ["--strategy", "pct", "--depth", "3"]),
    ("random", ["--strategy", "random"]),
    ("pos", ["--strategy", "pos"]),
    ("surw", ["--strategy", "surw"]),
    ("portfolio", []),  # the default
]
SINGLE = [name for name, _ in STRATEGIES if name != "portfolio"]


def corpus_programs(corpus):
    names = []
    for entry in sorted(os.listdir(corpus)):
        stem, ext = os.path.splitext(entry)
        if ext in (".c", ".cpp"):
            names.append(stem)
    return names


def cell_path(work, program, strategy, rate=0):
    suffix = f".rate{rate}" if rate else ""
    return os.path.join(work, f"{program}.{strategy.replace(' ', '').replace('=', '')}{suffix}.json")


def measure(args, program, strategy, extra):
    path = cell_path(args.work, program, strategy, args.rate)
    if os.path.exists(path):
        with open(path) as f:
            cached = json.load(f)
        if "error" not in cached:  # a cell without a report (ctrlsched died) is measured again
            return cached
    report = path + ".report.json"
    binary = os.path.join(args.bin_dir, program + "_instrumented")
    seeds = ["--seeds", str(args.rate)] if args.rate else ["--seeds", str(args.cap), "--stop-after", "1"]
    command = [args.ctrlsched] + seeds + ["--jobs", "1", "--no-save", "--quiet", "--json", report] + extra + [binary]
    if args.budget:
        command = ["timeout", "-s", "TERM", str(args.budget)] + command
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    cell = {"program": program, "strategy": strategy, "cap": args.rate or args.cap, "first_failure": None,
            "seeds_run": 0, "handle": None, "interrupted": False, "rate": args.rate, "failures": 0}
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        cell["error"] = "no report"
        data = None
    if data is not None:
        runs = data.get("runs", [])
        cell["seeds_run"] = len(runs)
        cell["interrupted"] = bool(data["summary"].get("interrupted"))
        for run in runs:
            if run.get("outcome") == "fail":
                cell["failures"] += 1
                if cell["first_failure"] is None:
                    cell["first_failure"] = run["seed"] + 1
                    cell["handle"] = run.get("handle")
    with open(path, "w") as f:
        json.dump(cell, f)
    return cell


def shown(cell):
    if cell.get("rate"):
        if cell["failures"]:
            return f"{cell['seeds_run'] / cell['failures']:.1f}"
        return f">{cell['seeds_run']}" + ("†" if cell["interrupted"] or cell["seeds_run"] < cell["cap"] else "")
    if cell["first_failure"] is not None:
        return str(cell["first_failure"])
    if cell["interrupted"] or cell["seeds_run"] < cell["cap"]:
        return f">{cell['seeds_run']}†"
    return f">{cell['cap']}"


def value(cell):
    if cell.get("rate"):
        return cell["seeds_run"] / cell["failures"] if cell["failures"] else float("inf")
    return cell["first_failure"] if cell["first_failure"] is not None else float("inf")


def render(args, programs, cells):
    out = []
    names = [name for name, _ in STRATEGIES]
    out.append("| program | " + " | ".join(names) + " |")
    out.append("|---|" + "---|" * len(names))
    for program in programs:
        out.append(f"| {program} | " + " | ".join(shown(cells[(program, n)]) for n in names) + " |")
    out.append("")
    limit_text = f"{args.rate or args.cap:,}"
    if args.rate:
        out.append("| strategy | expected within 100 | within 1,000 | failing at all in " + limit_text +
                   " | median expected seeds to first failure |")
    else:
        out.append("| strategy | found within 100 | within 1,000 | within " + limit_text + " | median seeds to first failure |")
    out.append("|---|---|---|---|---|")
    for name in names:
        values = [value(cells[(p, name)]) for p in programs]
        within = [sum(1 for v in values if v <= limit) for limit in (100, 1000, args.rate or args.cap)]
        median = statistics.median_low(values)
        if median == float("inf"):
            median_text = f">{args.rate or args.cap}"
        else:
            median_text = f"{median:.1f}" if isinstance(median, float) else str(median)
        out.append(f"| {name} | {within[0]}/{len(programs)} | {within[1]}/{len(programs)} | "
                   f"{within[2]}/{len(programs)} | {median_text} |")
    out.append("")
    misses = []
    for program in programs:
        portfolio = value(cells[(program, "portfolio")])
        best_name = min(SINGLE, key=lambda n: value(cells[(program, n)]))
        best = value(cells[(program, best_name)])
        if portfolio > 1000:
            misses.append(f"{program}: portfolio {shown(cells[(program, 'portfolio')])} seeds (> 1,000)")
        elif best != float("inf") and portfolio > 2 * best:
            misses.append(f"{program}: portfolio {shown(cells[(program, 'portfolio')])} vs {best_name} "
                          f"{shown(cells[(program, best_name)])} ({portfolio / best:.1f}x)")
    out.append("Portfolio target (every bug within 1,000 seeds, never more than 2x the best single "
               "strategy): " + ("met on every program." if not misses else "missed on " + str(len(misses)) +
                                " program(s): " + "; ".join(misses) + "."))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ctrlsched", default="build/bin/ctrlsched")
    parser.add_argument("--bin-dir", default="build/tests/eval/corpus/bin")
    parser.add_argument("--corpus", default="tests/eval/corpus")
    parser.add_argument("--work", default="/tmp/strategy-table")
    parser.add_argument("--cap", type=int, default=10000, help="seeds per cell (default 10000)")
    parser.add_argument("--budget", type=int, default=0, help="seconds per cell, 0 = none")
    parser.add_argument("--rate", type=int, default=0,
                        help="run N seeds per cell and show N / failures (expected seeds to the first failure)")
    parser.add_argument("--only", default="", help="comma-separated programs")
    parser.add_argument("--strategies", default="", help="comma-separated columns to measure")
    parser.add_argument("--render-only", action="store_true", help="print the table from the cache")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    programs = corpus_programs(args.corpus)
    if args.only:
        wanted = args.only.split(",")
        programs = [p for p in programs if p in wanted]
    columns = args.strategies.split(",") if args.strategies else [n for n, _ in STRATEGIES]
    cells = {}
    for program in programs:
        for name, extra in STRATEGIES:
            path = cell_path(args.work, program, name, args.rate)
            if args.render_only or name not in columns:
                if not os.path.exists(path):
                    print(f"missing cell {program} / {name}", file=sys.stderr)
                    return 1
                with open(path) as f:
                    cells[(program, name)] = json.load(f)
                continue
            cells[(program, name)] = measure(args, program, name, extra)
            print(f"{program} {name}: {shown(cells[(program, name)])}", file=sys.stderr, flush=True)
    sys.stdout.write(render(args, programs, cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
