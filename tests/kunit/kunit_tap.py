#!/usr/bin/env python3
"""kunit.py's JSON results as flat TAP (tests/kunit/run.sh).

   kunit_tap.py RESULTS_JSON KUNIT_RC TEST_LOG REPO HOOK

One "ok N - suite.case" line per test case, with the kernel's messages
about a failed expectation under it (file names in lib/tipme/ of the
scratch tree HOOK pointed back into the repository REPO), a failure for a
KASAN report anywhere in TEST_LOG, a "# suite" line per suite and the plan.
Exit status 0 only if every test passed and at least one ran.
"""
import json, os, re, sys

data = json.load(open(sys.argv[1]))
kunit_rc = int(sys.argv[2])
# The kernel's messages about failed expectations, by test case name,
# with file names pointing back into the repository.
details = {}
try:
    case, lines = None, []
    for raw in open(sys.argv[3], errors="replace"):
        line = raw.rstrip("\n")
        m = re.match(r"\s*# (\w+): (EXPECTATION|ASSERTION) FAILED", line)
        if m:
            case = m.group(1)
        if case:
            if re.match(r"\s*(not )?ok ", line):
                details.setdefault(case, []).extend(lines)
                case, lines = None, []
                continue
            line = re.sub(r"lib/tipme/([\w.-]+\.[ch])", lambda mm: os.path.relpath(
                os.path.realpath(os.path.join(sys.argv[5], mm.group(1))), sys.argv[4]), line)
            lines.append(line.strip())
except OSError:
    pass
n = 0
failed = 0
suites = []

def walk(group, path):
    global n, failed
    counts = [0, 0, 0]  # pass fail skip
    for case in group.get("test_cases", []):
        n += 1
        name = ".".join(path + [case["name"]])
        st = case["status"]
        if st == "PASS":
            print(f"ok {n} - {name}")
            counts[0] += 1
        elif st == "SKIP":
            print(f"ok {n} - {name} # SKIP")
            counts[2] += 1
        else:
            print(f"not ok {n} - {name} ({st})")
            for d in details.get(case["name"], [])[:20]:
                print(f"#   {d}")
            counts[1] += 1
            failed += 1
    for sub in group.get("sub_groups", []):
        sub_counts = walk(sub, path + [sub["name"]])
        if not path:
            suites.append((sub["name"], sub_counts))
        counts = [a + b for a, b in zip(counts, sub_counts)]
    return counts

walk(data, [])
# A KASAN report outside any test (or in a kernel without the hook that
# fails the current test) still fails the run.
try:
    reports = [l.strip() for l in open(sys.argv[3], errors="replace")
               if "BUG: KASAN" in l]
except OSError:
    reports = []
if reports:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: KASAN reported a bad access")
    for r in reports[:10]:
        print(f"#   {r}")
for name, (p, f, s) in suites:
    print(f"# suite {name}: pass={p} fail={f} skip={s}")
if n == 0:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: no test ran")
elif kunit_rc != 0 and failed == 0:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: kunit.py exited with status {kunit_rc}")
print(f"1..{n}")
sys.exit(1 if failed else 0)
