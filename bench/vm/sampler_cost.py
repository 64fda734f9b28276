#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One line of bench/vm/measure-sampler.sh: the sampler's rounds and cost
between two CLOCK_MONOTONIC times (ns), from a dump's self-cost records.

usage: sampler_cost.py EXTRA_THREADS T0_NS T1_NS DUMP TIPME
"""
import json
import subprocess
import sys

n, t0, t1, dump, tipme = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
c = json.loads(subprocess.check_output([tipme, "cost", "--json", "--from", str(t0 / 1e9),
                                        "--to", str(t1 / 1e9), dump]))
t = {x["type"]: x for x in c["types"]}
smp = sum(t[k]["ns"] for k in ("sample", "sample_end") if k in t)
win = t1 - t0
rounds = full = 0
fns, cns, ent, fent = [], [], 0, 0
for line in subprocess.check_output([tipme, "records", "--json", "--type", "sample_end", dump]).splitlines():
    e = json.loads(line)
    if not t0 <= e["mono_ns"] <= t1:
        continue
    rounds += 1
    (fns if e["full"] else cns).append(e["cost_ns"])
    if e["full"]:
        fent += e["emitted"]
    else:
        ent += e["emitted"]
avg = lambda v: sum(v) / len(v) if v else 0
print(f"extra threads {n}: {rounds / (win / 1e9):.1f} rounds/s, sampler {smp / 1e6:.2f} ms in "
      f"{win / 1e9:.2f} s = {100 * smp / win:.3f}% of one CPU; full rounds {len(fns)} x "
      f"{avg(fns) / 1e3:.0f} us ({fent / max(len(fns), 1):.0f} entries), change rounds "
      f"{len(cns)} x {avg(cns) / 1e3:.1f} us ({ent / max(len(cns), 1):.1f} entries); "
      f"whole recorder {100 * c['recorder_ns'] / win:.3f}%")
