#!/bin/bash
# vm: timeout=900 mem=2048
# Inside the guest of bench/pool-window.sh: one CPU busy (bench/vm/poolwin,
# a ping-pong pinned to CPU 1), the others idle, under each of tipme with
# pool=1, tipme with pool=0 (per-CPU rings) and ftrace's per-CPU rings, all
# of BUF bytes in total, one after the other in this one boot.
#
#   tests/vm/vm.sh --smp N bench/vm/pool-window-guest.sh BUF [SUBBUF] [LAPS]
#
# Recording stops when the load ends (tipme stop, ftrace's tracing_on),
# so the counters and the dump that follow see the rings as the load left
# them.
#
# Per tracer: a short run of the load measures the busy CPU's bytes per
# round with that tracer, then the load runs long enough for the busy CPU
# to write LAPS (default 2) times what that tracer can keep of it at most
# (the whole buffer with the pool, its CPU's share with per-CPU rings).
# Into TIPME_OUT, for the host (bench/vm/pool_window.py): NAME.load.json
# (the load's progress over time), the counters before and after it
# (NAME.before.*, NAME.after.*: `tipme status --json`, or ftrace's per-CPU
# stats), and tipme's dump NAME.dump taken right after the load.
# SUBBUF, when given, is tipme's subbuf_size (the module's default else).
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
buf=${1:?BUF}
subbuf=${2:-}
laps=${3:-2}
ncpu=$(nproc)
T=/sys/kernel/tracing
CAL=4000
busy=1

# The tracepoints tipme attaches to (as bench/tracers/guest.py's EVENTS).
EVENTS="sched/sched_switch sched/sched_waking sched/sched_process_exec
sched/sched_process_exit task/task_newtask task/task_rename
block/block_rq_insert block/block_rq_issue block/block_rq_complete
lock/contention_begin lock/contention_end
vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_vmscan_direct_reclaim_end
vmscan/mm_vmscan_memcg_reclaim_begin vmscan/mm_vmscan_memcg_reclaim_end
vmscan/mm_vmscan_kswapd_wake vmscan/mm_vmscan_wakeup_kswapd
vmscan/mm_vmscan_throttled"

die() { echo "pool-window-guest: $*" >&2; exit 1; }

counters() { # NAME.WHEN: every CPU's counters (one process: 64 vCPUs are slow)
	if [ "$tracer" = ftrace ]; then
		grep -H . "$T"/per_cpu/cpu*/stats >"$out/$1.ftrace"
	else
		"$B"/tipme status --json >"$out/$1.status.json" || die "tipme status"
	fi
}
busy_bytes() { # FILE-PREFIX: the busy CPU's bytes so far (tipme), or events
	if [ "$tracer" = ftrace ]; then
		awk -F: -v f="$T/per_cpu/cpu$busy/stats" \
			'$1 == f && ($2 == "entries" || $2 == "overrun") { n += $3 } END { print n }' \
			"$out/$1.ftrace"
	else
		python3 tests/lib/jsonq.py sumif "$out/$1.status.json" cpus bytes cpu $busy
	fi
}
# The bytes an event takes in ftrace's ring on the busy CPU (its buffer's
# bytes over its entries), once its ring holds some.
ftrace_event_bytes() { # FILE-PREFIX
	awk -F: -v f="$T/per_cpu/cpu$busy/stats" \
		'$1 == f && $2 == "bytes" { b = $3 } $1 == f && $2 == "entries" { e = $3 }
		END { print (e ? int(b / e) : 0) }' "$out/$1.ftrace"
}
# Recording off: what the rings hold is the load's end, whatever the
# counters and the dump write afterwards.
pause() {
	if [ "$tracer" = ftrace ]; then
		echo 0 >"$T/tracing_on"
	else
		"$B"/tipme stop >/dev/null || die "tipme stop"
	fi
}

events() { # 1 or 0: ftrace's events on or off
	for e in $EVENTS; do
		if [ -e "$T/events/$e/enable" ]; then echo "$1" >"$T/events/$e/enable"; fi
	done
}
setup() {
	case $tracer in
	pool1|pool0)
		insmod module/tipme.ko buffer_size="$buf" pool=${tracer#pool} \
			${subbuf:+subbuf_size=$subbuf} || die "insmod $tracer"
		grep . /sys/module/tipme/parameters/* >"$out/$tracer.params"
		;;
	ftrace)
		[ -d "$T/events" ] || mount -t tracefs nodev "$T"
		echo 0 >"$T/tracing_on"
		echo mono >"$T/trace_clock"
		echo $((buf / 1024 / ncpu)) >"$T/buffer_size_kb"
		events 1
		echo >"$T/trace"
		echo 1 >"$T/tracing_on"
		;;
	esac
}
teardown() {
	case $tracer in
	pool1|pool0) rmmod tipme ;;
	ftrace)
		echo 0 >"$T/tracing_on"
		events 0
		echo >"$T/trace"
		echo 1408 >"$T/buffer_size_kb"
		;;
	esac
}

for tracer in pool1 pool0 ftrace; do
	setup
	# bytes (ftrace: events) per round on the busy CPU with this tracer
	counters "$tracer.cal0"
	"$B"/bench/poolwin $busy $CAL >/dev/null || die "poolwin"
	counters "$tracer.cal1"
	per=$(( $(busy_bytes "$tracer.cal1") - $(busy_bytes "$tracer.cal0") ))
	if [ "$tracer" = ftrace ]; then
		per=$((per * $(ftrace_event_bytes "$tracer.cal1")))
	fi
	keep=$buf
	[ "$tracer" = pool1 ] || keep=$((buf / ncpu))
	rounds=$((keep * laps * CAL / (per > 0 ? per : 1) + 1000))
	echo "# $tracer: $((per / CAL)) bytes per round on CPU $busy: $rounds rounds"
	counters "$tracer.before"
	"$B"/bench/poolwin $busy $rounds 500 >"$out/$tracer.load.json" || die "poolwin"
	pause
	counters "$tracer.after"
	if [ "$tracer" != ftrace ]; then
		"$B"/tipme dump -o "$out/$tracer.dump" >/dev/null || die "tipme dump"
	fi
	teardown
	echo "# $tracer: done"
done
echo "{\"cpus\": $ncpu, \"buffer\": $buf, \"kernel\": \"$(uname -r)\", \"laps\": $laps}" \
	>"$out/guest.json"
