#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""t-pool's arithmetic on a dump's `tipme info --json`, for the shell.

    check_pool.py window INFO_JSON START END BYTES BUFSIZE
        The busy CPU's history against what the buffer can hold: START and
        END are the busy load's CLOCK_MONOTONIC seconds (its own ground
        truth), BYTES what the rings took meanwhile (status `bytes` after
        less before: the busy CPU's, or all CPUs'), BUFSIZE the buffer.
        The expected span is BUFSIZE at that rate; prints the span the dump covers of the
        load (END less the start of the dump's common window) over it, as
        a ratio (the shell compares it).
    check_pool.py cpu INFO_JSON CPU KEY
        KEY of CPU's entry in the dump's per-CPU table (0 if absent).
"""
import json
import sys


def main(argv):
    info = json.load(open(argv[2]))
    if argv[1] == "window":
        start, end = float(argv[3]), float(argv[4])
        nbytes, bufsize = int(argv[5]), int(argv[6])
        rate = nbytes / (end - start)
        expected = bufsize / rate
        w = info["common_window"]
        kept = end - w["start_mono_ns"] / 1e9
        print("%.3f" % (kept / expected))
        print("load %.3f s at %.0f bytes/s: expected %.3f s, dump keeps %.3f s of it"
              % (end - start, rate, expected, kept), file=sys.stderr)
    elif argv[1] == "cpu":
        for c in info["cpus"]:
            if c["cpu"] == int(argv[3]):
                v = c
                for k in argv[4].split("."):
                    v = v.get(k, 0) if isinstance(v, dict) else 0
                print(v)
                return 0
        print(0)
    else:
        sys.exit("check_pool.py: unknown command " + argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
