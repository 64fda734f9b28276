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
# The guest loads, loads and dumps and saves `tipme status --json` at
# each point the checks compare; every number is read and compared on the
# host afterwards (tests/vm/pool_check.sh, check_pool.py): under TCG each
# python3 start costs seconds, and the guest started 25 of them.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
BUF=524288
# a flood: about 2.4x BUF of records from one ping-pong on CPU 1
FLOOD=30000

# status NAME: the rings' counters now, in $out/NAME.status.json
status() { "$B"/tipme status --json > "$out/$1.status.json"; }
# pingpong ROUNDS CPU NAME: run it; its truth (pids, start, end) in $out/NAME.pp
pingpong() { "$B"/tests/vm/pingpong "$1" "$2" > "$out/$3.pp"; }
# busy_window NAME: a ping-pong on CPU 1 that writes the buffer twice
# over, the counters before and after it, and a dump
busy_window() {
	status "$1.before"
	pingpong $FLOOD 1 "$1"
	status "$1.after"
	tap_check "$1: dump" "$B"/tipme dump -o "$out/$1.dump"
}

# 1. One busy CPU, with the pool and without.
tap_check "insmod pool=1 (512 KiB, 4 KiB sub-buffers)" \
	insmod module/tipme.ko pool=1 buffer_size=$BUF subbuf_size=4096 || tap_done
tap_cmp "the pool parameter is on" "$(cat /sys/module/tipme/parameters/pool)" = Y
busy_window busy-pool
tap_check "rmmod" rmmod tipme

tap_check "insmod pool=0 (the same 512 KiB as per-CPU rings)" \
	insmod module/tipme.ko pool=0 buffer_size=$BUF subbuf_size=4096 || tap_done
busy_window busy-percpu
tap_check "rmmod" rmmod tipme

# 2. Wrap-around across CPUs.
tap_check "insmod pool=1 again" \
	insmod module/tipme.ko pool=1 buffer_size=$BUF subbuf_size=4096 || tap_done
pingpong 2000 2 cpu2
status cpu2
pingpong $FLOOD 1 wrap
tap_check "dump after CPU 1 wrapped the pool" "$B"/tipme dump -o "$out/wrap.dump"

# 3. CPU 3 offline while recording, and back.
pingpong 300 3 offline
tap_check "CPU 3 offline" sh -c 'echo 0 > /sys/devices/system/cpu/cpu3/online'
tap_check "dump with CPU 3 offline" "$B"/tipme dump -o "$out/offline.dump"
pingpong $FLOOD 1 offline-flood
tap_check "dump after the pool wrapped with CPU 3 offline" "$B"/tipme dump -o "$out/offline2.dump"
tap_check "CPU 3 online" sh -c 'echo 1 > /sys/devices/system/cpu/cpu3/online'
pingpong 300 3 online
tap_check "dump with CPU 3 back" "$B"/tipme dump -o "$out/online.dump"

# 4. Freeze and dump with the pool.  The window must stay frozen until
# the dump, however long the flood takes (47 s seen with the host busy,
# past the 30 s default freeze_timeout_s, which t-freeze tests).
echo 0 > /proc/sys/tipme/trigger_interval_ms
echo 600 > /sys/module/tipme/parameters/freeze_timeout_s
pingpong 300 2 frozen
status frozen.before
echo 1 > /proc/sys/tipme/trigger
# The trigger froze the pool before it returned: from here on, nothing.
status frozen.trigger
pingpong $FLOOD 1 frozen-flood
status frozen.flood
tap_check "dump the frozen window" "$B"/tipme dump -o "$out/frozen.dump"
# The pool is full (wrapped before the trigger): once thawed, the first
# sub-buffer CPU 1 seals takes an old one; 3000 rounds seal some 30, where
# a whole flood (another 12-15 s under TCG) proves nothing more.
pingpong 3000 1 thawed
status thawed

tap_check "rmmod" rmmod tipme
tap_on_host tests/vm/pool_check.sh "$BUF"
tap_done
