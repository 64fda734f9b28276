#!/usr/bin/env python3
"""The native half of `make bench` (bench/tracers/run.sh), on this machine:

1. the ring's fast path in ns per record: tests/kunit/run.sh runs the
   tipme_ringbench KUnit suite in User Mode Linux (host speed) RUNS times;
   the medians of its "ringbench: NAME X ns/record" lines;
2. the context switches per second of the guest's desktop-like load (the
   same build command, from guest.json, and the same 16 ms interactive
   task) run natively for at least SECONDS, less the machine's own rate
   measured just before.

Usage: native.py GUEST_JSON [RUNS] [SECONDS]; prints one JSON object.
"""
import json, os, re, statistics, subprocess, sys, time

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
        log = open(f"{root}/.cache/kunit/build/test.log", errors="replace").read()
        for name, ns in re.findall(r"ringbench: (\w+) ([\d.]+) ns/record", log):
            got.setdefault(name, []).append(float(ns))
    if not got:
        sys.exit("native.py: no ringbench lines in the UML log")
    return {k: round(statistics.median(v), 2) for k, v in got.items()}, got


def ctxt():
    for line in open("/proc/stat"):
        if line.startswith("ctxt "):
            return int(line.split()[1])


def desktop_rate():
    # /proc/stat counts every switch of the machine: take off what it does
    # without the load (measured first, over a few seconds), so that other
    # work on the machine weighs less.  Best run on an idle machine.
    c0, t0 = ctxt(), time.monotonic()
    time.sleep(3)
    background = (ctxt() - c0) / (time.monotonic() - t0)
    load = f"{root}/build/bench/tipme-tracer-load"
    per = subprocess.Popen([load, "-", "periodic", "16", "3600"])
    builds = 0
    c0, t0 = ctxt(), time.monotonic()
    while time.monotonic() - t0 < seconds:
        subprocess.run(guest["desktop_build"], shell=True, check=True, cwd=root)
        builds += 1
    c1, t1 = ctxt(), time.monotonic()
    per.terminate()
    per.wait()
    rate = (c1 - c0) / (t1 - t0) - background
    return round(rate), builds, round(t1 - t0, 2), round(background)


ns, all_ns = ringbench()
rate, builds, secs, background = desktop_rate()
print(json.dumps({"native_ns_per_record": ns, "native_ns_runs": all_ns,
                  "desktop_ctxt_per_s": rate, "desktop_builds": builds,
                  "desktop_seconds": secs, "background_ctxt_per_s": background}))
