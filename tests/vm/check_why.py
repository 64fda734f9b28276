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
    check(abs(w["ms"] - stall_ms) <= 20,
          "the victim waited as long as it measured itself (+-20 ms)",
          f'{w["ms"]:.3f} ms vs {stall_ms:.3f} ms')
    check(w["class"] == "sleeping", "it was asleep (S)", w["class"])
    check(bool(w["site"]) and w["site"][0] == "pipe_read",
          "blocked in pipe_read", str(w["site"]))
    sd = w.get("waker_during")
    check(sd is not None and sd["pid"] == server, "the server's time is analysed in turn")
    if sd:
        # Woken and then kept off its CPU, or preempted by the hog while it
        # still ran (the host's timing decides which): runnable either way.
        runnable = sd["ms"]["runnable_woken"] + sd["ms"]["runnable_preempted"]
        check(abs(runnable - stall_ms) <= 20,
              "the server was runnable (waiting for a CPU) for the whole stall",
              str(sd["ms"]))
        held = [h for s in sd["stretches"] for h in s.get("cpu_held_by", [])]
        check(bool(held) and held[0]["pid"] == hog,
              "the CPU it waited for was held by the hog", str(held[:2]))
