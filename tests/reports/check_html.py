#!/usr/bin/env python3
"""The --html report in a real headless browser (registered as e2e.reports.html).

  check_html.py CTRLSCHED WORK ABBA_DEADLOCK LOST_UPDATE_INSTRUMENTED HTML_ESCAPE

Runs the real `ctrlsched` with --json and --html on three programs, loads each page in Debian's
`chromium` (--headless --dump-dom: the page's script runs, then the DOM it built is printed) and
checks what the page drew against the JSON report of the same run:
  - every page: its script finished (the status element it fills says "done"), caught no error,
    and the browser logged no console message (an uncaught error, a blocked request);
  - one lane per thread of the first failing run;
  - abba_deadlock: the deadlocked threads' blocking steps and the steps that took the awaited
    locks are highlighted;
  - lost_update (--localize): the confirmed pattern's accesses are highlighted, one step per
    access, each at the access's site with its role label, and the pattern's row is marked;
  - html_escape: a test printing <script> and <img onerror> markup into its output and its
    assertion message cannot run code in the page (the injected code would set document.title
    and an attribute on <html>); the markup is shown as text. The same page with the data's
    escaping undone must let the injected code run, so the check cannot pass by not looking.
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


def run_ctrlsched(ctrlsched, work, name, target, options):
    paths = {"json": os.path.join(work, name + ".json"), "html": os.path.join(work, name + ".html")}
    command = [ctrlsched, "--quiet", "--json", paths["json"], "--html", paths["html"], *options, "--", target]
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


def check_deadlock(chromium, ctrlsched, work, target):
    report, page = run_ctrlsched(ctrlsched, work, "abba_deadlock", target, ["--seeds", "20", "--strategy", "random"])
    root, console = load(chromium, page, work)
    timeline = check_page("abba_deadlock", root, console, report)
    if timeline is None:
        return
    check(report["groups"][0]["kind"] == "deadlock", "abba_deadlock: the first group is no deadlock")
    # "T1 waits for mutex 0x… held by T2": the threads of the cycle and who holds what they wait for.
    waits = re.findall(r"T(\d+) waits for mutex \S+ held by T(\d+)", report["groups"][0]["message"])
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


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    ctrlsched, work, abba_deadlock, lost_update, html_escape = sys.argv[1:]
    chromium = chromium_binary()
    if not chromium:
        print("SKIP: chromium not found (apt-get install chromium, as .ci/install-deps does, or set CTRLSCHED_CHROMIUM)")
        sys.exit(SKIP)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    check_deadlock(chromium, ctrlsched, work, abba_deadlock)
    check_pattern(chromium, ctrlsched, work, lost_update)
    check_escaping(chromium, ctrlsched, work, html_escape)
    if problems:
        sys.exit("problems:\n" + "\n".join(problems))
    print("ok")


if __name__ == "__main__":
    main()
