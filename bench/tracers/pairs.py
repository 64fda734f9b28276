#!/usr/bin/env python3
"""Instructions a tracer adds, paired by turn (bench/tracers/guest.py, and
by hand over a guest's RESULT: pairs.py GUEST_JSON).

Every turn runs each workload once without a tracer and once under each
tracer, one after the other.  The guest counts instructions, but what it
does by time (the timer tick on both vCPUs, the scheduler's balancing,
RCU, tipme's 20 ms sampler) follows emulated time, and under TCG that runs
as fast as the host lets it: with other work on the host, a run without a
tracer of forkexec took 15.8 to 18.0 s and 437.9 to 445.3 million
instructions (about 3 million per emulated second).  Runs of one turn
were made minutes apart, under about the same host load, so a tracer's
run is set against the run without a tracer of its own turn, and the
median over the turns is kept.  Per turn, the figure over all workloads
and its ratio to ftrace's of the same turn show whether a goal is met in
every turn or only in the median.
"""
import json
import statistics
import sys


def added(runs, name, w):
    """Per turn: the tracer's instructions less those of the turn's run
    without a tracer."""
    return [t["insn"] - n["insn"] for t, n in zip(runs[name][w], runs["none"][w])]


def summarize(runs, events):
    """The figures of every tracer of @runs (name -> workload -> runs),
    @events per workload (ftrace's count) or None."""
    out = {}
    ws = list(runs["none"])
    for name, per_w in runs.items():
        per = {}
        for w in ws:
            rs = per_w[w]
            d = added(runs, name, w)
            a = statistics.median(d)
            per[w] = {
                "insn_added": a,
                "insn_added_runs": d,
                "insn_per_event": round(a / events[w], 1) if events else None,
                "spread_insn": max(r["insn"] for r in rs) - min(r["insn"] for r in rs),
                "spread_added": max(d) - min(d),
                "bytes_per_switch": (round(statistics.median([r["bytes"] / r["ctxt"]
                                                              for r in rs]), 1)
                                     if rs[0]["bytes"] is not None else None),
            }
        t = {"workloads": per, "bytes_per_switch": per["pingpong"]["bytes_per_switch"]}
        if events:
            ev = sum(events[w] for w in ws)
            t["insn_per_event"] = round(sum(per[w]["insn_added"] for w in ws) / ev, 1)
            t["insn_per_event_turns"] = [
                round(sum(per[w]["insn_added_runs"][k] for w in ws) / ev, 1)
                for k in range(len(per[ws[0]]["insn_added_runs"]))]
        out[name] = t
    ft = out.get("ftrace", {}).get("insn_per_event_turns")
    if ft:
        for t in out.values():
            t["vs_ftrace_turns"] = [round(x / f, 3) if f else None
                                    for x, f in zip(t["insn_per_event_turns"], ft)]
    return out


def main():
    guest = json.load(open(sys.argv[1]))
    res = summarize(guest["runs"], guest["events_per_workload"])
    for name, t in res.items():
        print(name, " ".join(f"{w}={p['insn_per_event']}(±{p['spread_added'] / 2 / guest['events_per_workload'][w]:.1f})"
                             for w, p in t["workloads"].items()),
              "all", t.get("insn_per_event"), "turns", t.get("insn_per_event_turns"),
              "vs ftrace", t.get("vs_ftrace_turns"))


if __name__ == "__main__":
    main()
