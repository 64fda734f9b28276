#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seeds of the nlevents fuzzer (tests/fuzz/corpus/nlevents/).

usage: mknlseed.py OUT_DIR

Each seed is two bytes of family id (little-endian), then netlink messages
as tipmed's event socket reads them: a hotkey trigger, the module's own
auto trigger with its press, and the controller saying a family went
away.  The numbers are include/uapi/linux/tipme.h's and
<linux/genetlink.h>'s.
"""
import os
import struct
import sys

FAMILY = 30
CMD_TRIGGER_EVENT = 6
A_SEQ, A_SOURCE, A_TS, A_MONO, A_REAL, A_PRESS = 31, 32, 33, 34, 35, 39
TRIG_HOTKEY, TRIG_AUTO = 2, 6
GENL_ID_CTRL, CTRL_CMD_DELFAMILY, CTRL_ATTR_FAMILY_NAME = 16, 2, 2
INPUT_KEY = 1


def attr(kind, data):
    a = struct.pack("<HH", 4 + len(data), kind) + data
    return a + b"\0" * (-len(a) % 4)


def msg(kind, cmd, attrs):
    body = struct.pack("<BBH", cmd, 1, 0) + b"".join(attrs)
    return struct.pack("<IHHII", 16 + len(body), kind, 0, 0, 0) + body


def trigger(seq, source, press=None):
    attrs = [attr(A_SEQ, struct.pack("<I", seq)), attr(A_SOURCE, struct.pack("<I", source)),
             attr(A_TS, struct.pack("<Q", 123456789)), attr(A_MONO, struct.pack("<Q", 5000000000)),
             attr(A_REAL, struct.pack("<Q", 1764000000000000000))]
    if press:
        attrs.append(attr(A_PRESS, press))
    return msg(FAMILY, CMD_TRIGGER_EVENT, attrs)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fam = struct.pack("<H", FAMILY)
    press = struct.pack("<QQIHH16s", 4500000000, 503000000, 157, INPUT_KEY, 0, b"evreader")
    seeds = {
        "hotkey": fam + trigger(1, TRIG_HOTKEY),
        "auto-press": fam + trigger(2, TRIG_AUTO, press),
        "delfamily": fam + msg(GENL_ID_CTRL, CTRL_CMD_DELFAMILY,
                               [attr(CTRL_ATTR_FAMILY_NAME, b"tipme\0")]),
        "two": fam + trigger(3, TRIG_HOTKEY) + trigger(4, TRIG_AUTO, press),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
