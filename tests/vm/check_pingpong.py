#!/usr/bin/env python3
"""Check a recording of tests/vm/progs/pingpong against its ground truth.

usage: check_pingpong.py GROUND_TRUTH_LINE RECORDS_JSONL

The ground truth is pingpong's own output: both pids, the rounds, and the
CLOCK_MONOTONIC interval of the exchange, and realtime=1 when the guest's
kernel is PREEMPT_RT.  Prints TAP lines (no plan).
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


# A hand-over is the CPU passing from one of the pair to the other, directly
# or through third tasks that ran in between (a kworker on a busy machine):
# the switches on their CPU, in order, reduced to the pair's own.
def handovers():
    cpu = switches[0]["cpu"] if switches else None
    out, left = [], None        # left: the last of the pair switched out
    for e in recs:
        if e["type"] != "sched_switch" or e["cpu"] != cpu or not within(e):
            continue
        if e["prev_pid"] in pair:
            left = e
        if e["next_pid"] in pair:
            if left is not None and left["prev_pid"] != e["next_pid"]:
                out.append(left)
            left = None
    return out


hand = handovers()
p2c = [e for e in hand if e["prev_pid"] == parent]
c2p = [e for e in hand if e["prev_pid"] == child]
# On PREEMPT_RT the pipe's spinlocks sleep: a side may also wait for the
# one the other holds (state L), and be woken when the other lets it go.
# Each wakeup is told by the sleep it ended: the target's last switch-out.
SLEEP, LOCK = ("S", "sleeping"), ("L",)


def wakings(target, waker):
    last, out = {}, []
    for e in recs:
        if e["type"] == "sched_switch":
            last[e["prev_pid"]] = e["prev_state"]
        elif e["pid"] == target and e["waker"] == waker and within(e):
            out.append((e, last.get(target)))
    return out


wake_c, wake_c_lock = ([e for e, st in wakings(child, parent) if st not in LOCK],
                       [e for e, st in wakings(child, parent) if st in LOCK])
wake_p, wake_p_lock = ([e for e, st in wakings(parent, child) if st not in LOCK],
                       [e for e, st in wakings(parent, child) if st in LOCK])
asleep = {who: sum(1 for e in hand if e["prev_pid"] == who and e["prev_state"] in ("S", "sleeping"))
          for who in pair}
print(f"# rounds={rounds} parent->child={len(p2c)} ({asleep[parent]} asleep) "
      f"child->parent={len(c2p)} ({asleep[child]} asleep) "
      f"wakings child={len(wake_c)} parent={len(wake_p)} "
      f"(and from a lock wait: child={len(wake_c_lock)} parent={len(wake_p_lock)})")
# Pinned to one CPU, a round cannot end without the CPU going to the child
# and back.  More hand-overs come only from preemption (the side leaves
# runnable, its slice over): asleep, a side hands over at most once a
# round, since each of its pipe reads blocks at most once.
check(len(p2c) >= rounds - 1 and asleep[parent] <= rounds + 1,
      "parent->child: a hand-over each round, asleep at most once a round",
      f"{len(p2c)} hand-overs, {asleep[parent]} asleep, for {rounds} rounds")
check(len(c2p) >= rounds - 1 and asleep[child] <= rounds + 1,
      "child->parent: a hand-over each round, asleep at most once a round",
      f"{len(c2p)} hand-overs, {asleep[child]} asleep, for {rounds} rounds")
check(0 < len(wake_c) <= rounds + 1, "child woken by parent, at most once a round",
      f"{len(wake_c)}")
check(0 < len(wake_p) <= rounds + 1, "parent woken by child, at most once a round (+ its exit)",
      f"{len(wake_p)}")
# Every time one side went to sleep (S, or L for a lock) the other woke it:
# the counts pair up exactly, but for the parent's initial usleep (woken by
# a timer) and the child's first read before the exchange.
for who, wakes in ((child, wake_c + wake_c_lock), (parent, wake_p + wake_p_lock)):
    sleeps = [e for e in recs if e["type"] == "sched_switch"
              and e["prev_pid"] == who and e["prev_state"] in SLEEP + LOCK
              and within(e)]
    check(abs(len(sleeps) - len(wakes)) <= 1,
          f"each sleep of {'child' if who == child else 'parent'} ends with a wakeup by the other",
          f"{len(sleeps)} sleeps, {len(wakes)} wakeups")
check(all(e["cpu"] == switches[0]["cpu"] for e in switches) if switches else False,
      "all their switches on the one CPU they were pinned to")
# Inside the exchange a side leaves the CPU either asleep in its pipe read
# (S) or still runnable (R: preempted, or rescheduled at a voluntary point
# after waking the other), or on PREEMPT_RT waiting for a lock (L); nothing else (the child's last switch is its
# exit, after the interval).
during = [e for e in switches if start_ns <= e["mono_ns"] <= end_ns
          and not (e["prev_pid"] == child and e["prev_state"] in ("X", "dead")
                   and e is [x for x in switches if x["prev_pid"] == child][-1])]
states = {e["prev_state"] for e in during}
if truth.get("realtime") == "1":   # the guest's kernel (the check runs on the host)
    states -= {"L"}     # PREEMPT_RT: waiting for the pipe's lock the other holds
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
