#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The busy CPU's window of bench/pool-window.sh, from what its guest
(bench/vm/pool-window-guest.sh) left in OUT.

    pool_window.py measure OUT TIPME     one guest's figures (JSON, stdout)
    pool_window.py doc FILE RESULT...    rewrite FILE's generated block
                                         (bench:pool:begin .. bench:pool:end)
                                         from the measured guests' JSON

What "kept over expected" is.  Issue 31's goal: the dump's common window
at least 0.9x of buffer / the busy CPU's bytes per second, what a single
CPU would keep with all the memory.  Kept is the load's end less the
common window's start (tipme: `tipme info --json`'s common_window; ftrace:
the latest "oldest event ts" of the CPUs that lost events).  The rate is
the one over that window, not the load's average: under TCG the guest's
speed varies with the host's load, so the same bytes take a varying
time, and the window a ring keeps is its newest bytes, at whatever rate
they came.  The load's own progress (bench/vm/poolwin: the time after
every 500 rounds) gives the busy CPU's rounds inside the window, and its
bytes per round (its counter over the load, over the rounds) turns them
into bytes; the idle CPUs, whose timers tick in guest time, are taken as
writing at their average over the load.  So kept / expected is the bytes
written inside the window over the buffer: by the busy CPU alone (the
goal's words) and by the machine (the busy CPU and the idle ones, whose
records are in the window too and take their share of the memory
whatever the design).  The old measure, over the load's average rate, is
kept beside them.
"""
import json
import os
import re
import subprocess
import sys
import time

BUSY = 1


def rounds_at(load, t):
    """The busy load's rounds done at CLOCK_MONOTONIC ns @t (interpolated
    between its marks)."""
    pts = [(load["start_ns"], 0)]
    pts += [(m, (i + 1) * load["step"]) for i, m in enumerate(load["marks_ns"])]
    pts.append((load["end_ns"], load["rounds"]))
    if t <= pts[0][0]:
        return 0.0
    for (t0, r0), (t1, r1) in zip(pts, pts[1:]):
        if t <= t1:
            return r0 + (r1 - r0) * (t - t0) / max(t1 - t0, 1)
    return float(load["rounds"])


def ftrace_stats(path):
    """Per CPU: entries, overrun, bytes, oldest event ts (ns) from `grep -H
    . per_cpu/cpu*/stats` (lines "PATH:KEY: VALUE")."""
    cpus = {}
    for line in open(path):
        m = re.match(r".*/cpu(\d+)/stats:([^:]+):\s*(.*)", line)
        if not m:
            continue
        cur, k, v = cpus.setdefault(int(m.group(1)), {}), m.group(2), m.group(3).strip()
        if k in ("entries", "overrun", "bytes"):
            cur[k] = int(v)
        elif k == "oldest event ts":
            s, _, us = v.partition(".")
            cur["oldest_ns"] = int(s) * 10**9 + int(us.ljust(6, "0")[:6]) * 1000
    return cpus


def measure_tipme(out, name, tipme):
    before = {c["cpu"]: c for c in json.load(open(f"{out}/{name}.before.status.json"))["cpus"]}
    after = {c["cpu"]: c for c in json.load(open(f"{out}/{name}.after.status.json"))["cpus"]}
    info = json.loads(subprocess.run([tipme, "info", "--json", f"{out}/{name}.dump"],
                                     check=True, capture_output=True, text=True).stdout)
    params = dict(re.findall(r"/(\w+):(.*)", open(f"{out}/{name}.params").read()))
    busy = after[BUSY]["bytes"] - before[BUSY]["bytes"]
    idle = sum(after[c]["bytes"] - before[c]["bytes"] for c in after if c != BUSY)
    w = info["common_window"]
    sub = int(params["subbuf_size"])
    held = {c["cpu"]: c["subbufs"] for c in info["cpus"]}
    r = {"busy_bytes": busy, "idle_bytes": idle, "window_start_ns": w["start_mono_ns"],
         "subbuf_size": sub,
         "busy_subbufs": held.get(BUSY, 0),
         "idle_subbufs": sum(v for c, v in held.items() if c != BUSY),
         "idle_cpus_holding": sum(1 for c, v in held.items() if c != BUSY and v),
         "busy_first_ns": next((c.get("first_mono_ns") for c in info["cpus"]
                                if c["cpu"] == BUSY), None)}
    return r


def measure_ftrace(out, name):
    before = ftrace_stats(f"{out}/{name}.before.ftrace")
    after = ftrace_stats(f"{out}/{name}.after.ftrace")

    def written(c):     # bytes: events written times the ring's bytes per event
        a, b = after[c], before[c]
        ev = a["entries"] + a["overrun"] - b["entries"] - b["overrun"]
        return ev * (a["bytes"] / a["entries"] if a["entries"] else 0)

    lost = [c for c in after if after[c]["overrun"] > before[c]["overrun"]
            and "oldest_ns" in after[c]]
    starts = [after[c]["oldest_ns"] for c in lost] or \
        [min(a["oldest_ns"] for a in after.values() if "oldest_ns" in a)]
    return {"busy_bytes": round(written(BUSY)),
            "idle_bytes": round(sum(written(c) for c in after if c != BUSY)),
            "window_start_ns": max(starts)}


def measure(out, tipme):
    g = json.load(open(f"{out}/guest.json"))
    buf = g["buffer"]
    res = {"cpus": g["cpus"], "buffer": buf, "kernel": g["kernel"], "laps": g["laps"],
           "tracers": {}}
    for name in ("pool1", "pool0", "ftrace"):
        if not os.path.exists(f"{out}/{name}.load.json"):
            continue
        load = json.load(open(f"{out}/{name}.load.json"))
        m = measure_ftrace(out, name) if name == "ftrace" else measure_tipme(out, name, tipme)
        t0, t1, ws = load["start_ns"], load["end_ns"], m["window_start_ns"]
        kept = t1 - ws
        frac = (load["rounds"] - rounds_at(load, ws)) / load["rounds"]
        busy_w = m["busy_bytes"] * frac
        idle_w = m["idle_bytes"] * min(kept, t1 - t0) / (t1 - t0)
        avg_rate = m["busy_bytes"] / ((t1 - t0) / 1e9)
        m.update({
            "rounds": load["rounds"], "load_s": round((t1 - t0) / 1e9, 3),
            "wrapped": ws > t0, "kept_s": round(kept / 1e9, 3),
            "busy_bytes_in_window": round(busy_w), "idle_bytes_in_window": round(idle_w),
            # kept / (buffer / rate over the window) = bytes in the window / buffer
            "ratio_busy": round(busy_w / buf, 3),
            "ratio_machine": round((busy_w + idle_w) / buf, 3),
            # the old measure: over the busy CPU's average rate of the load
            "ratio_busy_avg": round(kept / 1e9 / (buf / avg_rate), 3),
            "idle_share": round(m["idle_bytes"] / (m["busy_bytes"] + m["idle_bytes"]), 3),
        })
        res["tracers"][name] = m
    return res


def doc_lines(results):
    def x(v):
        return "–" if v is None else f"{v:.3f}x" if v < 0.1 else f"{v:.2f}x"

    lines = ["<!-- bench:pool:begin (generated by `make bench` or `bench/pool-window.sh`; "
             "edit bench/vm/pool_window.py) -->", ""]
    if not results:
        return lines + ["Not measured.", "", "<!-- bench:pool:end -->"]
    r0 = results[0]
    lines += [f"The busy CPU's window, {time.strftime('%d %B %Y')}: kernel {r0['kernel']} "
              f"under QEMU TCG (one TCG thread), one guest per row; a ping-pong pinned to "
              f"CPU 1, the other CPUs idle; each tracer's load writes {r0['laps']}x what it "
              f"can keep of CPU 1 (the buffer with the pool, CPU 1's share with per-CPU "
              f"rings). Kept / expected: the bytes written inside the dump's common window "
              f"over the buffer (bench/vm/pool_window.py), by CPU 1 alone (the goal, 0.9x) "
              f"and by all CPUs; in brackets the old measure, over CPU 1's average rate of "
              f"the load:", "",
              "| vCPUs | buffer | tipme `pool=1`: seconds kept | CPU 1 | all CPUs "
              "| tipme `pool=0` | CPU 1 | ftrace | CPU 1 | idle CPUs' bytes (`pool=1`) "
              "| sub-buffers idle CPUs hold (`pool=1`) |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        t = r["tracers"]
        p1, p0, ft = t.get("pool1", {}), t.get("pool0", {}), t.get("ftrace", {})

        def s(m):
            return "–" if not m else f"{m['kept_s']:.2f} s" + ("" if m["wrapped"] else
                                                             " (not wrapped)")
        idle = ("–" if not p1 else
                f"{p1['idle_subbufs']} of {r['buffer'] // p1['subbuf_size']} "
                f"({p1['subbuf_size'] // 1024} KiB each; {p1['idle_cpus_holding']} CPUs)")
        lines.append(
            f"| {r['cpus']} | {r['buffer'] / 2**20:g} MiB | {s(p1)} | "
            f"{x(p1.get('ratio_busy'))} ({x(p1.get('ratio_busy_avg'))}) | "
            f"{x(p1.get('ratio_machine'))} | {s(p0)} | "
            f"{x(p0.get('ratio_busy'))} ({x(p0.get('ratio_busy_avg'))}) | {s(ft)} | "
            f"{x(ft.get('ratio_busy'))} ({x(ft.get('ratio_busy_avg'))}) | "
            f"{100 * p1.get('idle_share', 0):.1f}% | {idle} |")
    return lines + ["", "<!-- bench:pool:end -->"]


def write_doc(doc, results):
    text = open(doc).read()
    a = text.index("<!-- bench:pool:begin")
    end = "<!-- bench:pool:end -->"
    b = text.index(end) + len(end)
    open(doc, "w").write(text[:a] + "\n".join(doc_lines(results)) + text[b:])


def main(argv):
    if len(argv) == 4 and argv[1] == "measure":
        print(json.dumps(measure(argv[2], argv[3])))
    elif len(argv) >= 3 and argv[1] == "doc":
        write_doc(argv[2], [json.load(open(p)) for p in argv[3:]])
    else:
        sys.exit("usage: pool_window.py measure OUT TIPME | doc FILE RESULT...")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
