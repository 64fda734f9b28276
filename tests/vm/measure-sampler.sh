#!/bin/bash
# vm: timeout=900
# Measurement, not a test: the sampler's cost with the threads of a booted
# guest (~60) and with 2,000 more sleeping threads, over a 10 s idle window:
# its own ticks from the self-cost records (tipme cost), per round, full
# rounds apart.  Also runs walkbench, the sampler's memory access pattern in
# user space, to relate QEMU TCG's emulated speed to a real machine's
# (run build/tests/vm/walkbench on the host for the other half).
#
#   tests/vm/vm.sh tests/vm/measure-sampler.sh [THREADS] [SECONDS]
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
threads=${1:-2000}
window=${2:-10}
out=$TIPME_OUT
mono() { python3 -c 'import time; print(time.monotonic_ns())'; }

# The sampler's full round, as user-space code (see tests/vm/bench/smpbench.c);
# run the same on the host to scale the figures below to a real machine.
cc -O2 -Itests/vm/bench/shim -Iinclude/uapi -Imodule -o /tmp/smpbench \
	tests/vm/bench/smpbench.c && /tmp/smpbench 2000 10
echo "walkbench (median of 5) ns_per_object=$(for i in 1 2 3 4 5; do
	"$B"/tests/vm/walkbench 2000 50; done |
	sed -n 's/.*ns_per_object=\([0-9.]*\).*/\1/p' | sort -n | sed -n 3p)"
insmod module/tipme.ko || exit 1
for n in 0 "$threads"; do
	if [ "$n" != 0 ]; then
		mkfifo /tmp/smp.fifo
		"$B"/tests/vm/manythreads "$n" < /tmp/smp.fifo > /tmp/smp.ready &
		exec 3> /tmp/smp.fifo
		while ! grep -q ready /tmp/smp.ready 2>/dev/null; do sleep 0.2; done
	fi
	sleep 2
	t0=$(mono)
	sleep "$window"
	t1=$(mono)
	"$B"/tipme dump -o "$out/smp-$n.dump" > /dev/null
	python3 - "$n" "$t0" "$t1" "$out/smp-$n.dump" "$B/tipme" <<'PY'
import json, subprocess, sys
n, t0, t1, dump, tipme = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
c = json.loads(subprocess.check_output([tipme, "cost", "--json", "--from", str(t0 / 1e9),
                                        "--to", str(t1 / 1e9), dump]))
t = {x["type"]: x for x in c["types"]}
smp = sum(t[k]["ns"] for k in ("sample", "sample_end") if k in t)
win = t1 - t0
rounds = full = 0
fns, cns, ent, fent = [], [], 0, 0
for line in subprocess.check_output([tipme, "records", "--json", "--type", "sample_end", dump]).splitlines():
    e = json.loads(line)
    if not t0 <= e["mono_ns"] <= t1:
        continue
    rounds += 1
    (fns if e["full"] else cns).append(e["cost_ns"])
    if e["full"]:
        fent += e["emitted"]
    else:
        ent += e["emitted"]
avg = lambda v: sum(v) / len(v) if v else 0
print(f"extra threads {n}: {rounds / (win / 1e9):.1f} rounds/s, sampler {smp / 1e6:.2f} ms in "
      f"{win / 1e9:.2f} s = {100 * smp / win:.3f}% of one CPU; full rounds {len(fns)} x "
      f"{avg(fns) / 1e3:.0f} us ({fent / max(len(fns), 1):.0f} entries), change rounds "
      f"{len(cns)} x {avg(cns) / 1e3:.1f} us ({ent / max(len(cns), 1):.1f} entries); "
      f"whole recorder {100 * c['recorder_ns'] / win:.3f}%")
PY
	if [ "$n" != 0 ]; then
		exec 3>&-
		wait
		rm -f /tmp/smp.fifo
	fi
done
rmmod tipme
