#!/bin/bash
# vm: timeout=240 share
# Issue 4: block I/O.  A task writes a fresh file on a real block device
# (null_blk with the mq-deadline scheduler, completing by timer interrupt
# 2 ms after issue, with ext4 without a journal on it) and calls fsync: the
# dump must hold the write requests it queued, their issue after that, and
# their completions, and its wakeup must be matched to the completion that
# caused it.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "null_blk: memory backed, timer completions" \
	modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 completion_nsec=2000000 \
	memory_backed=1 gb=1 bs=4096 || tap_done
tap_check "mkfs.ext4 without journal" mkfs.ext4 -q -F -O ^has_journal /dev/nullb0 || tap_done
modprobe ext4
mkdir -p /mnt/nb
tap_check "mount" mount -t ext4 /dev/nullb0 /mnt/nb || tap_done
dev=$(cat /sys/block/nullb0/dev)
tap_check "the device queues requests (mq-deadline)" \
	sh -c 'echo mq-deadline > /sys/block/nullb0/queue/scheduler'
tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
truth=$("$B"/tests/vm/fsyncer /mnt/nb/fresh 512)
tap_cmp "fsyncer ran" "$?" -eq 0
tap_diag "ground truth: $truth (device $dev)"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/blk.dump"
"$B"/tipme records --json "$out/blk.dump" > "$out/blk.jsonl"
tap_cmp "tipme records --json succeeds" "$?" -eq 0
python3 tests/vm/check_instr.py blkio "$truth" "$out/blk.jsonl" "$dev" > "$out/check.tap" 2>&1
tap_merge "$out/check.tap"
pid=$(printf '%s\n' "$truth" | sed -n 's/.*pid=\([0-9]*\).*/\1/p')
"$B"/tipme records --type blk_insert,blk_issue,blk_complete "$out/blk.dump" | head -n 6 | sed 's/^/# /'
tap_check "rmmod" rmmod tipme
umount /mnt/nb
tap_done
