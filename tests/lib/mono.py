#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print CLOCK_MONOTONIC now, the clock tipme's records use.

    mono.py        in nanoseconds
    mono.py -s     in seconds, with 9 decimals
"""
import sys
import time

if sys.argv[1:] == ["-s"]:
    print(f"{time.monotonic():.9f}")
else:
    print(time.monotonic_ns())
