#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the meta.json of an incident the auto trigger made
(tests/vm/lib.sh check_auto_meta).

usage: check_meta.py META PID COMM PRESS_LO PRESS_HI LAT_LO LAT_HI
Times in ns (CLOCK_MONOTONIC): source "auto", a key press to PID (COMM)
between PRESS_LO and PRESS_HI, and a latency within 10% of the truth,
LAT_LO .. LAT_HI.  Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

m = json.load(open(sys.argv[1]))
pid, comm = int(sys.argv[2]), sys.argv[3]
press_lo, press_hi, lat_lo, lat_hi = (int(a) for a in sys.argv[4:8])
a = m.get("auto") or {}
check(m["trigger"]["source"] == "auto", "meta.json: source auto", m["trigger"])
check(a.get("input") == "key" and a.get("pid") == pid and a.get("comm") == comm,
      f"meta.json: a key press to {comm} ({pid})", a)
press = a.get("press_mono_ns", 0)
check(press_lo <= press <= press_hi,
      "the press is when the test typed it: %.2f ms after the earliest, %.2f ms before the latest" % (
          (press - press_lo) / 1e6, (press_hi - press) / 1e6))
lat, lo, hi = a.get("latency_ns", 0) / 1e6, lat_lo / 1e6, lat_hi / 1e6
truth = f"{lo:.1f} ms" if lat_lo == lat_hi else f"{lo:.1f} .. {hi:.1f} ms"
check(0.9 * lo <= lat <= 1.1 * hi, f"latency {lat:.1f} ms within 10% of the truth, {truth}")
