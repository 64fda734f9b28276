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

    jsonq.py serve                     the same questions, one a line on
                                       standard input (its words as the
                                       arguments above, FILE a file), each
                                       answered on one line of standard
                                       output ("eq": 0 or 1; a question
                                       that fails: "error: ..."), for a
                                       VM test that asks many: under TCG
                                       every python3 start costs seconds
                                       (tests/lib/jsonq.sh starts one)
"""
import json
import shlex
import sys


def walk(doc, path, default=None, has_default=False):
    keys = path.split(".") if path else []
    for i, k in enumerate(keys):
        if i == len(keys) - 1 and has_default:
            return doc.get(k, default)
        doc = doc[int(k)] if isinstance(doc, list) else doc[k]
    return doc


def answer(argv, stdin=None):
    """The answer to one question (argv without the program's name)."""
    if len(argv) < 3:
        raise ValueError(__doc__)
    cmd, src, path = argv[0], argv[1], argv[2]
    doc = json.load(stdin if src == "-" else open(src))
    if cmd == "get":
        if len(argv) > 3:
            return str(walk(doc, path, argv[3], True))
        return str(walk(doc, path))
    if cmd == "join":
        return " ".join(walk(doc, path))
    if cmd == "sum":
        return str(sum(x[argv[3]] for x in walk(doc, path)))
    if cmd == "min":
        return str(min(x[argv[3]] for x in walk(doc, path)))
    if cmd == "each":
        return " ".join(str(x[argv[3]]) for x in walk(doc, path))
    if cmd == "sumif":
        return str(sum(x[argv[3]] for x in walk(doc, path) if str(x[argv[4]]) == argv[5]))
    if cmd == "table":
        t = {x[argv[3]]: x[argv[4]] for x in walk(doc, path)}
        return " ".join(str(t.get(name, 0)) for name in argv[5:])
    if cmd == "eq":
        for a in argv[2:]:
            p, _, want = a.partition("=")
            if str(walk(doc, p)) != want:
                return "1"
        return "0"
    raise ValueError(__doc__)


def serve():
    for line in sys.stdin:
        try:
            print(answer(shlex.split(line)), flush=True)
        except Exception as e:  # noqa: BLE001 -- every failure is an answer
            print("error: %s" % (str(e).splitlines()[0] if str(e) else type(e).__name__),
                  flush=True)


def main(argv):
    if argv[:1] == ["serve"]:
        serve()
        return
    try:
        a = answer(argv, sys.stdin)
    except ValueError as e:
        sys.exit(str(e))
    if argv[0] == "eq":
        sys.exit(int(a))
    print(a)


main(sys.argv[1:])
