#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The symbol table a kernel dump carries, and damage to a cache file
(t-symcache).

usage: symtab.py hash DUMP          the sha256 of the payload of DUMP's
                                    symbols section, or "none"
       symtab.py has DUMP TEXT      "yes" if that payload holds TEXT, "no"
                                    if not ("none": no such section)
       symtab.py damage FILE        invert 4 bytes of FILE at offset 300
"""
import hashlib
import struct
import sys


def symbols(path, text):
    b = open(path, "rb").read()
    nsec = struct.unpack_from("<I", b, 40)[0]
    off = struct.unpack_from("<I", b, 12)[0]
    for _ in range(nsec):
        typ, cpu, size, crc, res = struct.unpack_from("<IIQII", b, off)
        data = b[off + 24:off + 24 + size]
        if typ == 7:
            if text:
                print("yes" if text.encode() in data else "no")
            else:
                print(hashlib.sha256(data).hexdigest())
            return
        off += 24 + size + (-size & 7)
    print("none")


def damage(path):
    with open(path, "r+b") as f:
        f.seek(300)
        b = f.read(4)
        f.seek(300)
        f.write(bytes(x ^ 0xff for x in b))


if sys.argv[1] == "hash":
    symbols(sys.argv[2], "")
elif sys.argv[1] == "has":
    symbols(sys.argv[2], sys.argv[3])
elif sys.argv[1] == "damage":
    damage(sys.argv[2])
else:
    sys.exit(__doc__)
