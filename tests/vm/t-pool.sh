#!/bin/bash
# vm: timeout=600 smp=4
# pool=1: every CPU's ring draws sub-buffers from one pool, so the history
# kept is the machine's newest buffer_size bytes, whatever CPU wrote them.
#  1. One CPU busy (a ping-pong pinned to CPU 1), the rest idle, the load
#     writing the buffer more than twice over.  With the pool the idle
#     CPUs hold no more sub-buffers than the bytes they wrote during the
#     load fill, plus the one each is writing (their older ones went to
#     the busy CPU), the busy CPU keeps the rest, at least half the buffer,
#     and the dump's common window starts at the busy CPU's oldest record
#     or within its oldest sub-buffer (no other CPU cuts it shorter than
#     that).  Per-CPU rings (pool=0) keep the busy
#     CPU its quarter (4 CPUs), at most half of what the pool kept it.
#     Seen: 89-106 of 128 sub-buffers with the pool, 31-32 without.
#     Counted in bytes, not seconds: the window's length over the load's
#     average rate is printed against issue 31's goal (0.9x; seen
#     0.68x-0.85x pooled, 0.16x-0.39x per CPU) but not asserted: under TCG
#     on a busy host the guest's speed, hence the rate, varies within the
#     load (CI once saw 0.39x per CPU).
#  2. Wrap-around across CPUs: a marker on CPU 2, then CPU 1 wraps the
#     pool: CPU 2's records are counted overwritten (its sub-buffers went
#     to CPU 1), and the dump still decodes every CPU in order.
#  3. CPU 3 goes offline while recording: its sub-buffers stay readable
#     (its marker is in the next dump); online again, it records on.
#  4. A trigger freezes the pool: a flood that would wrap it is dropped,
#     the dump holds the marker from before the trigger, and thaws it.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
BUF=524288
# a flood: about 2.4x BUF of records from one ping-pong on CPU 1
FLOOD=30000

cpu_status() { # CPU KEY: KEY of CPU's entry in tipme status
	"$B"/tipme status --json | python3 tests/lib/jsonq.py sumif - cpus "$2" cpu "$1"
}
dump_cpu() { # INFO_JSON CPU KEY
	python3 tests/vm/check_pool.py cpu "$1" "$2" "$3"
}
pingpong() { # ROUNDS CPU: run it, set $parent $child $start $end
	local truth
	truth=$("$B"/tests/vm/pingpong "$1" "$2")
	parent=$(sed -n 's/.*parent=\([0-9]*\).*/\1/p' <<<"$truth")
	child=$(sed -n 's/.*child=\([0-9]*\).*/\1/p' <<<"$truth")
	start=$(sed -n 's/.*start=\([0-9.]*\).*/\1/p' <<<"$truth")
	end=$(sed -n 's/.*end=\([0-9.]*\).*/\1/p' <<<"$truth")
}
marker_switches() { # DUMP PARENT CHILD
	"$B"/tipme records --json "$1" | python3 tests/vm/switches.py "$2" "$3"
}
# The busy CPU's window: a ping-pong on CPU 1 that writes the buffer
# twice over; sets $ratio (kept over buffer / the machine's bytes per
# second of the load), $busy_ratio (over buffer / CPU 1's) and $idle_bytes
# (what the other CPUs wrote meanwhile).
busy_window() { # NAME
	local b0 b1 m0 m1
	b0=$(cpu_status 1 bytes)
	m0=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus bytes)
	pingpong $FLOOD 1
	b1=$(cpu_status 1 bytes)
	m1=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus bytes)
	tap_diag "$1: CPU 1 wrote $((b1 - b0)) bytes, all CPUs $((m1 - m0)), in $start .. $end"
	idle_bytes=$((m1 - m0 - (b1 - b0)))
	tap_cmp "$1: the load wrote the buffer more than once over" \
		"$((b1 - b0))" -gt $((BUF * 3 / 2))
	tap_check "$1: dump" "$B"/tipme dump -o "$out/$1.dump"
	"$B"/tipme info --json "$out/$1.dump" >"$out/$1.json"
	ratio=$(python3 tests/vm/check_pool.py window "$out/$1.json" \
		"$start" "$end" $((m1 - m0)) "$BUF" 2>"$out/$1.window")
	tap_diag "$1: all CPUs: $(cat "$out/$1.window"): ${ratio}x"
	busy_ratio=$(python3 tests/vm/check_pool.py window "$out/$1.json" \
		"$start" "$end" $((b1 - b0)) "$BUF" 2>"$out/$1.window")
	tap_diag "$1: CPU 1 alone: $(cat "$out/$1.window"): ${busy_ratio}x"
}

# 1. One busy CPU, with the pool and without.
tap_check "insmod pool=1 (512 KiB, 4 KiB sub-buffers)" \
	insmod module/tipme.ko pool=1 buffer_size=$BUF subbuf_size=4096 || tap_done
tap_cmp "the pool parameter is on" "$(cat /sys/module/tipme/parameters/pool)" = Y
busy_window busy-pool
pool_subbufs=$(dump_cpu "$out/busy-pool.json" 1 subbufs)
idle_subbufs=$(python3 tests/lib/jsonq.py sum "$out/busy-pool.json" cpus subbufs)
idle_subbufs=$((idle_subbufs - pool_subbufs))
tap_diag "pool: the common window covers ${ratio}x of buffer / the machine's rate, ${busy_ratio}x of buffer / CPU 1's (issue 31's goal: 0.9x)"
tap_cmp "pool: the idle CPUs hold no more than they wrote during the load, plus their current sub-buffer ($idle_subbufs sub-buffers for $idle_bytes bytes)" \
	"$idle_subbufs" -le $(((idle_bytes + 4095) / 4096 + 3))
tap_cmp "pool: the busy CPU keeps >= half the buffer ($pool_subbufs of $((BUF / 4096)) sub-buffers)" \
	"$((pool_subbufs * 4096 * 2))" -ge $BUF
# The window starts where the busy CPU's records start, or a little later:
# an idle CPU may have given up a sub-buffer that ended while the busy
# CPU's oldest kept one was being written (the pool takes the sub-buffer
# sealed first), so within that one, about (last - first) / sub-buffers.
wstart=$(python3 tests/lib/jsonq.py get "$out/busy-pool.json" common_window.start_mono_ns)
first1=$(dump_cpu "$out/busy-pool.json" 1 first_mono_ns)
last1=$(dump_cpu "$out/busy-pool.json" 1 last_mono_ns)
span1=$(((last1 - first1) / pool_subbufs))
tap_cmp "pool: the common window starts at the busy CPU's oldest record" "$wstart" -ge "$first1"
tap_cmp "... or within its oldest sub-buffer ($(((wstart - first1) / 1000)) us later; 2 x $((span1 / 1000)) us at most)" \
	"$((wstart - first1))" -le $((2 * span1))
tap_cmp "the busy CPU lost its oldest records (the pool wrapped)" \
	"$(dump_cpu "$out/busy-pool.json" 1 stats.overwritten)" -gt 0
tap_check "rmmod" rmmod tipme

tap_check "insmod pool=0 (the same 512 KiB as per-CPU rings)" \
	insmod module/tipme.ko pool=0 buffer_size=$BUF subbuf_size=4096 || tap_done
busy_window busy-percpu
percpu_subbufs=$(dump_cpu "$out/busy-percpu.json" 1 subbufs)
tap_diag "per-CPU rings: the common window covers ${ratio}x of buffer / the machine's rate, ${busy_ratio}x of buffer / CPU 1's"
tap_cmp "per-CPU rings: the busy CPU keeps at most its quarter ($percpu_subbufs sub-buffers)" \
	"$percpu_subbufs" -le $((BUF / 4096 / 4))
tap_cmp "per-CPU rings: at most half of what the pool kept it ($percpu_subbufs against $pool_subbufs)" \
	"$((percpu_subbufs * 2))" -le "$pool_subbufs"
tap_check "rmmod" rmmod tipme

# 2. Wrap-around across CPUs.
tap_check "insmod pool=1 again" \
	insmod module/tipme.ko pool=1 buffer_size=$BUF subbuf_size=4096 || tap_done
pingpong 2000 2
over2=$(cpu_status 2 overwritten)
tap_cmp "a marker on CPU 2 alone overwrites none of its records" "$over2" -eq 0
pingpong $FLOOD 1
tap_check "dump after CPU 1 wrapped the pool" "$B"/tipme dump -o "$out/wrap.dump"
tap_check "the dump decodes, every CPU in order" \
	sh -c "'$B'/tipme info --json '$out/wrap.dump' >'$out/wrap.json'"
tap_cmp "CPU 2's records went with its sub-buffers to CPU 1 (overwritten)" \
	"$(dump_cpu "$out/wrap.json" 2 stats.overwritten)" -gt 0
tap_cmp "and CPU 2 dropped none" "$(dump_cpu "$out/wrap.json" 2 stats.dropped)" -eq 0

# 3. CPU 3 offline while recording, and back.
pingpong 300 3
tap_check "CPU 3 offline" sh -c 'echo 0 > /sys/devices/system/cpu/cpu3/online'
tap_check "dump with CPU 3 offline" "$B"/tipme dump -o "$out/offline.dump"
n=$(marker_switches "$out/offline.dump" "$parent" "$child")
tap_cmp "CPU 3's marker is still readable ($n switches for 300 rounds)" "$n" -ge 600
pingpong $FLOOD 1
tap_check "dump after the pool wrapped with CPU 3 offline" \
	sh -c "'$B'/tipme dump -o '$out/offline2.dump' && '$B'/tipme info '$out/offline2.dump' >/dev/null"
tap_check "CPU 3 online" sh -c 'echo 1 > /sys/devices/system/cpu/cpu3/online'
pingpong 300 3
tap_check "dump with CPU 3 back" "$B"/tipme dump -o "$out/online.dump"
n=$(marker_switches "$out/online.dump" "$parent" "$child")
tap_cmp "CPU 3 records again ($n switches for 300 rounds)" "$n" -ge 600

# 4. Freeze and dump with the pool.
echo 0 > /proc/sys/tipme/trigger_interval_ms
pingpong 300 2
mparent=$parent mchild=$child
dropped0=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus dropped)
echo 1 > /proc/sys/tipme/trigger
# The trigger froze the pool before it returned: from here on, nothing.
over0=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus overwritten)
pingpong $FLOOD 1
dropped1=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus dropped)
over1=$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus overwritten)
tap_cmp "frozen: the flood was dropped" "$dropped1" -gt "$dropped0"
tap_cmp "frozen: nothing was overwritten" "$over1" -eq "$over0"
tap_check "dump the frozen window" "$B"/tipme dump -o "$out/frozen.dump"
n=$(marker_switches "$out/frozen.dump" "$mparent" "$mchild")
tap_cmp "the frozen dump holds the marker from before the trigger ($n)" "$n" -ge 600
pingpong $FLOOD 1
tap_cmp "thawed by the dump: a flood overwrites again" \
	"$("$B"/tipme status --json | python3 tests/lib/jsonq.py sum - cpus overwritten)" -gt "$over1"

tap_check "rmmod" rmmod tipme
tap_done
