#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Map the first page of /dev/tipme and hold the mapping until standard
input ends (t-mapped: a mapping must keep the module loaded).  Prints
"mapped" once the mapping is made.
"""
import mmap
import os
import sys

fd = os.open("/dev/tipme", os.O_RDONLY)
m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ)
os.close(fd)
print("mapped", flush=True)
sys.stdin.read()
