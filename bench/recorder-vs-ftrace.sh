#!/bin/bash
# tipme.ko against ftrace in the same QEMU guest: bytes per record, cost
# added to a scheduler-heavy workload, and how fast a full buffer is read
# out.  Usage: bench/recorder-vs-ftrace.sh [BUFFER_MIB] [ROUNDS]
# (defaults 64 and 20000).  Needs `make` first; prints a report and a
# "RESULT {json}" line.  Figures are emulated (TCG): only the ratios
# between tipme and ftrace measured in the same run mean anything.
set -euo pipefail
cd "$(dirname "$0")/.."
exec tests/vm/vm.sh --timeout 900 --mem 2048 --cpu qemu64,+invtsc,vendor=GenuineIntel \
	--out "$PWD/build/bench-ftrace" bench/recorder-vs-ftrace-guest.py "$@"
