#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check tipme legs --json of t-report's dumps against the truth.

usage: check_legs.py sched LEGS_JSON SERVER_PID STALL_MS
         legs waking -> switch-in: the server's longest scheduling delay is
         the stall a SCHED_FIFO hog made (within 10%)
       check_legs.py blk LEGS_JSON
         legs blk-issue -> blk-complete (--by all): every request took at
         least the 20 ms null_blk takes, none 200 ms
Prints one TAP line (no plan).
"""
import json
import sys


def sched(path, server, lat):
    d = json.load(open(path))
    o = [x for x in d["owners"] if x.get("pid") == server]
    ok = o and 0.9 * lat <= o[0]["max_ms"] <= 1.1 * lat
    print("%sok 1 - legs waking -> switch-in: the server's longest scheduling delay %.1f ms, the stall %.1f ms"
          % ("" if ok else "not ", o[0]["max_ms"] if o else -1, lat))


def blk(path):
    d = json.load(open(path))["all"]
    ok = d["count"] >= 1 and 20 <= d["p50_ms"] and d["max_ms"] < 200
    print("%sok 1 - legs blk-issue -> blk-complete: %d requests, p50 %.1f ms, max %.1f ms (the device: 20 ms)"
          % ("" if ok else "not ", d["count"], d["p50_ms"], d["max_ms"]))


if sys.argv[1] == "sched":
    sched(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
elif sys.argv[1] == "blk":
    blk(sys.argv[2])
else:
    sys.exit(__doc__)
