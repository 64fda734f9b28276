#!/bin/bash
# vm: timeout=180 cpu=qemu64,+invtsc,vendor=GenuineIntel
# t-pingpong on the TSC clock (the one real workstations use): QEMU's TCG
# exposes a constant TSC with this CPU model, though never a nonstop one,
# so the module is told clock=tsc.
TIPME_TEST_CLOCK=tsc exec "$(dirname "$0")/t-pingpong.sh"
