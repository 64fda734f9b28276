#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report against stalls whose cause the test creates: a victim
# behind a real-time hog (cpu_contention), a pipe whose writer sleeps
# (timer, through the chain), a stopped child (stopped), fsync on a slow
# device (block_io), a memory cgroup over its limit (memory), two threads
# on one inode's rwsem (lock); and the interval chosen without --pid: a
# stall, and a key press the kernel saw (no X dump).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cg=/sys/fs/cgroup

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done

# report CASE TRUTH NAME [REPORT ARGS...] -- [CHECK EXTRA...]: dump now;
# the report and its check run on the host after the guest
# (tests/vm/report_check.sh, natively)
report() {
	tap_diag "$1: ground truth: $2"
	"$B"/tipme dump -o "$out/$3.dump" > /dev/null
	tap_on_host tests/vm/report_check.sh "$@"
}
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
# sec NS: nanoseconds as seconds with 9 decimals
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}

# 1. cpu_contention: the victim waits on a server a SCHED_FIFO hog keeps off its CPU
t=$("$B"/tests/vm/stall 300)
report cpu "$t" cpu --pid "$(kv "$t" victim)" --from "$(kv "$t" start)" --to "$(kv "$t" end)"
# the same stall as a leg: the server, woken, waited its whole stall for a CPU
tap_on_host tests/vm/host_check.sh sh -c '"$1"/tipme legs --json --from waking --to switch-in "$2" > "$3" &&
	python3 tests/vm/check_legs.py sched "$3" "$4" "$5"' legs "$B" "$out/cpu.dump" "$out/cpu-legs.json" \
	"$(kv "$t" server)" "$(kv "$t" latency_ms)"

# 2. timer, through the chain: the reader waits for a writer that sleeps 300 ms
t=$("$B"/tests/vm/blockpipe 300)
report timer "$t" timer --pid "$(kv "$t" reader)" --from "$(sec "$(kv "$t" blocked_seen_ns)")" \
	--to "$(sec "$(kv "$t" woke_ns)")"

# 3. stopped: the parent waits for a child stopped for 400 ms
t=$("$B"/tests/vm/stopper 400)
report stopped "$t" stopped --pid "$(kv "$t" parent)" --from "$(sec "$(kv "$t" from_ns)")" \
	--to "$(sec "$(kv "$t" to_ns)")"

# 4. block_io: fsync on null_blk completing every request 20 ms after issue,
# with mq-deadline (requests are queued before they are issued)
if modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 completion_nsec=20000000 \
	memory_backed=1 gb=1 bs=4096 &&
	echo mq-deadline > /sys/block/nullb0/queue/scheduler &&
	mkfs.ext4 -q -F -O ^has_journal /dev/nullb0 &&
	modprobe ext4 && mkdir -p /mnt/nb && mount -t ext4 /dev/nullb0 /mnt/nb; then
	dev=$(cat /sys/block/nullb0/dev)
	t=$("$B"/tests/vm/fsyncer /mnt/nb/fresh 256)
	report blkio "$t" blkio --pid "$(kv "$t" pid)" --from "$(sec "$(kv "$t" fsync_start_ns)")" \
		--to "$(sec "$(kv "$t" fsync_end_ns)")" -- "$dev" 20
	# every request's device time as a leg: at least the 20 ms the device takes
	tap_on_host tests/vm/host_check.sh sh -c '"$1"/tipme legs --json --by all --from blk-issue \
		--to blk-complete "$2" > "$3" && python3 tests/vm/check_legs.py blk "$3"' \
		legs "$B" "$out/blkio.dump" "$out/blk-legs.json"
	umount /mnt/nb
else
	tap_fail "block_io: a null_blk device with ext4"
fi

# 5. memory: 64 MiB touched in a memory cgroup limited to 24 MiB, swap on zram
if modprobe zram && echo 256M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null &&
	swapon /dev/zram0 && { mountpoint -q $cg || mount -t cgroup2 none $cg; } &&
	echo +memory > $cg/cgroup.subtree_control && mkdir -p $cg/tipme &&
	echo 24M > $cg/tipme/memory.max; then
	t=$(sh -c "echo \$\$ > $cg/tipme/cgroup.procs && exec $B/tests/vm/memhog 64 2")
	"$B"/tipme dump -o "$out/mem-recs.dump" > /dev/null
	"$B"/tipme records --json --pid "$(kv "$t" pid)" \
		--type reclaim_begin,reclaim_end,sched_switch,sched_waking "$out/mem-recs.dump" > "$out/mem.jsonl"
	report mem "$t" mem --pid "$(kv "$t" pid)" --from "$(sec "$(kv "$t" start_ns)")" \
		--to "$(sec "$(kv "$t" end_ns)")" -- "$out/mem.jsonl"
else
	tap_fail "memory: a memory cgroup and swap"
fi

# 6. lock: two threads rewriting one file hold its inode rwsem in turn
t=$("$B"/tests/vm/contend /tmp/contend.dat 1)
# (the interval is the threads' own: a window before the dump would miss
# them on a slow machine, where the dump comes long after they exited)
report lock "$t" lock --pid "$(kv "$t" tid1)" --from "$(kv "$t" start)" --to "$(kv "$t" end)" \
	-- "$(kv "$t" tid1)" "$(kv "$t" tid2)"

# 7. no --pid: a stall, then a trigger; the report finds it by itself
t=$("$B"/tests/vm/stall 300)
echo 1 > /proc/sys/tipme/trigger
report auto "$t" auto --window 1000

# 8. no --pid, no X dump: a key press whose reader waits for a sleeping helper
# (evdev makes the /dev/input/event* the reader opens)
modprobe uinput
modprobe evdev
"$B"/tests/vm/evreader "tipme test keyboard" 200 > "$out/evreader.out" 2> "$out/evreader.err" &
reader=$!
"$B"/tests/vm/vkbd --settle-ms 3000 a > /dev/null
wait "$reader"
tap_check "kinput: the reader handled the press" grep -q '^handled' "$out/evreader.out"
echo 1 > /proc/sys/tipme/trigger
report kinput "$(sed -n 's/^handled //p' "$out/evreader.out")" kinput --window 5000

tap_check "rmmod" rmmod tipme
tap_done
