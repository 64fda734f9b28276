#!/bin/bash
# vm: timeout=180 share
# Issue 4: lock contention.  Two threads of one process, pinned to one CPU,
# rewrite 1 MiB of the same file; when one is switched out holding the
# inode's rw_semaphore the other must sleep on it.  The dump must show
# contention records naming both threads: one waiting, the other holding.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
truth=$("$B"/tests/vm/contend /tmp/contend.dat 1)
tap_cmp "contend ran" "$?" -eq 0
tap_diag "ground truth: $truth"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/lock.dump"
# the records checked on the host, after the guest (natively)
tap_on_host tests/vm/host_check.sh --records "$out/lock.dump" "$out/lock.jsonl" \
	python3 tests/vm/check_instr.py lock "$truth" "$out/lock.jsonl"
t1=$(printf '%s\n' "$truth" | sed -n 's/.*tid1=\([0-9]*\).*/\1/p')
"$B"/tipme records --type lock_begin,lock_end --pid "$t1" "$out/lock.dump" | head -n 4 |
	sed 's/^/# /'
tap_check "rmmod" rmmod tipme
tap_done
