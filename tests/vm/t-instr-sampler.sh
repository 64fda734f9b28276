#!/bin/bash
# vm: timeout=180 share
# Issue 4: the sampler.  A spinning task, a sleeping task and a task in D
# (a vfork parent waiting for its child) must be classified R, S and D in
# every sample that covers them while they hold those states.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
truth=$("$B"/tests/vm/states 2.5)
tap_cmp "states ran" "$?" -eq 0
tap_diag "ground truth: $truth"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/smp.dump"
"$B"/tipme records --json "$out/smp.dump" > "$out/smp.jsonl"
tap_cmp "tipme records --json succeeds" "$?" -eq 0
python3 tests/vm/check_instr.py sampler "$truth" "$out/smp.jsonl" > "$out/check.tap" 2>&1
tap_merge "$out/check.tap"
"$B"/tipme records --type sample_end "$out/smp.dump" | grep full | head -n 2 | sed 's/^/# /'
tap_check "rmmod" rmmod tipme

# Full rounds past their thread budget (sample_full_threads): with a
# budget of 16 threads per 100 ms and the guest's threads (60 or more),
# full rounds come every 100 ms x ceil(threads / 16), never sooner.
tap_check "insmod with sample_full_ms=100 sample_full_threads=16" \
	insmod module/tipme.ko buffer_size=16M sample_full_ms=100 sample_full_threads=16 ||
	tap_done
# the window the rounds are counted in (a measurement, not a wait)
sleep 3
n=$(awk '/^Threads:/ { s += $2 } END { print s }' /proc/[0-9]*/status 2>/dev/null)
tap_check "tipme dump (budget)" "$B"/tipme dump -o "$out/budget.dump"
"$B"/tipme info --json "$out/budget.dump" > "$out/budget.info.json"
"$B"/tipme records --json --type sample_end "$out/budget.dump" > "$out/budget.jsonl"
python3 tests/vm/check_instr.py fullevery "budget=16 full_ms=100 threads=$n" \
	"$out/budget.jsonl" "$out/budget.info.json" > "$out/budget.tap" 2>&1
tap_merge "$out/budget.tap"
tap_check "rmmod (budget)" rmmod tipme
tap_done
