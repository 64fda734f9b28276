#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the key codes in tipme records --json --type input.

usage: check_keys.py locked RECORDS_JSONL    (t-keylog-lock)
         with keylog_lock=1: every key press has code 0, the refused
         Ctrl-Alt-1 left no hotkey record, the Ctrl-Alt-= that started
         recording left one
       check_keys.py logged RECORDS_JSONL    (t-triggers)
         vkbd typed s e c, Ctrl Alt [1], k e y, Ctrl Alt [0], r e t: codes
         are kept only between the two hotkeys
       check_keys.py count-codes RECORDS_JSONL  (t-triggers, redacted)
         prints how many key records have a code other than 0
Prints TAP lines (no plan), but count-codes a number.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402


def locked(path):
    ev = [json.loads(l) for l in open(path)]
    keys = [e for e in ev if e["kind"] == "key" and e["value"] == 1]
    check(len(keys) >= 6 and all(e["code"] == 0 for e in keys),
          "every key press in the rings has code 0 (%d presses)" % len(keys),
          [e["code"] for e in keys])
    hot = [e["code"] for e in ev if e["kind"] == "hotkey"]
    # KEY_1 is 2; KEY_EQUAL (13): the Ctrl-Alt-= that started recording
    check(2 not in hot, "the refused Ctrl-Alt-1 left no hotkey record", hot)
    check(hot == [13], "the Ctrl-Alt-= that started recording is the one hotkey record", hot)


def logged(path):
    ev = [json.loads(l) for l in open(path)]
    keys = [e for e in ev if e["kind"] == "key" and e["value"] == 1]
    codes = [e["code"] for e in keys]
    # typed: s e c, Ctrl Alt [1], k e y, Ctrl Alt [0], r e t.  With logging
    # off every code is 0; between the hotkeys codes are kept, including the
    # Ctrl (29) and Alt (56) of the chord that turns logging off again.
    # The hotkeys themselves are "hotkey" records, not "key" ones.
    print("# key press codes:", codes[-13:])
    ok = codes[-13:] == [0, 0, 0, 0, 0, 37, 18, 21, 29, 56, 0, 0, 0]
    print(("ok" if ok else "not ok"), "1 - key codes only between Ctrl-Alt-1 and Ctrl-Alt-0")


def count_codes(path):
    ev = [json.loads(l) for l in open(path)]
    print(len([e for e in ev if e["kind"] == "key" and e["code"] != 0]))


{"locked": locked, "logged": logged, "count-codes": count_codes}[sys.argv[1]](sys.argv[2])
