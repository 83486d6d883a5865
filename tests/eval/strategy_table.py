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
multiple of 20 so the portfolio runs whole rotations (20 slots; 1,040 = 52 rotations). A cell may also be given a time budget (--budget seconds): ctrlsched is
then stopped with SIGTERM, which still writes the report of the seeds that finished, and the cell
says how many seeds ran without a failure. Results are cached in --work (one JSON per cell), so
an interrupted measurement resumes, and --render-only prints the table from the cache.

Standard library only. Output: Markdown on stdout.
"""
import argparse
from fractions import Fraction
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
    # SURW with half of its weighted choices uniform (--surw-uniform, docs/strategies.md, "SURW").
    ("surw u50", ["--strategy", "surw", "--surw-uniform", "50"]),
    ("portfolio", []),  # the default
]
SINGLE = [name for name, _ in STRATEGIES if name != "portfolio"]

# Every arm a portfolio may draw a seed from (strategy, parameters, points): measured with
# --arms, shown in the per-arm table, and the input of --simulate. A portfolio seed is the very run
# its arm makes for that seed number (docs/strategies.md, "The portfolio"), so the failing seeds
# of the arms give the failing seeds of any rotation over them exactly.
ARMS = [
    ("pct d=2", ["--strategy", "pct", "--depth", "2"]),
    ("pct d=3", ["--strategy", "pct", "--depth", "3"]),
    ("pct d=4", ["--strategy", "pct", "--depth", "4"]),
    ("pct d=5", ["--strategy", "pct", "--depth", "5"]),
    ("random", ["--strategy", "random"]),
    ("pos", ["--strategy", "pos"]),
    ("surw", ["--strategy", "surw"]),
    ("surw u50", ["--strategy", "surw", "--surw-uniform", "50"]),
]
ARMS = ARMS + [(name + " sync", extra + ["--points", "sync"]) for name, extra in ARMS]


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


def best_cached(work, program, strategy):
    """The cached rate cell of (program, strategy) with the most seeds, or None."""
    key = strategy.replace(" ", "").replace("=", "")
    best = None
    prefix = f"{program}.{key}.rate"
    for entry in os.listdir(work):
        if entry.startswith(prefix) and entry.endswith(".json") and not entry.endswith(".report.json"):
            with open(os.path.join(work, entry)) as f:
                cell = json.load(f)
            if "error" not in cell and (best is None or cell["seeds_run"] > best["seeds_run"]):
                best = cell
    return best


def measure(args, program, strategy, extra, rate=None):
    rate = args.rate if rate is None else rate
    path = cell_path(args.work, program, strategy, rate)
    if os.path.exists(path):
        with open(path) as f:
            cached = json.load(f)
        if "error" not in cached:  # a cell without a report (ctrlsched died) is measured again
            return cached
    report = path + ".report.json"
    binary = os.path.join(args.bin_dir, program + "_instrumented")
    seeds = ["--seeds", str(rate)] if rate else ["--seeds", str(args.cap), "--stop-after", "1"]
    command = [args.ctrlsched] + seeds + ["--jobs", str(args.jobs), "--no-save", "--quiet", "--json", report] + extra + [binary]
    if args.budget:
        command = ["timeout", "-s", "TERM", str(args.budget)] + command
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    cell = {"program": program, "strategy": strategy, "cap": rate or args.cap, "first_failure": None,
            "seeds_run": 0, "handle": None, "interrupted": False, "rate": rate, "failures": 0,
            "failing_seeds": [], "timeouts": [], "handles": {}}
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
            # The strategy a seed ran, by its handle's name (for the portfolio: which arm).
            name = run.get("handle", "").split("@")[0].split(":", 1)[-1]
            cell["handles"][name] = cell["handles"].get(name, 0) + 1
            if strategy == "portfolio":
                cell.setdefault("seed_arms", []).append(name)
            if run.get("outcome") != "fail":
                continue
            # A timeout is the wall clock's verdict, not the schedule's: not counted as finding the bug.
            if run.get("kind") == "timeout":
                cell["timeouts"].append(run["seed"])
                continue
            cell["failures"] += 1
            cell["failing_seeds"].append(run["seed"])
            if cell["first_failure"] is None:
                cell["first_failure"] = run["seed"] + 1
                cell["handle"] = run.get("handle")
        os.remove(report)
    with open(path, "w") as f:
        json.dump(cell, f)
    return cell


def shown(cell):
    if cell.get("rate"):
        if cell["failures"]:
            return f"{expected_first_failure(cell):.1f}"
        return f">{cell['seeds_run']}" + ("†" if cell["interrupted"] or cell["seeds_run"] < cell["cap"] else "")
    if cell["first_failure"] is not None:
        return str(cell["first_failure"])
    if cell["interrupted"] or cell["seeds_run"] < cell["cap"]:
        return f">{cell['seeds_run']}†"
    return f">{cell['cap']}"


def expected_first_failure(cell):
    """Expected seeds to the first failure of a rate cell. A single strategy: seeds / failures (the
    mean of the geometric distribution). The portfolio runs a fixed sequence of arms, so its first
    failure depends on their order: with r(a) the failure rate of arm a among the cell's seeds, the
    expectation is the sum over s of P(no failure in seeds 0..s-1) = prod over t < s of
    (1 - r(arm of seed t)), over the measured seeds, the rest continued at the cell's mean rate."""
    if not cell["failures"]:
        return float("inf")
    arms = cell.get("seed_arms")
    if not arms:
        return cell["seeds_run"] / cell["failures"]
    failing = set(cell["failing_seeds"])
    seen, failed = {}, {}
    for seed, arm in enumerate(arms):
        seen[arm] = seen.get(arm, 0) + 1
        failed[arm] = failed.get(arm, 0) + (seed in failing)
    survive, total = 1.0, 0.0
    for arm in arms:
        total += survive
        survive *= 1 - failed[arm] / seen[arm]
    return total + survive * cell["seeds_run"] / cell["failures"]


def value(cell):
    if cell.get("rate"):
        return expected_first_failure(cell)
    return cell["first_failure"] if cell["first_failure"] is not None else float("inf")


def render(args, programs, cells):
    out = []
    names = [name for name, _ in STRATEGIES]
    if args.rate:
        out.append("| program | " + " | ".join(names) + " | portfolio / best |")
        out.append("|---|" + "---|" * (len(names) + 1))
    else:
        out.append("| program | " + " | ".join(names) + " |")
        out.append("|---|" + "---|" * len(names))
    for program in programs:
        row = f"| {program} | " + " | ".join(shown(cells[(program, n)]) for n in names) + " |"
        if args.rate:
            best = min(value(cells[(program, n)]) for n in SINGLE)
            portfolio = value(cells[(program, "portfolio")])
            row += f" {portfolio / best:.2f} |" if best != float("inf") else " - |"
        out.append(row)
    out.append("")
    limits = (100, 1000, 10000) if args.rate else (100, 1000, args.cap)
    if args.rate:
        out.append("| strategy | expected within 100 | within 1,000 | within 10,000 | median expected seeds to first failure |")
    else:
        out.append(f"| strategy | found within 100 | within 1,000 | within {args.cap:,} | median seeds to first failure |")
    out.append("|---|---|---|---|---|")
    for name in names:
        values = [value(cells[(p, name)]) for p in programs]
        within = [sum(1 for v in values if v <= limit) for limit in limits]
        median = statistics.median_low(values)
        if median == float("inf"):
            median_text = f">{limits[-1]}"
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
                          f"{shown(cells[(program, best_name)])} ({portfolio / best:.2f}x)")
    out.append("Portfolio target (every bug within 1,000 seeds, never more than 2x the best single "
               "strategy): " + ("met on every program." if not misses else "missed on " + str(len(misses)) +
                                " program(s): " + "; ".join(misses) + "."))
    if args.rate:
        seeds = sorted({cells[(p, n)]["seeds_run"] for p in programs for n in names})
        out.append("")
        out.append("Seeds per cell: " + ", ".join(f"{n:,}" for n in seeds) + " (the most measured for that cell).")
    return "\n".join(out) + "\n"


def rotation_report(args, programs, rotation):
    """Expected first failure of a rotation of arms (ARMS names, one per seed of its cycle),
    computed from the arms' cached rate cells (a portfolio seed is its arm's run for that seed)."""
    out = [f"Rotation of {len(rotation)}: {', '.join(rotation)}", "",
           "| program | rotation | best single | ratio |", "|---|---|---|---|"]
    over = []
    for program in programs:
        rates = {}
        for arm in set(rotation) | set(SINGLE):
            cell = best_cached(args.work, program, arm)
            if cell is None:
                return f"missing cell {program} / {arm}: measure it with --arms\n"
            rates[arm] = cell["failures"] / cell["seeds_run"]
        survive, cycle = 1.0, 0.0
        for arm in rotation:
            cycle += survive
            survive *= 1 - rates[arm]
        expected = cycle / (1 - survive) if survive < 1 else float("inf")
        best_name = max(SINGLE, key=lambda n: rates[n])
        best = 1 / rates[best_name] if rates[best_name] else float("inf")
        ratio = expected / best
        if ratio > 2:
            over.append(f"{program} {ratio:.2f}x")
        out.append(f"| {program} | {expected:.1f} | {best_name} {best:.1f} | {ratio:.2f} |")
    out += ["", f"More than 2x the best single strategy on {len(over)} program(s)" +
            (": " + ", ".join(over) if over else "") + "."]
    return "\n".join(out) + "\n"


def simplex_max(c, rows, bounds):
    """Maximizes c.x subject to rows[i].x <= bounds[i] (every bound >= 0) and x >= 0, exactly
    (fractions.Fraction), by the tableau simplex method with Bland's rule (no cycling on the
    degenerate rows). Returns (optimum, x, duals): duals[i] is the shadow price of row i, the
    weight of that constraint in the dual optimum (nonzero only for rows that bind)."""
    m, n = len(rows), len(c)
    # Tableau: the rows, then the objective row -c; columns: x, the slacks, the right-hand side.
    table = [[Fraction(v) for v in row] + [Fraction(int(i == j)) for j in range(m)] + [Fraction(bounds[i])]
             for i, row in enumerate(rows)]
    objective = [-Fraction(v) for v in c] + [Fraction(0)] * m + [Fraction(0)]
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(n + m) if objective[j] < 0), None)
        if entering is None:
            break
        ratios = [(table[i][-1] / table[i][entering], basis[i], i) for i in range(m) if table[i][entering] > 0]
        if not ratios:
            raise ValueError("unbounded")
        _, _, leaving = min(ratios)  # smallest ratio, ties by the lowest basic variable (Bland)
        pivot = table[leaving][entering]
        table[leaving] = [v / pivot for v in table[leaving]]
        for i in range(m):
            if i != leaving and table[i][entering] != 0:
                factor = table[i][entering]
                table[i] = [a - factor * b for a, b in zip(table[i], table[leaving])]
        factor = objective[entering]
        objective = [a - factor * b for a, b in zip(objective, table[leaving])]
        basis[leaving] = entering
    x = [Fraction(0)] * n
    for i, var in enumerate(basis):
        if var < n:
            x[var] = table[i][-1]
    return objective[-1], x, objective[n:n + m]


def lp_report(args, programs, arms):
    """The best shares of `arms` for the target, as a max-min problem: maximize over the shares s
    (s >= 0, sum 1) the minimum over programs of (sum over arms of s(a) r(a)) / max over the single
    strategies of r: the rotation's mean failure rate against the best single strategy's. For a
    rare bug a rotation's expected first failure is about 1 / its mean rate, so 1 / the optimum is
    the smallest worst-case ratio to the best single strategy that any rotation of these arms can
    have (for frequent bugs the order counts too: --rotation computes that exactly). Solved
    exactly as a linear program."""
    rates = {}
    for program in programs:
        for arm in set(arms) | set(SINGLE):
            cell = best_cached(args.work, program, arm)
            if cell is None:
                return f"missing cell {program} / {arm}: measure it with --arms\n"
            rates[(program, arm)] = Fraction(cell["failures"], cell["seeds_run"])
    # Programs whose best single strategy needs fewer than --lp-min-seeds seeds are left out: for
    # a frequent bug the order of the rotation counts more than its shares (--rotation).
    used = [p for p in programs if max(rates[(p, a)] for a in SINGLE) > 0
            and 1 / max(rates[(p, a)] for a in SINGLE) >= args.lp_min_seeds]
    left_out = [p for p in programs if p not in used]
    # Variables: the shares of the arms, then t. Rows: t - sum_a s(a) r(a, p) / best(p) <= 0 per
    # program; sum_a s(a) <= 1 (it binds at the optimum: every rate is >= 0).
    rows, bounds = [], []
    for p in used:
        best = max(rates[(p, a)] for a in SINGLE)
        rows.append([-rates[(p, a)] / best for a in arms] + [1])
        bounds.append(0)
    rows.append([1] * len(arms) + [0])
    bounds.append(1)
    optimum, x, duals = simplex_max([0] * len(arms) + [1], rows, bounds)
    out = [f"Max-min shares of {len(arms)} arms over {len(used)} programs (rate of the mix / best single rate):", "",
           f"optimum: {float(optimum):.4f}, i.e. no rotation of these arms is below "
           f"{float(1 / optimum):.3f}x the best single strategy on every program (rare-bug approximation)"
           if optimum > 0 else "optimum: 0 (some program is found by none of these arms)", "",
           "| arm | share | of 20 seeds |", "|---|---|---|"]
    for arm, share in zip(arms, x):
        out.append(f"| {arm} | {float(share):.4f} | {float(share) * 20:.2f} |")
    out += ["", "Programs that bind (dual weight > 0): " +
            ", ".join(f"{p} {float(d):.3f}" for p, d in zip(used, duals) if d > 0) + "."]
    if left_out:
        out += ["", f"Left out (best single strategy under {args.lp_min_seeds:g} seeds): " + ", ".join(left_out) + "."]
    return "\n".join(out) + "\n"


def rotation_expectation(rates, rotation):
    """Expected seeds to the first failure of a rotation repeated forever, seed t running arm
    rotation[t % len]: (sum over s < N of prod over t < s of (1 - r_t)) / (1 - prod over the cycle)."""
    survive, cycle = 1.0, 0.0
    for arm in rotation:
        cycle += survive
        survive *= 1 - rates[arm]
    return cycle / (1 - survive) if survive < 1 else float("inf")


def search_report(args, programs, arms):
    """A local search for the rotation of `arms` (args.cycle seeds) whose worst ratio to the best
    single strategy over the programs is smallest, by the exact expectation of rotation_expectation
    (so the order counts, unlike --lp). Moves: change one seed's arm, swap two seeds; a move is
    taken when it makes the descending list of ratios smaller (the worst first). Restarts from
    random rotations, each then kicked (three seeds changed at random) and climbed again, all
    drawn from a fixed seed, so the search is reproducible. A local optimum, not
    a proof: --lp bounds what any rotation can do for rare bugs."""
    import random
    rates, best = {}, {}
    for program in programs:
        for arm in set(arms) | set(SINGLE):
            cell = best_cached(args.work, program, arm)
            if cell is None:
                return f"missing cell {program} / {arm}: measure it with --arms\n"
            rates.setdefault(program, {})[arm] = cell["failures"] / cell["seeds_run"]
        best[program] = max(rates[program][a] for a in SINGLE)
    used = [p for p in programs if best[p] > 0]

    capped = set(corpus_programs(args.cap_programs)) if args.cap_programs else set()

    def ratios(rotation):
        values = {p: rotation_expectation(rates[p], rotation) * best[p] for p in used}
        # With --cap-programs: first keep every one of those programs at or below --cap-ratio (how
        # far above it the worst of them is), then the worst over all programs.
        over = max([values[p] - args.cap_ratio for p in used if p in capped] + [0.0])
        return [over] + sorted(values.values(), reverse=True)

    rng = random.Random(args.search_seed)

    def climb(rotation):
        score = ratios(rotation)
        improved = True
        while improved:
            improved = False
            moves = [("set", i, a) for i in range(args.cycle) for a in arms] + \
                    [("swap", i, j) for i in range(args.cycle) for j in range(i + 1, args.cycle)]
            rng.shuffle(moves)
            for move in moves:
                candidate = list(rotation)
                if move[0] == "set":
                    if candidate[move[1]] == move[2]:
                        continue
                    candidate[move[1]] = move[2]
                    if any(a not in candidate for a in required):
                        continue
                else:
                    i, j = move[1], move[2]
                    if candidate[i] == candidate[j]:
                        continue
                    candidate[i], candidate[j] = candidate[j], candidate[i]
                candidate_score = ratios(candidate)
                if candidate_score < score:
                    rotation, score, improved = candidate, candidate_score, True
        return rotation, score

    required = [a.strip() for a in args.require.split(",") if a.strip()]

    def start():
        rotation = [rng.choice(arms) for _ in range(args.cycle)]
        for i, arm in zip(rng.sample(range(args.cycle), len(required)), required):
            rotation[i] = arm
        return rotation

    found, found_score = None, None
    for restart in range(args.restarts):
        rotation, score = climb(start())
        # Then kicks: three random seeds of the best rotation changed, and the climb again.
        for _ in range(args.kicks):
            kicked = list(rotation)
            for i in rng.sample(range(args.cycle), 3):
                kicked[i] = rng.choice(arms)
            if any(a not in kicked for a in required):
                continue
            kicked, kicked_score = climb(kicked)
            if kicked_score < score:
                rotation, score = kicked, kicked_score
        if found_score is None or score < found_score:
            found, found_score = rotation, score
        print(f"restart {restart}: worst {score[1]:.3f} (capped programs over the cap by {score[0]:.3f})",
              file=sys.stderr, flush=True)
    counts = {a: found.count(a) for a in arms if found.count(a)}
    out = [f"Best rotation of {args.cycle} found ({args.restarts} restarts): " + ", ".join(found), "",
           "Seeds per arm: " + ", ".join(f"{a} {n}" for a, n in counts.items()), "",
           f"Worst ratio to the best single strategy: {found_score[1]:.3f}" +
           (f" (the --cap-programs at most {args.cap_ratio + found_score[0]:.3f})" if capped else "") +
           "; programs above 1.8x: " +
           (", ".join(f"{p} {rotation_expectation(rates[p], found) * best[p]:.2f}" for p in used
                      if rotation_expectation(rates[p], found) * best[p] > 1.8) or "none") + "."]
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
    parser.add_argument("--jobs", type=int, default=1, help="ctrlsched --jobs (the results do not depend on it)")
    parser.add_argument("--arms", action="store_true", help="also measure every arm of ARMS")
    parser.add_argument("--extend", type=int, default=0,
                        help="with --rate: measure a cell again with this many seeds when it failed fewer than "
                             "--extend-below times")
    parser.add_argument("--extend-below", type=int, default=30)
    parser.add_argument("--rotation", default="",
                        help="print the expected first failure of this rotation (comma-separated ARMS names, "
                             "one per seed) from the cached arm cells, and nothing else")
    parser.add_argument("--lp", default="",
                        help="print the max-min shares of these arms (comma-separated ARMS names) for the target, "
                             "solved exactly as a linear program from the cached arm cells, and nothing else")
    parser.add_argument("--lp-min-seeds", type=float, default=0,
                        help="with --lp: leave out the programs whose best single strategy needs fewer seeds than this")
    parser.add_argument("--search", default="",
                        help="search for the rotation of these arms (comma-separated ARMS names) with the smallest "
                             "worst ratio to the best single strategy, exactly from the cached arm cells")
    parser.add_argument("--cycle", type=int, default=20, help="with --search: seeds per rotation")
    parser.add_argument("--restarts", type=int, default=8, help="with --search: random starting rotations")
    parser.add_argument("--require", default="", help="with --search: arms every rotation keeps at least one seed of")
    parser.add_argument("--kicks", type=int, default=30, help="with --search: perturbations of each restart's best")
    parser.add_argument("--cap-programs", default="",
                        help="with --search: a program directory whose programs must stay at or below --cap-ratio "
                             "(the issue's target set), while the worst over all programs is minimized")
    parser.add_argument("--cap-ratio", type=float, default=2.0, help="with --cap-programs: the ratio they must keep")
    parser.add_argument("--search-seed", type=int, default=0, help="with --search: seed of the starting rotations")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    programs = corpus_programs(args.corpus)
    if args.only:
        wanted = args.only.split(",")
        programs = [p for p in programs if p in wanted]
    if args.lp:
        sys.stdout.write(lp_report(args, programs, [a.strip() for a in args.lp.split(",")]))
        return 0
    if args.search:
        sys.stdout.write(search_report(args, programs, [a.strip() for a in args.search.split(",")]))
        return 0
    if args.rotation:
        sys.stdout.write(rotation_report(args, programs, [a.strip() for a in args.rotation.split(",")]))
        return 0
    columns = args.strategies.split(",") if args.strategies else [n for n, _ in STRATEGIES]
    cells = {}
    measured = list(STRATEGIES)
    if args.arms:
        measured += [arm for arm in ARMS if arm[0] not in dict(STRATEGIES)]
        if not args.strategies:
            columns += [name for name, _ in ARMS if name not in columns]
    for program in programs:
        for name, extra in measured:
            path = cell_path(args.work, program, name, args.rate)
            if args.render_only or name not in columns:
                if os.path.exists(path):
                    with open(path) as f:
                        cells[(program, name)] = json.load(f)
                continue
            cell = measure(args, program, name, extra)
            # A rare failure needs more seeds for its rate: measure it again with --extend seeds.
            if args.rate and args.extend and cell["failures"] < args.extend_below:
                cell = measure(args, program, name, extra, rate=args.extend)
            cells[(program, name)] = cell
            print(f"{program} {name}: {shown(cells[(program, name)])}", file=sys.stderr, flush=True)
    if args.rate:  # every cell from the measurement with the most seeds
        for program in programs:
            for name, _ in measured:
                if (cached := best_cached(args.work, program, name)) is not None:
                    cells[(program, name)] = cached
    missing = [f"{p} / {n}" for p in programs for n, _ in STRATEGIES if (p, n) not in cells]
    if missing:
        print("missing cells (measure them first): " + ", ".join(missing), file=sys.stderr)
        return 1
    sys.stdout.write(render(args, programs, cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
