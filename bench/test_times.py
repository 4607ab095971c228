"""Where the test suite's time goes: the seconds of each group of test files (and the slowest
files) in one pytest run, or in two side by side, read from pytest's JUnit XML.

    python -m pytest --junitxml=run.xml        # the README's command, with the report
    python bench/test_times.py run.xml [other.xml] [--top 15]

A test's seconds are its setup, call and teardown, as pytest reports them; with several worker
processes (pytest-xdist) the groups' seconds add up to more than the run's wall time, which is
printed apart ("wall").
"""

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

GROUPS = (  # (name, test file path prefixes); the first that matches
    ("browser", ("tests/browser/",)),
    ("api", ("tests/test_api_", "tests/test_answers_", "tests/test_openapi", "tests/test_fuzz_")),
    ("domain+formats", ("tests/domain/", "tests/formats/")),
    ("cli", ("tests/test_cli",)),
    ("other", ("tests/",)),
)


ROOT = Path(__file__).resolve().parents[1]


def file_of(case) -> str:
    """tests/x/test_y.py of a <testcase>: its classname is the module's dotted path, then the
    class's name if the test is a method."""
    if case.get("file"):
        return case.get("file")
    parts = case.get("classname", "").split(".")
    for n in range(len(parts), 0, -1):
        path = "/".join(parts[:n]) + ".py"
        if (ROOT / path).is_file():
            return path
    return "/".join(parts) + ".py"


def read(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    files = defaultdict(lambda: [0, 0.0, 0])  # tests, seconds, failed
    for case in root.iter("testcase"):
        row = files[file_of(case)]
        row[0] += 1
        row[1] += float(case.get("time") or 0)
        row[2] += any(c.tag in ("failure", "error") for c in case)
    wall = sum(float(s.get("time") or 0) for s in suites)
    return files, wall


def group_of(path):
    return next(name for name, prefixes in GROUPS if path.startswith(prefixes))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", help="one or two JUnit XML files")
    ap.add_argument("--top", type=int, default=15, help="how many of the slowest files")
    args = ap.parse_args(argv)
    runs = [read(p) for p in args.reports[:2]]
    heads = "".join(f"{'tests':>7}{'seconds':>10}{'failed':>7}" for _ in runs)
    print(f"{'group':<40}{heads}")
    for name, _ in GROUPS:
        cells = ""
        for files, _wall in runs:
            rows = [r for f, r in files.items() if group_of(f) == name]
            cells += (f"{sum(r[0] for r in rows):>7}{sum(r[1] for r in rows):>10.1f}"
                      f"{sum(r[2] for r in rows):>7}")
        print(f"{name:<40}{cells}")
    total = "".join(f"{sum(r[0] for r in f.values()):>7}{sum(r[1] for r in f.values()):>10.1f}"
                    f"{sum(r[2] for r in f.values()):>7}" for f, _ in runs)
    print(f"{'all':<40}{total}")
    print(f"{'wall (the run, as pytest timed it)':<40}"
          + "".join(f"{'':>7}{wall:>10.1f}{'':>7}" for _, wall in runs))
    print(f"\nthe {args.top} slowest files of {args.reports[0]}:")
    first = runs[0][0]
    for path, (n, secs, _) in sorted(first.items(), key=lambda kv: -kv[1][1])[:args.top]:
        other = ""
        if len(runs) > 1 and path in runs[1][0]:
            other = f"   (other run: {runs[1][0][path][1]:7.1f} s)"
        print(f"  {secs:8.1f} s  {n:4} tests  {path}{other}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
