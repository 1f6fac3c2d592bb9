#!/usr/bin/python3
"""Counts test results for `make test`: every GoogleTest case from the JUnit
reports the suites write, plus every other meson test (scripts: exit 77 is a
skip). meson's own summary above it counts test programs, so this says so,
lists why cases were skipped (per test program, the first reason), and ends
with one line: "N passed, N failed, N skipped"."""
import json
import os
import sys
import xml.etree.ElementTree as ET

builds = sys.argv[1:] or ["build"]
passed = failed = skipped = 0
skip_reasons = {}  # test program -> [count, first reason]


def note_skip(program, reason):
    entry = skip_reasons.setdefault(program, [0, reason])
    entry[0] += 1


def skip_reason(case):
    node = case.find("skipped")
    text = node.get("message", "") if node is not None else ""
    # GoogleTest puts "file:line" first; the reason is the last line.
    return text.strip().splitlines()[-1] if text.strip() else "no reason given"


def count_build(build):
    """Adds one build directory's results (its last `meson test` run)."""
    global passed, failed, skipped
    label = "" if build == builds[0] else os.path.basename(os.path.normpath(build)) + ": "
    log = os.path.join(build, "meson-logs", "testlog.json")
    reports = os.path.join(build, "tests", "reports")
    if not os.path.exists(log):  # it did not build, or its tests did not run
        print(f"FAIL {build}: no test log ({log})")
        failed += 1
        return
    with open(log) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    for run in runs:
        xml = os.path.join(reports, run["name"] + ".xml")
        if run["result"] in ("OK", "FAIL", "EXPECTEDFAIL") and os.path.exists(xml):
            run_failed = 0
            for case in ET.parse(xml).getroot().iter("testcase"):
                if case.find("failure") is not None:
                    run_failed += 1
                elif case.get("result") == "skipped" or case.find("skipped") is not None:
                    skipped += 1
                    note_skip(label + run["name"], skip_reason(case))
                else:
                    passed += 1
            if run["result"] == "FAIL" and run_failed == 0:
                run_failed = 1  # the binary failed without reporting a failed case
            failed += run_failed
        elif run["result"] in ("OK", "EXPECTEDFAIL"):  # EXPECTEDFAIL: a should_fail test failed
            passed += 1
        elif run["result"] == "SKIP":
            skipped += 1
            note_skip(label + run["name"], "exit status 77")
        else:
            failed += 1
    # Sanitizer builds: each report file is a finding (see tests/meson.build).
    sanitizer = os.path.join(build, "sanitizer-reports")
    for name in sorted(os.listdir(sanitizer)) if os.path.isdir(sanitizer) else []:
        failed += 1
        with open(os.path.join(sanitizer, name), errors="replace") as f:
            head = f.read().splitlines()[:30]
        print(f"FAIL sanitizer report {build}/sanitizer-reports/{name}:")
        print("\n".join("  " + line for line in head))


for build in builds:
    count_build(build)

print("cudafilters: meson's counts above are test programs; the line below counts test cases "
      "(each GoogleTest and CLI case, each other test program once)")
for program, (count, reason) in sorted(skip_reasons.items()):
    print(f"  skipped: {program}: {count} ({reason})")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
