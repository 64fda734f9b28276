#!/bin/bash
# How fast the analyses read a full dump, on this machine (natively).
#
#   bench/analysis-speed.sh [BUFFER_MIB]      (default 64)
#   bench/analysis-speed.sh --synthetic [MIB]  (default 64)
#
# --synthetic measures a dump build/tipme-bigdump writes natively in
# seconds (bench/bigdump.c: 4 CPUs, 400 threads, compact records, every
# ring wrapped, a few losses; the same file for the same arguments) into
# build/bench-analysis/; its RESULT says "dump_source": "synthetic".
# Otherwise the first run makes the dump in QEMU (the stock kernel, rings of
# BUFFER_MIB filled until every CPU's ring has wrapped) and keeps it in
# $TIPME_CACHE/bench/ (scripts/lib/common.sh); later runs reuse it.  Each command runs 5 times; the
# median is printed with its ratio to reading the file's bytes once (the
# floor every reader pays; the file is in the page cache), with the median
# CPU time and the peak RSS.  The last line is "RESULT {json}";
# `python3 bench/tracers/report.py --analysis-doc Documentation/performance.md
# FILE` puts a saved RESULT's JSON into performance.md's table.  Needs `make` first.  (tipme latency needs an
# incident with an X dump, so it is not in this table.)  timeline_whole
# draws the whole common window with every CPU's stretches; legs_interval
# is legs_sched over the common window's last 2 s (from DUMP.ckpt).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
cd "$TIPME_ROOT"
if [ "${1:-}" = --synthetic ]; then
	buf=${2:-64}
	dump=build/bench-analysis/synthetic-${buf}m.dump
	mkdir -p build/bench-analysis
	build/tipme-bigdump -m "$buf" -c 4 -t 400 "$dump"
	exec python3 bench/analysis_speed.py "$dump" \
		"synthetic (build/tipme-bigdump -m $buf -c 4 -t 400)"
fi
buf=${1:-64}
dump=$TIPME_CACHE/bench/full-${buf}m.dump
if [ ! -s "$dump" ]; then
	mkdir -p "$TIPME_CACHE/bench"
	tests/vm/vm.sh --timeout 2400 --mem 2048 --cpu qemu64,+invtsc,vendor=GenuineIntel \
		--out "$PWD/build/bench-analysis" bench/analysis-speed-guest.sh "$buf" >&2
	cp build/bench-analysis/full.dump "$dump.tmp"
	mv "$dump.tmp" "$dump"
fi
exec python3 bench/analysis_speed.py "$dump" "QEMU (bench/analysis-speed-guest.sh $buf)"
