#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report through stacked block devices: ext4 (with its journal) on a
# device-mapper delay target over null_blk, on a loop device over a slow
# null_blk and over a file (a disk image in ext4) there, on dm-crypt
# (LUKS2) over the same, on an LVM logical volume and on md RAID1 over slow
# null_blk devices.  For each stack, a task that
# fsyncs a new file, and a thread waiting on a mutex whose holder fsyncs:
# block_io on the top device (named, with its device-mapper name and the
# device below), the time split into the stacked device's and the device
# below's, >= 95% of the wait accounted (tests/vm/check_stack.py, on the
# host after the guest: tests/vm/stack_check.sh).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/blkstack.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
# report NAME TRUTH PID FROM_NS TO_NS -- CHECK ARGS...: dump, and on the
# host report and check it (tests/vm/stack_check.sh)
report() {
	local name=$1 truth=$2
	tap_diag "$name: ground truth: $truth"
	"$B"/tipme dump -o "$out/$name.dump" > /dev/null
	tap_on_host tests/vm/stack_check.sh "$name" "$truth" "$3" "$4" "$5" "${@:7}"
}
# stack NAME TOPDEV DMNAME BELOW MAPPER_MS DEVICE_MS [OPTION]: both workloads on
# ext4 over /dev/TOPDEV (its inode tables and journal written at once, so
# that no lazy initialisation runs meanwhile); BELOW is the device the
# stack sends its I/O to, or "a|b", any of them; OPTION: check_stack.py's
stack() {
	local name=$1 top=$2 dm=$3 below=$4 ms=("$5" "$6") opt=("${@:7}") t dev
	dev=$(cat "/sys/block/$top/dev")
	tap_check "$name: ext4 on $top" blk_ext4 "$top" "/mnt/$name" || return
	t=$("$B"/tests/vm/fsyncer "/mnt/$name/fsync" 64)
	report "$name-fsync" "$t" "$(kv "$t" pid)" "$(kv "$t" fsync_start_ns)" \
		"$(kv "$t" fsync_end_ns)" -- fsync "$top" "$dm" "$below" "$dev" "${ms[@]}" "${opt[@]}"
	t=$("$B"/tests/vm/lockfsync "/mnt/$name/lock" 64)
	report "$name-mutex" "$t" "$(kv "$t" waiter)" "$(kv "$t" wait_start_ns)" \
		"$(kv "$t" wait_end_ns)" -- mutex "$top" "$dm" "$below" "$dev" "${ms[@]}" "${opt[@]}"
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

# 4. a loop device over a file: a disk image in ext4 on the same device
if blk_image nullb1 /mnt/lower 68 && loop=$(blk_loop /mnt/lower/disk.img); then
	tap_ok "loop: $loop over a file in ext4 on nullb1"
	# (its flushes wait, in the loop's worker, for the journal of the file
	# system below, whose thread writes to nullb1)
	stack loopfile "$loop" - nullb1 0 20
	losetup -d "/dev/$loop"
	umount /mnt/lower
else
	tap_fail "loop over a file in ext4 on nullb1"
fi

# 5. LVM: a linear logical volume over a null_blk device answering in 20 ms
if blk_nullb nullb2 20 80 > /dev/null && top=$(blk_lvm tipmevg nullb2 68); then
	tap_ok "LVM: $top (tipmevg-lv) over nullb2"
	stack lvm "$top" tipmevg-lv nullb2 0 20
	blk_lvm_remove tipmevg
else
	tap_fail "LVM over nullb2, 20 ms completions"
fi

# 6. md RAID1 over two such devices (a write goes to both)
if blk_nullb nullb3 20 80 > /dev/null && blk_nullb nullb4 20 80 > /dev/null &&
	md=$(blk_md md0 nullb3 nullb4); then
	tap_ok "md RAID1: $md over nullb3 and nullb4"
	stack md "$md" - "nullb3|nullb4" 0 20
	mdadm --stop "/dev/$md" > /dev/null 2>&1
else
	tap_fail "md RAID1 over nullb3 and nullb4, 20 ms completions"
fi

tap_check "rmmod" rmmod tipme
tap_done
