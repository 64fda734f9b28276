#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the demo's own verdict: `tipme report --json INCIDENT` (no --pid)
must report the stall the demo reproduced (tests/vm/progs/stall).

    demo-check.py TRUTH_LINE REPORT_JSON [DESCRIPTION]

TRUTH_LINE is what the stall program printed ("victim=PID server=PID
hog=PID ms=MS latency_ms=L start=MONO end=MONO", CLOCK_MONOTONIC seconds).
The report's interval must overlap [start, end], its verdict be
cpu_contention and its culprit the hog; with DESCRIPTION (what `tipme
note` set), the report must show that description.  Prints one line
saying so, or what is wrong on standard error, and exits 1.  Used by scripts/demo-guest.sh
(make demo) and tests/vm/t-deb.sh (the installed packages).
"""
import json
import sys


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    try:
        truth = dict(kv.split("=", 1) for kv in argv[1].split())
        hog = int(truth["hog"])
        start_ns = float(truth["start"]) * 1e9
        end_ns = float(truth["end"]) * 1e9
    except (KeyError, ValueError) as e:
        print(f"demo: FAILED: the stall program's truth line is not what it prints: "
              f"{argv[1]!r} ({e})", file=sys.stderr)
        return 1
    try:
        with open(argv[2]) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        print(f"demo: FAILED: cannot read tipme report's JSON {argv[2]}: {e}", file=sys.stderr)
        return 1
    iv = rep.get("interval") or {}
    v = rep.get("verdict") or {}
    culprit = (v.get("culprit") or {}).get("pid")
    f_ns, t_ns = iv.get("from_mono_ns", 0), iv.get("to_mono_ns", 0)
    what = (f"pid {iv.get('pid')} ({iv.get('comm')}), {f_ns / 1e9:.3f} .. {t_ns / 1e9:.3f} s "
            f"(chosen by {iv.get('chosen_by')}): {v.get('cause')}, culprit {culprit}")
    wrong = []
    if not (f_ns < end_ns and t_ns > start_ns):
        wrong.append(f"its interval does not overlap the reproduced stall "
                     f"({start_ns / 1e9:.3f} .. {end_ns / 1e9:.3f} s)")
    if v.get("cause") != "cpu_contention":
        wrong.append(f"its cause is {v.get('cause')}, not cpu_contention")
    if culprit != hog:
        wrong.append(f"its culprit is {culprit}, not the hog {hog}")
    if len(argv) == 4 and rep.get("description") != argv[3]:
        wrong.append(f"its description is {rep.get('description')!r}, not the one "
                     f"tipme note set ({argv[3]!r})")
    if wrong:
        print(f"demo: FAILED: tipme report did not report the stall the demo made: it reported "
              f"{what}; " + "; ".join(wrong), file=sys.stderr)
        return 1
    print(f"demo: checked: tipme report found the reproduced stall by itself: {what} "
          f"(the hog, {v.get('ms', 0):.1f} ms of the stall's "
          f"{float(truth.get('latency_ms', 0)):.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
