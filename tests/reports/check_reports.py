#!/usr/bin/env python3
"""End-to-end checks of the --sarif and --junit reports (registered as e2e.reports.*).

  check_reports.py content   CTRLSCHED WORK CHECK_THEN_ACT ABBA_DEADLOCK LOST_UPDATE_INSTRUMENTED
      Runs the real `ctrlsched` with --json, --sarif and --junit on three examples and checks the
      SARIF and JUnit files against the JSON report of the same run: one SARIF result and one JUnit
      test case per failure group (plus the passing seeds), rule ids, failure sites, a codeFlow with
      one threadFlow per thread of the first failing run, the confirmed localization pattern as
      related locations. The JUnit file is read with a real XML parser (xml.etree).
  check_reports.py validate  CTRLSCHED WORK CHECK_THEN_ACT ABBA_DEADLOCK LOST_UPDATE_INSTRUMENTED
      Validates those SARIF files with Microsoft's SARIF validator (`sarif-multitool validate`,
      npm @microsoft/sarif-multitool; .ci/install-deps installs it): the JSON schema of SARIF 2.1.0
      and its SARIF rules, no result of level "error". A file broken on purpose must be rejected,
      so the check cannot pass by not validating. Exits 77 (CTest: skipped) with a message when the
      validator is not installed.
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SKIP = 77
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def run_ctrlsched(ctrlsched, work, name, target, options):
    paths = {kind: os.path.join(work, name + suffix)
             for kind, suffix in (("json", ".json"), ("sarif", ".sarif"), ("junit", ".junit.xml"))}
    command = [ctrlsched, "--quiet", "--json", paths["json"], "--sarif", paths["sarif"],
               "--junit", paths["junit"], *options, "--", target]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 1:
        sys.exit(f"{name}: expected exit 1 (failures), got {done.returncode}: {' '.join(command)}\n"
                 f"{done.stderr}{done.stdout[-2000:]}")
    with open(paths["json"]) as f:
        report = json.load(f)
    with open(paths["sarif"]) as f:
        sarif = json.load(f)
    return report, sarif, paths


def check_sarif(name, report, sarif, site_file):
    check(sarif.get("version") == "2.1.0", f"{name}: SARIF version {sarif.get('version')}")
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    groups = report["groups"]
    if not check(len(results) == len(groups), f"{name}: {len(results)} SARIF results for {len(groups)} groups"):
        return results
    for result, group in zip(results, groups):
        where = f"{name} group {group['signature']}"
        check(result["ruleId"] == "ctrlsched/" + group["kind"], f"{where}: ruleId {result['ruleId']}")
        check(rules[result["ruleIndex"]]["id"] == result["ruleId"], f"{where}: ruleIndex points elsewhere")
        check(result["properties"]["replay"] == group["replay"], f"{where}: replay command differs")
        location = result["locations"][0]["physicalLocation"]
        if group["file"]:
            check(location["artifactLocation"]["uri"].endswith("/" + site_file),
                  f"{where}: primary location {location['artifactLocation']['uri']}")
            check(location["region"]["startLine"] == group["line"], f"{where}: line {location.get('region')}")
        first = next(r for r in report["runs"] if r["seed"] == group["first_seed"])
        flows = result.get("codeFlows")
        if not check(flows, f"{where}: no codeFlow"):
            continue
        thread_flows = flows[0]["threadFlows"]
        ids = [flow["id"] for flow in thread_flows]
        check(len(ids) == first["threads"], f"{where}: threadFlows {ids} for a run of {first['threads']} threads")
        orders = sorted(step["executionOrder"] for flow in thread_flows for step in flow["locations"])
        check(orders == list(range(1, len(orders) + 1)), f"{where}: executionOrder is not 1..{len(orders)}")
        lines = [step["location"]["physicalLocation"]["artifactLocation"]["uri"]
                 for flow in thread_flows for step in flow["locations"] if "physicalLocation" in step["location"]]
        check(any(uri.endswith("/" + site_file) for uri in lines), f"{where}: no step in {site_file}")
    return results


def check_junit(name, report, path):
    root = ET.parse(path).getroot()  # raises on malformed XML
    check(root.tag == "testsuites", f"{name}: root element {root.tag}")
    suites = root.findall("testsuite")
    if not check(len(suites) == 1, f"{name}: {len(suites)} testsuites"):
        return
    suite = suites[0]
    cases = suite.findall("testcase")
    groups = report["groups"]
    check(len(cases) == len(groups) + 1, f"{name}: {len(cases)} test cases for {len(groups)} groups")
    check(suite.get("tests") == str(len(cases)), f"{name}: tests={suite.get('tests')}")
    check(suite.get("failures") == str(len(groups)), f"{name}: failures={suite.get('failures')}")
    names = [case.get("name") for case in cases]
    check(len(set(names)) == len(names), f"{name}: test case names repeat: {names}")
    for case, group in zip(cases, groups):
        failure = case.find("failure")
        if not check(failure is not None, f"{name}: test case {case.get('name')} has no <failure>"):
            continue
        check(failure.get("type") == group["kind"], f"{name}: failure type {failure.get('type')}")
        check(failure.get("message") == group["message"], f"{name}: failure message {failure.get('message')!r}")
        check(group["replay"] in failure.text, f"{name}: failure text lacks the replay command")
    passing = cases[-1]
    check(passing.get("name") == "passing seeds", f"{name}: last test case {passing.get('name')}")
    passed = report["outcomes"]["pass"]
    check(f"{passed} of {report['summary']['seeds']} seeds passed" in (passing.findtext("system-out") or ""),
          f"{name}: passing seeds case says {passing.findtext('system-out')!r}")


def produce(argv):
    ctrlsched, work, check_then_act, abba_deadlock, lost_update = argv
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    reports = {}
    report, sarif, paths = run_ctrlsched(ctrlsched, work, "check_then_act", check_then_act, ["--seeds", "200"])
    check_sarif("check_then_act", report, sarif, "check_then_act.c")
    check_junit("check_then_act", report, paths["junit"])
    reports["check_then_act"] = paths["sarif"]

    report, sarif, paths = run_ctrlsched(ctrlsched, work, "abba_deadlock", abba_deadlock,
                                         ["--seeds", "200", "--strategy", "random"])
    results = check_sarif("abba_deadlock", report, sarif, "abba_deadlock.c")
    check(results and results[0]["ruleId"] == "ctrlsched/deadlock", "abba_deadlock: first result is no deadlock")
    check_junit("abba_deadlock", report, paths["junit"])
    reports["abba_deadlock"] = paths["sarif"]

    report, sarif, paths = run_ctrlsched(ctrlsched, work, "lost_update", lost_update,
                                         ["--seeds", "200", "--localize", "--top", "1"])
    results = check_sarif("lost_update", report, sarif, "lost_update.c")
    patterns = report["localization"]["falcon"]["patterns"]
    confirmed = [p for p in patterns if p.get("confirmation", {}).get("verdict") == "confirmed"]
    if check(confirmed, "lost_update: localization confirmed no pattern (the example's rank-1 pattern should be)"):
        related = results[0].get("relatedLocations", []) if results else []
        expected = sum(len(p["accesses"]) for p in confirmed)
        check(len(related) == expected, f"lost_update: {len(related)} related locations for {expected} accesses")
        sites = {a["site"].split(" ")[0] for p in confirmed for a in p["accesses"]}
        for location in related:
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            line = location["physicalLocation"]["region"]["startLine"]
            check(f"{uri}:{line}" in sites, f"lost_update: related location {uri}:{line} is not in {sites}")
    check_junit("lost_update", report, paths["junit"])
    reports["lost_update"] = paths["sarif"]
    return reports


def validator_errors(validator, path, work):
    output = path + ".validation.sarif"
    if os.path.exists(output):
        os.remove(output)  # the validator does not overwrite its output
    done = subprocess.run([validator, "validate", "--output", output, path],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not os.path.exists(output):
        sys.exit(f"sarif-multitool failed ({done.returncode}) on {path}:\n{done.stdout}{done.stderr}")
    with open(output) as f:
        log = json.load(f)
    errors = [r for run in log["runs"] for r in run.get("results", []) if r.get("level") == "error"]
    # The console lists each error with its message; the log's results may carry only ids.
    text = [line for line in done.stdout.splitlines() if ": error " in line]
    return errors, text


def validate(argv):
    validator = os.environ.get("CTRLSCHED_SARIF_MULTITOOL") or shutil.which("sarif-multitool")
    if not validator:
        print("SKIP: sarif-multitool not found (npm install -g @microsoft/sarif-multitool, as .ci/install-deps "
              "does, or set CTRLSCHED_SARIF_MULTITOOL)")
        sys.exit(SKIP)
    work = argv[1]
    reports = produce(argv)
    for name, path in reports.items():
        errors, text = validator_errors(validator, path, work)
        check(not errors, f"{name}: sarif-multitool found {len(errors)} errors:\n" + "\n".join(text))
        print(f"{name}: sarif-multitool validate: no error")
    # A property SARIF does not define, and a message without text: the validator must object.
    with open(reports["check_then_act"]) as f:
        broken = json.load(f)
    broken["runs"][0]["results"][0]["bogus"] = 1
    broken["runs"][0]["results"][0]["message"] = {}
    broken_path = os.path.join(work, "broken.sarif")
    with open(broken_path, "w") as f:
        json.dump(broken, f)
    errors, _ = validator_errors(validator, broken_path, work)
    check(len(errors) >= 2, f"sarif-multitool accepted a broken file ({len(errors)} errors)")


def main():
    if len(sys.argv) != 7 or sys.argv[1] not in ("content", "validate"):
        sys.exit(__doc__)
    if sys.argv[1] == "content":
        produce(sys.argv[2:])
    else:
        validate(sys.argv[2:])
    if problems:
        sys.exit("problems:\n" + "\n".join(problems))
    print("ok")


if __name__ == "__main__":
    main()
