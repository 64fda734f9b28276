#!/usr/bin/env python3
"""Check user chains through the vDSO against what vdsoprog measured.

usage: check_vdso.py TRUTH RECORDS_JSONL BINARY DUMP

TRUTH is vdsoprog's line "pid=P start_ns=T end_ns=T calls=N vdso=LO-HI"
(it called the vDSO's clock_gettime N times from poll_clock(), which
main() called, over [start, end]).  Of the profiler's samples of P in
that interval (`tipme records --json`, RECORDS_JSONL): enough of them,
and many with their leaf in the vDSO (the program does little else);
those name their vDSO frames from the dump's image of the vDSO (module
"[vdso]", a build-id, the function clock_gettime, under either of its
names, or none for an address in the vDSO's local code, which its
exported symbols do not cover: at most one in ten), and their chains go on past the vDSO into poll_clock and main of
BINARY (nm and readelf of the binary: its own truth).  A chain whose leaf
is the vDSO's first instruction (before its frame is set up) skips
poll_clock: those are counted, not allowed to be more than a tenth.
`tipme profile --folded` has the vDSO's frame above two of vdsoprog's.  Prints
TAP lines (no plan).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402
from elfsyms import functions, loads, vaddr  # noqa: E402  (beside this file)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TIPME = os.path.join(ROOT, "build", "tipme")
VDSO_NAMES = ("__vdso_clock_gettime", "clock_gettime")


def main():
    truth = {k: v for k, v in (kv.split("=", 1) for kv in sys.argv[1].split())}
    pid, start, end = int(truth["pid"]), int(truth["start_ns"]), int(truth["end_ns"])
    binary, dump = sys.argv[3], sys.argv[4]
    name = os.path.basename(binary)
    funcs, segs = functions(binary), loads(binary)

    def func_of(fr):
        """The function of BINARY a frame's file offset lies in (a return
        address: the call before it), by the binary's own symbols."""
        if fr.get("module") != name or fr.get("offset") is None:
            return None
        a = vaddr(segs, int(fr["offset"], 16) if isinstance(fr["offset"], str)
                  else fr["offset"])
        for f in ("poll_clock", "main"):
            s, n = funcs[f]
            if a is not None and s < a <= s + n:
                return f
        return None

    recs = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    samples = [r for r in recs if r.get("type") == "prof" and r.get("pid") == pid and
               start <= r["mono_ns"] <= end and r.get("user_stack")]
    expect = (end - start) * 99 // 10**9
    check(len(samples) >= expect // 2,
          "%d samples of vdsoprog with a user chain (99 Hz over %.1f s: about %d)" %
          (len(samples), (end - start) / 1e9, expect))
    in_vdso = [s for s in samples if s["user_stack"][0].get("module") == "[vdso]"]
    check(len(in_vdso) >= len(samples) // 4,
          "%d of them have their leaf in the vDSO (at least a quarter)" % len(in_vdso))
    frames = [f for s in in_vdso for f in s["user_stack"] if f.get("module") == "[vdso]"]
    bids = {f.get("build_id") for f in frames}
    check(len(bids) == 1 and None not in bids, "the vDSO frames have one build-id", str(bids))
    # The vDSO image has only its exported symbols: a sample in one of its
    # local functions (the clock read clock_gettime calls) is covered by
    # none, and stays unnamed rather than named after its neighbour.
    named = [f.get("func") for f in frames]
    bad = sorted({str(n) for n in named if n is not None and n not in VDSO_NAMES})
    check(frames and not bad, "no vDSO frame is named other than clock_gettime (%s)" %
          " or ".join(VDSO_NAMES), "other names: %s" % bad)
    unnamed = sum(n is None for n in named)
    check(frames and unnamed * 10 <= len(frames),
          "at least nine in ten vDSO frames are named (%d of %d unnamed)" %
          (unnamed, len(frames)))
    reach = skip = 0
    for s in in_vdso:
        outer = [func_of(f) for f in s["user_stack"] if f.get("module") != "[vdso]"]
        outer = [f for f in outer if f]
        if outer[:2] == ["poll_clock", "main"]:
            reach += 1
        elif outer[:1] == ["main"]:
            skip += 1
    print("# vDSO leaves: %d reach poll_clock <- main, %d skip poll_clock (leaf at the "
         "vDSO's prologue), %d neither" % (reach, skip, len(in_vdso) - reach - skip))
    check(in_vdso and reach + skip == len(in_vdso),
          "every chain from the vDSO goes on into vdsoprog's main")
    check(in_vdso and skip * 10 <= len(in_vdso),
          "at most a tenth skip poll_clock (%d of %d reach it)" % (reach, len(in_vdso)))
    p = subprocess.run([TIPME, "profile", "--folded", "--pid", str(pid), dump],
                       capture_output=True, text=True)
    check(p.returncode == 0, "tipme profile --folded", p.stderr[-1000:])
    # folded frames are named as module+offset or function: either
    mine = r"(main|poll_clock|%s\+0x[0-9a-f]+)[^;]*" % re.escape(name)
    pat = re.compile(r"%s;%s;(\[vdso\]\+0x[0-9a-f]+|__vdso_clock_gettime|clock_gettime)" %
                     (mine, mine))
    check(any(pat.search(line) for line in p.stdout.splitlines()),
          "the folded stacks go from main and poll_clock into the vDSO", p.stdout[:1500])


main()
