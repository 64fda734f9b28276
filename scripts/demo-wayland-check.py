#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check make demo-wayland's own verdict against what the app measured.

    demo-wayland-check.py TRUTH_JSONL REPORT_JSON
    demo-wayland-check.py --press TRUTH_JSONL

TRUTH_JSONL is what tests/vm/progs/wlkey wrote: its "ready" line and the
"press" line of the one press the demo made (mode compute: it computed
before it committed its answer), with the key event's time (libinput's,
the kernel's input time in ms), the computing's start and end, and the
presented time of the page flip that showed the answer
(wp_presentation).  REPORT_JSON is `tipme report --json INCIDENT` without
--pid.  The report must have found that press by itself
(chosen_by kernel_input), start at the key's input record (within 10 ms
of the key event's time), end at the flip ("end": "flip", flip_mono_ns
within two refreshes of the presented time: when the compositor was
composing a frame as the app committed, the flip right after is that
frame's and the app's buffer shows one flip later, which the records do
not tell apart; Documentation/wayland.md), be as long as the truth (key
event to presented) within 10% plus one refresh, and charge it to the
app computing (cause running, culprit wlkey's client).  Prints one line
saying so, or what is wrong on standard error, and exits 1.

--press prints what the app measured, one line, for the demo to show.
"""
import json
import sys

REFRESH_NS = 16666667   # when the compositor gives no refresh period


def the_press(path):
    with open(path) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    presses = [x for x in lines if x.get("event") == "press"]
    if len(presses) != 1 or presses[0].get("presented_ns") is None:
        raise ValueError("not one presented press in %s: %d presses" % (path, len(presses)))
    return presses[0]


def key_event_ns(p):
    """The key event's time (ms of CLOCK_MONOTONIC, 32 bits) in full ns."""
    now_ms = p["key_ns"] // 10**6
    return (now_ms - (now_ms - p["key_time_ms"]) % 2**32) * 10**6


def check(p, rep):
    iv = rep.get("interval") or {}
    v = rep.get("verdict") or {}
    culprit = (v.get("culprit") or {}).get("pid")
    refresh = p.get("refresh_ns") or REFRESH_NS
    key_ns = key_event_ns(p)
    truth = p["presented_ns"] - key_ns
    f_ns, t_ns = iv.get("from_mono_ns", 0), iv.get("to_mono_ns", 0)
    flip = iv.get("flip_mono_ns")
    tol = truth // 10 + refresh + 10**6
    what = ("pid %s (%s), %.1f ms (chosen by %s, end %s): %s, culprit %s"
            % (iv.get("pid"), iv.get("comm"), (t_ns - f_ns) / 1e6, iv.get("chosen_by"),
               iv.get("end"), v.get("cause"), culprit))
    wrong = []
    if iv.get("chosen_by") != "kernel_input":
        wrong.append("it was chosen by %s, not as the slowest press the kernel saw"
                     % iv.get("chosen_by"))
    if abs(f_ns - key_ns) > 10**7:
        wrong.append("it starts %.1f ms from the key event" % ((f_ns - key_ns) / 1e6))
    if iv.get("end") != "flip" or flip is None:
        wrong.append("it does not end at a page flip (end %s)" % iv.get("end"))
    elif abs(flip - p["presented_ns"]) > 2 * refresh:
        wrong.append("its flip is %.1f ms from the presented time"
                     % ((flip - p["presented_ns"]) / 1e6))
    if abs(t_ns - f_ns - truth) > tol:
        wrong.append("its %.1f ms are not the app's %.1f ms within %.1f ms"
                     % ((t_ns - f_ns) / 1e6, truth / 1e6, tol / 1e6))
    if v.get("cause") != "running" or culprit != p["pid"]:
        wrong.append("it is not running with the app (pid %d) the culprit" % p["pid"])
    if wrong:
        print("demo-wayland: FAILED: tipme report did not report the press the demo made: it "
              "reported %s; %s" % (what, "; ".join(wrong)), file=sys.stderr)
        return 1
    print("demo-wayland: checked: tipme report found the slow press by itself and followed it "
          "to the flip: %s (the app measured %.1f ms from the key to the presented frame, "
          "%.1f ms of them computing)"
          % (what, truth / 1e6, (p["delay_end_ns"] - p["delay_start_ns"]) / 1e6))
    return 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "--press":
            p = the_press(argv[2])
            print("wlkey: the key came at %.3f s; computed %.1f ms; the frame with its answer "
                  "was presented %.1f ms after the key event"
                  % (p["key_ns"] / 1e9, (p["delay_end_ns"] - p["delay_start_ns"]) / 1e6,
                     (p["presented_ns"] - key_event_ns(p)) / 1e6))
            return 0
        if len(argv) != 3:
            sys.stderr.write(__doc__)
            return 2
        p = the_press(argv[1])
        with open(argv[2]) as f:
            rep = json.load(f)
    except (OSError, ValueError, KeyError) as e:
        print("demo-wayland: FAILED: %s" % e, file=sys.stderr)
        return 1
    return check(p, rep)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
