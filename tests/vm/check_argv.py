#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the exec table of t-argv-wedge's dump: a process whose argv pages
are trapped keeps what could be read, flagged truncated, and a program run
after the traps still gets its whole argv read.

usage: check_argv.py PS_JSON PID1 ARGV_START1 TRAP_START1 AFTER_PID BUILD_DIR
PS_JSON is tipme ps --json of the dump; ARGV_START1 and TRAP_START1 (hex
or decimal) are where PID1's argv starts and where its trapped pages
start.  Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

ents = json.load(open(sys.argv[1]))["exec_table"]["entries"]
pid1, as1, lo1, after = int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4], 0), int(sys.argv[5])
e = [x for x in ents if x["pid"] == pid1 and x["pid"] == x.get("tgid", x["pid"])]
check(bool(e), "the trapped process has an entry from the snapshot")
if e:
    e = e[-1]
    argv = e.get("argv") or []
    # NUL-separated; the last string was cut off without its NUL.
    held = sum(len(a) + 1 for a in argv) - 1 if argv else 0
    print("# flags", e["flags"], "argv bytes", held, "readable", lo1 - as1)
    check(len(argv) >= 2 and argv[0].endswith("argvtrap") and argv[1] == "trapped",
          "its argv keeps what was in memory (argv[0], 'trapped')", repr(argv)[:200])
    check("argv_truncated" in e["flags"] and held == lo1 - as1,
          "and stops exactly where the trapped pages start, flagged truncated",
          "flags %s, %d bytes held, %d readable" % (e["flags"], held, lo1 - as1))
a = [x for x in ents if x["pid"] == after and "execed" in x["flags"]]
want = [sys.argv[6] + "/tests/vm/argvprog", "3", "after", "the", "traps"]
check(bool(a) and a[-1].get("argv") == want,
      "a program run after the traps still gets its argv read",
      repr(a[-1].get("argv") if a else None))
