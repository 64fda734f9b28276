#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a small fuzzing seed from a real kernel dump.

usage: mkseed.py IN.dump OUT [--keep-syms N] [--subbufs-with TYPE]

A VM test's dump is ~2 MB, nearly all of it the kernel symbol table.  The
seed keeps every section as recorded but the symbols: those whose names a
blocking site of the tests names, and every N-th of the rest (default 200),
so that symbol lookup still has something to find.  With --subbufs-with,
a CPU stream keeps only its sub-buffers that hold a record of type TYPE
(a number; the sub-buffers left out are gaps, as a reader must take
them).  Checksums, sizes and the header checksum are recomputed (zlib's
CRC-32 is tipme's).
"""
import struct
import sys
import zlib

HDR = struct.Struct("<8sIIIIQIIIIQQQ")
SEC = struct.Struct("<IIQII")
SYM = struct.Struct("<QII")
SUBBUF = struct.Struct("<QII")
RECTYPE = struct.Struct("<BBH24s")
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


def has_type(data, sizes, want):
    """Whether the records of one sub-buffer hold one of type WANT."""
    off = 0
    while off + 4 <= len(data):
        hdr, = struct.unpack_from("<I", data, off)
        t = hdr & 0x7f
        if t == 0:              # padding: the rest of the sub-buffer
            return False
        if t == want:
            return True
        at = off + 4 + (8 if hdr & 0x80 else 0)
        if t not in sizes:
            return False
        flags, size = sizes[t]
        if flags & 1:           # varlen: its payload starts with its length
            size, = struct.unpack_from("<H", data, at)
        off = at + ((size + 3) & ~3)
    return False


def keep_subbufs(payload, sizes, want):
    parts, off = [], 0
    while off + SUBBUF.size <= len(payload):
        seq, ln, fl = SUBBUF.unpack_from(payload, off)
        parts.append(payload[off:off + SUBBUF.size + ln])
        off += SUBBUF.size + ln
    keep = set()
    for i, p in enumerate(parts):
        if has_type(p[SUBBUF.size:], sizes, want):
            keep.add(i)
    return b"".join(p for i, p in enumerate(parts) if i in keep)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    every = int(opts.get("--keep-syms", 200))
    want = int(opts["--subbufs-with"]) if "--subbufs-with" in opts else None
    b = open(src, "rb").read()
    h = list(HDR.unpack_from(b))
    hs, nsec = h[2], h[8]
    off, secs, sizes = hs, [], {}
    for _ in range(nsec):
        t, cpu, sz, crc, res = SEC.unpack_from(b, off)
        off += SEC.size
        payload = b[off:off + sz]
        off += sz + (-sz & 7)
        if t == 1:
            for i in range(0, len(payload) - RECTYPE.size + 1, RECTYPE.size):
                rt, fl, size, name = RECTYPE.unpack_from(payload, i)
                sizes[rt] = (fl, size)
        if t == 2 and want is not None:
            payload = keep_subbufs(payload, sizes, want)
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
