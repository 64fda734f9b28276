#!/usr/bin/env python3
"""Check `tipme report --json` on page faults that waited for I/O.

usage: check_fault.py NAME TRUTH REPORT_JSON CASE TOP DM MAJ:MIN

CASE is "file" (TRUTH is `faulter file`'s output: a thread reading a cold
mmap'ed file), "shared" (`faulter shared`: a thread faulting on a page
another thread is reading; the interval is its wait) or "swap" (`faulter
swap`: anonymous memory faulted back in from swap).  The file, or the
swap area, is on TOP (number MAJ:MIN), whose device-mapper name is DM ("-"
for none).  Asserted, with the interval from the workload's own clock:

  - the causes add up to the interval, and at least 95% of it is
    accounted (not unknown);
  - the verdict is block_io on TOP, via a page fault, within 10% of the
    time the faulting thread was blocked (neither running nor runnable) in
    the interval, by the kernel's own count (schedstat, blocked_ns): the
    loop does nothing but fault, so all of it was the faults' waits;
  - file, shared: the mapped file is the one faulter mapped (its device
    and inode), and not swap; swap: it is swap, and no file;
  - the culprit is the thread that read the page: the faulting thread,
    for shared the other thread (the reader).
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402


def main():
    name, truth, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    case, top, dm, majmin = sys.argv[4:8]
    t = dict(kv.split("=", 1) for kv in truth.split())
    v = rep["verdict"] or {}
    cul = v.get("culprit") or {}
    span = (rep["interval"]["to_mono_ns"] - rep["interval"]["from_mono_ns"]) / 1e6
    total = sum(c["ms"] for c in rep["causes"])
    check(abs(total - span) < 0.01 + 1e-6 * span,
          f"{name}: the causes add up to the interval: {total:.3f} of {span:.3f} ms")
    check(rep["accounted_pct"] >= 95,
          f"{name}: {rep['accounted_pct']:.1f}% of the {span:.1f} ms accounted (at least 95%)",
          json.dumps(rep["causes"], indent=1))
    print(f"# {name}: verdict: {v.get('text')} ({v.get('cause')}, {v.get('ms', 0):.1f} ms)")
    check(v.get("cause") == "block_io", f"{name}: verdict block_io", v)
    res = f"block device {top} ({dm}, {majmin})" if dm != "-" else f"block device {top} ({majmin})"
    check(v.get("resource") == res and v.get("device") == top,
          f"{name}: on the device: {res}", v.get("resource"))
    check(v.get("via") == "page fault", f"{name}: via a page fault", v.get("via"))
    blocked = int(t["blocked_ns"]) / 1e6
    # 10%, and for the short shared wait 3 ms more: a wakeup sent to an
    # idle CPU is queued there by its IPI (TTWU_QUEUE), and schedstat
    # counts the task runnable only from then, tipme from sched_waking
    # (2.5 ms of a 24.8 ms wait in a busy TCG run)
    slack = 0.1 * blocked + (3 if case == "shared" else 0)
    check(blocked > 0 and abs(v.get("ms", 0) - blocked) <= slack,
          f"{name}: {v.get('ms', 0):.1f} ms, the {blocked:.1f} ms the thread was blocked "
          f"(schedstat; within {slack:.1f} ms; {t.get('slow', 1)} slow reads of a page)")
    if case == "swap":
        check(v.get("swap") is True and v.get("file") is None, f"{name}: swap, no file",
              (v.get("swap"), v.get("file")))
    else:
        f = v.get("file") or {}
        check(f.get("dev") == t["dev"] and f.get("ino") == int(t["ino"]) and
              f.get("device") == top and v.get("swap") is False,
              f"{name}: the mapped file: inode {t['ino']} of {t['dev']} ({top})",
              (v.get("file"), v.get("swap")))
    who = int(t["reader"] if case == "shared" else t["pid"])
    check(cul.get("pid") == who, f"{name}: read by {who}" +
          (" (the other thread: the waiter only waited for its read)" if case == "shared"
           else " (the thread that faulted)"), cul)


if __name__ == "__main__":
    main()
