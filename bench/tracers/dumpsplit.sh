#!/bin/bash
# Where a dump's instructions go: bench/tracers/dumpsplit.py in a guest
# counted by the same TCG plugin as make bench (build it first with
# make bench or bench/tracers/run.sh).  Last line: RESULT {json}.
#
#   bench/tracers/dumpsplit.sh
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"
cd "$TIPME_ROOT"
plugin=build/bench/insncount.so
[ -e "$plugin" ] || { echo "dumpsplit.sh: $plugin missing: run make bench first" >&2; exit 1; }
make -s module all build/bench/tipme-tracer-load >&2
out=build/bench/dumpsplit
mkdir -p "$out"
tests/vm/vm.sh --timeout 900 --mem 2048 --smp 2 --cpu max,vendor=GenuineIntel \
	--plugin "$plugin,out=$out/insn.log" --out "$out" bench/tracers/dumpsplit.py
