#!/bin/bash
# vm: timeout=240 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# Issue 29, item 1: user-space call chains off the CPU.  A program built
# with frame pointers (tests/vm/progs/ustackprog) sleeps on a pipe in
# main -> wait_for_peer -> read_byte -> read(); the dump's user chain of
# that sleep has return addresses inside wait_for_peer and main, checked
# against nm and readelf of the binary itself, with its build-id, and
# `tipme report --json` shows it on the blocked step.  Debian's sleep
# (no frame pointers) gets a chain of only its leaf, marked truncated.
# With /proc/sys/tipme/user_stacks at 0, no chain is recorded.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
. "$TIPME_SRC/tests/vm/lib-ustack.sh"
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() { printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000)); }

tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
tap_cmp "user_stacks is on by default" "$(cat /proc/sys/tipme/user_stacks)" = 1

# run NAME: ustackprog and a sleep, both alive while the dump is made
run() {
	local name=$1 prog
	"$B"/tests/vm/ustackprog 300 > "$out/$name.truth" &
	prog=$!
	wait_for 30 grep -q woke_ns "$out/$name.truth"
	tap_cmp "$name: ustackprog slept and woke" "$?" -eq 0
	dump_beside_sleep "$name" "$prog"
	truth="$(cat "$out/$name.truth") sleep=$sleeper"
	tap_diag "$name: ground truth: $truth"
}

run on
"$B"/tipme records --type ustack --pid "$(kv "$truth" pid)" "$out/on.dump" | head -n 3 |
	sed 's/^/# /'
"$B"/tipme report --json --pid "$(kv "$truth" pid)" \
	--from "$(sec "$(kv "$truth" read_start_ns)")" --to "$(sec "$(kv "$truth" woke_ns)")" \
	"$out/on.dump" > "$out/on.report.json"
tap_cmp "tipme report --json succeeds" "$?" -eq 0
tap_on_host tests/vm/host_check.sh --records "$out/on.dump" "$out/on.jsonl" \
	python3 tests/vm/check_ustack.py on "$truth" "$out/on.jsonl" "$B/tests/vm/ustackprog" \
	"$out/on.report.json"

echo 0 > /proc/sys/tipme/user_stacks
tap_cmp "user_stacks switched off" "$(cat /proc/sys/tipme/user_stacks)" = 0
run off
tap_on_host tests/vm/host_check.sh --records "$out/off.dump" "$out/off.jsonl" \
	python3 tests/vm/check_ustack.py off "$truth" "$out/off.jsonl"

tap_check "rmmod" rmmod tipme
tap_done
