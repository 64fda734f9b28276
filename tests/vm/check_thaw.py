#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t-thaw's check of the incident after a given-up trigger, as TAP.

    check_thaw.py RECORDS_JSONL NAME SEQ PARENT CHILD

RECORDS_JSONL is `tipme records --json` of the next incident's dump; SEQ its
trigger's number; PARENT and CHILD the marker ping-pong's pids.  The
incident must hold its own trigger record and the marker's switches, all
before that trigger.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
name, seq = sys.argv[2], int(sys.argv[3])
pids = {int(sys.argv[4]), int(sys.argv[5])}
trig = [e for e in ev if e["type"] == "trigger" and e["seq"] == seq]
check(len(trig) == 1, f"{name}: the next incident holds its own trigger record (#{seq})",
      "trigger records: %s" % [e["seq"] for e in ev if e["type"] == "trigger"])
sw = [e for e in ev if e["type"] == "sched_switch" and
      (e["prev_pid"] in pids or e["next_pid"] in pids)]
check(len(sw) >= 100, f"{name}: ... and the marker run after the given-up trigger ({len(sw)} switches)")
if trig and sw:
    check(max(e["mono_ns"] for e in sw) <= trig[0]["mono_ns"],
          f"{name}: ... before its own trigger")
