# SPDX-License-Identifier: GPL-2.0
"""A binary's own truth for the VM checkers: its function symbols (nm),
its LOAD segments (readelf) and a file offset turned into an address.
Imported by check_ustack.py and check_profile.py."""
import subprocess


def functions(binary):
    """name -> (start, size) of the binary's function symbols (nm -S)."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], check=True,
                         capture_output=True, text=True).stdout
    funcs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT":
            funcs[f[3]] = (int(f[0], 16), int(f[1], 16))
    return funcs


def loads(binary):
    """(offset, vaddr, filesz) of each LOAD segment (readelf -lW)."""
    out = subprocess.run(["readelf", "-lW", binary], check=True,
                         capture_output=True, text=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def vaddr(segs, off):
    """The address a file offset is loaded at (None outside every segment)."""
    for o, v, n in segs:
        if o <= off < o + n:
            return off - o + v
    return None
