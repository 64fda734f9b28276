#!/usr/bin/env python3
"""Check `tipme why --json` for the stall program's victim against the
stall's own ground truth.  usage: check_why.py TRUTH_LINE WHY_JSON
Prints TAP lines (no plan)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

truth = dict(kv.split("=") for kv in sys.argv[1].split())
victim, server, hog = int(truth["victim"]), int(truth["server"]), int(truth["hog"])
stall_ms = float(truth["latency_ms"])
why = json.load(open(sys.argv[2]))["thread"]


check(why["pid"] == victim, "the analysis is about the victim")
waits = [s for s in why["stretches"] if s.get("woken_by") == server]
check(len(waits) == 1, "exactly one long wait ended by the server", str(len(waits)))
if waits:
    w = waits[0]
    # The victim measured from before it wrote to the hog and the server
    # to after its read returned: the wait lies inside that (2 ms for the
    # clocks) and ends within 20 ms of its end.  Its start is where the
    # victim had done its writes, which a guest slowed by its host has
    # taken 22 ms to do (make check, two guests beside the kernels step).
    w0 = w["start_mono_ns"] / 1e9
    w1 = w0 + w["ms"] / 1e3
    t0, t1 = float(truth["start"]), float(truth["end"])
    check(w0 >= t0 - 0.002 and t1 - 0.020 <= w1 <= t1 + 0.002,
          "the victim waited within what it measured itself, to its end (+-20 ms)",
          f'{w0:.6f} .. {w1:.6f} s ({w["ms"]:.3f} ms) in {t0:.6f} .. {t1:.6f} s '
          f'({stall_ms:.3f} ms)')
    check(w["class"] == "sleeping", "it was asleep (S)", w["class"])
    check(bool(w["site"]) and w["site"][0] == "pipe_read",
          "blocked in pipe_read", str(w["site"]))
    sd = w.get("waker_during")
    check(sd is not None and sd["pid"] == server, "the server's time is analysed in turn")
    if sd:
        # Woken and then kept off its CPU, or preempted by the hog while it
        # still ran (the host's timing decides which): runnable either way.
        runnable = sd["ms"]["runnable_woken"] + sd["ms"]["runnable_preempted"]
        check(abs(runnable - w["ms"]) <= 20,
              "the server was runnable (waiting for a CPU) for the whole wait",
              str(sd["ms"]))
        held = [h for s in sd["stretches"] for h in s.get("cpu_held_by", [])]
        check(bool(held) and held[0]["pid"] == hog,
              "the CPU it waited for was held by the hog", str(held[:2]))
