#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t-pool's checks, on the host, of what its guest left (tests/vm/t-pool.sh).

usage: check_pool.py OUT BUF

OUT holds, for each step of the guest, NAME.status.json (`tipme status
--json` at that point), NAME.pp (a ping-pong's truth: "parent=P child=C
rounds=R start=S end=E", CLOCK_MONOTONIC seconds), and for each dump
NAME.json (`tipme info --json`) and, where a marker must be in it,
NAME.jsonl (`tipme records --json`; tests/vm/pool_check.sh makes both).
BUF is the buffer size the module was loaded with.  Prints TAP.

The busy window is counted in bytes, not seconds: the common window's
length over the load's average rate is printed against issue 31's goal
(0.9x) but not asserted (under TCG on a busy host the guest's speed, hence
the rate, varies within the load).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, failed, plan  # noqa: E402

out, BUF = sys.argv[1], int(sys.argv[2])
SUB = 4096


def load(name):
    return json.load(open(os.path.join(out, name)))


def truth(name):
    with open(os.path.join(out, name + ".pp")) as f:
        return {k: v for k, v in (kv.split("=") for kv in f.read().split())}


def status(name, key, cpu=None):
    """KEY summed over the status's CPUs (CPU's alone if given)."""
    return sum(c[key] for c in load(name + ".status.json")["cpus"]
               if cpu is None or c["cpu"] == cpu)


def cpu(info, n, key):
    """KEY (dotted) of CPU N's entry in a dump's per-CPU table, 0 if absent."""
    for c in info["cpus"]:
        if c["cpu"] == n:
            v = c
            for k in key.split("."):
                v = v.get(k, 0) if isinstance(v, dict) else 0
            return v
    return 0


def switches(dump, pp):
    """sched_switch records of DUMP that switch PP's ping-pong out or in."""
    t = truth(pp)
    pids = {int(t["parent"]), int(t["child"])}
    n = 0
    for line in open(os.path.join(out, dump + ".jsonl")):
        r = json.loads(line)
        if r["type"] == "sched_switch" and (r["prev_pid"] in pids or r["next_pid"] in pids):
            n += 1
    return n


def window(name, nbytes, who):
    """The dump's common window over what BUF holds at the load's rate."""
    t = truth(name)
    start, end = float(t["start"]), float(t["end"])
    rate = nbytes / (end - start)
    expected = BUF / rate
    kept = end - load(name + ".json")["common_window"]["start_mono_ns"] / 1e9
    print("# %s: %s: load %.3f s at %.0f bytes/s: expected %.3f s, dump keeps %.3f s of it: %.3fx"
          % (name, who, end - start, rate, expected, kept, kept / expected))
    return kept / expected


def busy(name):
    """The busy window NAME: returns (CPU 1's sub-buffers, info)."""
    b = status(name + ".after", "bytes", 1) - status(name + ".before", "bytes", 1)
    m = status(name + ".after", "bytes") - status(name + ".before", "bytes")
    t = truth(name)
    print("# %s: CPU 1 wrote %d bytes, all CPUs %d, in %s .. %s" % (name, b, m, t["start"], t["end"]))
    check(b > BUF * 3 // 2, name + ": the load wrote the buffer more than once over",
          "%d bytes" % b)
    window(name, m, "all CPUs")
    window(name, b, "CPU 1 alone")
    return b, m


# 1. One busy CPU, with the pool and without.
b, m = busy("busy-pool")
info = load("busy-pool.json")
pool_subbufs = cpu(info, 1, "subbufs")
idle_subbufs = sum(c["subbufs"] for c in info["cpus"]) - pool_subbufs
idle_bytes = m - b
check(idle_subbufs <= (idle_bytes + SUB - 1) // SUB + 3,
      "pool: the idle CPUs hold no more than they wrote during the load, plus their current "
      "sub-buffer (%d sub-buffers for %d bytes)" % (idle_subbufs, idle_bytes))
check(pool_subbufs * SUB * 2 >= BUF,
      "pool: the busy CPU keeps >= half the buffer (%d of %d sub-buffers)" % (pool_subbufs, BUF // SUB))
# The window starts where the busy CPU's records start, or a little later:
# an idle CPU may have given up a sub-buffer that ended while the busy
# CPU's oldest kept one was being written (the pool takes the sub-buffer
# sealed first), so within that one, about (last - first) / sub-buffers.
wstart = info["common_window"]["start_mono_ns"]
first1, last1 = cpu(info, 1, "first_mono_ns"), cpu(info, 1, "last_mono_ns")
span1 = (last1 - first1) // max(pool_subbufs, 1)
check(wstart >= first1, "pool: the common window starts at the busy CPU's oldest record",
      "%d < %d" % (wstart, first1))
check(wstart - first1 <= 2 * span1,
      "... or within its oldest sub-buffer (%d us later; 2 x %d us at most)"
      % ((wstart - first1) // 1000, span1 // 1000))
check(cpu(info, 1, "stats.overwritten") > 0, "the busy CPU lost its oldest records (the pool wrapped)")

busy("busy-percpu")
percpu_subbufs = cpu(load("busy-percpu.json"), 1, "subbufs")
check(percpu_subbufs <= BUF // SUB // 4,
      "per-CPU rings: the busy CPU keeps at most its quarter (%d sub-buffers)" % percpu_subbufs)
check(percpu_subbufs * 2 <= pool_subbufs,
      "per-CPU rings: at most half of what the pool kept it (%d against %d)"
      % (percpu_subbufs, pool_subbufs))

# 2. Wrap-around across CPUs.
over2 = status("cpu2", "overwritten", 2)
check(over2 == 0, "a marker on CPU 2 alone overwrites none of its records", over2)
info = load("wrap.json")
check(cpu(info, 2, "stats.overwritten") > 0, "CPU 2's records went with its sub-buffers to CPU 1 (overwritten)")
check(cpu(info, 2, "stats.dropped") == 0, "and CPU 2 dropped none")

# 3. CPU 3 offline while recording, and back.
n = switches("offline", "offline")
check(n >= 600, "CPU 3's marker is still readable (%d switches for 300 rounds)" % n)
n = switches("online", "online")
check(n >= 600, "CPU 3 records again (%d switches for 300 rounds)" % n)

# 4. Freeze and dump with the pool.
dropped0 = status("frozen.before", "dropped")
over0 = status("frozen.trigger", "overwritten")
dropped1, over1 = status("frozen.flood", "dropped"), status("frozen.flood", "overwritten")
check(dropped1 > dropped0, "frozen: the flood was dropped", "%d -> %d" % (dropped0, dropped1))
check(over1 == over0, "frozen: nothing was overwritten", "%d -> %d" % (over0, over1))
n = switches("frozen", "frozen")
check(n >= 600, "the frozen dump holds the marker from before the trigger (%d)" % n)
over2 = status("thawed", "overwritten")
check(over2 > over1, "thawed by the dump: a flood overwrites again", "%d -> %d" % (over1, over2))
plan()
sys.exit(1 if failed() else 0)
