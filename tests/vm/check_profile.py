#!/usr/bin/env python3
"""Check `tipme profile` against the split burnsplit measured itself.

usage: check_profile.py TRUTH DUMP BINARY OUTDIR

TRUTH is burnsplit's line
"pid=P start_ns=T end_ns=T cpu_ns=N hot_blocks=N cold_blocks=N" (the CPU
time it used, measured with the thread's CPU clock, and the blocks of the
same arithmetic each function did: the split of the work, counted, which
is what an on-CPU sampler samples; see tests/vm/progs/burnsplit.c for why
not the CPU clock per function).  `tipme profile --json --pid P` over [start, end]:
one thread, at 99 Hz, about as many samples as its CPU time asks for; the
samples with a frame inside burn_hot against those inside burn_cold
(BINARY's file offsets turned into addresses with its program headers, the
functions' bounds from its symbol table: nm and readelf, the binary's own
truth) within 10 points of what it measured, and of 70/30; `--folded`
parses (every line "frames COUNT"), its counts add up to the JSON's, and
burn_hot's frames are in it; `--svg` renders with rsvg-convert and holds
burn_hot's and burn_cold's frames.  The hot functions of `tipme why` and
`tipme report` over the same interval (its thread computing, from the
same samples, named from the binary's symbols): burn_hot and burn_cold
the two first, burn_hot's share within 10 points of the measured one,
the caller main.  Prints TAP lines (no plan).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402
from elfsyms import functions, loads, vaddr  # noqa: E402  (beside this file)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TIPME = os.path.join(ROOT, "build", "tipme")


def profile(*args):
    p = subprocess.run([TIPME, "profile"] + list(args), capture_output=True, text=True)
    check(p.returncode == 0, "tipme profile %s" % " ".join(args[:-1]), p.stderr[-2000:])
    return p.stdout


def which(funcs, segs, name, frame):
    """burn_hot or burn_cold if @frame is its name (symbolised by build-id)
    or ("burnsplit+0xOFF", unsymbolised) lies in it, else None."""
    if frame in ("burn_hot", "burn_cold"):
        return frame
    m = re.fullmatch(re.escape(name) + r"\+0x([0-9a-f]+)", frame)
    if not m:
        return None
    a = vaddr(segs, int(m.group(1), 16))
    for f in ("burn_hot", "burn_cold"):
        start, size = funcs[f]
        if a is not None and start <= a <= start + size:
            return f
    return None


def hot_check(what, hot, truth):
    """@hot (a HOT object, or None): burn_hot and burn_cold first, the split right."""
    fns = {f["func"]: f for f in (hot or {}).get("functions", [])}
    first = [f["func"] for f in (hot or {}).get("functions", [])][:2]
    detail = json.dumps(hot)[:1500]
    check(sorted(first) == ["burn_cold", "burn_hot"],
          "%s: burn_hot and burn_cold are the hot functions" % what, detail)
    h, c = fns.get("burn_hot", {}).get("samples", 0), fns.get("burn_cold", {}).get("samples", 0)
    share = h / (h + c) if h + c else 0
    check(abs(share - truth) <= 0.10,
          "%s: burn_hot's share %.3f within 10 points of the measured %.3f" % (what, share, truth),
          detail)
    check(fns.get("burn_hot", {}).get("callers", [None])[0] == "main",
          "%s: called from main" % what, detail)


def tipme_json(*args):
    p = subprocess.run([TIPME] + list(args), capture_output=True, text=True)
    check(p.returncode == 0, "tipme %s" % " ".join(args[:-1]), p.stderr[-2000:])
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {}


def main():
    t = {k: int(v) for k, v in (kv.split("=", 1) for kv in sys.argv[1].split())}
    dump, binary, outdir = sys.argv[2], sys.argv[3], sys.argv[4]
    name = os.path.basename(binary)
    funcs, segs = functions(binary), loads(binary)
    span = ["--pid", str(t["pid"]), "--from", "%.9f" % (t["start_ns"] / 1e9),
            "--to", "%.9f" % (t["end_ns"] / 1e9)]
    p = json.loads(profile("--json", "--top", "0", *span, dump) or "{}")
    th = [x for x in p.get("threads", []) if x["pid"] == t["pid"]]
    check(len(p.get("threads", [])) == 1 and th, "one thread profiled: burnsplit's",
          [(x["pid"], x["comm"]) for x in p.get("threads", [])])
    check(p.get("hz") == 99, "at 99 Hz", p.get("hz"))
    cpu = t["cpu_ns"]
    want = 99 * cpu / 1e9
    n = th[0]["count"] if th else 0
    check(0.6 * want <= n <= 1.3 * want,
          "samples: %d for %.2f s of CPU time (about %.0f at 99 Hz)" % (n, cpu / 1e9, want))
    got = {"burn_hot": 0, "burn_cold": 0}
    for s in p.get("stacks", []):
        hit = {which(funcs, segs, name, f) for f in s["frames"]} - {None}
        if len(hit) == 1:
            got[hit.pop()] += s["count"]
    both = got["burn_hot"] + got["burn_cold"]
    share = got["burn_hot"] / both if both else 0
    truth = t["hot_blocks"] / (t["hot_blocks"] + t["cold_blocks"])
    detail = "burn_hot %d, burn_cold %d samples of %d; measured %.3f" % (
        got["burn_hot"], got["burn_cold"], n, truth)
    check(both >= 0.8 * n, "most samples are in burn_hot or burn_cold", detail)
    check(abs(share - truth) <= 0.10,
          "burn_hot's share %.3f within 10 points of the measured %.3f" % (share, truth), detail)
    check(abs(share - 0.70) <= 0.10, "and of 70/30", detail)
    hot = sorted({f for s in p.get("stacks", []) for f in s["frames"]
                  if which(funcs, segs, name, f) == "burn_hot"})
    cold = sorted({f for s in p.get("stacks", []) for f in s["frames"]
                   if which(funcs, segs, name, f) == "burn_cold"})
    check("burn_hot" in hot and "burn_cold" in cold,
          "the user frames are named by function (the binary's build-id)", (hot[:3], cold[:3]))
    fold = profile("--folded", *span, dump)
    lines = fold.splitlines()
    bad = [l for l in lines if not re.fullmatch(r"[^ ;]+(;[^ ;]+)* [0-9]+", l)]
    check(lines and not bad, "--folded: %d lines, each \"frames COUNT\"" % len(lines), bad[:3])
    total = sum(int(l.rsplit(" ", 1)[1]) for l in lines if l not in bad)
    check(total == p.get("count"), "--folded: the counts add up to the samples",
          "%d vs %s" % (total, p.get("count")))
    check(hot and any(h in fold for h in hot), "--folded: burn_hot's frames are in it", hot[:3])
    svg = os.path.join(outdir, "profile.svg")
    with open(svg, "w") as f:
        f.write(profile("--svg", *span, dump))
    r = subprocess.run(["rsvg-convert", "-o", svg + ".png", svg], capture_output=True, text=True)
    check(r.returncode == 0 and os.path.getsize(svg + ".png") > 0,
          "--svg renders with rsvg-convert", r.stderr[-500:])
    text = open(svg).read()
    check(any("<title>%s (" % h in text for h in hot) and
          any("<title>%s (" % c in text for c in cold),
          "--svg holds burn_hot's and burn_cold's frames", (hot[:2], cold[:2]))
    why = tipme_json("why", "--json", *span, dump)
    hot_check("why", why.get("thread", {}).get("hot"), truth)
    rep = tipme_json("report", "--json", *span, dump)
    own = [h for h in rep.get("hot", []) if h.get("pid") == t["pid"]]
    hot_check("report", own[0] if own else None, truth)


main()
