#!/usr/bin/env python3
"""Check an incident's kernel dump against a hotkey press made by vkbd.

usage: check_trigger.py RECORDS_JSONL PRESS_MONO_S BUSY_SINCE_MONO_S
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
press_ns = float(sys.argv[2]) * 1e9
busy_ns = float(sys.argv[3]) * 1e9


trig = [e for e in events if e["type"] == "trigger" and e["source"] == "hotkey"]
hot = [e for e in events if e["type"] == "input" and e["kind"] == "hotkey"
       and e["code"] == 12]                                   # KEY_MINUS
check(len(trig) == 1, "exactly one hotkey trigger record", str(len(trig)))
check(len(hot) == 1, "exactly one Ctrl-Alt-Minus input record", str(len(hot)))
if trig and hot:
    check(abs(trig[0]["mono_ns"] - hot[0]["mono_ns"]) < 1e6,
          "the trigger record's time matches the key press record (<1 ms)",
          f'{trig[0]["mono_ns"]} vs {hot[0]["mono_ns"]}')
    # vkbd reads its clock after writing the chord, in an emulated machine.
    check(abs(hot[0]["mono_ns"] - press_ns) < 50e6,
          "the key press record matches the time vkbd pressed it (<50 ms)",
          f'{hot[0]["mono_ns"]} vs {press_ns:.0f}')
first = min(e["mono_ns"] for e in events)
check(first <= busy_ns + 0.2e9 and press_ns - first >= 1.5e9,
      "the dump covers the seconds before the press",
      f"first record {(press_ns - first) / 1e9:.3f} s before the press")
