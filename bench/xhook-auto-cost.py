#!/usr/bin/env python3
"""What the auto trigger costs tipme-xhook: its CPU time on a typing workload
with the online measurement on and off, in the same run.

usage: bench/xhook-auto-cost.py [--build build] [--keys N] [--rounds R]

Under Xvfb: a client that draws a rectangle for every key press
(xhook-testclient victim), and tipme-xhook recording; xdotool types N keys
into the client (5 ms apart).  tipme-xhook's CPU time (all its threads'
time on a CPU, /proc/PID/task/*/schedstat) over the typing is taken with --auto-trigger-ms 0 (off) and
300 (on, every press measured, none slow), R rounds, alternating, a fresh
tipme-xhook each time.  Prints each run, the medians in microseconds per
key, and the ratio on/off.  The X server's side is the same either way:
the measurement only reads the RECORD stream tipme-xhook receives anyway.
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
from xvfb import Xvfb, wait_for  # noqa: E402  (tests/lib/xvfb.py)


def cpu_s(pid):
    """seconds on a CPU of all of a process's threads (schedstat: ns, not ticks)"""
    total = 0
    for t in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, t)) as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total / 1e9


def one_run(args, env, auto_ms, victim_out):
    d = tempfile.mkdtemp(prefix="xhook-auto-cost-")
    err = open(os.path.join(d, "stderr"), "w+")
    hook = subprocess.Popen([os.path.join(args.build, "tipme-xhook"), "-v", "--no-tipmed",
                             "-o", d, "--auto-trigger-ms", str(auto_ms)],
                            env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        wait_for(lambda: "recording" in open(err.name).read(), 15, "tipme-xhook to start")
        done0 = open(victim_out).read().count("\ndone ")
        c0 = cpu_s(hook.pid)
        subprocess.run(["xdotool", "key", "--delay", "5"] + ["a"] * args.keys, env=env,
                       check=True, timeout=600)
        wait_for(lambda: open(victim_out).read().count("\ndone ") >= done0 + args.keys, 60,
                 "the client to draw for every key")
        if auto_ms:
            # every press measured: the last one closes 50 ms after its answer
            wait_for(lambda: open(err.name).read().count(" answered in ") >= args.keys, 60,
                     "tipme-xhook to measure every press")
        else:
            time.sleep(0.2)   # the same settling time as the measured runs get
        c1 = cpu_s(hook.pid)
        text = open(err.name).read()
    finally:
        hook.send_signal(signal.SIGTERM)
        hook.wait(15)
        err.close()
    fired = text.count("tipme-xhook: auto: a ")
    return (c1 - c0) / args.keys * 1e6, fired


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--keys", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    xvfb = Xvfb()
    env = xvfb.env
    out = tempfile.NamedTemporaryFile("w+", prefix="victim-", delete=False)
    victim = subprocess.Popen([os.path.join(args.build, "xhook-testclient"), "victim", "plain"],
                              env=env, stdout=out, stderr=subprocess.DEVNULL)
    try:
        wid = wait_for(lambda: [l.split()[1] for l in open(out.name) if l.startswith("window ")],
                       20, "the client's window")[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", wid], env=env, check=True)
        res = {0: [], 300: []}
        fired = 0
        for r in range(args.rounds):
            for auto_ms in (0, 300) if r % 2 == 0 else (300, 0):
                us, f = one_run(args, env, auto_ms, out.name)
                fired += f
                res[auto_ms].append(us)
                print("round %d, auto %s: %.1f us of tipme-xhook CPU per key" % (
                    r + 1, "on " if auto_ms else "off", us))
        off, on = statistics.median(res[0]), statistics.median(res[300])
        print("median over %d rounds of %d keys: off %.1f us/key, on %.1f us/key; "
              "on - off %.1f us/key; ratio on/off %.2f (auto triggers fired: %d)" % (
                  args.rounds, args.keys, off, on, on - off,
                  on / off if off else float("nan"), fired))
    finally:
        victim.kill()
        victim.wait()
        xvfb.stop()
        os.unlink(out.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
