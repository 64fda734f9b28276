#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the sched_switch records of tipme records --json (standard input)
that switch one of two PIDs out or in.

    tipme records --json DUMP | switches.py PID PID
"""
import json
import sys

pids = {int(sys.argv[1]), int(sys.argv[2])}
n = 0
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] == "sched_switch" and (r["prev_pid"] in pids or r["next_pid"] in pids):
        n += 1
print(n)
