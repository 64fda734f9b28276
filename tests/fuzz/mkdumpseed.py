#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seeds of the dumprx fuzzer (tests/fuzz/corpus/dumprx/).

usage: mkdumpseed.py OUT_DIR

Each seed is the harness's 9-byte prefix (what RING_CHECK answers, u64;
then 1 for a mapped stream, 0 for a copied one) and a DUMP stream as
tipme.ko sends it: META, per CPU its sub-buffers (SUBBUF_MAP, or CHUNK
and SUBBUF_END) and CPU_END, a site table, a user stack table, the module's captured
mappings, the sampler's table, cost totals, the TRAILER.
Numbers come from include/uapi/linux/tipme.h (tests/vm/genl.py reads it).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vm"))
from genl import T  # noqa: E402

FAMILY = 30


def attr(kind, data):
    a = struct.pack("<HH", 4 + len(data), kind) + data
    return a + b"\0" * (-len(a) % 4)


def u32(name, v):
    return attr(T[name], struct.pack("<I", v))


def u64(name, v):
    return attr(T[name], struct.pack("<Q", v))


def part(name, attrs):
    body = struct.pack("<BBH", T["TIPME_CMD_DUMP"], 1, 0) + u32("TIPME_ATTR_DUMP_PART", T[name])
    body += b"".join(attrs)
    return struct.pack("<IHHII", 16 + len(body), FAMILY, 2, 7, 0) + body


def meta(freeze=0):
    a = [attr(T["TIPME_ATTR_VERSION"], b"0.1.0\0"), u32("TIPME_ATTR_NR_CPUS", 2),
         u32("TIPME_ATTR_SUBBUF_SIZE", 4096), u32("TIPME_ATTR_SUBBUFS", 4),
         u32("TIPME_ATTR_CLOCK_SOURCE", 1), u64("TIPME_ATTR_TSC_KHZ", 2000000),
         attr(T["TIPME_ATTR_REC_TYPES"], b""), attr(T["TIPME_ATTR_PARAMS"], b"subbuf_size=4096\n\0")]
    if freeze:
        a.append(u32("TIPME_ATTR_FREEZE_GEN", freeze))
    return part("TIPME_PART_META", a)


def cpu_end(cpu, discarded=None):
    extra = u32("TIPME_ATTR_STAT_DISCARDED", discarded) if discarded is not None else b""
    entry = attr(T["TIPME_ATTR_CPU_ENTRY"], u32("TIPME_ATTR_CPU", cpu) +
                 u64("TIPME_ATTR_STAT_WRITTEN", 10) + u64("TIPME_ATTR_STAT_OVERWRITTEN", 0) +
                 u64("TIPME_ATTR_STAT_DROPPED", 0) + u64("TIPME_ATTR_STAT_BYTES", 4096 * 5) + extra)
    return part("TIPME_PART_CPU_END", [attr(T["TIPME_ATTR_CPU_STATS"], entry)])


def tail():
    site_hdr = struct.pack("<IIIIQQ", 32, 1, 8192, 8, 0, 0)
    site = struct.pack("<IBBH", 1, 2, 1, 0) + struct.pack("<II", 0x81000010, 0x81000020)
    ustack = struct.pack("<IIBBHI", 1, 300, 2, 0, 0, 0) + struct.pack("<QQ", 0x7f0000029f00, 0x555500001234)
    xmaps_hdr = struct.pack("<IIIIQQQQQ", 56, 1, 8192, 1, 1, 0, 0, 0, 600 * 10**9)
    path = b"/usr/lib/x86_64-linux-gnu/libc.so.6"
    size = (56 + len(path) + 7) // 8 * 8
    xmap = struct.pack("<HHIQQQQQII", size, len(path), 300, 1000, 0x7f0000028000, 0x7f00001bd000,
                       0x28000, 12, 0x801, 1) + path
    xmap += b"\0" * (size - len(xmap))
    snap_hdr = struct.pack("<IIIIIIQ", 32, 32, 2, 500, 450, 0, 10**9)
    snap = (struct.pack("<IIQQHBBI", 300 | (1 << 22), 300, 9 * 10**8, 1000, 0, 120, 0, 0) +
            struct.pack("<IIQQHBBI", 301 | (2 << 22), 300, 10**9, 2000, 1, 120, 1, 0))
    return (part("TIPME_PART_SITES", [attr(T["TIPME_ATTR_SITE_HDR"], site_hdr),
                                      attr(T["TIPME_ATTR_SITE_ENTRIES"], site)]) +
            part("TIPME_PART_SITES_END", []) +
            part("TIPME_PART_USTACKS", [attr(T["TIPME_ATTR_USTACK_HDR"], site_hdr),
                                        attr(T["TIPME_ATTR_USTACK_ENTRIES"], ustack)]) +
            part("TIPME_PART_USTACKS_END", []) +
            part("TIPME_PART_XMAPS", [attr(T["TIPME_ATTR_XMAP_HDR"], xmaps_hdr),
                                      attr(T["TIPME_ATTR_XMAP_ENTRIES"], xmap)]) +
            part("TIPME_PART_XMAPS_END", []) +
            part("TIPME_PART_SMPSNAP", [attr(T["TIPME_ATTR_SMPSNAP_HDR"], snap_hdr),
                                        attr(T["TIPME_ATTR_SMPSNAP_ENTRIES"], snap[:32])]) +
            part("TIPME_PART_SMPSNAP", [attr(T["TIPME_ATTR_SMPSNAP_ENTRIES"], snap[32:])]) +
            part("TIPME_PART_COST", [attr(T["TIPME_ATTR_COST_TOTALS"], struct.pack("<IIQQ", 1, 0, 10, 500))]) +
            part("TIPME_PART_TRAILER", [attr(T["TIPME_ATTR_CLOCK_PAIRS"], b"\0" * 32)]))


def mapped(seqs, oldest=0):
    s = meta(freeze=3)
    for cpu in (0, 1):
        for seq, length, flags in seqs:
            s += part("TIPME_PART_SUBBUF_MAP", [u32("TIPME_ATTR_CPU", cpu), u64("TIPME_ATTR_SUBBUF_SEQ", seq),
                                                u32("TIPME_ATTR_SUBBUF_LEN", length),
                                                u32("TIPME_ATTR_SUBBUF_FLAGS", flags)])
        s += cpu_end(cpu)
    return struct.pack("<QB", oldest, 1) + s + tail()


def copied(lost=False):
    """lost: CPU 1's sub-buffer 1 sent as overwritten (not ok), and the
    module's counts say it skipped one more of each CPU unsent (a writer
    still in it): 1 + 1 on CPU 1, 1 on CPU 0."""
    s = meta()
    for cpu in (0, 1):
        data = bytes(range(256)) * 2
        ok = b"\0" if lost and cpu == 1 else b"\1"
        s += part("TIPME_PART_CHUNK", [u32("TIPME_ATTR_CPU", cpu), u64("TIPME_ATTR_SUBBUF_SEQ", 1),
                                       u32("TIPME_ATTR_OFFSET", 0), attr(T["TIPME_ATTR_DATA"], data)])
        s += part("TIPME_PART_SUBBUF_END", [u32("TIPME_ATTR_CPU", cpu), u64("TIPME_ATTR_SUBBUF_SEQ", 1),
                                            u32("TIPME_ATTR_SUBBUF_LEN", len(data)),
                                            u32("TIPME_ATTR_SUBBUF_FLAGS", 0),
                                            attr(T["TIPME_ATTR_SUBBUF_OK"], ok)])
        s += cpu_end(cpu, (2 if cpu == 1 else 1) if lost else None)
    return struct.pack("<QB", 0, 0) + s + tail()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        "mapped": mapped([(4, 4096, 0), (5, 4096, 0), (6, 4096, 0), (7, 512, 1)]),
        "mapped-overtaken": mapped([(4, 4096, 0), (5, 4096, 0), (6, 4096, 0), (7, 512, 1)], oldest=6),
        # 36 sub-buffers a CPU: three batches of the writer (MAP_BATCH 16)
        "mapped-long": mapped([(q, 512 if q == 39 else 4096, int(q == 39)) for q in range(4, 40)]),
        "copied": copied(),
        "copied-lost": copied(lost=True),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
