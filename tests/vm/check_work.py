#!/usr/bin/env python3
"""Check `tipme report --json` on a wait that a kernel work item ended.

usage: check_work.py NAME TRUTH REPORT_JSON

TRUTH is ptywait's output: the thread whose wait was analysed (pid; the
reader, or a thread waiting on a pipe for it), the reader, the writer
process and its sleep (CLOCK_MONOTONIC).  The pty hands the writer's byte
to the reader from a work item, flush_to_ldisc, that the writer queued.
Asserted:

  - the causes add up to the interval, and at least 95% of it is
    accounted (not unknown);
  - the verdict is timer, culprit the writer, its ms within 10% of the
    part of the writer's sleep inside the interval;
  - the chain reaches the reader woken by a kernel worker running
    flush_to_ldisc, whose next step is that worker waiting for work
    flush_to_ldisc queued by the writer (a task), which leads to the
    writer's sleep;
  - no step is a kernel worker blocked in worker_thread;
  - chain: the first step is the thread's wait, woken by the reader.
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402


def steps(chain):
    for s in chain:
        yield s
        yield from steps(s.get("waited_for", []))


def main():
    name, truth, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    t = {k: int(v) for k, v in (kv.split("=", 1) for kv in truth.split())}
    v = rep["verdict"] or {}
    cul = v.get("culprit") or {}
    span = (rep["interval"]["to_mono_ns"] - rep["interval"]["from_mono_ns"]) / 1e6
    total = sum(c["ms"] for c in rep["causes"])
    check(abs(total - span) < 0.01 + 1e-6 * span,
          f"{name}: the causes add up to the interval: {total:.3f} of {span:.3f} ms")
    check(rep["accounted_pct"] >= 95,
          f"{name}: {rep['accounted_pct']:.1f}% of the {span:.1f} ms accounted (at least 95%)",
          json.dumps(rep["causes"], indent=1))
    sleep = (min(t["sleep_end_ns"], t["wait_end_ns"]) -
             max(t["sleep_start_ns"], t["wait_start_ns"])) / 1e6
    print(f"# {name}: verdict: {v.get('text')} ({v.get('cause')}, {v.get('ms', 0):.1f} ms); "
          f"the writer slept {sleep:.1f} ms of the {span:.1f} ms wait")
    check(v.get("cause") == "timer" and cul.get("pid") == t["writer"],
          f"{name}: verdict timer, culprit the writer {t['writer']}", v)
    check(abs(v.get("ms", 0) - sleep) <= 0.1 * sleep,
          f"{name}: {v.get('ms', 0):.1f} ms charged, within 10% of the writer's "
          f"{sleep:.1f} ms sleep")
    all_steps = list(steps(rep["chain"]))
    woken = [s for s in all_steps if s.get("pid") == t["reader"] and
             s.get("waker_work") == "flush_to_ldisc"]
    check(len(woken) == 1 and woken[0].get("woken_by_comm", "").startswith("kworker/"),
          f"{name}: the reader woken by a kernel worker running flush_to_ldisc",
          json.dumps(rep["chain"], indent=1))
    inner = woken[0].get("waited_for", []) if woken else []
    ww = [s for s in inner if s.get("state") == "waiting_for_work"]
    check(len(ww) == 1 and ww[0].get("work") == "flush_to_ldisc" and
          ww[0].get("queued_by") == t["writer"] and ww[0].get("queue_ctx") == "task",
          f"{name}: the worker waited for work flush_to_ldisc, queued by the writer {t['writer']}",
          json.dumps(inner, indent=1))
    leaf = ww[0].get("waited_for", []) if ww else []
    check(any(s.get("pid") == t["writer"] and s.get("cause") == "timer" for s in leaf),
          f"{name}: which leads to the writer's sleep", json.dumps(leaf, indent=1))
    # A worker's wait for work is no cause: the chain goes on to whoever
    # queued the item (above).  Once its item was queued, a worker still
    # asleep waits for the pool to wake it: the chain may show that, when
    # it goes on to the waker (make check: tipme's own sampler item woke
    # another worker of the pool first, which woke this one 2.6 ms later).
    idle = [s for s in all_steps if "worker_thread" in s.get("site", [])[:1] and
            not s.get("waited_for")]
    check(not idle, f"{name}: no chain ends at a worker blocked in worker_thread",
          json.dumps(idle, indent=1))
    if t["pid"] != t["reader"]:
        top = rep["chain"][0] if rep["chain"] else {}
        check(top.get("pid") == t["pid"] and top.get("woken_by") == t["reader"],
              f"{name}: the thread's wait leads to the reader {t['reader']}", top)


if __name__ == "__main__":
    main()
