#!/bin/bash
# vm: timeout=240 cpu=qemu64,+invtsc,vendor=GenuineIntel
# cpu_throttled: a waiter reads a pipe that a child in a cgroup v2 with
# cpu.max "10000 100000" writes once it has computed 40 ms: the child is
# throttled for most of the wait, and the report says so, with the
# cgroup, its quota and period (the kernel's own cpu.stat is the ground
# truth); a thread of the same cgroup woken by its timer while the
# group is throttled (it waits for the next period: the dump lists the
# cgroup's threads); and the negative: the same child sleeping 300 ms
# instead is a timer, not throttling.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cg=/sys/fs/cgroup
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}

# the clock as it comes: a kernel whose TSC the guest does not call
# constant (7.2 here) falls back to local_clock()
tap_check "insmod" insmod module/tipme.ko buffer_size=32M || tap_done
if ! { mountpoint -q $cg || mount -t cgroup2 none $cg; } ||
	! echo +cpu > $cg/cgroup.subtree_control || ! mkdir -p $cg/tipme-quota ||
	! echo "10000 100000" > $cg/tipme-quota/cpu.max; then
	tap_fail "a cgroup v2 with cpu.max"
	tap_done
fi

# report CASE TRUTH NAME [PID]: dump now (the cgroup still there, so the dump
# names it); report and check on the host
report() {
	tap_diag "$1: ground truth: $2"
	"$B"/tipme dump -o "$out/$3.dump" > /dev/null
	tap_on_host tests/vm/report_check.sh "$1" "$2" "$3" --pid "${4:-$(kv "$2" waiter)}" \
		--from "$(sec "$(kv "$2" "${5:-start_ns}")")" --to "$(sec "$(kv "$2" woke_ns)")" \
		-- /tipme-quota 10000 100000
}

t=$("$B"/tests/vm/quota $cg/tipme-quota spin 40)
tap_check "quota: the throttled child ran" test -n "$t"
report quota "$t" quota

t=$("$B"/tests/vm/quota $cg/tipme-quota sleep 300)
tap_check "quota: the sleeping child ran" test -n "$t"
report quota-neg "$t" quota-neg

# the ticker: its latest wakeup, from its deadline until it ran; the
# program keeps its children alive until the dump is taken
fifo=/tmp/tick.fifo
mkfifo $fifo
"$B"/tests/vm/quota $cg/tipme-quota tick 600 > $fifo &
qp=$!
read -r t < $fifo
tap_check "quota: the ticker ran" test -n "$t"
report quota-woken "$t" quota-woken "$(kv "$t" ticker)" deadline_ns
kill "$qp"	# its children die with it
wait "$qp"

tap_check "rmmod" rmmod tipme
tap_done
