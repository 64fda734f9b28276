#!/usr/bin/env python3
"""Check a `tipme timeline` SVG the way a reader will see it.

usage: check_timeline.py FILE.svg --lanes "cpu 0,cpu 1,1000 app" [--png OUT.png]
                         [--classes running,...] [--times TIMELINE_JSON
                         [--wakeup WAKER,TARGET,NS]... [--prio PID,PRIO,NS]...
                         [--mark NS]...]

Prints TAP lines (no plan); exits 1 if one failed:
  - the file is well-formed SVG, 1600 px wide;
  - a lane is labelled for each name in --lanes (in that order, top down);
  - with --classes: each named class appears as a drawn stretch (a rect
    whose tooltip names it, e.g. "runnable: waiting for a CPU"), and the
    legend names it;
  - with --wakeup (and --times, the `tipme timeline --json` output, for
    the drawn interval): a red arrow "WAKER wakes TARGET" at time NS
    (within a pixel), from WAKER's lane to TARGET's;
  - with --prio: the thin priority line over PID's lane is at PRIO's height
    at time NS (0 at the top of its 6 px band, 139 at the bottom);
  - with --mark: a mark (Ctrl-Alt-Plus in the X dump) on the input lane at
    time NS, and the legend says what it is;
  - rsvg-convert (a real SVG renderer) turns it into a PNG of the same size.
"""
import json
import argparse
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402
from tap import check  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("svg")
    ap.add_argument("--lanes", default="")
    ap.add_argument("--classes", default="")
    ap.add_argument("--png")
    ap.add_argument("--times")
    ap.add_argument("--wakeup", action="append", default=[])
    ap.add_argument("--prio", action="append", default=[])
    ap.add_argument("--mark", action="append", default=[])
    a = ap.parse_args()
    try:
        root = ET.parse(a.svg).getroot()
    except ET.ParseError as e:
        check(False, f"the SVG is well-formed XML ({e})")
        return
    w, h = root.get("width"), root.get("height")
    check(root.tag == NS + "svg" and w == "1600", f"an SVG document, {w} x {h} px")
    texts = [(float(t.get("y", 0)), "".join(t.itertext())) for t in root.iter(NS + "text")]
    want = [x for x in a.lanes.split(",") if x]
    ys = []
    for name in want:
        y = [ty for ty, s in texts if s.strip() == name]
        check(bool(y), f"a lane labelled '{name}'")
        ys.append(y[0] if y else -1)
    if want:
        check(ys == sorted(ys), "the lanes in that order, top down")
    drawn = {"".join(r.find(NS + "title").itertext()) for r in root.iter(NS + "rect")
             if r.find(NS + "title") is not None}
    legend = {s for _, s in texts}
    for c in filter(None, a.classes.split(",")):
        got = [d for d in drawn if d.startswith(c)]
        check(got and all(d in legend for d in got),
              f"stretches drawn as '{c}', and the legend says what that colour means")
    if a.wakeup or a.prio or a.mark:
        marks(root, a)
    if a.png:
        r = subprocess.run(["rsvg-convert", "-o", a.png, a.svg], stderr=subprocess.PIPE,
                           universal_newlines=True)
        ok = r.returncode == 0 and os.path.exists(a.png)
        size = None
        if ok:
            with open(a.png, "rb") as f:
                head = f.read(24)
            ok = head[:8] == b"\x89PNG\r\n\x1a\n"
            size = struct.unpack(">II", head[16:24]) if ok else None
        check(ok and size == (1600, int(float(h))),
              f"rsvg-convert renders it: {size} {r.stderr.strip()[:200]}")


def thread_lane(root, pid):
    """(x, y, width, height) of the lane labelled "PID comm", or None"""
    ys = [float(t.get("y", 0)) for t in root.iter(NS + "text")
          if t.get("text-anchor") == "end" and "".join(t.itertext()).split(" ")[0] == str(pid)]
    for r in root.iter(NS + "rect"):
        if r.get("stroke") == "#ddd" and ys:
            x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
            if y <= ys[0] <= y + h:
                return x, y, w, h
    return None


def marks(root, a):
    """the wakeup arrows and the priority lines asked for"""
    span = json.load(open(a.times))
    t0, t1 = span["from_mono_ns"], span["to_mono_ns"]

    def xpos(lane, ns):
        return lane[0] + (ns - t0) * lane[2] / (t1 - t0)

    for spec in a.wakeup:
        waker, target, ns = (int(float(v)) for v in spec.split(","))
        la, lb = thread_lane(root, waker), thread_lane(root, target)
        title = f"{waker} wakes {target}"
        ok = False
        for ln in root.iter(NS + "line"):
            t = ln.find(NS + "title")
            if t is None or "".join(t.itertext()) != title or not la or not lb:
                continue
            x1, y1, x2, y2 = (float(ln.get(k)) for k in ("x1", "y1", "x2", "y2"))
            ok = ok or (abs(x1 - xpos(la, ns)) <= 1 and x1 == x2 and
                        la[1] <= y1 <= la[1] + la[3] and lb[1] <= y2 <= lb[1] + lb[3] and
                        ln.get("marker-end") == "url(#arrow)")
        check(ok, f"a wakeup arrow '{title}' at {ns / 1e6:.1f} ms, from its lane to the other's")
    legend = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    for spec in a.mark:
        ns = int(float(spec))
        lane = [r for r in root.iter(NS + "rect") if r.get("stroke") == "#ddd"]
        x = xpos(tuple(float(lane[0].get(k)) for k in ("x", "y", "width", "height")), ns) \
            if lane else -1
        got = [float(p.get("d").split()[0][1:]) for p in root.iter(NS + "path")
               if p.find(NS + "title") is not None and
               "".join(p.find(NS + "title").itertext()).startswith("mark: Ctrl-Alt-Plus")]
        check(any(abs(g - x) <= 1 for g in got) and "a mark (Ctrl-Alt-Plus" in legend,
              f"a mark (Ctrl-Alt-Plus) on the input lane at {ns / 1e6:.1f} ms, in the legend too "
              f"(x {got}, want {x:.1f})")
    for spec in a.prio:
        pid, prio, ns = (int(float(v)) for v in spec.split(","))
        lane = thread_lane(root, pid)
        want = lane[1] + 1 + 6.0 * prio / 139 if lane else -1
        got = None
        for pl in root.iter(NS + "polyline"):
            pts = [tuple(float(v) for v in p.split(",")) for p in pl.get("points", "").split()]
            if not lane or not pts or not all(lane[1] <= y <= lane[1] + 8 for _, y in pts):
                continue
            x = xpos(lane, ns)
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                if xa <= x <= xb and ya == yb:
                    got = ya
        check(got is not None and abs(got - want) < 0.06,
              f"{pid}'s priority line at {ns / 1e6:.1f} ms is at prio {prio}'s height "
              f"({got} px, want {want:.1f})")


if __name__ == "__main__":
    main()
    sys.exit(1 if tap.failed() else 0)
