#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A tiny fork storm's --json holds every sample of its three loads, and its
SVG parses (tests/bench/cli.sh).  Exit status 0 if so.

usage: check_forkstorm.py JSON SVG
"""
import json
import sys
import xml.dom.minidom

d = json.load(open(sys.argv[1]))
assert [s["label"] for s in d["series"]] == ["no load", "load A", "load B"], d["series"]
assert all(s["samples"] == 8 and len(s["samples_columns"]["ns"]) == 8 for s in d["series"])
assert d["calibration"]["loops"] > 0
assert xml.dom.minidom.parse(sys.argv[2]).documentElement.tagName == "svg"
