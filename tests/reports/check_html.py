#!/usr/bin/env python3
"""The --html report in a real headless browser (registered as e2e.reports.html.<check>).

  check_html.py deadlock|pattern|escaping|large CTRLSCHED WORK TARGET

Each check runs the real `ctrlsched` with --json and --html on its program, loads the page in
Debian's `chromium` (--headless --dump-dom: the page's script runs, then the DOM it built is
printed) and checks what the page drew against the JSON report of the same run. Every page: its
script finished (the status element it fills says "done") without an error, and the browser
logged no console message (an uncaught error, a request the page's policy blocked).
  deadlock  abba_deadlock: one lane per thread of the first failing run; the deadlocked threads'
            blocks and the steps that took the locks they wait for are highlighted. (And an
            --html path that cannot be written is a usage error before any seed.)
  pattern   lost_update_instrumented --localize: one lane per thread; the confirmed pattern's
            accesses are highlighted, one step per access at its site with its role label, roles
            on distinct threads, and the pattern's row in the table is marked.
  escaping  html_escape: a test printing <script> and <img onerror> markup into its output and
            its assertion message cannot run code in the page (the injected code would set
            document.title and an attribute on <html>); the markup is shown as text. The same
            page with the data's escaping undone must let the injected code run, so the check
            cannot pass by not looking.
  large     long_interleaving, about 7,500 steps: the page draws within its row budget, with the
            failure point, folded stretches and undrawn rows; a script appended to a copy of the
            page clicks a fold and a gap, which must draw more rows, in step order.
Exits 77 (CTest: skipped) with a message when no chromium is installed.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def find_all(self, predicate):
        for c in self.children:
            if isinstance(c, Node):
                if predicate(c):
                    yield c
                yield from c.find_all(predicate)


VOID = {"meta", "img", "br", "hr", "input", "link", "col", "area", "base", "embed", "source", "wbr"}


class TreeBuilder(html.parser.HTMLParser):
    """A small DOM from chromium's serialization (well formed: every element is closed)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def chromium_binary():
    for name in (os.environ.get("CTRLSCHED_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def load(chromium, page, work):
    """The DOM after the page's script ran, and the console lines the browser logged."""
    profile = os.path.join(work, "chromium-profile")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile,
               "--dump-dom", "file://" + os.path.abspath(page)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or "</html>" not in done.stdout:
        sys.exit(f"chromium failed ({done.returncode}) on {page}:\n{done.stderr[-3000:]}")
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    builder = TreeBuilder()
    builder.feed(done.stdout)
    return builder.root, console


def by_id(root, ident):
    return next(root.find_all(lambda n: n.attrs.get("id") == ident), None)


def run_ctrlsched(ctrlsched, work, name, target, options, args=()):
    paths = {"json": os.path.join(work, name + ".json"), "html": os.path.join(work, name + ".html")}
    command = [ctrlsched, "--quiet", "--json", paths["json"], "--html", paths["html"], *options, "--", target, *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=work)
    if done.returncode != 1:
        sys.exit(f"{name}: expected exit 1 (failures), got {done.returncode}: {' '.join(command)}\n"
                 f"{done.stderr}{done.stdout[-2000:]}")
    with open(paths["json"]) as f:
        return json.load(f), paths["html"]


def check_page(name, root, console, report):
    """The checks every page passes; returns the first group's timeline element."""
    status = by_id(root, "ctrlsched-status")
    if not check(status is not None and status.attrs.get("data-state") == "done",
                 f"{name}: the page's script did not finish (status {status.attrs if status else None})"):
        return None
    check(status.attrs.get("data-errors") == "0", f"{name}: the page caught {status.attrs.get('data-errors')} errors")
    check(not console, f"{name}: the browser logged console messages:\n" + "\n".join(console))
    groups = report["groups"]
    sections = list(root.find_all(lambda n: n.tag == "section" and "group" in n.classes()))
    check(len(sections) == len(groups), f"{name}: {len(sections)} group sections for {len(groups)} groups")
    for section, group in zip(sections, groups):
        codes = [c.text() for c in section.find_all(lambda n: n.tag == "code")]
        check(group["replay"] in codes, f"{name}: group {group['signature']}: no replay command {group['replay']!r}")
        check(any(c.startswith("ctrlsched shrink ") for c in codes), f"{name}: group {group['signature']}: no shrink command")
    timeline = next(root.find_all(lambda n: "timeline" in n.classes() and n.attrs.get("data-group") == "0"), None)
    if not check(timeline is not None, f"{name}: the first group's timeline is not drawn"):
        return None
    first = next(r for r in report["runs"] if r["seed"] == groups[0]["first_seed"])
    lanes = [n.text() for n in timeline.find_all(lambda n: "lane-head" in n.classes())]
    check(lanes == [f"T{i}" for i in range(first["threads"])],
          f"{name}: lanes {lanes} for a run of {first['threads']} threads")
    check(status.attrs.get("data-lanes") == str(first["threads"]), f"{name}: status says {status.attrs.get('data-lanes')} lanes")
    return timeline


def cell_thread(cell):
    return int(cell.attrs["data-thread"])


def check_unwritable(ctrlsched, work, target):
    """A path that cannot be written is a usage error before any seed runs."""
    path = os.path.join(work, "no such directory", "report.html")
    done = subprocess.run([ctrlsched, "--seeds", "5", "--html", path, "--", target],
                          capture_output=True, text=True, timeout=60, cwd=work)
    check(done.returncode == 2, f"--html {path}: exit {done.returncode}, expected 2")
    check(done.stderr.startswith(f"ctrlsched: cannot write the --html file {path}: "),
          f"--html {path}: stderr {done.stderr!r}")
    check(done.stdout == "", f"--html {path}: seeds ran: {done.stdout!r}")


def check_deadlock(chromium, ctrlsched, work, target):
    check_unwritable(ctrlsched, work, target)
    report, page = run_ctrlsched(ctrlsched, work, "abba_deadlock", target, ["--seeds", "20", "--strategy", "random"])
    root, console = load(chromium, page, work)
    timeline = check_page("abba_deadlock", root, console, report)
    if timeline is None:
        return
    check(report["groups"][0]["kind"] == "deadlock", "abba_deadlock: the first group is no deadlock")
    # "T1 waits for mutex 0x… held by T2": the threads of the cycle and who holds what they wait for.
    waits = re.findall(r"T(\d+) waits for mutex .+? held by T(\d+)", report["groups"][0]["message"])
    check(len(waits) == 2, f"abba_deadlock: message names no two-thread cycle: {report['groups'][0]['message']}")
    blocked = {cell_thread(c) for c in timeline.find_all(lambda n: "hl-deadlock" in n.classes())}
    holders = {cell_thread(c) for c in timeline.find_all(lambda n: "hl-held" in n.classes())}
    for waiter, holder in waits:
        check(int(waiter) in blocked, f"abba_deadlock: T{waiter}'s block is not highlighted (highlighted: {blocked})")
        check(int(holder) in holders, f"abba_deadlock: T{holder} taking the lock is not highlighted ({holders})")
    shaded = list(timeline.find_all(lambda n: "blocked" in n.classes()))
    check(shaded, "abba_deadlock: no blocked period is shaded")


def check_pattern(chromium, ctrlsched, work, target):
    report, page = run_ctrlsched(ctrlsched, work, "lost_update", target,
                                 ["--seeds", "60", "--localize", "--top", "1", "--confirm-seeds", "10"])
    root, console = load(chromium, page, work)
    timeline = check_page("lost_update", root, console, report)
    if timeline is None:
        return
    patterns = report["localization"]["falcon"]["patterns"]
    confirmed = [p for p in patterns if p.get("confirmation", {}).get("verdict") == "confirmed"]
    if not check(confirmed, "lost_update: localization confirmed no pattern (the example's rank-1 pattern should be)"):
        return
    pattern = confirmed[0]
    cells = list(timeline.find_all(lambda n: "hl-pattern" in n.classes()))
    check(len(cells) == len(pattern["accesses"]),
          f"lost_update: {len(cells)} highlighted steps for the {len(pattern['accesses'])} accesses of {pattern['kind']}")
    role_thread = {}
    for cell, access in zip(cells, pattern["accesses"]):
        text = cell.text()
        place, function = access["site"].split(" ", 1)
        label = access["access"] + str(access["role"])
        check(text.startswith(label) and place in text and function in text,
              f"lost_update: highlighted step {text!r} is not {label} at {access['site']}")
        check(role_thread.setdefault(access["role"], cell_thread(cell)) == cell_thread(cell),
              f"lost_update: role {access['role']} highlighted on two threads")
    check(len(set(role_thread.values())) == len(role_thread), "lost_update: two roles highlighted on one thread")
    rows = [r for r in root.find_all(lambda n: n.tag == "tr" and "chosen" in n.classes())]
    check(len(rows) == 1 and rows[0].attrs.get("data-rank") == str(pattern["rank"]),
          f"lost_update: the pattern table marks {[r.attrs.get('data-rank') for r in rows]}, not rank {pattern['rank']}")
    check("confirmed" in "".join(r.text() for r in rows), "lost_update: the chosen pattern's row shows no verdict")


def injected(root):
    """What the test program's markup would have done, had it run."""
    html_element = next(root.find_all(lambda n: n.tag == "html"))
    title = next(root.find_all(lambda n: n.tag == "title"), None)
    images = list(root.find_all(lambda n: n.tag == "img"))
    found = []
    if "data-pwned" in html_element.attrs:
        found.append("data-pwned=" + html_element.attrs["data-pwned"])
    if title is not None and "pwned" in title.text():
        found.append("title " + title.text())
    if images:
        found.append(f"{len(images)} <img> elements")
    return found


def check_escaping(chromium, ctrlsched, work, target):
    report, page = run_ctrlsched(ctrlsched, work, "html_escape", target, ["--seeds", "3"])
    root, console = load(chromium, page, work)
    timeline = check_page("html_escape", root, console, report)
    check(timeline is not None, "html_escape: no timeline")
    check(not injected(root), f"html_escape: the test's markup ran in the page: {injected(root)}")
    shown = "\n".join(n.text() for n in root.find_all(lambda n: n.tag == "pre"))
    check("<img src=x onerror=" in shown and "</script><script>document.title='pwned'" in shown,
          "html_escape: the test's output is not shown as text")
    heading = "".join(n.text() for n in root.find_all(lambda n: n.tag == "h3"))
    check("</script><script>" in heading, f"html_escape: the assertion message is not shown as text: {heading!r}")
    # The check must be able to fail: undo the escaping of '<' in the data and the injected
    # </script><script> must now run.
    with open(page, encoding="utf-8") as f:
        text = f.read()
    broken = os.path.join(work, "html_escape.unescaped.html")
    with open(broken, "w", encoding="utf-8") as f:
        f.write(text.replace("\\u003c", "<").replace("\\u003e", ">"))
    root, _ = load(chromium, broken, work)
    check(injected(root), "html_escape: with the escaping undone the injected code did not run: the check sees nothing")


# Appended to a copy of the page (its policy allows inline scripts): expands the first fold and
# the first gap of the first timeline the way a click does and records what was drawn.
EXPAND_SCRIPT = """<script>
(function () {
  var box = document.querySelector('.timeline[data-group="0"]');
  function rows() { return box.querySelectorAll('.trow').length; }
  var counts = [rows()];
  var fold = box.querySelector('.trow.fold button');
  if (fold) fold.click();
  counts.push(rows());
  var gap = box.querySelector('.trow.gap button');
  if (gap) gap.click();
  counts.push(rows());
  var steps = Array.prototype.map.call(box.querySelectorAll('.trow[data-step]'),
                                       function (r) { return Number(r.getAttribute('data-step')); });
  var ordered = steps.every(function (s, i) { return i === 0 || s > steps[i - 1]; });
  var out = document.createElement('div');
  out.id = 'expand-results';
  out.setAttribute('data-rows', counts.join(','));
  out.setAttribute('data-fold', fold ? '1' : '0');
  out.setAttribute('data-gap', gap ? '1' : '0');
  out.setAttribute('data-ordered', ordered ? '1' : '0');
  document.body.appendChild(out);
})();
</script>
"""


def check_large(chromium, ctrlsched, work, target):
    # Random scheduling: a switch at about every other step, so more rows than the budget.
    _, page = run_ctrlsched(ctrlsched, work, "long_interleaving", target, ["--seeds", "1", "--strategy", "random"],
                            ["2", "1500"])
    with open(page, encoding="utf-8") as f:
        text = f.read()
    expanding = os.path.join(work, "long_interleaving.expand.html")
    with open(expanding, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", EXPAND_SCRIPT + "</body>"))
    root, console = load(chromium, expanding, work)
    check(not console, "long_interleaving: the browser logged console messages:\n" + "\n".join(console))
    status = by_id(root, "ctrlsched-status")
    check(status is not None and status.attrs.get("data-state") == "done" and status.attrs.get("data-errors") == "0",
          f"long_interleaving: the page's script did not finish cleanly ({status.attrs if status else None})")
    timeline = next(root.find_all(lambda n: "timeline" in n.classes() and n.attrs.get("data-group") == "0"), None)
    if not check(timeline is not None, "long_interleaving: no timeline drawn"):
        return
    steps = int(timeline.attrs.get("data-steps", "0"))
    drawn = int(timeline.attrs.get("data-rows", "0"))
    check(steps > 3000, f"long_interleaving: only {steps} steps")
    check(0 < drawn <= 1500 + 7 * 3, f"long_interleaving: {drawn} rows drawn at first for {steps} steps")
    check(any("hl-failure" in n.classes() for n in timeline.find_all(lambda n: True)),
          "long_interleaving: the failure point at the end of the run is not drawn")
    results = by_id(root, "expand-results")
    if not check(results is not None, "long_interleaving: the appended script did not run"):
        return
    counts = [int(c) for c in results.attrs["data-rows"].split(",")]
    check(results.attrs["data-fold"] == "1", "long_interleaving: no folded stretch")
    check(results.attrs["data-gap"] == "1", "long_interleaving: no undrawn rows beyond the budget")
    check(counts[1] > counts[0], f"long_interleaving: expanding a fold drew no rows ({counts})")
    check(counts[2] > counts[1], f"long_interleaving: drawing a gap drew no rows ({counts})")
    check(results.attrs["data-ordered"] == "1", "long_interleaving: rows are not in step order after expanding")


CHECKS = {"deadlock": check_deadlock, "pattern": check_pattern, "escaping": check_escaping, "large": check_large}


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    kind, ctrlsched, work, target = sys.argv[1:]
    chromium = chromium_binary()
    if not chromium:
        print("SKIP: chromium not found (apt-get install chromium, as .ci/install-deps does, or set CTRLSCHED_CHROMIUM)")
        sys.exit(SKIP)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    CHECKS[kind](chromium, ctrlsched, work, target)
    if problems:
        sys.exit("problems:\n" + "\n".join(problems))
    print("ok")


if __name__ == "__main__":
    main()
