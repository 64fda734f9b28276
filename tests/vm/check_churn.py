#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check t-churn.sh's dump against what churn printed (issue 31, item 2).

usage: check_churn.py TRUTH PARAMS INFO_JSON INFO_TXT PS_JSON RECORDS_JSONL

TRUTH is churn's line "parent=P children=N sites=S first=F last=L", PARAMS
the module parameters t-churn.sh loaded it with (NAME=VALUE ...).  Every
table was smaller than what churn made, so each must be full or bounded
by its capacity, and what did not fit must be counted: the exec table's
evictions at least the children that did not fit, the user chain table's
refusals at least the children's chains that did not, every one of the
parent's blocking sites still in the records (numbered or written whole,
the site table's refusals counted), and tipme info's text the same
counts as its JSON.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, failed, plan  # noqa: E402

truth = dict(kv.split("=") for kv in sys.argv[1].split())
par = {k: int(v) for k, v in (kv.split("=") for kv in sys.argv[2].split())}
info = json.load(open(sys.argv[3]))
text = open(sys.argv[4]).read()
ps = json.load(open(sys.argv[5]))["exec_table"]
recs = [json.loads(line) for line in open(sys.argv[6])]
parent, n, nsites = int(truth["parent"]), int(truth["children"]), int(truth["sites"])
first, last = int(truth["first"]), int(truth["last"])

# The exec table: never more than its capacity; the children that did not
# fit were evicted (each child an exited process, kept 600 s otherwise),
# none refused (there was always an exited entry to evict).
x = info["exec_table"]
check(x["capacity"] == par["exec_table_size"] and x["count"] <= x["capacity"],
      f"exec table: {x['count']} entries, capacity {x['capacity']}", x)
check(x["evicted"] >= n - x["capacity"],
      f"exec table: {x['evicted']} evicted, at least the {n - x['capacity']} children that did not fit",
      x)
check(x["dropped"] == 0, "exec table: no process refused an entry", x)
# String slots (exec_strings) are fewer than entries: a process that
# needs one takes it from the process that exited first, which stays.
check(x["count"] >= 0.9 * x["capacity"],
      f"exec table in use, not only its string slots: {x['count']} of {x['capacity']} entries", x)
check(x["strings_evicted"] >= n - par["exec_strings"],
      f"exec table: {x['strings_evicted']} exited processes gave their argv up, at least the "
      f"{n - par['exec_strings']} children beyond the string slots", x)
pids = {e["pid"]: e for e in ps["entries"]}
check(first not in pids, f"the first child ({first}) is gone from tipme ps", pids.get(first))
e = pids.get(last)
check(e is not None and e["argv"] == ["churn", "child", str(n - 1)],
      f"the last child ({last}) is in tipme ps with its argv", e)
check(f"evicted early {x['evicted']}, not entered {x['dropped']}, argv unread {x['argv_lost']}, "
      f"argv given up for newer processes' {x['strings_evicted']}" in text,
      "tipme info's text shows the exec table's evictions", text)

# User chains: keyed by process, so every child's chain is new; the table
# full, the rest refused (written whole in their records).
u = info["ustack_table"]
check(u["capacity"] == par["ustack_table"] and u["count"] == u["capacity"],
      f"user chain table full: {u['count']} of {u['capacity']}", u)
check(u["refused"] >= n - u["capacity"],
      f"user chain table: {u['refused']} refused, at least the {n - u['capacity']} children's "
      "chains that did not fit", u)
check(f"user stack table: {u['count']} chains, capacity {u['capacity']}, {u['refused']} refused"
      in text, "tipme info's text shows the user chain table's refusals", text)

# Blocking sites: the parent slept at nsites sites, more than the table
# holds; each is still named in the records.
s = info["site_table"]
check(s["capacity"] == par["site_table"] and s["count"] == s["capacity"],
      f"site table full: {s['count']} of {s['capacity']}", s)
mine = {tuple(r["site"]) for r in recs if r["type"] == "blocked" and r.get("pid") == parent}
check(len(mine) >= nsites,
      f"the parent's {nsites} blocking sites are all in the records ({len(mine)} distinct)",
      "\n".join(" <- ".join(c) for c in sorted(mine)))
check(s["refused"] >= nsites - s["capacity"],
      f"site table: {s['refused']} refused, at least {nsites - s['capacity']}", s)
check(f"site table: {s['count']} blocking sites, capacity {s['capacity']}, {s['refused']} refused"
      in text, "tipme info's text shows the site table's refusals", text)

# The captured mappings: bounded by their parameters.
xm = info["xmaps"]
check(xm is not None and xm["procs"] <= par["xmaps_procs"] and xm["count"] <= par["xmaps_max"],
      f"captured mappings bounded: {xm and xm['procs']} processes (at most {par['xmaps_procs']}), "
      f"{xm and xm['count']} mappings (at most {par['xmaps_max']})", xm)
plan()
sys.exit(1 if failed() else 0)
