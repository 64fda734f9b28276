#!/usr/bin/env python3
"""Check `tipme report --json` on work that changed hands (t-handoff.sh).

usage: check_handoff.py MODE TRUTH REPORT_JSON

TRUTH is tests/vm/progs/handoff.c's line (client, culprit, broker,
start_ns, end_ns, latency_ms, cpu_ms, work_ms, client_busy_ms: the time
the client was running or runnable itself meanwhile; for MODE xterm,
t-xhandoff's: client is xterm, start_ns and end_ns the program's read of
the key and its echo, echo_ns just before the echo's write, latency_ms its
work: xterm can have drawn the echo before end_ns, if the program was
preempted after its write, never before echo_ns).  The report's verdict must be the culprit's
work -- running within 10% of the CPU time the work took (less the time
the client was busy itself, which is the client's), or timer for
relay-sleep, whose service sleeps, within 10% of the time its sleep took
on its own clock (work_ms: the client's wait also holds the hops' waits
for a CPU, tens of ms on a busy host); the chain must lead from the
client's wait, hop by hop (the broker for a relay), to a wait the culprit
ended (the client's wait at least 90% of the latency).  Without --pid (chosen_by ranked_stall) the interval must be the
client's wait; chosen by input (xterm), the press, to where xterm drew
the echo.  Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402


def paths(steps, prefix=()):
    """Every path of steps from a root to a leaf, as tuples of steps."""
    for s in steps:
        here = prefix + (s,)
        if s.get("waited_for"):
            yield from paths(s["waited_for"], here)
        else:
            yield here


def main():
    mode, truth, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    t = {k: float(v) for k, v in (kv.split("=", 1) for kv in truth.split())}
    client, culprit = int(t["client"]), int(t["culprit"])
    iv = rep["interval"]
    span = (iv["to_mono_ns"] - iv["from_mono_ns"]) / 1e6
    total = sum(c["ms"] for c in rep["causes"])
    check(abs(total - span) < 0.01 + 1e-6 * span,
          f"{mode}: the causes add up to the interval: {total:.3f} of {span:.3f} ms")
    if iv["chosen_by"] == "ranked_stall":
        check(iv["pid"] == client, f"{mode}: without --pid, the client {client} is chosen",
              json.dumps(iv))
        check(iv["from_mono_ns"] >= t["start_ns"] and iv["to_mono_ns"] <= t["end_ns"] and
              span >= 0.9 * t["latency_ms"],
              f"{mode}: its interval is the client's wait ({span:.1f} of "
              f"{t['latency_ms']:.1f} ms)", json.dumps(iv))
    if mode == "xterm":
        check(iv["chosen_by"] in ("input", "auto_press") and iv["pid"] == client,
              f"{mode}: without --pid, the key press to xterm {client} is chosen", json.dumps(iv))
        check(iv["from_mono_ns"] <= t["start_ns"] and iv["to_mono_ns"] >= t["echo_ns"] and
              iv.get("client_done_mono_ns", iv["to_mono_ns"]) >= t["echo_ns"],
              f"{mode}: the interval ends after the echo, where xterm drew it "
              f"({span:.1f} ms)", json.dumps(iv))
    v = rep["verdict"] or {}
    want = "timer" if mode == "relay-sleep" else "running"
    cul = (v.get("culprit") or {}).get("pid")
    print(f"# verdict: {v.get('text')} ({v.get('cause')}, {v.get('ms', 0):.1f} ms)")
    check(v.get("cause") == want and cul == culprit,
          f"{mode}: verdict {want}, culprit {culprit} (the task that did the work)", v)
    # computing: its CPU time (the rest of the wall-clock work is the
    # culprit's waits for a CPU, charged as cpu_contention); sleeping: the
    # sleep as the culprit timed it; xterm: but for the time the terminal
    # was running or runnable itself meanwhile (client_busy_ms), not waiting
    want_ms = t["work_ms"] if want == "timer" else t["cpu_ms"]
    busy = t.get("client_busy_ms", 0)
    ms = v.get("ms", 0)
    check(0.9 * (want_ms - busy) <= ms <= 1.1 * want_ms,
          f"{mode}: {ms:.1f} ms within 10% of the {want_ms:.1f} ms "
          + ("the culprit slept" if want == "timer" else "the culprit computed (CPU time)")
          + (f", less the {busy:.1f} ms the client was busy itself" if busy else ""))
    # the chain: from a wait of the client, through each hop, to waits the
    # culprit ended, or a kernel worker's wait for the work item the
    # culprit queued (a pty's flush_to_ldisc); a worker's waits for work
    # may be several steps.  The client's waits that lead there cover the
    # work but for the client's own running: a terminal may handle other
    # X events meanwhile (its wait for the echo in several pieces), so
    # the pieces inside the work's time are added up
    best, led = None, {}
    for p in paths(rep["chain"]):
        ends = [i for i, s in enumerate(p) if s.get("woken_by") == culprit or
                s.get("queued_by") == culprit]
        if p[0]["pid"] == client and ends:
            p = p[:ends[0] + 1]
            led[id(p[0])] = p[0]
            if best is None or p[0]["ms"] > best[0]["ms"]:
                best = p
    within = sum(max(0, min(s["to_mono_ns"], t["end_ns"]) -
                     max(s["from_mono_ns"], t["start_ns"])) for s in led.values()) / 1e6
    hops = " -> ".join(f"{s['pid']} ({s['comm']}, {s['ms']:.1f} ms)" for s in best or ())
    check(best is not None and within >= 0.9 * (t["latency_ms"] - busy),
          f"{mode}: the chain leads from the client's waits to the culprit: {hops}; "
          f"{len(led)} such waits, {within:.1f} ms of the work's {t['latency_ms']:.1f}",
          json.dumps(rep["chain"], indent=1))
    if mode.startswith("relay") and best:
        check(any(s["pid"] == int(t["broker"]) for s in best),
              f"{mode}: the chain goes through the broker {int(t['broker'])}")


main()
