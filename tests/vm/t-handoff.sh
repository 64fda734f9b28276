#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# tipme report on work that changes hands (tests/vm/progs/handoff.c): a
# terminal's key echoed through a pty by a program that computes 300 ms;
# a client asking a broker over a unix socket, the broker asking a service
# that computes (or sleeps) 300 ms, the answer relayed back; a UI thread
# handing a job to a worker thread through condition variables (futexes)
# or eventfds.  Each report must charge the client's wait, hop by hop, to
# the task that did the work: with --pid and the client's own interval,
# with --pid and the window before a trigger, and (but for the pty, whose
# terminal waits in poll, an idle wait) without --pid.  The reports and
# their checks run on the host after the guest (tests/vm/handoff_check.sh).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
# one trigger per case, a second apart: none may be coalesced into the last
echo 0 > /proc/sys/tipme/trigger_interval_ms

kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}

for mode in pty relay relay-sleep pool eventfd; do
	if ! t=$("$B"/tests/vm/handoff "$mode" 300); then
		tap_fail "$mode: handoff ran ($t)"
		continue
	fi
	tap_diag "$mode: ground truth: $t"
	echo 1 > /proc/sys/tipme/trigger
	"$B"/tipme dump -o "$out/$mode.dump" > /dev/null
	c=$(kv "$t" client)
	tap_on_host tests/vm/handoff_check.sh "$mode" "$t" "$mode-iv" \
		--pid "$c" --from "$(sec "$(kv "$t" start_ns)")" --to "$(sec "$(kv "$t" end_ns)")"
	tap_on_host tests/vm/handoff_check.sh "$mode" "$t" "$mode-pid" --pid "$c"
	[ "$mode" = pty ] ||
		tap_on_host tests/vm/handoff_check.sh "$mode" "$t" "$mode-auto" --window 1000
done

tap_check "rmmod" rmmod tipme
tap_done
