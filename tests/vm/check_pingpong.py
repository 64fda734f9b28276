#!/usr/bin/env python3
"""Check a recording of tests/vm/progs/pingpong against its ground truth.

usage: check_pingpong.py GROUND_TRUTH_LINE RECORDS_JSONL

The ground truth is pingpong's own output: both pids, the rounds, and the
CLOCK_MONOTONIC interval of the exchange.  Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

truth = dict(kv.split("=") for kv in sys.argv[1].split())
parent, child, rounds = int(truth["parent"]), int(truth["child"]), int(truth["rounds"])
start_ns, end_ns = float(truth["start"]) * 1e9, float(truth["end"]) * 1e9
pair = {parent, child}


events = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
recs = [e for e in events if e.get("type") in ("sched_switch", "sched_waking")]
check(len(recs) > 0, "the dump has scheduler records")
times = [e["mono_ns"] for e in events]
check(times == sorted(times), "records are in time order across CPUs")

switches = [e for e in recs if e["type"] == "sched_switch"
            and e["prev_pid"] in pair and e["next_pid"] in pair
            and e["prev_pid"] != e["next_pid"]]
# Counts are taken inside the exchange's own interval (+-1 ms): the fork,
# the parent's initial sleep and the child's exit are outside it.
def within(e):
    return start_ns - 1e6 <= e["mono_ns"] <= end_ns + 1e6


# A hand-over is a switch from one to the other; a third task preempting
# one of them (a kworker on a busy machine) is not one.
p2c = [e for e in switches if e["prev_pid"] == parent and e["next_pid"] == child and within(e)]
c2p = [e for e in switches if e["prev_pid"] == child and e["next_pid"] == parent and within(e)]
wake_c = [e for e in recs if e["type"] == "sched_waking"
          and e["pid"] == child and e["waker"] == parent and within(e)]
wake_p = [e for e in recs if e["type"] == "sched_waking"
          and e["pid"] == parent and e["waker"] == child and within(e)]
print(f"# rounds={rounds} parent->child={len(p2c)} child->parent={len(c2p)} "
      f"wakings child={len(wake_c)} parent={len(wake_p)}")
# Pinned to one CPU, each round hands the CPU over twice; wakeup preemption
# can merge a wakeup into a preemption, so allow some slack below rounds.
check(rounds * 0.9 <= len(p2c) <= rounds + 1, "parent->child switches ~ rounds",
      f"{len(p2c)} for {rounds} rounds")
check(rounds * 0.9 <= len(c2p) <= rounds + 1, "child->parent switches ~ rounds",
      f"{len(c2p)} for {rounds} rounds")
check(0 < len(wake_c) <= rounds + 1, "child woken by parent, at most once a round",
      f"{len(wake_c)}")
check(0 < len(wake_p) <= rounds + 1, "parent woken by child, at most once a round (+ its exit)",
      f"{len(wake_p)}")
# Every time one side went to sleep (S) the other woke it: the counts pair
# up exactly, but for the parent's initial usleep (woken by a timer) and
# the child's first read before the exchange.
for who, other, wakes in ((child, parent, wake_c), (parent, child, wake_p)):
    sleeps = [e for e in recs if e["type"] == "sched_switch"
              and e["prev_pid"] == who and e["prev_state"] in ("S", "sleeping")
              and within(e)]
    check(abs(len(sleeps) - len(wakes)) <= 1,
          f"each sleep of {'child' if who == child else 'parent'} ends with a wakeup by the other",
          f"{len(sleeps)} sleeps, {len(wakes)} wakeups")
check(all(e["cpu"] == switches[0]["cpu"] for e in switches) if switches else False,
      "all their switches on the one CPU they were pinned to")
# Inside the exchange a side leaves the CPU either asleep in its pipe read
# (S) or still runnable (R: preempted, or rescheduled at a voluntary point
# after waking the other); nothing else (the child's last switch is its
# exit, after the interval).
during = [e for e in switches if start_ns <= e["mono_ns"] <= end_ns
          and not (e["prev_pid"] == child and e["prev_state"] in ("X", "dead")
                   and e is [x for x in switches if x["prev_pid"] == child][-1])]
states = {e["prev_state"] for e in during}
check(during and states <= {"S", "R", "sleeping", "runnable"},
      "a side leaves the CPU asleep in its pipe read or still runnable", str(states))
# Alternation: the pair's hand-overs go back and forth.
seq = [e["next_pid"] for e in switches]
flips = sum(1 for a, b in zip(seq, seq[1:]) if a != b)
check(flips >= 0.9 * (len(seq) - 1), "hand-overs alternate between the two",
      f"{flips} of {len(seq) - 1}")
# Timestamps: the exchange as the program measured it with CLOCK_MONOTONIC.
inside = [e for e in switches if start_ns - 2e6 <= e["mono_ns"] <= end_ns + 2e6]
check(len(inside) >= 0.95 * len(switches),
      "switches fall inside the exchange's own CLOCK_MONOTONIC interval (+-2 ms)",
      f"{len(inside)} of {len(switches)}; interval {start_ns:.0f}..{end_ns:.0f}, "
      f"first {switches[0]['mono_ns'] if switches else '-'}")
if inside:
    span = inside[-1]["mono_ns"] - inside[0]["mono_ns"]
    check(0.8 * (end_ns - start_ns) <= span <= (end_ns - start_ns) + 4e6,
          "their span matches the exchange's duration",
          f"span {span / 1e6:.3f} ms vs {(end_ns - start_ns) / 1e6:.3f} ms")
