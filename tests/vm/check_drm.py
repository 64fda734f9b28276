#!/usr/bin/env python3
"""Check the display and fence records of t-drm.sh against drmflip's truth.

usage: check_drm.py status STATUS_JSON STATE
       check_drm.py flip TRUTH RECORDS_JSONL
       check_drm.py fence TRUTH RECORDS_JSONL

status: `tipme status --json` says every drm_vblank_event* tracepoint is
STATE (no_module before drm.ko loads and after it goes, attached while it
is loaded) and every dma_fence one attached.
flip: TRUTH is drmflip's "pid=P crtc=I flips=N events=E seqs=..."; the
dump (`tipme records --json`) has exactly N vblank_delivered records for
the file P owns on CRTC I (the committer is P), their sequences those the
events carried, in order; no other process's file got one.
fence: TRUTH is "pid=P signaler=C wait_start_ns=T wait_end_ns=T"; P's
fence wait_start and wait_end and C's signal are on the same (context,
seqno), in that order, inside P's wait, and the context is named vgem's.
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

DRM = ("drm_vblank_event", "drm_vblank_event_queued", "drm_vblank_event_delivered")
FENCE = ("dma_fence_emit", "dma_fence_signaled", "dma_fence_wait_start", "dma_fence_wait_end")


def truth_of(text):
    return {k: v for k, v in (kv.split("=", 1) for kv in text.split())}


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def status(path, state):
    tp = json.load(open(path)).get("tracepoints") or {}
    check(all(tp.get(n) == state for n in DRM),
          "status: the DRM tracepoints are %s" % state, json.dumps(tp))
    check(all(tp.get(n) == "attached" for n in FENCE),
          "status: the dma_fence tracepoints are attached", json.dumps(tp))


def flip(truth, path):
    t = truth_of(truth)
    pid, crtc, n = int(t["pid"]), int(t["crtc"]), int(t["flips"])
    seqs = [int(s) for s in t["seqs"].split(",") if s]
    recs = records(path)
    mine = [r for r in recs if r["type"] == "vblank_delivered" and r.get("owner") == pid]
    check(len(mine) == n, "flip: %d flips, %d deliveries to the file pid %d owns"
          % (n, len(mine), pid), "\n".join(json.dumps(r) for r in mine[:5]))
    check(all(r["crtc"] == crtc for r in mine), "flip: all on CRTC %d" % crtc,
          sorted({r["crtc"] for r in mine}))
    check([r["seq"] for r in mine] == seqs, "flip: the sequences the events carried",
          "%s vs %s" % ([r["seq"] for r in mine][:10], seqs[:10]))
    check(len({r["file"] for r in mine}) == 1, "flip: one file", {r["file"] for r in mine})
    # file 00000000: a commit's own completion event, which no file reads
    # (the atomic helpers make one for a commit without an event: the
    # kernel console's modeset, drmflip's exit restoring it)
    others = [r for r in recs if r["type"] == "vblank_delivered" and r.get("owner") != pid
              and r["file"] != "00000000"]
    check(not others, "flip: no delivery to another process's file", others[:3])


def fence(truth, path):
    t = truth_of(truth)
    pid, sig = int(t["pid"]), int(t["signaler"])
    t0, t1 = int(t["wait_start_ns"]), int(t["wait_end_ns"])
    recs = [r for r in records(path) if r["type"] in ("fence", "fence_name")]
    starts = [r for r in recs if r["type"] == "fence" and r["op"] == "wait_start"
              and r["pid"] == pid and t0 <= r["mono_ns"] <= t1]
    if not check(len(starts) == 1, "fence: one wait_start by pid %d inside its wait" % pid,
                 "\n".join(json.dumps(r) for r in recs[:20])):
        return
    key = (starts[0]["fence_ctx"], starts[0]["seqno"])
    same = [r for r in recs if r["type"] == "fence" and (r["fence_ctx"], r["seqno"]) == key]
    ends = [r for r in same if r["op"] == "wait_end" and r["pid"] == pid]
    sigs = [r for r in same if r["op"] == "signaled"]
    check(len(sigs) == 1 and sigs[0]["pid"] == sig,
          "fence: signaled once, by the signaler (pid %d)" % sig, sigs)
    check(len(ends) == 1 and starts[0]["mono_ns"] <= sigs[0]["mono_ns"] <= ends[0]["mono_ns"] <= t1
          if sigs and ends else False,
          "fence: wait_start, signal, wait_end in order inside the wait", same)
    wait_ms = (ends[0]["mono_ns"] - starts[0]["mono_ns"]) / 1e6 if ends else 0
    check(wait_ms >= 0.9 * (t1 - t0) / 1e6, "fence: the recorded wait (%.1f ms) is the wait "
          "drmflip measured (%.1f ms)" % (wait_ms, (t1 - t0) / 1e6))
    names = [r for r in recs if r["type"] == "fence_name" and r["fence_ctx"] == key[0]
             and r["mono_ns"] <= starts[0]["mono_ns"]]
    check(names and names[-1]["driver"] == "vgem",
          "fence: its context is named before it, driver vgem", names[-1:] or recs[:3])


def main():
    mode = sys.argv[1]
    if mode == "status":
        status(sys.argv[2], sys.argv[3])
    elif mode == "flip":
        flip(sys.argv[2], sys.argv[3])
    elif mode == "fence":
        fence(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: check_drm.py status|flip|fence ...")


main()
