#!/usr/bin/env python3
"""The native half of `make bench` (bench/tracers/run.sh), on this machine:

1. the ring's fast path in ns per record: tests/kunit/run.sh runs the
   tipme_ringbench KUnit suite in User Mode Linux (host speed) RUNS times;
   the medians of its "ringbench: NAME X ns/record" lines;
2. the context switches per second of the guest's desktop-like load (the
   same build command, from guest.json, and the same 16 ms interactive
   task) run natively for at least SECONDS, counted as the guest counts
   them: the switches of the load's own tasks (rusage of reaped children);
3. the sampler's full round as user-space code (build/bench/smpbench), ns
   per thread, caches warm and evicted (median of RUNS, at least 3).

Usage: native.py GUEST_JSON [RUNS] [SECONDS]; prints one JSON object.
"""
import json, os, re, statistics, subprocess, sys, time
from loadstat import load_switches  # bench/tracers/loadstat.py, beside this file

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
guest = json.load(open(sys.argv[1]))
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0


def ringbench():
    got = {}
    for _ in range(runs):
        p = subprocess.run([f"{root}/tests/kunit/run.sh", "tipme_ringbench"],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit("native.py: tests/kunit/run.sh tipme_ringbench failed:\n" + p.stdout[-2000:])
        log = open(f"{root}/build/kunit/test.log", errors="replace").read()
        for name, ns in re.findall(r"ringbench: (\w+) ([\d.]+) ns/record", log):
            got.setdefault(name, []).append(float(ns))
    if not got:
        sys.exit("native.py: no ringbench lines in the UML log")
    return {k: round(statistics.median(v), 2) for k, v in got.items()}, got


def desktop_rate():
    # The load's own tasks' context switches (rusage of reaped children),
    # counted as in the guest, so that other work on the machine does not
    # count.
    load = f"{root}/build/bench/tipme-tracer-load"
    builds = 0
    s0, t0 = load_switches(), time.monotonic()
    per = subprocess.Popen([load, "-", "periodic", "16", "3600"])
    while time.monotonic() - t0 < seconds:
        subprocess.run(guest["desktop_build"], shell=True, check=True, cwd=root)
        builds += 1
    per.terminate()
    per.wait()
    s1, t1 = load_switches(), time.monotonic()
    return round((s1 - s0) / (t1 - t0)), builds, round(t1 - t0, 2)


def smpbench_ns():
    # The sampler's full round as user-space code (bench/vm/smpbench.c),
    # ns per thread with warm caches and with caches evicted before each
    # round (a round runs once a second, the machine runs in between).
    got = {"warm": [], "cold": []}
    for _ in range(max(runs, 3)):
        p = subprocess.run([f"{root}/build/bench/smpbench", "2000", "200"],
                           capture_output=True, text=True, check=True)
        for mode, ns in re.findall(r"smpbench (\w+): \d+ threads, ([\d.]+) ns per thread", p.stdout):
            got[mode].append(float(ns))
    return {k: statistics.median(v) for k, v in got.items() if v}, got


ns, all_ns = ringbench()
rate, builds, secs = desktop_rate()
smp_ns, smp_runs = smpbench_ns()
print(json.dumps({"native_ns_per_record": ns, "native_ns_runs": all_ns,
                  "desktop_load_switches_per_s": rate, "desktop_builds": builds,
                  "desktop_seconds": secs, "smpbench_ns_per_thread": smp_ns,
                  "smpbench_runs": smp_runs}))
