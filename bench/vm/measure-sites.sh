#!/bin/bash
# vm: timeout=600
# Measurement, not a test: the cost of blocking-site capture.  For each
# configuration, load tipme.ko, run the same pipe ping-pong (every round
# blocks both sides), dump, and print the recorder's own average cost per
# record type (tipme cost).  Under QEMU TCG all figures are emulated: only
# compare them with each other.
#
#   tests/vm/vm.sh bench/vm/measure-sites.sh [ROUNDS]
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
rounds=${1:-20000}
out=$TIPME_OUT

run() {
	local name=$1
	shift
	insmod module/tipme.ko "$@" sample_period_ms=0 trace_lock=0 || exit 1
	"$B"/tests/vm/pingpong "$rounds" 0 > /dev/null
	"$B"/tipme stop
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	rmmod tipme
	python3 bench/vm/sites_cost.py "$name" "$out/$name.dump" "$B/tipme"
}

for i in 1 2; do
	run "off-$i" stack_depth=0
	run "unwind4-$i" stack_depth=4 stack_cache=0
	run "cache4-$i" stack_depth=4 stack_cache=1
	run "unwind8-$i" stack_depth=8 stack_cache=0
	run "cache8-$i" stack_depth=8 stack_cache=1
done
