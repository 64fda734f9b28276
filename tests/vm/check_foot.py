#!/usr/bin/env python3
"""Check t-foot.sh's key press into foot against ttystop's ground truth.

usage: check_foot.py TRUTH_JSONL ENV_JSON RECORDS_JSONL REPORT_JSON LATENCY_JSON INFO_JSON
       check_foot.py --window TRUTH_JSONL RECORDS_JSONL

TRUTH_JSONL is what tests/vm/progs/ttystop wrote (its "ready" line with
foot's pid, one "byte" line per key foot passed it: 'a' echoed at once,
then 's', for which it stopped foot 300 ms before it echoed); ENV_JSON
t-foot.sh's (sway's, seatd's and foot's pids); RECORDS_JSONL `tipme
records --json` of the dump; REPORT_JSON `tipme report --window W
--json` and LATENCY_JSON `tipme latency --json` of it; INFO_JSON
`tipme info --json` (the module's parameters and counts).

--window prints the report window (ms) that holds the press of 's' and
not the one of 'a': from the echo of 'a' (t-foot.sh typed 's' after
that) to the dump's trigger.

Checks, every time against the truth's CLOCK_MONOTONIC ns (the windows
around ttystop's own times 5 ms wider, SLACK_NS):
  - the path in the records: the kernel's input record of 's' (its code,
    pressed: the test sets keylog) before ttystop read the byte; foot
    woken by sway in between (sway passed the key on); foot switched out
    stopped after ttystop's SIGSTOP and woken by its SIGCONT; the first
    flip delivered to sway's DRM file after the echo;
  - tipme report: the interval from the input record ("kernel_input"),
    to that flip ("end": "flip"), following sway and foot ("path"); its
    length at least the truth's (the input to the echo: the character
    cannot be on the screen before the terminal had it) and at most that
    plus 10% and one refresh plus the time from the echo to the flip
    (foot drawing, sway composing; checked below 300 ms); the verdict
    stopped, culprit foot, its time the truth's stop (seen stopped to
    continued) within 10% plus 5 ms (the stop is seen by polling /proc);
  - tipme latency: the same press, ending at the same flip, its legs
    adding up to it;
  - the module's auto trigger (auto_trigger_ms 5000 for the press of 's',
    above the press's latency: t-wlauto.sh makes it fire) measured the
    press past the keyboard's reader, sway, which was done with the key
    long before foot showed it, to a flip, and did not fire; the only
    trigger in the dump is the test's (sysctl).
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402
from jsonl import lines, ms  # noqa: E402

KEY_S = 31
NO_FILE = "00000000"   # a commit's own completion event, which no file reads
REFRESH_NS = 16666667
# The environment's own pace, not tipme's: foot renders the echo and sway
# composes it; under TCG with a second guest on the host that took 157 ms
# once (full check, 28 Nov), 20-60 ms alone.  Longer would mean the
# display path broke, and the first flip after the echo no truth.
ECHO_TO_FLIP_NS = 300 * 10**6
# The records' times (the recorder's clock, converted) against
# CLOCK_MONOTONIC as ttystop read it: seen 2 ms apart in a t-wayland guest
# (its client switched in after the time it read on waking).
SLACK_NS = 5 * 10**6




def byte(truth, b):
    return [t for t in truth if t.get("event") == "byte" and t["byte"] == b]


def wakings(recs, pid, lo, hi, waker=None):
    return [r for r in recs if r["type"] == "sched_waking" and r.get("pid") == pid
            and lo <= r["mono_ns"] <= hi and (waker is None or r.get("waker") == waker)]


def window():
    truth, recs = lines(sys.argv[2]), lines(sys.argv[3])
    end = max(r["mono_ns"] for r in recs if r["type"] == "trigger")
    print((end - byte(truth, "a")[0]["echo_ns"]) // 10**6)


def path(recs, env, ready, s):
    """The press of 's' in the records; (input time, the flip) or None."""
    foot, sway, stopper = ready["terminal"], env["sway"], ready["pid"]
    ins = [r for r in recs if r["type"] == "input" and r.get("kind") == "key"
           and r.get("code") == KEY_S and r.get("value") == 1
           and r["mono_ns"] <= s["read_ns"] + SLACK_NS]
    if not check(ins, "the kernel's input record of 's' before foot passed it on",
                 [r for r in recs if r["type"] == "input"][-5:]):
        return None
    t_in = ins[-1]["mono_ns"]
    print("# input at %d; ttystop read the byte %s later, echoed it %s later"
          % (t_in, ms(s["read_ns"] - t_in), ms(s["echo_ns"] - t_in)))
    check(wakings(recs, foot, t_in, s["read_ns"] + SLACK_NS, waker=sway),
          "foot (pid %d) woken by sway (pid %d) after the input" % (foot, sway),
          wakings(recs, foot, t_in, s["read_ns"] + SLACK_NS))
    out = [r for r in recs if r["type"] == "sched_switch" and r.get("prev_pid") == foot
           and s["stop_ns"] - SLACK_NS <= r["mono_ns"] <= s["cont_lo_ns"] + SLACK_NS]
    check(any(r["prev_state"] == "T" for r in out), "foot switched out stopped after the "
          "SIGSTOP", out[:5])
    check(wakings(recs, foot, s["cont_lo_ns"] - SLACK_NS, s["cont_hi_ns"] + SLACK_NS,
                  waker=stopper),
          "ttystop's SIGCONT woke foot")
    flips = [r for r in recs if r["type"] == "vblank_delivered" and r.get("file") != NO_FILE
             and r["mono_ns"] >= s["echo_ns"]]
    if not check(flips, "a flip delivered after the echo",
                 [r for r in recs if r["type"].startswith("vblank")][-5:]):
        return None
    f = flips[0]
    print("# the first flip after the echo: %s after it, by %s, to file %s of %s (%s)"
          % (ms(f["mono_ns"] - s["echo_ns"]), f.get("pid_comm"), f["file"], f.get("owner"),
             f.get("owner_comm")))
    check(f.get("owner") in (sway, env.get("seatd")), "the flip's file is sway's (opened by "
          "it or by seatd for it)", f)
    check(f["mono_ns"] - s["echo_ns"] <= ECHO_TO_FLIP_NS, "foot's echo reached the screen "
          "within %s" % ms(ECHO_TO_FLIP_NS), ms(f["mono_ns"] - s["echo_ns"]))
    return t_in, f


def analyses(ready, s, t_in, flip, report, latency):
    foot = ready["terminal"]
    iv = report.get("interval") or {}
    p = iv.get("path") or {}
    got = iv.get("to_mono_ns", 0) - iv.get("from_mono_ns", 0)
    lo = s["echo_ns"] - t_in
    hi = lo + lo // 10 + REFRESH_NS + (flip["mono_ns"] - s["echo_ns"])
    print("# report %s .. %s (%s), chosen by %s; truth: input to echo %s, to the flip %s"
          % (iv.get("from_mono_ns"), iv.get("to_mono_ns"), ms(got), iv.get("chosen_by"),
             ms(lo), ms(flip["mono_ns"] - t_in)))
    check(iv.get("chosen_by") == "kernel_input" and iv.get("from_mono_ns") == t_in,
          "the report's interval starts at the key's input record", iv)
    check(iv.get("end") == "flip" and iv.get("flip_mono_ns") == flip["mono_ns"],
          "the report's interval ends at the first flip after the echo", iv)
    check(p.get("client") == foot and p.get("reader") and iv.get("pid") == p.get("reader"),
          "the report followed sway's reader to foot (pid %d)" % foot, p)
    check(lo <= got <= hi, "the report's interval %s is the truth's %s .. %s"
          % (ms(got), ms(lo), ms(hi)))
    v = report.get("verdict") or {}
    culprit = (v.get("culprit") or {}).get("pid")
    stop = s["cont_lo_ns"] - s["stopped_ns"]
    print("# verdict %s, culprit %s, %s ms: %s" % (v.get("cause"), culprit, v.get("ms"),
                                                   v.get("text")))
    check(v.get("cause") == "stopped" and culprit == foot,
          "the verdict is stopped, culprit foot (pid %d)" % foot, v)
    check(abs(v.get("ms", 0) * 1e6 - stop) <= stop // 10 + 5 * 10**6,
          "the verdict's %.1f ms are the stop's %s within 10%% plus 5 ms"
          % (v.get("ms", 0), ms(stop)))
    pr = [x for x in latency.get("presses", []) if x.get("press_mono_ns") == t_in]
    if check(len(pr) == 1, "tipme latency lists the press",
             [x.get("press_mono_ns") for x in latency.get("presses", [])]):
        x = pr[0]
        legs = sum(g.get("ns", 0) for g in x.get("legs", []))
        check(x.get("end") == "flip" and x.get("end_mono_ns") == flip["mono_ns"],
              "tipme latency ends the press at the report's flip", x)
        check(legs == x.get("latency_ns"), "the latency's legs add up to it (%s)" % ms(legs), x)


def auto(info, recs):
    par = {k: int(v) for k, v in (info.get("params") or {}).items()
           if k.startswith("auto_") and str(v).isdigit()}
    print("# auto trigger: %s ms, presses measured %s, to a flip %s, slow %s, triggers %s"
          % (par.get("auto_trigger_ms"), par.get("auto_presses_measured"),
             par.get("auto_presses_to_flip"), par.get("auto_presses_slow"),
             par.get("auto_triggers")))
    check(par.get("auto_trigger_ms") == 5000 and par.get("auto_presses_measured", 0) >= 1,
          "the auto trigger (5000 ms) measured the press of 's'", par)
    check(par.get("auto_presses_to_flip", 0) >= 1,
          "it followed the press past sway to a flip", par)
    check(par.get("auto_presses_slow") == 0 and par.get("auto_triggers") == 0,
          "it did not fire: the press took less than 5000 ms", par)
    trig = [r.get("source") for r in recs if r["type"] == "trigger"]
    check(trig == ["sysctl"], "the dump's only trigger is the test's", trig)


def main():
    if sys.argv[1] == "--window":
        window()
        return
    truth, env, recs = lines(sys.argv[1]), lines(sys.argv[2])[0], lines(sys.argv[3])
    ready = [t for t in truth if t.get("event") == "ready"]
    s = byte(truth, "s")
    if not check(len(ready) == 1 and len(s) == 1, "ttystop's ready line and one 's'", truth):
        return
    print("# truth %s" % json.dumps(s[0]))
    found = path(recs, env, ready[0], s[0])
    if not found:
        return
    with open(sys.argv[4]) as f:
        report = json.load(f)
    with open(sys.argv[5]) as f:
        latency = json.load(f)
    with open(sys.argv[6]) as f:
        info = json.load(f)
    analyses(ready[0], s[0], found[0], found[1], report, latency)
    auto(info, recs)


main()
