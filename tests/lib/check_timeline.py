#!/usr/bin/env python3
"""Check a `tipme timeline` SVG the way a reader will see it.

usage: check_timeline.py FILE.svg --lanes "cpu 0,cpu 1,1000 app" [--png OUT.png]
                         [--classes running,...]

Prints TAP lines (no plan); exits 1 if one failed:
  - the file is well-formed SVG, 1600 px wide;
  - a lane is labelled for each name in --lanes (in that order, top down);
  - with --classes: each named class appears as a drawn stretch (a rect
    whose tooltip names it, e.g. "runnable: waiting for a CPU"), and the
    legend names it;
  - rsvg-convert (a real SVG renderer) turns it into a PNG of the same size.
"""
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


if __name__ == "__main__":
    main()
    sys.exit(1 if tap.failed() else 0)
