#!/bin/bash
# vm: timeout=240
# Issue 4: memory pressure.  A task touches 64 MiB of anonymous memory in a
# memory cgroup limited to 24 MiB, with swap on zram: its page faults must
# reclaim.  The dump must show memory cgroup reclaim by that task, begun
# from the page fault handler.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cg=/sys/fs/cgroup

tap_check "zram swap" sh -c 'modprobe zram && echo 256M > /sys/block/zram0/disksize &&
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0' || tap_done
mountpoint -q "$cg" || mount -t cgroup2 none "$cg"
tap_check "memory cgroup limited to 24M" sh -c "echo +memory > $cg/cgroup.subtree_control &&
	mkdir -p $cg/tipme && echo 24M > $cg/tipme/memory.max" || tap_done
tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
truth=$(sh -c "echo \$\$ > $cg/tipme/cgroup.procs && exec $B/tests/vm/memhog 64 2")
tap_cmp "memhog ran" "$?" -eq 0
tap_diag "ground truth: $truth; swapped: $(grep -E '^(SwapTotal|SwapFree)' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/mem.dump"
"$B"/tipme records --json "$out/mem.dump" > "$out/mem.jsonl"
tap_cmp "tipme records --json succeeds" "$?" -eq 0
python3 tests/vm/check_instr.py mem "$truth" "$out/mem.jsonl" > "$out/check.tap" 2>&1
tap_merge "$out/check.tap"
pid=$(printf '%s\n' "$truth" | sed -n 's/.*pid=\([0-9]*\).*/\1/p')
"$B"/tipme records --type reclaim_begin,reclaim_end --pid "$pid" "$out/mem.dump" | head -n 2 |
	sed 's/^/# /'
tap_check "rmmod" rmmod tipme
tap_done
