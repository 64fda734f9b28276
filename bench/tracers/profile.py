#!/usr/bin/env python3
"""Where a tracer's instructions go, per kernel function, from a
`bench/tracers/run.sh --profile` run: the plugin's per-block counts
between the marks of each run, mapped to functions with the guest's
/proc/kallsyms (saved while tipme.ko was loaded), the tracer's runs minus
the runs without a tracer, per traced event.

Usage: profile.py [--top N] OUTDIR TRACER WORKLOAD
(OUTDIR: build/bench/tracers-profile, with guest.json, vm/insn.prof and
vm/kallsyms-tipme-*.txt).
"""
import bisect, glob, json, sys
from collections import defaultdict

args = sys.argv[1:]
top = 25
if args[:1] == ["--top"]:
    top, args = int(args[1]), args[2:]
outdir, tracer, workload = args
guest = json.load(open(f"{outdir}/guest.json"))

# The text symbols of each kallsyms file, one per load of tipme.ko
# (guest.py saves them as kallsyms-tipme-N.txt, N counting the loads):
# tipme.ko's functions are where that load put them, and two loads (a
# variant and tipme-base in one run) may put different functions at one
# address, so each run's blocks are named by its own load's symbols.
def read_syms(path):
    syms = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 3 and f[1] in "tTwW":
            syms[int(f[0], 16)] = f[2] + (f" {f[3]}" if len(f) > 3 else "")
    return sorted(syms), syms


loads = sorted(glob.glob(f"{outdir}/vm/kallsyms-*.txt"),
               key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0]))
tables = [read_syms(p) for p in loads]
# the runs of each load, in mark order: a tipme tracer's turn is one load
tipme_runs = sorted((r["mark"], name) for name, per in guest["runs"].items()
                    if name.startswith("tipme") for rs in per.values() for r in rs)
load_of, k, prev = {}, 0, None
for mark, name in tipme_runs:
    if name != prev:
        k, prev = k + 1, name
    load_of[mark] = min(k, len(tables)) - 1


def func(a, mark):
    addrs, syms = tables[load_of.get(mark, 0)]
    i = bisect.bisect_right(addrs, a) - 1
    return syms[addrs[i]] if i >= 0 else "?"


# The profile's sections: "M k" then the blocks that ran since mark k-1.
sections, cur = {}, None
for line in open(f"{outdir}/vm/insn.prof"):
    if line.startswith("M "):
        cur = sections.setdefault(int(line.split()[1]), {})
        continue
    a, n = line.split()
    cur[int(a, 16)] = cur.get(int(a, 16), 0) + int(n)


def per_function(name):
    runs = guest["runs"][name][workload]
    acc = defaultdict(float)
    for r in runs:
        for a, n in sections.get(r["mark"], {}).items():
            acc[func(a, r["mark"])] += n / len(runs)
    return acc


events = guest["events_per_workload"][workload]
with_t, without = per_function(tracer), per_function("none")
diff = {f: with_t.get(f, 0) - without.get(f, 0) for f in set(with_t) | set(without)}
total = sum(diff.values())
print(f"{tracer} on {workload}: {total / events:.1f} kernel instructions added per event "
      f"({events:.0f} events); by function:")
for f, n in sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:top]:
    print(f"{n / events:10.1f}  {f}")
