#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's check of a soak run (tests/soak/guest.sh), and its figures.

usage: check_soak.py OUT_DIR

Reads what the guest left in OUT_DIR (events.log, tipmed.log,
status-N.json, mem.txt, soak-dmesg.txt, incidents/) and prints TAP:
  - the kernel log of the soak has no warning, BUG, oops or lockdep report;
  - task_struct, mm_struct, vmalloc and per-CPU memory came back after the
    last unload (as t-instr-cycles allows: two slabs' worth);
  - every trigger the kernel counted is accounted for: tipmed logged it
    (an incident, held back, not saved, released), or the kernel merged
    its announcement into a later one, or no tipmed was connected when it
    came (it then got no announcement; the module's freeze timeout thaws
    its window);
  - every incident left on disk reads back (tipme info), or is marked
    partial;
  - in every incident, no CPU's records stop for longer than the longest
    freeze of a dump (tipmed's "in X s") plus one second.
Writes OUT_DIR/soak.json with the figures; exits 1 if anything failed.
"""
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402
from tap import check  # noqa: E402

out = sys.argv[1]
build = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build")
fig = {}


def read(name, default=""):
    try:
        with open(os.path.join(out, name), errors="replace") as f:
            return f.read()
    except OSError:
        return default


# ---- what the guest did
events = [l.split() for l in read("events.log").splitlines() if l.strip()]
kinds = {}
for e in events:
    kinds[e[1]] = kinds.get(e[1], 0) + 1
start = [float(e[0]) for e in events if e[1] == "start"]
end = [float(e[0]) for e in events if e[1] == "end"]
fig["guest_seconds"] = round(end[0] - start[0]) if start and end else None
for k in ("trigger", "press", "forkstorm", "memhog", "tipmed-killed", "insmod", "rmmod",
          "disk-full-begin"):
    fig[k.replace("-", "_")] = kinds.get(k, 0)
check(fig["guest_seconds"] is not None, "the soak ran to its end: %s s of guest time" %
      fig["guest_seconds"])

# ---- the kernel log
dmesg = read("soak-dmesg.txt")
bad = [l for l in dmesg.splitlines()
       if re.search(r"WARNING|BUG|Oops|Call Trace|general protection|possible circular locking|"
                    r"lockdep|hung_task|blocked for more than", l)]
check(not bad, "no kernel warning, BUG, oops or lockdep report in the soak's kernel log",
      "\n".join(bad[:20]))

# ---- memory after the last unload
mem = {}
for line in read("mem.txt").splitlines():
    w = line.split()
    mem[w[0]] = {k: int(v) for k, v in (x.split("=") for x in w[1:])}
if "before" in mem and "after" in mem:
    b, a = mem["before"], mem["after"]
    fig["memory"] = {k: [b[k], a[k]] for k in b}
    for key, slack, what in (("task_struct", 10, "task_structs"), ("mm_struct", 28, "mm_structs"),
                             ("vmalloc_kb", 512, "vmalloc (kB)"), ("percpu_kb", 64, "per-CPU memory (kB)")):
        check(a[key] <= b[key] + slack, "%s back after the last unload: %d -> %d" %
              (what, b[key], a[key]))
else:
    check(False, "mem.txt has the memory before and after")

# ---- triggers: what the kernel counted, what tipmed did with each
tlog = read("tipmed.log")
fig["tipmed_lines"] = len(tlog.splitlines())
statuses = []
for p in sorted(glob.glob(os.path.join(out, "status-*.json")),
                key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])):
    try:
        with open(p) as f:
            statuses.append(json.load(f))
    except (OSError, ValueError):
        statuses.append(None)
check(statuses and all(s is not None for s in statuses),
      "tipme status --json before every unload and at the end (%d)" % len(statuses))

fig["tipmed_starts"] = tlog.count("tipmed: connected to tipme.ko")
outcome = {"incident": 0, "held": 0, "not_saved": 0, "other": 0}
dump_secs = []
for m in re.finditer(r"trigger (\d+) \(([^)]*)\):? ?(.*)", tlog):
    rest = m.group(3)
    if "incident " in rest and "not saved" not in rest:
        outcome["incident"] += 1
        d = re.search(r"in ([0-9.]+) s", rest)
        if d:
            dump_secs.append(float(d.group(1)))
    elif "held back" in m.group(0):
        outcome["held"] += 1
    elif "not saved" in rest:
        outcome["not_saved"] += 1
    else:
        outcome["other"] += 1
fig["tipmed_outcomes"] = outcome
fig["dump_seconds_max"] = max(dump_secs) if dump_secs else None
released = len(re.findall(r"released the window frozen", tlog))
fig["releases_logged"] = released

kernel = {"triggers": 0, "coalesced": 0, "merged": 0}
for s in statuses:
    if not s:
        continue
    lt = s.get("last_trigger") or {}
    kernel["triggers"] += int(s.get("triggers", lt.get("seq", 0)) or 0)
    kernel["coalesced"] += int(s.get("coalesced", 0) or 0)
    kernel["merged"] += int(s.get("announcements_merged", 0) or 0)
fig["kernel"] = kernel
logged = sum(outcome.values())
fig["triggers_accounted"] = logged
# a trigger no tipmed heard: fired while tipmed was down (killed, or
# stopped for a reload) -- at most one per 10 s trigger and per press
# in those windows; the check asks that what tipmed heard is every one
# the kernel announced while it listened, within that allowance
down, last_kill = 0.0, None
for e in events:
    if e[1] in ("tipmed-killed", "tipmed-stopped"):
        last_kill = float(e[0])
    elif e[1] == "tipmed-start" and last_kill is not None:
        down += float(e[0]) - last_kill
        last_kill = None
fig["tipmed_down_seconds"] = round(down, 1)
allowance = int(down / 10) + 2 * (fig["tipmed_killed"] + fig["rmmod"] + 1)
unheard = kernel["triggers"] - logged - kernel["merged"]
fig["triggers_unheard"] = unheard
check(kernel["triggers"] > 0 and 0 <= unheard <= allowance,
      "every trigger accounted for: %d counted by the kernel, %d in tipmed's log, %d merged, "
      "%d while no tipmed listened (at most %d)" % (kernel["triggers"], logged, kernel["merged"],
                                                    unheard, allowance),
      json.dumps(outcome))

# ---- the incidents left on disk
incs = sorted(d for d in glob.glob(os.path.join(out, "incidents", "*"))
              if os.path.isdir(d) and not os.path.basename(d).startswith("."))
fig["incidents_left"] = len(incs)
unreadable, gaps = [], []
limit_ns = ((fig["dump_seconds_max"] or 0) + 1.0) * 1e9
for d in incs:
    kd = os.path.join(d, "kernel.dump")
    meta = {}
    try:
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        pass
    r = subprocess.run([os.path.join(build, "tipme"), "info", kd], capture_output=True)
    if r.returncode != 0 and not meta.get("partial"):
        unreadable.append(os.path.basename(d))
        continue
    r = subprocess.run([os.path.join(build, "tipme"), "records", "--json", kd],
                       capture_output=True, text=True)
    last = {}
    worst = (0, None)
    for line in r.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        c, t = ev.get("cpu"), ev.get("mono_ns")
        if c is None or t is None:
            continue
        if c in last and t - last[c] > worst[0]:
            worst = (t - last[c], c)
        last[c] = t
    gaps.append((worst[0], os.path.basename(d), worst[1]))
check(incs and not unreadable, "every incident left on disk reads back (%d)" % len(incs),
      " ".join(unreadable))
worst = max(gaps) if gaps else (0, None, None)
fig["record_gap_max_ms"] = round(worst[0] / 1e6, 1)
check(worst[0] <= limit_ns,
      "no CPU's records stop longer than a dump's freeze + 1 s (%.0f ms): longest %.1f ms "
      "(%s, cpu %s)" % (limit_ns / 1e6, worst[0] / 1e6, worst[1], worst[2]))

with open(os.path.join(out, "soak.json"), "w") as f:
    json.dump(fig, f, indent=1, sort_keys=True)
print("# figures: " + json.dumps(fig, sort_keys=True))
tap.plan()
sys.exit(1 if tap.failed() else 0)
