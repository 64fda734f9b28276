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
tap_done
