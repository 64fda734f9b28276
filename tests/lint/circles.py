#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""No circles between the files of a folder, and no program includes
another program's folder.  Prints TAP.

A file is a module (foo.c with foo.h).  Module A depends on B when A
includes B's header, or A calls a non-static function that B defines.  A
cycle in that graph is a circle (two files that each need the other), and
it fails.  Folders checked: lib, postmortem, helper, xhook, bench, module
(its subfolders as one).  Programs' folders (helper, xhook, bench) may be
included only through -I of lib/ and postmortem/, never by "../" paths.

  python3 tests/lint/circles.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ["lib", "postmortem", "helper", "xhook", "bench", "module"]
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DEF = re.compile(r'^(?!static)[A-Za-z_][\w \t\*]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*\{', re.M)
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')


def files(folder):
    out = []
    for d, _, fs in os.walk(os.path.join(ROOT, folder)):
        if "/tests" in d[len(ROOT):]:
            continue
        out += [os.path.join(d, f) for f in fs if f.endswith((".c", ".h"))]
    return out


def module(path):
    return os.path.relpath(os.path.splitext(path)[0], ROOT)


def cycles(graph):
    found, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                found.append(stack[stack.index(m):] + [m])
            elif not state.get(m):
                visit(m)
        stack.pop()
        state[n] = 2
    for n in sorted(graph):
        if not state.get(n):
            visit(n)
    return found


def main():
    n = fail = 0
    for folder in FOLDERS:
        fs = files(folder)
        text = {f: open(f, errors="replace").read() for f in fs}
        defs = {}
        for f, t in text.items():
            if f.endswith(".c"):
                for name in DEF.findall(t):
                    defs.setdefault(name, module(f))
        mods = {module(f) for f in fs}
        graph = {m: set() for m in mods}
        for f, t in text.items():
            a = module(f)
            for inc in INC.findall(t):
                # as the compiler finds it: beside the file, then from the
                # folder's top (its -I: "instr/cost.h" from module/instr/)
                for base in (os.path.dirname(f), os.path.join(ROOT, folder)):
                    b = module(os.path.join(base, inc))
                    if b in mods:
                        if b != a:
                            graph[a].add(b)
                        break
            if f.endswith(".c"):
                for name in set(CALL.findall(t)):
                    b = defs.get(name)
                    if b and b != a:
                        graph[a].add(b)
        cyc = cycles(graph)
        n += 1
        if cyc:
            fail = 1
            print("not ok %d - %s/: no circles between files" % (n, folder))
            for c in cyc[:10]:
                print("# " + " -> ".join(c))
        else:
            print("ok %d - %s/: no circles between files (%d modules)" % (n, folder, len(mods)))
    bad = []
    for folder in FOLDERS + ["tests/unit", "tests/fuzz"]:
        for f in files(folder):
            for inc in INC.findall(open(f, errors="replace").read()):
                target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(f), inc)),
                                         ROOT)
                if inc.startswith("../") and target.split("/")[0] != folder.split("/")[0]:
                    bad.append("%s: %s" % (os.path.relpath(f, ROOT), inc))
    n += 1
    print("%sok %d - no file reaches into another folder by a ../ path" % ("not " if bad else "", n))
    for b in bad:
        print("# " + b)
    fail |= bool(bad)
    print("1..%d" % n)
    return fail


if __name__ == "__main__":
    sys.exit(main())
