#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How fast the analyses read a dump, natively (bench/analysis-speed.sh):
each command's median of 5 runs against reading the file once.  Run from
the repository root, after make.

usage: analysis_speed.py DUMP
"""
import json
import os
import statistics
import subprocess
import sys
import time

dump = sys.argv[1]
def median(cmd):
    ts = []
    for _ in range(5):
        t0 = time.monotonic()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        ts.append(time.monotonic() - t0)
    return statistics.median(ts)
size = os.path.getsize(dump)
subprocess.run(["cat", dump], stdout=subprocess.DEVNULL)
res = {"dump_bytes": size, "read_s": round(median(["cat", dump]), 4)}
tmpd = os.environ.get("TMPDIR", "/tmp")
out = os.path.join(tmpd, "tipme-bench-export.json")
svg = os.path.join(tmpd, "tipme-bench-timeline.svg")
info = json.loads(subprocess.run(["build/tipme", "info", "--json", dump], check=True,
                                 stdout=subprocess.PIPE).stdout)["common_window"]
whole = ["--from", "%.9f" % (info["start_mono_ns"] / 1e9), "--to", "%.9f" % (info["end_mono_ns"] / 1e9)]
cmds = {"info": ["info"], "report": ["report"], "why": ["why", "--pid", "1"],
        "records_json": ["records", "--json"],
        "export_perfetto": ["export", "--perfetto", "-o", out],
        "timeline": ["timeline", "-o", svg],
        "timeline_whole": ["timeline", "-o", svg, "--pid", "1"] + whole,
        "legs_sched": ["legs", "--from", "waking", "--to", "switch-in"]}
for name, args in cmds.items():
    res[name + "_s"] = round(median(["build/tipme"] + args + [dump]), 4)
print("dump: %s, %.1f MiB" % (dump, size / 2**20))
print("%-13s %8s %8s" % ("command", "seconds", "x read"))
for name in ["read"] + list(cmds):
    t = res[name + "_s"]
    print("%-13s %8.3f %8.1f" % (name, t, t / max(res["read_s"], 1e-4)))
if os.path.exists(out):
    res["export_bytes"] = os.path.getsize(out)
    os.unlink(out)
if os.path.exists(svg):
    os.unlink(svg)
print("RESULT " + json.dumps(res))
