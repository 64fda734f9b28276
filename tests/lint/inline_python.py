#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""No shell script starts Python inline.  Prints TAP.

The rule of the house: shell drives (the guest, the programs), Python
checks (JSON, dumps), each in its own file.  A shell script that runs
"python3 -c CODE" or feeds python3 a here-document ("python3 - <<EOF")
fails; it runs a .py file beside it instead (tests/vm/check_*.py,
tests/lib/jsonq.py for one value of a JSON document).  Shell scripts: the
*.sh files and the files whose first line names a shell, outside build/,
.git/, .cache/ and tests/vm/out/.

  python3 tests/lint/inline_python.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = {".git", ".cache", "build", os.path.join("tests", "vm", "out")}
SHEBANG = re.compile(rb"^#!\s*(/usr)?/bin/(env\s+)?(ba|da)?sh\b")
# python or python3, its options, then -c or "-" (a program on stdin), or a
# here-document anywhere on the line
PY = r"\bpython[0-9.]*\b"
INLINE = [re.compile(PY + r"(\s+-[A-Za-z]+)*\s+-c\b"),
          re.compile(PY + r"(\s+-[A-Za-z]+)*\s+-(\s|$)"),
          re.compile(PY + r"[^|;&#]*<<"),
          re.compile(r"<<-?\s*['\"]?\w+['\"]?[^|;&#]*\|\s*" + PY)]


def scripts():
    for d, dirs, fs in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = sorted(x for x in dirs if os.path.normpath(os.path.join(rel, x)) not in SKIP)
        for f in sorted(fs):
            p = os.path.join(d, f)
            if f.endswith(".sh"):
                yield p
            elif not os.path.splitext(f)[1] and os.path.isfile(p):
                with open(p, "rb") as fh:
                    if SHEBANG.match(fh.readline()):
                        yield p


def main():
    bad, n = [], 0
    for p in scripts():
        n += 1
        for i, line in enumerate(open(p, errors="replace"), 1):
            code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
            if any(r.search(code) for r in INLINE):
                bad.append("%s:%d: %s" % (os.path.relpath(p, ROOT), i, line.strip()))
    print("%sok 1 - no shell script starts python inline (%d scripts)" % ("not " if bad else "", n))
    for b in bad:
        print("#   " + b)
    print("1..1")
    return 1 if bad else 0


sys.exit(main())
