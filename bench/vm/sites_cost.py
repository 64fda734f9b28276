#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One line of bench/vm/measure-sites.sh: the recorder's average cost of a
sched_switch and a blocked record in a dump, and the site cache's hits.

usage: sites_cost.py NAME DUMP TIPME
"""
import json
import subprocess
import sys

name, dump, tipme = sys.argv[1:4]
c = json.loads(subprocess.check_output([tipme, "cost", "--json", dump]))
t = {x["type"]: x for x in c["types"]}
def avg(k):
    x = t.get(k)
    return x["ns"] / x["records"] if x and x["records"] else 0
params = subprocess.check_output([tipme, "info", "--json", dump])
p = json.loads(params)["params"]
sw, bl = avg("sched_switch"), avg("blocked")
print(f"{name:14s} sched_switch {sw:8.0f} ns x{t.get('sched_switch', {}).get('records', 0):6d}"
      f"   blocked {bl:8.0f} ns x{t.get('blocked', {}).get('records', 0):6d}"
      f"   blocked/switch {bl / sw if sw else 0:5.2f}"
      f"   cache hits {p.get('site_cache_hits', '-')} misses {p.get('site_cache_misses', '-')}")
