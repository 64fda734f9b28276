#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a value out of a JSON document, for the shell tests.

    jsonq.py get FILE PATH [DEFAULT]   the value at PATH, printed as Python
                                       prints it (a list as ['a', 'b']);
                                       DEFAULT when PATH's last key is missing
    jsonq.py join FILE PATH            a list of strings, joined by spaces
    jsonq.py sum FILE PATH KEY         the sum of KEY over the list at PATH
    jsonq.py min FILE PATH KEY         the least KEY over the list at PATH
    jsonq.py each FILE PATH KEY        KEY of every element of the list at
                                       PATH, joined by spaces
    jsonq.py sumif FILE PATH KEY WKEY WVALUE
                                       the sum of KEY over the elements of
                                       the list at PATH whose WKEY is WVALUE
    jsonq.py table FILE PATH NAME_KEY VALUE_KEY NAME...
                                       the list at PATH as a table from its
                                       NAME_KEY to its VALUE_KEY: each NAME's
                                       value (0 when it has none), on a line
    jsonq.py eq FILE PATH=VALUE...     exit status 0 if the value at each
                                       PATH prints as VALUE, else 1

FILE "-" is standard input.  PATH is a document's keys joined by dots,
"" the whole document.  Nothing here decides a test: the shell script that
asks says what the value must be (tests/lib/tap.sh).
"""
import json
import sys


def walk(doc, path, default=None, has_default=False):
    keys = path.split(".") if path else []
    for i, k in enumerate(keys):
        if i == len(keys) - 1 and has_default:
            return doc.get(k, default)
        doc = doc[int(k)] if isinstance(doc, list) else doc[k]
    return doc


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, src, path = argv[0], argv[1], argv[2]
    doc = json.load(sys.stdin if src == "-" else open(src))
    if cmd == "get":
        if len(argv) > 3:
            print(walk(doc, path, argv[3], True))
        else:
            print(walk(doc, path))
    elif cmd == "join":
        print(" ".join(walk(doc, path)))
    elif cmd == "sum":
        print(sum(x[argv[3]] for x in walk(doc, path)))
    elif cmd == "min":
        print(min(x[argv[3]] for x in walk(doc, path)))
    elif cmd == "each":
        print(" ".join(str(x[argv[3]]) for x in walk(doc, path)))
    elif cmd == "sumif":
        print(sum(x[argv[3]] for x in walk(doc, path) if str(x[argv[4]]) == argv[5]))
    elif cmd == "table":
        t = {x[argv[3]]: x[argv[4]] for x in walk(doc, path)}
        print(" ".join(str(t.get(name, 0)) for name in argv[5:]))
    elif cmd == "eq":
        for a in argv[2:]:
            p, _, want = a.partition("=")
            if str(walk(doc, p)) != want:
                sys.exit(1)
    else:
        sys.exit(__doc__)


main(sys.argv[1:])
