#!/bin/bash
# vm: timeout=180 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# t-pingpong on the TSC clock (the one real workstations use): QEMU's TCG
# exposes a constant TSC with this CPU model, though never a nonstop one,
# so the module is told clock=tsc.
# Debian's 7.2 gives this emulated CPU no constant TSC: nothing to test.
if ! grep -qw constant_tsc /proc/cpuinfo; then
	echo "ok 1 - t-pingpong on the TSC clock # SKIP this kernel gives the emulated CPU no constant_tsc"
	echo "1..1"
	exit 0
fi
TIPME_TEST_CLOCK=tsc exec "$(dirname "$0")/t-pingpong.sh"
