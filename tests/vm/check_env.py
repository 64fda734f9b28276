#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""With capture_env=1, the exec table entry of a program keeps its
environment (t-instr-exec: argvprog run with TIPME_TEST_MARK set).

usage: check_env.py PS_JSON PID
PS_JSON is tipme ps --json of the dump.  Prints one TAP line (no plan).
"""
import json
import sys

ents = json.load(open(sys.argv[1]))["exec_table"]["entries"]
e = [x for x in ents if x["pid"] == int(sys.argv[2]) and "execed" in x["flags"]]
ok = e and "TIPME_TEST_MARK=env-was-captured" in e[0].get("env", [])
print(("ok" if ok else "not ok"), "1 - with capture_env=1 the entry has its environment")
