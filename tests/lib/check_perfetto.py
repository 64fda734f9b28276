#!/usr/bin/env python3
"""Check a `tipme export --perfetto` file as the viewers will read it.

usage: check_perfetto.py TRACE.json [--threads COMM,...] [--switches N]
                         [--verdict PID] [--x-requests] [--samples PID:N,...]

Prints TAP lines (no plan); exits 1 if one failed.
  - the file (gzip-compressed, as tipme writes it by default, or not) is
    one JSON object with traceEvents (a list) and
    systemTraceEvents (ftrace text);
  - every ftrace line (not a comment) has the shape Perfetto's and
    catapult's systrace importers match: TASK-PID (TGID) [CPU] FLAGS
    SECONDS: EVENT: key=value ..., with single-word values;
  - per CPU, the ftrace timestamps never go back;
  - trace events: complete slices ("X") on one thread track nest (a viewer
    drops a slice that crosses another), async begin/end pairs match by
    (cat, id) and end after they begin, instants have a scope;
  - with --threads: a sched_switch names each command; with --switches:
    exactly N sched_switch lines; with --verdict: tipme report's interval is
    an async slice of that pid; with --x-requests: the X server's requests
    are complete slices with the client's pid; with --samples: each pid has
    N profiler samples, instants on its thread track ("s": "t") named
    "sample: FUNCTION", their chains arrays of strings in "args"
    (kernel_stack, user_stack with user_stack_truncated).
"""
import argparse
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402
from tap import check  # noqa: E402

# written here from the format's description, not taken from an importer
LINE = re.compile(r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+\(\s*(?P<tgid>\d+|-+)\)\s\[(?P<cpu>\d+)\]\s+"
                  r"(?P<flags>[a-zA-Z0-9.]{4})\s+(?P<ts>\d+\.\d+):\s+(?P<event>\S+):\s(?P<args>.*)$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--threads", default="")
    ap.add_argument("--switches", type=int)
    ap.add_argument("--verdict", type=int)
    ap.add_argument("--x-requests", action="store_true")
    ap.add_argument("--samples", default="")
    a = ap.parse_args()
    with open(a.trace, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    try:
        d = json.load(gzip.open(a.trace, "rt") if gz else open(a.trace))
    except (ValueError, OSError, EOFError) as e:
        check(False, f"the trace parses as JSON ({e})")
        return
    evs, text = d.get("traceEvents"), d.get("systemTraceEvents")
    check(isinstance(evs, list) and isinstance(text, str),
          "one object with traceEvents and systemTraceEvents")
    bad, back, lines, comms = [], [], [], set()
    last = {}
    for ln in text.splitlines():
        if not ln or ln.startswith("#"):
            continue
        m = LINE.match(ln)
        if not m or any("=" not in kv for kv in m["args"].split(" ") if kv != "==>"):
            bad.append(ln)
            continue
        lines.append(m)
        cpu, ts = int(m["cpu"]), float(m["ts"])
        if ts < last.get(cpu, 0):
            back.append(ln)
        last[cpu] = ts
        if m["event"] == "sched_switch":
            kv = dict(x.split("=", 1) for x in m["args"].split(" ") if "=" in x)
            comms.update((kv.get("prev_comm"), kv.get("next_comm")))
    check(lines and not bad, f"{len(lines)} ftrace lines in the importers' shape"
          f"{'; not: ' + bad[0] if bad else ''}")
    check(not back, f"per CPU, ftrace time never goes back ({len(last)} CPUs)"
          f"{'; not: ' + back[0] if back else ''}")
    switches = sum(1 for m in lines if m["event"] == "sched_switch")
    if a.switches is not None:
        check(switches == a.switches, f"{switches} sched_switch lines, as the dump has ({a.switches})")
    for c in filter(None, a.threads.split(",")):
        check(c in comms, f"a sched_switch names {c}")
    # trace events
    tracks, asyncs, crossing, unmatched = {}, {}, [], []
    for e in evs:
        if e.get("ph") == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e.get("dur", 0), e["name"]))
        elif e.get("ph") in ("b", "e"):
            asyncs.setdefault((e.get("cat"), e.get("id")), []).append(e)
        elif e.get("ph") == "i":
            if e.get("s") not in ("g", "p", "t"):
                unmatched.append(e)
    for key, sl in tracks.items():
        sl.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s in sl:
            while stack and stack[-1][1] <= s[0]:
                stack.pop()
            if stack and s[1] > stack[-1][1] + 1e-3:
                crossing.append((key, stack[-1], s))
            stack.append(s)
    check(not crossing, f"complete slices nest on each of {len(tracks)} thread tracks"
          f"{'; not: %s' % (crossing[:1],) if crossing else ''}")
    for key, pair in asyncs.items():
        phs = sorted(e["ph"] for e in pair)
        if phs != ["b", "e"] or [e for e in pair if e["ph"] == "e"][0]["ts"] < \
                [e for e in pair if e["ph"] == "b"][0]["ts"]:
            unmatched.append(pair)
    check(not unmatched, f"{len(asyncs)} async slices begin and end in order; instants scoped"
          f"{'; not: %s' % (unmatched[:1],) if unmatched else ''}")
    if a.verdict is not None:
        v = [e for e in evs if e.get("cat") == "tipme" and e.get("ph") == "b"]
        check(v and v[0]["tid"] == a.verdict and v[0]["name"].startswith("tipme report:"),
              f"tipme report's interval is a slice of {a.verdict}: {v[0]['name'] if v else None}")
    if a.x_requests:
        x = [e for e in evs if e.get("cat") == "x11" and e.get("ph") == "X"]
        check(x and all(e.get("args", {}).get("client_pid") is not None for e in x),
              f"{len(x)} X requests on the X server's track, each with its client")
    if a.samples:
        sm = [e for e in evs if e.get("cat") == "cpu_sample"]
        want = dict(tuple(int(x) for x in w.split(":")) for w in a.samples.split(","))
        got = {}
        for e in sm:
            got[e.get("tid")] = got.get(e.get("tid"), 0) + 1
        check(got == want, f"profiler samples by thread: {got} (want {want})")
        bad = [e for e in sm if e.get("ph") != "i" or e.get("s") != "t" or
               not e.get("name", "").startswith("sample: ") or not chains_ok(e.get("args", {}))]
        check(not bad, f"each sample an instant on its thread, its chains arrays of names"
              f"{'; not: %s' % (bad[:1],) if bad else ''}")


def chains_ok(args):
    """A sample's arguments: arrays of strings, and the truncation flag with a user chain."""
    for key in ("kernel_stack", "user_stack"):
        if key in args and not (isinstance(args[key], list) and
                                all(isinstance(f, str) for f in args[key])):
            return False
    return "user_stack" not in args or isinstance(args.get("user_stack_truncated"), bool)


if __name__ == "__main__":
    main()
    sys.exit(1 if tap.failed() else 0)
