#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report on page faults that wait for I/O: a thread reading a cold
# mmap'ed file on ext4 over a device-mapper delay target (every bio held
# 30 ms) over null_blk (2 ms); a thread faulting on a page another thread
# of its process is reading; and anonymous memory paged out to a swap
# device (null_blk, 20 ms per request) by the reclaim of its memory cgroup
# (memory.reclaim) or by a memory hog's pressure, and faulted back in.  Each is block_io via a page fault, on the mapped
# file (its device and inode) or swap, the culprit the thread that read
# it, within 10% of the time the workload measured waiting (its reads of a
# page that took 1 ms or more), >= 95% of the interval accounted
# (tests/vm/check_fault.py).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/blkstack.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cg=/sys/fs/cgroup

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}
# report NAME TRUTH PID FROM_NS TO_NS -- CHECK ARGS...
report() {
	local name=$1 truth=$2 pid=$3 from=$4 to=$5
	shift 6
	tap_diag "$name: ground truth: $truth"
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	"$B"/tipme report --json --pid "$pid" --from "$(sec "$from")" --to "$(sec "$to")" \
		"$out/$name.dump" > "$out/$name.json"
	tap_cmp "$name: tipme report --json succeeds" "$?" -eq 0
	"$B"/tipme report --pid "$pid" --from "$(sec "$from")" --to "$(sec "$to")" \
		"$out/$name.dump" > "$out/$name.txt" 2>&1
	sed -n '1,3s/^/# /p' "$out/$name.txt"
	python3 tests/vm/check_fault.py "$name" "$truth" "$out/$name.json" "$@" \
		> "$out/$name.tap" 2>&1
	tap_merge "$out/$name.tap"
}
# cold: every file's pages out of the page cache (faulter counts what is left)
cold() { sync && echo 3 > /proc/sys/vm/drop_caches; }

nb0=$(blk_nullb nullb0 2 1024) || { tap_fail "null_blk: nullb0, 2 ms completions"; tap_done; }
tap_ok "null_blk: $nb0, 2 ms completions"

# 1. a cold mmap'ed file on ext4 over dm-delay (30 ms per bio)
if top=$(blk_delay tipme-slow nullb0 30); then
	dev=$(cat "/sys/block/$top/dev")
	tap_ok "dm-delay: $top over nullb0"
	if blk_ext4 "$top" /mnt/fault &&
		dd if=/dev/urandom of=/mnt/fault/data bs=64k count=16 status=none; then
		tap_ok "ext4 on $top, a 1 MiB file"
		tap_check "the page cache dropped" cold
		t=$("$B"/tests/vm/faulter file /mnt/fault/data)
		tap_cmp "mmap: none of the file was in memory" "$(kv "$t" resident)" -eq 0
		report mmap "$t" "$(kv "$t" pid)" "$(kv "$t" start_ns)" "$(kv "$t" end_ns)" \
			-- file "$top" tipme-slow "$dev"
		tap_check "the page cache dropped again" cold
		t=$("$B"/tests/vm/faulter shared /mnt/fault/data)
		# it begins once it saw the reader in D, polling /proc: a slow
		# guest has seen that 24 ms into the 30 ms read (make check: 6.2
		# ms waited); a cached page takes microseconds
		tap_cmp "shared: the waiter waited for the read (ns)" \
			$(( $(kv "$t" wait_end_ns) - $(kv "$t" wait_start_ns) )) -ge 1000000
		report shared "$t" "$(kv "$t" waiter)" "$(kv "$t" wait_start_ns)" \
			"$(kv "$t" wait_end_ns)" -- shared "$top" tipme-slow "$dev"
		umount /mnt/fault
	else
		tap_fail "ext4 on $top, a 1 MiB file"
	fi
	dmsetup remove tipme-slow
else
	tap_fail "dm-delay over nullb0"
fi

# 2. swap on a null_blk device answering in 20 ms (made in configfs)
if blk_nullb nullb1 20 64 > /dev/null &&
	mkswap -q /dev/nullb1 && swapon /dev/nullb1 &&
	{ mountpoint -q $cg || mount -t cgroup2 none $cg; } &&
	echo +memory > $cg/cgroup.subtree_control && mkdir -p $cg/fault; then
	tap_ok "swap on nullb1, 20 ms completions; a memory cgroup"
	t=$(sh -c "echo \$\$ > $cg/fault/cgroup.procs &&
		exec $B/tests/vm/faulter swap 1024 $cg/fault/memory.reclaim")
	tap_cmp "swap: the pages left memory ($(kv "$t" out) of $(kv "$t" pages))" \
		"$(kv "$t" out)" -ge "$(( $(kv "$t" pages) / 2 ))"
	report swap "$t" "$(kv "$t" pid)" "$(kv "$t" start_ns)" "$(kv "$t" end_ns)" \
		-- swap nullb1 - "$(cat /sys/block/nullb1/dev)"
	# the same pages pushed out by a memory hog: its 3 MiB in a cgroup
	# of 2 MiB
	if mkdir -p $cg/hog && echo 2M > $cg/hog/memory.max; then
		t=$(sh -c "echo \$\$ > $cg/hog/cgroup.procs && exec $B/tests/vm/faulter hog 1024")
		tap_cmp "hog: a memory hog pushed the pages out ($(kv "$t" out) of $(kv "$t" pages))" \
			"$(kv "$t" out)" -ge "$(( $(kv "$t" pages) / 2 ))"
		report swaphog "$t" "$(kv "$t" pid)" "$(kv "$t" start_ns)" "$(kv "$t" end_ns)" \
			-- swap nullb1 - "$(cat /sys/block/nullb1/dev)"
	else
		tap_fail "a memory cgroup of 2 MiB for the hog"
	fi
	swapoff /dev/nullb1
else
	tap_fail "swap on nullb1, 20 ms completions; a memory cgroup"
fi

tap_check "rmmod" rmmod tipme
tap_done
