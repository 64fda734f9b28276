#!/bin/bash
# vm: timeout=180
# Issue 4: blocking sites.  A child blocks 300 ms reading an empty pipe; the
# dump must show it switched out to sleep with a pipe_read blocking site,
# and woken by the writer's write, at least 300 ms later (measured brackets).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
truth=$("$B"/tests/vm/blockpipe 300)
tap_cmp "blockpipe ran" "$?" -eq 0
tap_diag "ground truth: $truth"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/block.dump"
"$B"/tipme records --json "$out/block.dump" > "$out/block.jsonl"
tap_cmp "tipme records --json succeeds" "$?" -eq 0
python3 tests/vm/check_instr.py block "$truth ms=300" "$out/block.jsonl" > "$out/check.tap" 2>&1
tap_merge "$out/check.tap"
reader=$(printf '%s\n' "$truth" | sed -n 's/.*reader=\([0-9]*\).*/\1/p')
"$B"/tipme records --pid "$reader" "$out/block.dump" | grep -E 'blocked|waking' | tail -n 4 |
	sed 's/^/# /'
tap_check "rmmod" rmmod tipme
tap_done
