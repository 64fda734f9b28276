#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a small fuzzing seed from a real kernel dump.

usage: mkseed.py IN.dump OUT [--keep-syms N]

A VM test's dump is ~2 MB, nearly all of it the kernel symbol table.  The
seed keeps every section as recorded but the symbols: those whose names a
blocking site of the tests names, and every N-th of the rest (default 200),
so that symbol lookup still has something to find.  Checksums, sizes and
the header checksum are recomputed (zlib's CRC-32 is tipme's).
"""
import struct
import sys
import zlib

HDR = struct.Struct("<8sIIIIQIIIIQQQ")
SEC = struct.Struct("<IIQII")
SYM = struct.Struct("<QII")
WANT = (b"pipe_read", b"nanosleep", b"schedule", b"do_syscall", b"vfs_read", b"futex",
        b"mutex", b"rwsem", b"io_schedule", b"folio", b"shrink", b"wait_for")


def small_syms(payload, every):
    n, = struct.unpack_from("<Q", payload)
    strtab = payload[8 + n * SYM.size:]
    keep = []
    for i in range(n):
        addr, off, res = SYM.unpack_from(payload, 8 + i * SYM.size)
        name = strtab[off:strtab.index(b"\0", off)]
        if i % every == 0 or any(w in name for w in WANT):
            keep.append((addr, name))
    out, strs = [struct.pack("<Q", len(keep))], b""
    for addr, name in keep:
        out.append(SYM.pack(addr, len(strs), 0))
        strs += name + b"\0"
    return b"".join(out) + strs


def main():
    src, dst = sys.argv[1], sys.argv[2]
    every = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--keep-syms" else 200
    b = open(src, "rb").read()
    h = list(HDR.unpack_from(b))
    hs, nsec = h[2], h[8]
    off, secs = hs, []
    for _ in range(nsec):
        t, cpu, sz, crc, res = SEC.unpack_from(b, off)
        off += SEC.size
        payload = b[off:off + sz]
        off += sz + (-sz & 7)
        if t == 7:
            payload = small_syms(payload, every)
        secs.append((t, cpu, payload))
    body = b"".join(SEC.pack(t, cpu, len(p), zlib.crc32(p), 0) + p + b"\0" * (-len(p) & 7)
                    for t, cpu, p in secs)
    h[10] = hs + len(body)          # file_size
    h[9] = 0                        # header_crc32
    h[9] = zlib.crc32(HDR.pack(*h))
    with open(dst, "wb") as f:
        f.write(HDR.pack(*h) + b[HDR.size:hs] + body)


if __name__ == "__main__":
    main()
