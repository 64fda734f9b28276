#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A dump taken while writers wrapped the rings (t-mapped): read from the
mapping, and every CPU's records in time order.

usage: check_race.py BUILD_DIR DUMP DUMP_JSON
DUMP_JSON is what tipme dump --json said.  Prints one TAP line (no plan)
after a comment with the dump's counts.
"""
import json
import subprocess
import sys

b, dump, js = sys.argv[1:]
d = json.load(open(js))
recs = [json.loads(l) for l in subprocess.run([f"{b}/tipme", "records", "--json", dump],
        check=True, capture_output=True, text=True).stdout.splitlines()]
last, bad = {}, 0
for r in recs:
    if r["ts"] < last.get(r["cpu"], 0):
        bad += 1
    last[r["cpu"]] = r["ts"]
print(f"# {dump}: {len(recs)} records, {d['subbufs']} sub-buffers kept, "
      f"{d['discarded_subbufs']} overtaken while written, {d['read']}")
ok = d["read"] == "mapped" and bad == 0
print(("ok" if ok else "not ok") + f" 1 - race dump: every CPU's records in time order ({bad} out of order)")
