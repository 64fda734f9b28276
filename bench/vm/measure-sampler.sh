#!/bin/bash
# vm: timeout=900
# Measurement, not a test: the sampler's cost with the threads of a booted
# guest (~60) and with 2,000 more sleeping threads, over a 10 s idle window:
# its own ticks from the self-cost records (tipme cost), per round, full
# rounds apart.  Also runs walkbench, the sampler's memory access pattern in
# user space, to relate QEMU TCG's emulated speed to a real machine's
# (run build/tests/vm/walkbench on the host for the other half).
#
#   tests/vm/vm.sh bench/vm/measure-sampler.sh [THREADS] [SECONDS]
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
threads=${1:-2000}
window=${2:-10}
out=$TIPME_OUT
mono() { python3 tests/lib/mono.py; }

# The sampler's full round, as user-space code (see bench/vm/smpbench.c);
# run the same on the host to scale the figures below to a real machine.
cc -O2 -Ibench/vm/shim -Iinclude/uapi -Imodule -o /tmp/smpbench \
	bench/vm/smpbench.c && /tmp/smpbench 2000 10
echo "walkbench (median of 5) ns_per_object=$(for i in 1 2 3 4 5; do
	"$B"/tests/vm/walkbench 2000 50; done |
	sed -n 's/.*ns_per_object=\([0-9.]*\).*/\1/p' | sort -n | sed -n 3p)"
# Past ~30,000 threads the guest's defaults refuse them (pid_max 32768,
# threads-max from its memory, two mappings a thread stack).
if [ "$threads" -gt 30000 ]; then
	sysctl -qw kernel.pid_max=4194304 kernel.threads-max=$((2 * threads)) \
		vm.max_map_count=$((3 * threads)) || exit 1
fi
insmod module/tipme.ko || exit 1
for n in 0 "$threads"; do
	if [ "$n" != 0 ]; then
		mkfifo /tmp/smp.fifo
		"$B"/tests/vm/manythreads "$n" < /tmp/smp.fifo > /tmp/smp.ready &
		exec 3> /tmp/smp.fifo
		while ! grep -q ready /tmp/smp.ready 2>/dev/null; do
			kill -0 $! 2>/dev/null || { echo "manythreads $n failed"; exit 1; }
			sleep 0.2
		done
	fi
	sleep 2
	t0=$(mono)
	sleep "$window"
	t1=$(mono)
	"$B"/tipme dump -o "$out/smp-$n.dump" > /dev/null
	python3 bench/vm/sampler_cost.py "$n" "$t0" "$t1" "$out/smp-$n.dump" "$B/tipme"
	if [ "$n" != 0 ]; then
		exec 3>&-
		wait
		rm -f /tmp/smp.fifo
	fi
done
rmmod tipme
