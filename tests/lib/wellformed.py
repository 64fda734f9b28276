#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Exit status 0 if FILE is well-formed: its bytes are valid UTF-8 and

    wellformed.py json FILE     ... one JSON document
    wellformed.py jsonl FILE    ... one JSON document on each line
    wellformed.py svg FILE      ... an XML document whose root is <svg>

Otherwise the reason on stderr and exit status 1.
"""
import json
import sys
import xml.dom.minidom


def main(mode, path):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8", errors="strict")
        if mode == "json":
            json.loads(text)
        elif mode == "jsonl":
            for line in text.splitlines():
                json.loads(line)
        elif mode == "svg":
            if xml.dom.minidom.parseString(raw).documentElement.tagName != "svg":
                raise ValueError("the root element is not <svg>")
        else:
            raise ValueError("unknown mode " + mode)
    except ValueError as e:  # UnicodeDecodeError and JSONDecodeError too
        print("%s: %s" % (path, e), file=sys.stderr)
        return 1
    except xml.parsers.expat.ExpatError as e:
        print("%s: %s" % (path, e), file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1], sys.argv[2]))
