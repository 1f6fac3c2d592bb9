#!/usr/bin/python3
"""Counts test results for `make test`: every GoogleTest case from the JUnit
reports the suites write, plus every other meson test (scripts: exit 77 is a
skip). Prints one line: "N passed, N failed, N skipped"."""
import json
import os
import sys
import xml.etree.ElementTree as ET

build = sys.argv[1] if len(sys.argv) > 1 else "build"
log = os.path.join(build, "meson-logs", "testlog.json")
reports = os.path.join(build, "tests", "reports")
passed = failed = skipped = 0

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
            else:
                passed += 1
        if run["result"] == "FAIL" and run_failed == 0:
            run_failed = 1  # the binary failed without reporting a failed case
        failed += run_failed
    elif run["result"] == "OK":
        passed += 1
    elif run["result"] == "SKIP":
        skipped += 1
    else:
        failed += 1

print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
