#!/usr/bin/env python3
"""Check `tipme info --json` loss accounting on a dump taken after
`tipme stop`: every record committed and not overwritten must be in it.

usage: check_info.py INFO_JSON EXPECT   EXPECT: overwritten | no-loss
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

info = json.load(open(sys.argv[1]))
expect = sys.argv[2]


cpus = [c for c in info["cpus"] if c.get("stats")]
check(len(cpus) >= 1, "per-CPU counters are in the dump")
for c in cpus:
    st = c["stats"]
    kept = st["written"] - st["overwritten"]
    check(c["records"] == kept,
          f"cpu {c['cpu']}: records in dump == written - overwritten (exact)",
          f"records={c['records']} written={st['written']} overwritten={st['overwritten']}")
    check(st["dropped"] == 0, f"cpu {c['cpu']}: nothing dropped", str(st["dropped"]))
total_over = sum(c["stats"]["overwritten"] for c in cpus)
if expect == "overwritten":
    check(total_over > 0, "the tiny ring wrapped and says so (overwritten > 0)")
    check(info["lost"]["overwritten"] == total_over, "info reports the loss")
else:
    check(total_over == 0, "nothing overwritten", str(total_over))
    # The recorder's own cost: with nothing lost, the cost records cover
    # every scheduler record in the dump, each with some time spent.
    sc = info["self_cost"]
    costs = {t["type"]: t for t in sc["types"]}
    counts = {t["name"]: t["count"] for t in info["types"]}
    # The scheduler records go in their compact forms when they can.
    for ty in ("sched_switch_s", "sched_switch_site_s", "sched_waking_c"):
        check(counts.get(ty, 0) > 0, f"{ty} records are written", str(counts))
    sched = ("sched_switch", "sched_waking", "blocked", "sched_switch_c",
             "sched_waking_c", "site", "sched_switch_s", "sched_switch_site_s")
    # Time is promised in sum only: a type written once or twice may cost
    # less than the clock resolves (bookworm-rt charged one sched_waking
    # 0 ns).
    present = [t for t in sched if counts.get(t, 0) > 0]
    for ty in present:
        c = costs.get(ty, {"records": 0, "ns": 0})
        check(c["records"] == counts.get(ty),
              f"self cost of {ty}: one charge per record in the dump",
              f"charged={c['records']} in dump={counts.get(ty)} ns={c['ns']}")
    ns = sum(costs.get(ty, {"ns": 0})["ns"] for ty in present)
    check(ns > 0, "the scheduler records' self cost adds up to some time", f"ns={ns}")
