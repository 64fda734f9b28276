#!/bin/bash
# Guest half of bench/analysis-speed.sh: fill BUF MiB of rings with a
# scheduler-heavy workload until every CPU's ring has wrapped, then dump
# them into the output folder as full.dump.
set -euo pipefail
cd "$TIPME_SRC"
B=$TIPME_SRC/build
buf=${1:-64}
insmod module/tipme.ko buffer_size="${buf}M" clock=tsc
wrapped() { # every CPU's ring has been overwritten
	[ "$("$B"/tipme status --json | python3 tests/lib/jsonq.py min - cpus overwritten)" -gt 0 ] 2>/dev/null
}
# One ping-pong pair per CPU, so that every CPU's ring fills (pingpong's
# second argument is the CPU it pins itself to).
for _ in $(seq 60); do
	"$B"/tests/vm/pingpong 50000 0 > /dev/null &
	"$B"/tests/vm/pingpong 50000 1 > /dev/null
	wait
	wrapped && break
done
"$B"/tipme stop
"$B"/tipme dump -o "$TIPME_OUT/full.dump"
rmmod tipme
