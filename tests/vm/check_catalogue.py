#!/usr/bin/env python3
"""Check `tipme report --json` on one stall of t-catalogue, three ways.

usage: check_catalogue.py NAME TRUTH DIRECT MUTEX PIPE CAUSE RESOURCE CULPRIT [OPTION...]

TRUTH is tests/vm/progs/catalogue.c's line; DIRECT, MUTEX and PIPE are
the reports (--json) over the subject's own stall, and over the waits of
the thread that waited for the subject on a mutex and of the one that
waited on a pipe (a chain of depth 2: the waiter, the subject, the
stall).  Each report must say, as the scenario made it:

  - the verdict's cause is CAUSE;
  - its resource matches RESOURCE (a regular expression, whole; "-": none);
  - its culprit is CULPRIT: "subject" (the stalled thread), "culprit"
    (the truth's culprit: the hog, the lock's holder, the peer ...),
    "subject-or-jbd2" (an fsync: the subject, or the file system's
    journal thread that wrote for it), "none" (no culprit);
  - its time is within 10% of the truth's truth_ns (the stall's own
    measure; catalogue.c says which for each kind): the time of every
    cause item with that cause, a resource that matches and a culprit
    that fits (an fsync's I/O is the journal thread's and its own);
  - at least 95% of the interval is accounted (not unknown), and the
    causes add up to the interval;
  - through the chain: the waiter's first blocked step was woken by the subject
    and goes on to what the subject waited for.  The subject holds the
    mutex through its stall: its own running is then `lock` on `futex`
    for the mutex waiter (Documentation/report.md, "The rule"), culprit
    the subject.  A stall of computing holds the waiters for the subject's
    CPU time from its go to its pipe's write (the truth's held_run_ns: the
    stall and its reads of /proc around it), and that is their truth.

OPTIONs: "via-fault" (block_io by page faults: "via" is "page fault"),
"high-cgroup=PATH" (memory.high's penalty sleeps each name the cgroup
the test made, PATH, and its memory.high, the truth's high=BYTES that
catalogue wrote), "penalty" (there are such sleeps: with no swap, reclaim
cannot bring the cgroup back under memory.high),
"swap" (... of swap), "layers=BELOW:MAPPER_MS:DEVICE_MS" (a
stacked device the test made: the subject's own verdict sends its I/O
below to BELOW (a device's name; "a|b": any of them); a bio-based top
(bios > 0) held each bio at least MAPPER_MS in the mapper (dm-delay's
delay), a loop device's (request-based) time below is more than its own;
the requests below took each at least DEVICE_MS, the device's own
delay), "unexpected" (a stall the rules were not made for:
unknown is right too, a wrong culprit never is), "todo=REASON" (a known
failure: its checks are TAP TODOs), "todo-verdict=REASON" (the same for
the checks of the verdict alone: its cause, culprit and resource; the
time charged to the cause the scenario made is still checked).
Prints TAP lines (no plan).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402


def main():
    name, truth = sys.argv[1], sys.argv[2]
    reps = dict(zip(("direct", "mutex", "pipe"), sys.argv[3:6]))
    cause, resource, culprit = sys.argv[6:9]
    opts = sys.argv[9:]
    todo = next((o[5:] for o in opts if o.startswith("todo=")), None)
    todo_v = next((o[13:] for o in opts if o.startswith("todo-verdict=")), todo)
    t = dict(kv.split("=", 1) for kv in truth.split())
    subject, want_ms = int(t["subject"]), int(t["truth_ns"]) / 1e6
    print(f"# {name}: truth {want_ms:.1f} ms ({t['kind']}; the subject {subject} ran "
          f"{int(t['run_ns']) / 1e6:.1f}, runnable {int(t['queued_ns']) / 1e6:.1f}, blocked "
          f"{int(t['blocked_ns']) / 1e6:.1f} ms)")
    for via, path in reps.items():
        rep = json.load(open(path))
        if via == "mutex" and cause == "running":
            want = ("lock", "futex", "subject")
        else:
            want = (cause, resource, culprit)
        check_one(f"{name} ({via})", via, rep, t, want, opts, todo, todo_v)


def fits(c, want, subject, t):
    """Whether cause item @c is what the scenario made (cause, resource, culprit)."""
    cause, resource, culprit = want
    cul = c.get("culprit") or {}
    res = c.get("resource")
    if culprit == "none":
        who_ok = not cul
    else:
        who = subject if culprit.startswith("subject") else int(t["culprit"])
        who_ok = cul.get("pid") == who or (culprit == "subject-or-jbd2" and
                                           cul.get("comm", "").startswith("jbd2/"))
    res_ok = res is None if resource == "-" else bool(re.fullmatch(resource, res or ""))
    return c.get("cause") == cause and who_ok and res_ok


def check_one(n, via, rep, t, want, opts, todo, todo_v):
    cause, resource, culprit = want
    subject, want_ms = int(t["subject"]), int(t["truth_ns"]) / 1e6
    if via != "direct" and t["kind"] == "run":
        want_ms = int(t["held_run_ns"]) / 1e6
    v = rep["verdict"] or {}
    span = (rep["interval"]["to_mono_ns"] - rep["interval"]["from_mono_ns"]) / 1e6
    total = sum(c["ms"] for c in rep["causes"])
    print(f"# {n}: {v.get('text')} ({v.get('cause')}, {v.get('ms', 0):.1f} ms of "
          f"{span:.1f}, {rep['accounted_pct']:.1f}% accounted)")
    check(abs(total - span) < 0.01 + 1e-6 * span,
          f"{n}: the causes add up to the interval: {total:.3f} of {span:.3f} ms")
    if "unexpected" in opts and v.get("cause") in (None, "unknown"):
        check(True, f"{n}: unknown, for a stall the rules do not know ({cause} would be "
              "right too)")
        return
    check(v.get("cause") == cause, f"{n}: verdict {cause}", v, todo_v)
    check(fits(v, want, subject, t),
          f"{n}: culprit {culprit}, resource {resource}",
          f"{v.get('culprit')} {v.get('resource')}", todo_v)
    if "via-fault" in opts:
        check(v.get("via") == "page fault", f"{n}: via a page fault", v.get("via"), todo)
    high = next((o[12:] for o in opts if o.startswith("high-cgroup=")), None)
    if high:
        pen = [c for c in rep["causes"] if c.get("penalty_sleeps")]
        bad = [c for c in pen if c.get("cgroup") != high or
               c.get("memory_high_bytes") != int(t["high"])]
        check((pen or "penalty" not in opts) and not bad,
              f"{n}: {len(pen)} items of penalty sleeps, each in cgroup {high} with its "
              f"memory.high of {int(t['high'])} bytes", json.dumps(bad or pen, indent=1), todo)
    if "swap" in opts:
        check(v.get("swap") is True, f"{n}: of swap", v.get("swap"), todo)
    layers = next((o[7:] for o in opts if o.startswith("layers=")), None)
    if layers and via == "direct":
        check_layers(n, v, layers, todo)
    ms = sum(c["ms"] for c in rep["causes"] if fits(c, want, subject, t))
    check(abs(ms - want_ms) <= 0.1 * want_ms,
          f"{n}: {ms:.1f} ms within 10% of the truth's {want_ms:.1f} ms", None, todo)
    check(rep["accounted_pct"] >= 95, f"{n}: {rep['accounted_pct']:.1f}% accounted",
          json.dumps(rep["causes"], indent=1), todo)
    if via != "direct":
        # (its first blocked step: it may have waited for a CPU before)
        first = next((c for c in rep["chain"] if c.get("state") == "blocked"), {})
        check(first.get("woken_by") == subject and "waited_for" in first,
              f"{n}: the waiter's wait leads to the subject {subject}", first, todo)

def check_layers(n, v, layers, todo):
    """The verdict's split of a stacked device's time: option layers=."""
    below, mapper_ms, device_ms = layers.split(":")
    mapper_ms, device_ms = float(mapper_ms), float(device_ms)
    m, b, bios = v.get("mapper_ms", 0), v.get("below_ms", 0), v.get("bios", 0)
    check(v.get("below_device") in below.split("|") and m + b <= v.get("ms", 0) + 0.01,
          f"{n}: sent below to {below}: {m:.1f} ms in the stacked device, {b:.1f} ms below, "
          f"within its {v.get('ms', 0):.1f} ms", v.get("below_device"), todo)
    if bios:
        nreq, mean = v.get("requests", 0), v.get("request_ms_mean", 0)
        check(m >= bios * mapper_ms * 0.9,
              f"{n}: its {bios} bios held {m:.1f} ms in the mapper: at least "
              f"{mapper_ms:.0f} ms each, the test's", None, todo)
    else:
        nreq, mean = v.get("below_requests", 0), v.get("below_request_ms_mean", 0)
        check(b > m, f"{n}: more time below than in the loop device itself", None, todo)
    check(nreq >= 1 and mean >= device_ms * 0.95,
          f"{n}: {nreq} requests below, {mean:.1f} ms each: at least the device's "
          f"{device_ms:.0f} ms", None, todo)


if __name__ == "__main__":
    main()
