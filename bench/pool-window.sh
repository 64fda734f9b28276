#!/bin/bash
# The busy CPU's window (issue 31 item 1): one CPU busy, the rest idle,
# tipme with pool=1, tipme with pool=0 and ftrace's per-CPU rings of the
# same total in one guest, for each number of vCPUs.
#
#   bench/pool-window.sh [--no-doc] [--guests "N:MIB ..."] [--subbuf BYTES]
#
# The guest is bench/vm/pool-window-guest.sh (one per N vCPUs with a
# buffer of MIB MiB, one at a time), its figures bench/vm/pool_window.py's
# (what "kept over expected" is: see there).  The default, "8:16 64:4"
# with 4 KiB sub-buffers, is smaller than issue 31's 64 MiB: under TCG
# the busy CPU writes 140 KB of tipme's records a second with 8 vCPUs and
# 47 KB with 64, so writing 64 MiB twice over would take the guest 15 and
# 45 minutes.  What the size changes is the sub-buffers per CPU, hence
# the share of the pool the idle CPUs' current sub-buffers take: 16 MiB
# of 4 KiB sub-buffers on 8 CPUs is 512 a CPU, as 64 MiB of the default
# 16 KiB; 4 MiB on 64 CPUs is 16 a CPU, a quarter of 64 MiB's 64.  Writes
# build/bench/pool/<N>cpus/result.json and, unless --no-doc, the block
# between bench:pool:begin and bench:pool:end of
# Documentation/performance.md.  Last line: "RESULT {json}".  Needs `make
# module user build/bench/poolwin` first (make bench does that).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
cd "$TIPME_ROOT"
doc=1 guests="8:16 64:4" subbuf=4096
while [ $# -gt 0 ]; do
	case $1 in
	--no-doc) doc=; shift ;;
	--guests) guests=${2:?}; shift 2 ;;
	--subbuf) subbuf=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
results=()
for g in $guests; do
	n=${g%%:*} buf=$((${g#*:} << 20))
	[[ $g == *:* && $n =~ ^[0-9]+$ ]] || die "--guests: N:MIB, not $g"
	out=$TIPME_ROOT/build/bench/pool/${n}cpus
	note "guest run: $n vCPUs, buffer $buf"
	# 64 vCPUs boot and run slowly under one TCG thread
	tests/vm/vm.sh --timeout $((600 + 10 * n)) --mem 2048 --smp "$n" \
		--cpu qemu64,+invtsc,vendor=GenuineIntel --out "$out" \
		bench/vm/pool-window-guest.sh "$buf" "$subbuf" >&2
	python3 bench/vm/pool_window.py measure "$out" build/tipme >"$out/result.json"
	rm -f "$out"/*.dump
	results+=("$out/result.json")
done
if [ -n "$doc" ]; then
	python3 bench/vm/pool_window.py doc Documentation/performance.md "${results[@]}"
fi
echo "RESULT [$(IFS=,; for r in "${results[@]}"; do cat "$r"; echo ,; done | sed '$d' | tr -d '\n')]"
