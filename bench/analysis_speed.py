#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How fast the analyses read a dump, natively (bench/analysis-speed.sh):
each command's median of 5 runs against reading the file once, the
median of its CPU time (user + system, from wait4(): what a busy machine
changes least), and its peak resident memory (the largest of the runs).  Run from
the repository root, after make.  why and report read the checkpoints a
first command kept beside the dump (DUMP.ckpt); why_first and
report_first remove that file before each run, so each makes them again.

usage: analysis_speed.py DUMP [SOURCE]

SOURCE says where the dump came from (the RESULT's "dump_source").
"""
import json
import os
import statistics
import subprocess
import sys
import time

dump = sys.argv[1]
source = sys.argv[2] if len(sys.argv) > 2 else "QEMU"
rss = {}
cpu = {}


def median(cmd, before=None):
    ts, cs = [], []
    for _ in range(5):
        if before:
            before()
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        p.returncode = 0  # reaped here: keep Popen from waiting again
        ts.append(time.monotonic() - t0)
        rss[tuple(cmd)] = max(ru.ru_maxrss, rss.get(tuple(cmd), 0))
        cs.append(ru.ru_utime + ru.ru_stime)
    cpu[tuple(cmd)] = statistics.median(cs)
    return statistics.median(ts)
size = os.path.getsize(dump)
subprocess.run(["cat", dump], stdout=subprocess.DEVNULL)
res = {"dump_bytes": size, "dump_source": source, "read_s": round(median(["cat", dump]), 4)}
tmpd = os.environ.get("TMPDIR", "/tmp")
out = os.path.join(tmpd, "tipme-bench-export.json")
svg = os.path.join(tmpd, "tipme-bench-timeline.svg")
info = json.loads(subprocess.run(["build/tipme", "info", "--json", dump], check=True,
                                 stdout=subprocess.PIPE).stdout)["common_window"]
whole = ["--from", "%.9f" % (info["start_mono_ns"] / 1e9), "--to", "%.9f" % (info["end_mono_ns"] / 1e9)]
cmds = {"info": ["info"], "report": ["report"], "report_pid": ["report", "--pid", "1"],
        "why": ["why", "--pid", "1"],
        "why_first": ["why", "--pid", "1"], "report_first": ["report"],
        "records_json": ["records", "--json"],
        "export_perfetto": ["export", "--perfetto", "-o", out],
        "timeline": ["timeline", "-o", svg],
        "timeline_whole": ["timeline", "-o", svg, "--pid", "1"] + whole,
        "legs_sched": ["legs", "--from", "waking", "--to", "switch-in"],
        # the last 2 s of the common window, from the checkpoints (DUMP.ckpt)
        "legs_interval": ["legs", "--from", "waking", "--to", "switch-in",
                          "--from-s", "%.9f" % (info["end_mono_ns"] / 1e9 - 2),
                          "--to-s", "%.9f" % (info["end_mono_ns"] / 1e9)]}
ckpt = dump + ".ckpt"


def no_ckpt():
    """The checkpoints made again: the first command's cost."""
    if os.path.exists(ckpt):
        os.unlink(ckpt)


# the rows but *_first read the checkpoints a first command kept
no_ckpt()
subprocess.run(["build/tipme", "why", "--pid", "1", dump], stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
for name, args in cmds.items():
    cmd = ["build/tipme"] + args + [dump]
    first = name.endswith("_first")
    rss.pop(tuple(cmd), None)
    res[name + "_s"] = round(median(cmd, no_ckpt if first else None), 4)
    res[name + "_cpu_s"] = round(cpu[tuple(cmd)], 4)
    res[name + "_rss_mb"] = round(rss[tuple(cmd)] / 1024, 1)  # ru_maxrss: KiB
    if first and os.path.exists(ckpt):
        res["ckpt_bytes"] = os.path.getsize(ckpt)
print("dump: %s, %.1f MiB, %s" % (dump, size / 2**20, source))
print("%-15s %8s %8s %8s %12s" % ("command", "seconds", "x read", "CPU s", "peak RSS MB"))
for name in ["read"] + list(cmds):
    t = res[name + "_s"]
    print("%-15s %8.3f %8.1f %8s %12s" % (name, t, t / max(res["read_s"], 1e-4),
                                          res.get(name + "_cpu_s", ""),
                                          res.get(name + "_rss_mb", "")))
if os.path.exists(out):
    res["export_bytes"] = os.path.getsize(out)
    os.unlink(out)
if os.path.exists(svg):
    os.unlink(svg)
print("RESULT " + json.dumps(res))
