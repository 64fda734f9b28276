#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Only postmortem/dump/, which decodes the records and holds the accessors
of a variable-length record's tail (the array after its fixed part:
dump/tail.c, declared in dump/decode.h: pm_rec_addrs, pm_rec_frames,
pm_sample_entries, pm_cost_entries), and postmortem/records/ read that
tail; everything else calls the accessors.  Prints TAP.

The varlen types are those TIPME_REC_TYPES (include/uapi/linux/tipme.h)
marks VARLEN.  Anywhere else in postmortem/, it fails on:

  - a record's raw bytes: the payload or payload_len of a struct pm_event;
  - the count or length of a varlen type's fixed part: ev->u.bl.nr, or
    b->nr for a struct tipme_rec_blocked *b (what sizes the tail);
  - the tail pm_ev_fixed() returns (its result used, not discarded).

  python3 tests/lint/tails.py [ROOT]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UAPI = "include/uapi/linux/tipme.h"
DECODE_H = "postmortem/dump/decode.h"
ALLOWED = ("postmortem/records/", "postmortem/dump/")

LINE = re.compile(r'X\(\s*\d+\s*,\s*(\w+)\s*,\s*struct\s+(\w+)\s*,\s*"[^"]*"\s*,\s*(\w+)\s*,')
MEMBER = re.compile(r'^\s*struct\s+(\w+)\s+(\w+)\s*;', re.M)
RAW = re.compile(r'(?:->|\.)\s*(payload|payload_len)\b')


def varlen_structs(root):
    text = open(os.path.join(root, UAPI)).read()
    return {st for _, st, kind in LINE.findall(text) if kind == "VARLEN"}


def short_names(root, structs):
    """struct pm_event.u's members for those structs ("bl" for blocked)."""
    text = open(os.path.join(root, DECODE_H)).read()
    return {name for st, name in MEMBER.findall(text) if st in structs}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'//[^\n]*', "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def violations(path, text, structs, shorts):
    out = []
    text = strip_comments(text)
    # variables of a varlen type's fixed part: "const struct tipme_rec_blocked *b"
    names = set()
    for st in structs:
        names |= set(re.findall(r'struct\s+%s\s*\*?\s*(?:const\s+)?(\w+)' % st, text))
    counts = []
    if shorts:
        counts.append(re.compile(r'\bu\s*\.\s*(?:%s)\s*\.\s*(nr|len)\b' % "|".join(sorted(shorts))))
    if names:
        counts.append(re.compile(r'\b(?:%s)\s*(?:->|\.)\s*(nr|len)\b' % "|".join(sorted(names))))
    for i, line in enumerate(text.split("\n"), 1):
        where = "%s:%d" % (path, i)
        for m in RAW.finditer(line):
            out.append("%s: a record's raw bytes (%s)" % (where, m.group(1)))
        for c in counts:
            for m in c.finditer(line):
                out.append("%s: the size of a variable-length record's tail (%s)"
                           % (where, m.group(0).strip()))
        if "pm_ev_fixed" in line and not re.match(r'^\s*pm_ev_fixed\s*\(', line):
            out.append("%s: the tail pm_ev_fixed() returns" % where)
    return out


def main():
    structs = varlen_structs(ROOT)
    shorts = short_names(ROOT, structs)
    n = 0
    fail = 0
    n += 1
    ok = len(structs) > 0
    print("%sok %d - the UAPI's record list has variable-length types (%s)"
          % ("" if ok else "not ", n, ", ".join(sorted(structs)) or "none found"))
    fail |= not ok
    bad = []
    for d, _, fs in os.walk(os.path.join(ROOT, "postmortem")):
        rel = os.path.relpath(d, ROOT) + "/"
        if rel.startswith(ALLOWED):
            continue
        for f in sorted(fs):
            if f.endswith((".c", ".h")):
                p = os.path.join(d, f)
                bad += violations(os.path.relpath(p, ROOT), open(p, errors="replace").read(),
                                  structs, shorts)
    n += 1
    print("%sok %d - no reader outside postmortem/records/ and dump/ parses a record's tail"
          % ("not " if bad else "", n))
    for b in bad:
        print("# " + b)
    fail |= bool(bad)
    print("1..%d" % n)
    return fail


if __name__ == "__main__":
    sys.exit(main())
