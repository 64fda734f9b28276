#!/bin/bash
# vm: timeout=240 share
# Issue 4: the sampler.  A spinning task, a sleeping task and a task in D
# (a vfork parent waiting for its child) must be classified R, S and D in
# every sample that covers them while they hold those states.
# Issue 31: the sampler's table at the dump gives the state of a thread
# that never ran in the window (below).
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

# The sampler's table at the dump.  A thread sleeps from before the load,
# so only the load's full round samples it, and sample_full_ms=600000
# keeps the next full round away; 4,000 ping-pong rounds pinned to each
# CPU then overwrite the small rings' start, that round included.  The
# dump has no record of the thread, and its state, sleeping, comes from
# the snapshot the dump took of the sampler's table.
mkfifo /tmp/snap.fifo
"$B"/tests/vm/manythreads 1 < /tmp/snap.fifo > /tmp/snap.ready &
snap_pid=$!
exec 4> /tmp/snap.fifo
# polls for the program's own "ready" line (a condition, not a delay)
while ! grep -q ready /tmp/snap.ready 2>/dev/null; do
	kill -0 "$snap_pid" 2>/dev/null || break
	sleep 0.1
done
tid=$(ls /proc/"$snap_pid"/task | grep -vx "$snap_pid" | head -n 1)
tap_diag "sleeping thread $tid of $snap_pid"
tap_check "insmod with small rings and sample_full_ms=600000" \
	insmod module/tipme.ko buffer_size=128K subbuf_size=4096 sample_full_ms=600000 ||
	tap_done
"$B"/tests/vm/pingpong 4000 0 > /dev/null &
pp0=$!
"$B"/tests/vm/pingpong 4000 1 > /dev/null
wait "$pp0"
tap_check "tipme dump (snapshot)" "$B"/tipme dump -o "$out/snap.dump"
exec 4>&-
wait "$snap_pid"
rm -f /tmp/snap.fifo
tap_check "rmmod (snapshot)" rmmod tipme
"$B"/tipme records --json "$out/snap.dump" > "$out/snap.jsonl"
"$B"/tipme why --json --pid "$tid" "$out/snap.dump" > "$out/snap.why.json"
"$B"/tipme info --json "$out/snap.dump" > "$out/snap.info.json"
python3 tests/vm/check_instr.py snapshot "tid=$tid" "$out/snap.jsonl" \
	"$out/snap.why.json" "$out/snap.info.json" > "$out/snap.tap" 2>&1
tap_merge "$out/snap.tap"
tap_done
