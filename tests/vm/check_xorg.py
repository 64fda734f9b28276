#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check t-xorg's incidents against the truth the guest measured.

usage: check_xorg.py front LATENCY REPORT FLIPS CLIENT_OUT XORG_PID CLIENT_PID
       check_xorg.py present LATENCY REPORT FLIPS CLIENT_OUT XORG_PID CLIENT_PID
       check_xorg.py kbd INFO REPORT META CLIENT_OUT XORG_PID CLIENT_PID TYPED_NS

LATENCY and REPORT are tipme latency --json and tipme report --json of the
incident (no --pid), FLIPS tipme records --json --type vblank_delivered of
it, CLIENT_OUT the client's own account (xhook-testclient victim, or
present: "press NS", "slept_ns NS", "presented SERIAL NS", "complete
SERIAL MODE UST_US", CLOCK_MONOTONIC).  front: a core-drawing client,
which Xorg (glamor) draws into the front buffer without a flip: the press
ends where Xorg executed the drawing.  present: three presses, each
answered by a PresentPixmap that Xorg flipped (its own CompleteNotify says
so, with the DRM event's time): each ends at the first flip Xorg committed
after the drawing, the recorded delivery of that very event.  kbd: the
module's own auto trigger on two keys from a keyboard Xorg reads, the
second answered after a sleep (xhook-testclient victim plain sleep:MS),
no X dump: INFO is tipme info --json of its kernel.dump, META its
meta.json, TYPED_NS when the keyboard typed the slow key; the report picks
that press from the kernel's records, its reader Xorg's main thread (its
input thread handed it over), up to where Xorg waited again after the
drawing, the sleep charged to the client.  Prints TAP lines and their
plan.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from jsonl import lines, ms  # noqa: E402
import tap  # noqa: E402
from tap import check  # noqa: E402

# DRM stamps a flip's event (in us, for Present's CompleteNotify) just
# before it sends it, where the recorder records the delivery: the record
# comes at most this long after the stamp (a host that preempts the
# guest's vCPU in between, two CPU burners beside it, put 6.7 ms between
# them), and not before it but for the clocks' conversion (1 ms)
EVENT_NS = 20000000
EARLY_NS = 1000000

# the module stamps the press before evdev delivers it (check_meta.py's
# window); Xorg waits again after the drawing's reply, which the client
# may print before (two CPUs)
TYPED_BEFORE_NS = 50000000
IDLE_AFTER_NS = 50000000


def kbd():
    info, rep = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
    meta = json.load(open(sys.argv[4]))
    truth = [ln.split() for ln in open(sys.argv[5]) if ln.strip()]
    xorg, client, typed = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
    par = {k: int(v) for k, v in (info.get("params") or {}).items()
           if k.startswith("auto_") and v is not None and v.isdigit()}
    check(par.get("auto_triggers") == 1 and par.get("auto_presses_slow") == 1,
          "kbd: one press slow, one trigger: %s" % par)
    check(par.get("auto_presses_handed", 0) >= 1 and par.get("auto_presses_drawn", 0) >= 1,
          "kbd: presses handed from Xorg's input thread to its main thread (%s), ended "
          "where it waited after the drawing (%s)"
          % (par.get("auto_presses_handed"), par.get("auto_presses_drawn")))
    check(meta.get("auto", {}).get("end") == "reader_idle",
          "kbd: meta.json: it ends where the reader waited (%s)" % meta.get("auto", {}).get("end"))
    iv = rep["interval"]
    press = [int(t[1]) for t in truth if t[0] == "press"]
    slept = [int(t[1]) for t in truth if t[0] == "slept_ns"]
    done = [int(t[1]) for t in truth if t[0] == "done"]
    check(len(press) == 2 and len(slept) == 1 and len(done) == 2,
          "kbd: the client's account of 2 keys, one slept: %d %d %d"
          % (len(press), len(slept), len(done)))
    check(iv["chosen_by"] == "auto_press" and iv["pid"] == xorg,
          "kbd: report picks the press the trigger named, its reader Xorg's main thread "
          "(%s, pid %s)" % (iv["chosen_by"], iv["pid"]))
    if len(press) == 2 and slept and len(done) == 2:
        check(typed - TYPED_BEFORE_NS <= iv["from_mono_ns"] <= press[1],
              "kbd: from the slow key's input record (%s), when the keyboard typed it (%s), "
              "before the client got it (%s)" % (iv["from_mono_ns"], typed, press[1]))
        check(press[1] + slept[0] <= iv["to_mono_ns"] <= done[1] + IDLE_AFTER_NS and
              iv["end"] == "reader_idle",
              "kbd: to where Xorg waited again after the drawing (%s, %s): after the "
              "client's sleep (%s), by its drawing done (%s)"
              % (iv["to_mono_ns"], iv["end"], press[1] + slept[0], done[1]))
    common_sum(rep, "kbd", iv)
    timer = [c for c in rep["causes"] if c["cause"] == "timer" and c["culprit"] and
             c["culprit"]["pid"] == client]
    want = slept[0] / 1e6 if slept else 0
    check(len(timer) == 1 and abs(timer[0]["ms"] - want) <= 0.1 * want,
          "kbd: the client's sleep is its timer, %s ms (it slept %.3f ms)"
          % ([c["ms"] for c in timer], want))
    tap.plan()
    sys.exit(1 if tap.failed() else 0)


def common_sum(rep, case, iv):
    total = (iv["to_mono_ns"] - iv["from_mono_ns"]) / 1e6
    got = sum(c["ms"] for c in rep["causes"])
    check(abs(got - total) < 0.01 and rep["accounted_pct"] > 99.99,
          "%s: the causes add up to the interval (%.3f of %.3f ms, %s%%)"
          % (case, got, total, rep["accounted_pct"]))


if sys.argv[1] == "kbd":
    kbd()
case, lat_path, rep_path, flips_path, out_path = sys.argv[1:6]
xorg, client = int(sys.argv[6]), int(sys.argv[7])
lat = json.load(open(lat_path))
rep = json.load(open(rep_path))
iv = rep["interval"]
truth = [ln.split() for ln in open(out_path) if ln.strip()]
# Xorg opens the device itself here (no logind, no seatd): its file is its own
flips = sorted(r["mono_ns"] for r in lines(flips_path) if r.get("owner") == xorg)
mine = [e for e in lat["events"] if e["pid"] == client]
press = [int(t[1]) for t in truth if t[0] == "press"]


def common_report():
    check(iv["pid"] == client and iv["chosen_by"] == "input",
          "%s: report picks the client's press (pid %s, chosen by %s)"
          % (case, iv["pid"], iv["chosen_by"]))
    common_sum(rep, case, iv)


if case == "front":
    check(len(mine) == 1 and mine[0]["result"] == "handled" and len(press) == 1,
          "front: one press, handled: %s" % [(e["event"], e["result"]) for e in mine])
    if mine:
        e = mine[0]
        done = [int(t[1]) for t in truth if t[0] == "done"]
        later = [f for f in flips if f >= e["press_mono_ns"]]
        check(not later, "front: no flip of Xorg's after the press (core drawing into the "
              "front buffer): %s" % later)
        check("end" not in e and "flip_mono_ns" not in e,
              "front: tipme latency ends it where Xorg executed the drawing, no flip")
        common_report()
        check(iv["end"] == "x_drawn" and iv["from_mono_ns"] == e["press_mono_ns"] and
              iv["to_mono_ns"] == e["end_mono_ns"],
              "front: report: from the device event to the drawing executed (\"x_drawn\"): "
              "%s .. %s, %s" % (iv["from_mono_ns"], iv["to_mono_ns"], iv["end"]))
        # the client's round trip after its drawing came back once Xorg had
        # drawn it (X's stamps are whole ms), and it waited for input only
        # after it said so: the end is the later of the two
        check(press and done and press[0] >= iv["from_mono_ns"] and
              e["display_mono_ns"] is not None and
              e["display_mono_ns"] <= done[0] + 1000000 and iv["to_mono_ns"] >= done[0],
              "front: Xorg had executed the drawing (%s) by the reply the client got after "
              "it (%s); the end (%s) is the client's wait after that; the start before its "
              "receipt of the key (%s)" % (e["display_mono_ns"], done[0] if done else None,
                                          iv["to_mono_ns"], press[0] if press else None))
    tap.plan()
    sys.exit(1 if tap.failed() else 0)

slept = [int(t[1]) for t in truth if t[0] == "slept_ns"]
presented = {int(t[1]): int(t[2]) for t in truth if t[0] == "presented"}
complete = {int(t[1]): (int(t[2]), int(t[3])) for t in truth if t[0] == "complete"}
check(len(press) == len(slept) == len(presented) == len(complete) == 3,
      "present: the client's account of 3 presses: %d %d %d %d"
      % (len(press), len(slept), len(presented), len(complete)))
check(all(m == 1 for m, _ in complete.values()),
      "present: Xorg flipped each presentation (PresentCompleteNotify mode 1): %s"
      % sorted(complete.items()))
check([e["event"] for e in mine] == ["key_press"] * 3 and
      all(e["result"] == "handled" for e in mine),
      "present: tipme latency finds the 3 key presses, handled: %s"
      % [(e["event"], e["result"]) for e in mine])
ends = {}
for i, e in enumerate(mine[:3]):
    n = i + 1
    if n not in complete or n not in presented or i >= len(press):
        continue
    ust = complete[n][1] * 1000
    flip = next((f for f in flips if f >= ust - EARLY_NS), None)
    check(flip is not None and flip - ust <= EVENT_NS,
          "press %d: the first delivery to Xorg's file from the flip's event time %s on: %s "
          "(%s after it)" % (n, ust, flip, ms(flip - ust) if flip else None))
    sent = press[i] + slept[i]	# the client drew only after its sleep
    first = [f for f in flips if f > presented[n]]
    check(flip is not None and first and first[0] == flip,
          "press %d: that flip is Xorg's first after the client presented (%s): %s"
          % (n, presented[n], first[:2]))
    check(e.get("end") == "flip" and e.get("flip_mono_ns") == flip and
          e.get("x_server") == xorg and e.get("to_flip_ns") == flip - e["press_mono_ns"],
          "press %d: tipme latency ends it at that flip (%s, %s), X server %s, %s ms"
          % (n, e.get("end"), e.get("flip_mono_ns"), e.get("x_server"),
             (e.get("to_flip_ns") or 0) / 1e6))
    commit = e.get("flip_commit_mono_ns", 0)
    check(sent <= commit <= e.get("flip_mono_ns", 0),
          "press %d: its commit (%s) after the client drew (%s), before the flip"
          % (n, commit, sent))
    check(e["press_mono_ns"] <= press[i] and e.get("flip_mono_ns", 0) > e["done_mono_ns"],
          "press %d: from the device event (%s, before the client's receipt %s) to past the "
          "client's drawing (done %s): not the drawing itself"
          % (n, e["press_mono_ns"], press[i], e["done_mono_ns"]))
    legs = e.get("legs", [])
    chained = all(a["to_mono_ns"] == b["from_mono_ns"] for a, b in zip(legs, legs[1:]))
    check([g["stage"] for g in legs] == ["x_server", "x_client", "x_drawing", "refresh"] and
          chained and legs[0]["from_mono_ns"] == e["press_mono_ns"] and
          legs[-1]["to_mono_ns"] == e.get("flip_mono_ns") and
          sum(g["ns"] for g in legs) == e.get("to_flip_ns"),
          "press %d: the legs follow each other and add up to the press: %s"
          % (n, [(g["stage"], g["pid"], ms(g["ns"])) for g in legs]))
    if len(legs) == 4:
        check(legs[1]["pid"] == client and legs[1]["ns"] >= slept[i] and
              legs[2]["pid"] == xorg and legs[3]["pid"] is None,
              "press %d: the X client's leg holds its sleep (%s >= %s), the drawing's is "
              "Xorg's, the refresh the display's" % (n, ms(legs[1]["ns"]), ms(slept[i])))
    ends[e["press_mono_ns"]] = (e, n)

common_report()
e, n = ends.get(iv["from_mono_ns"], (None, 0))
check(e is not None and iv["end"] == "flip" and iv["to_mono_ns"] == e["flip_mono_ns"] ==
      iv["flip_mono_ns"] and iv["flip_commit_mono_ns"] == e["flip_commit_mono_ns"],
      "report: press %d, to Xorg's flip after the drawing, as tipme latency: %s .. %s (%s)"
      % (n, iv["from_mono_ns"], iv["to_mono_ns"], iv["end"]))
check(iv.get("flip", {}).get("owner") == xorg,
      "report: the flip was delivered to Xorg's file (owner %s)" % iv.get("flip", {}).get("owner"))
timer = [c for c in rep["causes"] if c["cause"] == "timer" and c["culprit"] and
         c["culprit"]["pid"] == client]
want = slept[n - 1] / 1e6 if n else 0
check(len(timer) == 1 and abs(timer[0]["ms"] - want) <= 0.1 * want,
      "report: the client's sleep is its timer, %s ms (it slept %.3f ms)"
      % ([c["ms"] for c in timer], want))
check(any(c["cause"] == "display" for c in rep["causes"]) and
      any(c["cause"] == "running" and c["culprit"] and c["culprit"]["pid"] == xorg
          for c in rep["causes"]),
      "report: Xorg's drawing is its running, the flip's wait for the refresh display")
tap.plan()
sys.exit(1 if tap.failed() else 0)
