#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# tipme report through a kernel work item: a reader of a pseudo-terminal
# whose writer process sleeps before it writes; the pty hands the byte to
# the reader from a work item (flush_to_ldisc) that the writer queued, run
# by a kernel worker.  Directly (the reader's wait) and through a thread
# waiting on a pipe for the reader: the chain names the worker's work item,
# goes on to the writer that queued it, and charges the writer's sleep
# (tests/vm/check_work.py).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}
# work NAME ARGS...: ptywait ARGS, a dump, the report on its thread's wait
work() {
	local name=$1 t
	shift
	t=$("$B"/tests/vm/ptywait "$@")
	tap_cmp "$name: ptywait $* succeeds" "$?" -eq 0
	tap_diag "$name: ground truth: $t"
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	"$B"/tipme report --json --pid "$(kv "$t" pid)" --from "$(sec "$(kv "$t" wait_start_ns)")" \
		--to "$(sec "$(kv "$t" wait_end_ns)")" "$out/$name.dump" > "$out/$name.json"
	tap_cmp "$name: tipme report --json succeeds" "$?" -eq 0
	"$B"/tipme report --pid "$(kv "$t" pid)" --from "$(sec "$(kv "$t" wait_start_ns)")" \
		--to "$(sec "$(kv "$t" wait_end_ns)")" "$out/$name.dump" > "$out/$name.txt" 2>&1
	sed -n '/^chain of waits/,/^$/s/^/# /p' "$out/$name.txt"
	python3 tests/vm/check_work.py "$name" "$t" "$out/$name.json" > "$out/$name.tap" 2>&1
	tap_merge "$out/$name.tap"
}

work pty 300
work pty-chain 300 chain
tap_check "the dump has work items and names their functions" \
	grep -q "work_start .*func=flush_to_ldisc" <("$B"/tipme records --type work_start "$out/pty.dump")

tap_check "rmmod" rmmod tipme
tap_done
