# SPDX-License-Identifier: GPL-2.0
"""What the VM tests' JSON checkers share beside tap.py.

    from jsonl import lines, ms

lines(PATH): the objects of a JSON-lines file (tipme records --json, a test
program's truth), blank lines skipped; ms(NS, PLACES=3): a time in ns
shown in ms ("12.345 ms").
"""
import json


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def ms(ns, places=3):
    return "%.*f ms" % (places, ns / 1e6)
