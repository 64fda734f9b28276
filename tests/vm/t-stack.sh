#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report through stacked block devices: ext4 (with its journal) on a
# device-mapper delay target over null_blk, on a loop device over a slow
# null_blk, and on dm-crypt (LUKS2) over the same.  For each stack, a task that fsyncs a new file, and a
# thread waiting on a mutex whose holder fsyncs: block_io on the top
# device (named, with its device-mapper name and the device below), the
# time split into the mapper's and the device below's, >= 95% of the
# wait accounted (tests/vm/check_stack.py).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/blkstack.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

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
	python3 tests/vm/check_stack.py "$name" "$truth" "$out/$name.json" "$@" \
		> "$out/$name.tap" 2>&1
	tap_merge "$out/$name.tap"
}
# stack NAME TOPDEV DMNAME BELOW MAPPER_MS DEVICE_MS: both workloads on
# ext4 over /dev/TOPDEV (its inode tables and journal written at once, so
# that no lazy initialisation runs meanwhile)
stack() {
	local name=$1 top=$2 dm=$3 below=$4 ms=("$5" "$6") t dev
	dev=$(cat "/sys/block/$top/dev")
	tap_check "$name: ext4 on $top" blk_ext4 "$top" "/mnt/$name" || return
	t=$("$B"/tests/vm/fsyncer "/mnt/$name/fsync" 64)
	report "$name-fsync" "$t" "$(kv "$t" pid)" "$(kv "$t" fsync_start_ns)" \
		"$(kv "$t" fsync_end_ns)" -- fsync "$top" "$dm" "$below" "$dev" "${ms[@]}"
	t=$("$B"/tests/vm/lockfsync "/mnt/$name/lock" 64)
	report "$name-mutex" "$t" "$(kv "$t" waiter)" "$(kv "$t" wait_start_ns)" \
		"$(kv "$t" wait_end_ns)" -- mutex "$top" "$dm" "$below" "$dev" "${ms[@]}"
	umount "/mnt/$name"
}

# the device below: memory, every request 2 ms
nb0=$(blk_nullb nullb0 2 1024) || { tap_fail "null_blk: nullb0, 2 ms completions"; tap_done; }
tap_ok "null_blk: $nb0, 2 ms completions"

# 1. device-mapper delay: every bio held 30 ms by the target, then sent on
if top=$(blk_delay tipme-slow nullb0 30); then
	tap_ok "dm-delay: $top over nullb0"
	stack dmdelay "$top" tipme-slow nullb0 30 2
	dmsetup remove tipme-slow
else
	tap_fail "dm-delay over nullb0"
fi

# 2. a loop device (direct I/O: the loop's worker reads and writes the
# device below itself) over a null_blk device answering in 20 ms
nb1=$(blk_nullb nullb1 20 256 512) || { tap_fail "null_blk: nullb1, 20 ms completions"; tap_done; }
tap_ok "null_blk: $nb1, 20 ms completions"
if loop=$(blk_loop /dev/nullb1); then
	tap_ok "loop: $loop over nullb1"
	stack loop "$loop" - nullb1 0 20
	losetup -d "/dev/$loop"
else
	tap_fail "loop over nullb1"
fi

# 3. dm-crypt: LUKS2 over the same device
if top=$(blk_crypt tipme-crypt nullb1); then
	tap_ok "dm-crypt: $top over nullb1"
	stack crypt "$top" tipme-crypt nullb1 0 20
	cryptsetup close tipme-crypt
else
	tap_fail "dm-crypt (LUKS2) over nullb1"
fi

tap_check "rmmod" rmmod tipme
tap_done
