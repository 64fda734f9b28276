#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# The catalogue of stalls: every cause tipme report knows, made for real
# in one guest, back to back, each reported three ways -- directly (the
# stalled thread's own stall) and through a chain of depth 2 (a thread
# waiting on a mutex, and one waiting on a pipe, for the thread that
# stalls: tests/vm/progs/catalogue.c) -- and checked on the host after
# the guest (tests/vm/catalogue_check.sh, tests/vm/check_catalogue.py):
# the verdict's cause, culprit and resource, its time within 10% of the
# stall's own measure (the program's: its CPU time, time runnable or
# blocked by the kernel's count, a helper's sleep, the cgroup's counters),
# >= 95% of the interval accounted.  The scenarios: a thread computing;
# behind a real-time hog; throttled by its cgroup's cpu.max; sleeping;
# waiting for a user mutex and for a kernel rwsem whose holder computes;
# stopped; O_DIRECT reads of a slow disk (null_blk), of dm-delay, dm-crypt
# (LUKS2), LVM, md RAID1 and a loop device over slow disks (their time
# split by layer: the device below, dm-delay's delay in the mapper, each
# request below at least its device's delay); fsync on ext4
# over dm-delay; page faults on a cold mapped file there; swap-in; a
# process growing past its memory cgroup's memory.high, without swap and
# with swap on a slow disk (reclaim, and the kernel's penalty sleeps); a
# TCP answer held by netem and one from a local peer that sleeps, and a
# UDP datagram netem holds; a
# pseudo-terminal whose input a kernel worker hands over; a POSIX timer's
# signal awaited, and sigtimedwait() until its timeout; and one the rules
# do not know (a UDP datagram): it may come out unknown, never with a
# wrong culprit.  One dump per scenario.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/blkstack.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cg=/sys/fs/cgroup
ns=tipme-cat
MS=500

tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done

# scen NAME EXPECT... -- KIND ARGS...: run the scenario, dump, and on the
# host report and check it three ways (tests/vm/catalogue_check.sh: EXPECT
# is its CAUSE RESOURCE CULPRIT [OPTIONS])
scen() {
	local name=$1 expect=() t
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do expect+=("$1"); shift; done
	shift
	if ! t=$("$B"/tests/vm/catalogue "$@" 2> "$out/$name.err") || [ -z "$t" ]; then
		tap_fail "$name: catalogue $* ran" "$(cat "$out/$name.err")"
		return 1
	fi
	tap_diag "$name: $t"
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	tap_on_host tests/vm/catalogue_check.sh "$name" "$t" "${expect[@]}"
}
# memres CGROUP: the resources of memory in the cgroup the test made:
# reclaim, and memory.high's penalty sleeps, which name the cgroup and
# its limit
memres() { echo "memory cgroup reclaim|memory\\.high throttling in cgroup $1 \\(high [0-9]+\\.[0-9] MiB\\)"; }
# majmin DEV: its MAJ:MIN
majmin() { cat "/sys/class/block/$1/dev"; }
# bdev DEV [DM-NAME]: the resource block_io names, as a pattern
bdev() {
	if [ -n "${2:-}" ]; then echo "block device $1 \\($2, $(majmin "$1")\\)"
	else echo "block device $1 \\($(majmin "$1")\\)"; fi
}

# -- the CPU
scen running running - subject -- run $MS
scen cpu-contention cpu_contention 'cpu 1' culprit -- contention $MS
if { mountpoint -q $cg || mount -t cgroup2 none $cg; } &&
	echo "+cpu +memory" > $cg/cgroup.subtree_control && mkdir -p $cg/tipme-cpu; then
	# (catalogue sets its cpu.max, 10 ms every 100 ms, as the stall begins)
	scen cpu-throttled cpu_throttled 'cgroup /tipme-cpu' subject -- \
		throttled $cg/tipme-cpu 30
else
	tap_fail "a cgroup v2 with the cpu controller"
fi
scen timer timer '.*sleep.*' subject -- timer $MS
# -- locks and signals
scen lock-futex lock futex culprit -- futex $MS
scen lock-rwsem lock 'rwsem 0x[0-9a-f]+' culprit -- rwsem /dev/shm/tipme-rwsem 96
scen stopped stopped stopped subject -- stopped $MS

# -- block devices: a slow disk, and the stacks over slow disks
disk=$(blk_nullb nullb0 20 64) || tap_fail "null_blk: nullb0, 20 ms"
[ -z "$disk" ] || scen disk-read block_io "$(bdev nullb0)" subject -- read /dev/nullb0 10
if loop=$(blk_loop /dev/nullb0); then
	scen loop-read block_io "$(bdev "$loop")" subject layers=nullb0:0:20 -- \
		read "/dev/$loop" 10
	losetup -d "/dev/$loop"
else
	tap_fail "a loop device over nullb0"
fi
# (dm-delay's 100 ms a bio: an fsync's own CPU time and its journal
# thread's are a small part of its wait, which is the truth)
if blk_nullb nullb1 2 128 > /dev/null && top=$(blk_delay tipme-slow nullb1 100) &&
	blk_ext4 "$top" /mnt/cat; then
	res=$(bdev "$top" tipme-slow)
	scen dmdelay-read block_io "$res" subject layers=nullb1:100:2 -- read "/dev/$top" 4
	scen dmdelay-fsync block_io "$res" subject-or-jbd2 -- fsync /mnt/cat/fsync 64
	dd if=/dev/urandom of=/mnt/cat/data bs=64k count=8 status=none
	sync && echo 3 > /proc/sys/vm/drop_caches
	scen mmap-fault block_io "$res" subject via-fault -- mmap /mnt/cat/data
	umount /mnt/cat
	dmsetup remove tipme-slow
else
	tap_fail "ext4 on dm-delay over nullb1"
fi
if blk_nullb nullb2 20 64 > /dev/null && top=$(blk_crypt tipme-crypt nullb2); then
	scen crypt-read block_io "$(bdev "$top" tipme-crypt)" subject layers=nullb2:0:20 -- \
		read "/dev/$top" 10
	cryptsetup close tipme-crypt
else
	tap_fail "dm-crypt (LUKS2) over nullb2"
fi
if blk_nullb nullb3 20 64 > /dev/null && top=$(blk_lvm tipmevg nullb3 32); then
	scen lvm-read block_io "$(bdev "$top" tipmevg-lv)" subject layers=nullb3:0:20 -- \
		read "/dev/$top" 10
	blk_lvm_remove tipmevg
else
	tap_fail "LVM over nullb3"
fi
if blk_nullb nullb4 20 64 > /dev/null && blk_nullb nullb5 20 64 > /dev/null &&
	md=$(blk_md md0 nullb4 nullb5); then
	scen md-read block_io "$(bdev "$md")" subject 'layers=nullb4|nullb5:0:20' -- \
		read "/dev/$md" 10
	mdadm --stop "/dev/$md" > /dev/null 2>&1
else
	tap_fail "md RAID1 over nullb4 and nullb5"
fi

# -- memory: a process that grows past its cgroup's memory.high (set to
# its memory.current as the stall begins) by 1 MiB: with no swap, reclaim
# cannot bring it back and the kernel makes it sleep on its way back to
# user space; then swap-in from a slow disk, and the same growth with swap
# on a slower disk (200 ms a request), reclaim writing the working set out
# to it
if mkdir -p $cg/tipme-mem && { [ ! -e $cg/tipme-mem/memory.swap.max ] ||
	echo 0 > $cg/tipme-mem/memory.swap.max; }; then
	scen memory memory "$(memres /tipme-mem)" subject high-cgroup=/tipme-mem penalty -- memory $cg/tipme-mem 8 1
else
	tap_fail "memory: a memory cgroup"
fi
if blk_nullb nullb6 20 64 > /dev/null && mkswap -q /dev/nullb6 && swapon /dev/nullb6 &&
	mkdir -p $cg/tipme-swap; then
	scen swap-in block_io "$(bdev nullb6)" subject via-fault swap -- swap $cg/tipme-swap 512
	swapoff /dev/nullb6
else
	tap_fail "swap on nullb6"
fi
# (a disk slower than the growth: what reclaim writes out is still on its
# way when the cgroup is over memory.high again)
if blk_nullb nullb7 200 64 > /dev/null && mkswap -q /dev/nullb7 && swapon /dev/nullb7 &&
	mkdir -p $cg/tipme-mem2; then
	scen memory-disk memory "$(memres /tipme-mem2)" subject high-cgroup=/tipme-mem2 -- memory $cg/tipme-mem2 16 1
	swapoff /dev/nullb7
else
	tap_fail "swap on nullb7"
fi

# -- the network: a veth pair into a namespace; a peer that sleeps, then
# a link netem delays
modprobe veth
modprobe sch_netem
if ip netns add $ns && ip link add tm-a type veth peer name tm-b &&
	ip link set tm-b netns $ns && ip addr add 10.0.0.2/24 dev tm-a && ip link set tm-a up &&
	ip -n $ns addr add 10.0.0.1/24 dev tm-b && ip -n $ns link set tm-b up &&
	ip -n $ns link set lo up; then
	scen net-peer timer '.*sleep.*' culprit -- net /run/netns/$ns 10.0.0.1 sleep $MS
	if ip netns exec $ns tc qdisc add dev tm-b root netem delay ${MS}ms; then
		scen net-link network 'tcp 10\.0\.0\.2:[0-9]+ -> 10\.0\.0\.1:5001' none -- \
			net /run/netns/$ns 10.0.0.1 now
		# a UDP datagram over the same link: no record shows UDP's
		# receive, so unknown, or network with no culprit, never a
		# culprit the dump cannot show
		scen udp-link network 'udp .*' none unexpected -- \
			udplink /run/netns/$ns 10.0.0.2
	else
		tap_fail "netem on tm-b"
	fi
	ip link del tm-a
	ip netns del $ns
else
	tap_fail "a veth pair into network namespace $ns"
fi

# -- a kernel worker between: the tty layer's flush_to_ldisc
scen work-pty timer '.*sleep.*' culprit -- pty $MS
# -- signals a timer sends, and sigtimedwait's own timeout: sleeps the
# thread asked for
scen sigtimer timer do_sigtimedwait subject -- sigtimer $MS
scen sigtimeout timer do_sigtimedwait subject -- sigtimeout $MS
# -- what the rules do not know: unknown, or right
scen udp timer '.*sleep.*' culprit unexpected -- udp $MS

tap_check "rmmod" rmmod tipme
tap_done
