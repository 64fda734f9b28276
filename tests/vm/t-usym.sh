#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# Issue 29, item 2: user-space symbols.  An editor (tests/vm/progs/usym:
# a PIE with its own shared library, -g -fno-omit-frame-pointer) saves a
# document: main -> save_document -> doc_commit (its library) ->
# commit_range (inlined) -> doc_flush -> fsync, on a slow disk (null_blk
# completing 20 ms after issue, ext4 without a journal).  Its dump is
# analysed on the host (check_usym.py): the blocked step of `tipme
# report` shows fsync <- commit_range (inlined) <- doc_commit <-
# save_document <- main, each at the line its source marks.  The same
# again with the stripped copies, their debug info found by build-id in
# a .build-id tree the host step lays out (and not found without it).
# Debian's sleep (no frame pointers): its leaf named, the chain marked
# truncated.  An editor that exited 5 s before the dump is named as the
# live one is, file and line included: the module captured its mappings
# when its chains were first numbered, with each file's path from the
# editor's own root (not the switched root's /newroot/...) and its
# build-id read from the file, and kept them after its exit (section 23,
# listed by tipmed's dump in the maps).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
. "$TIPME_SRC/tests/vm/lib-ustack.sh"

tap_check "null_blk: memory backed, completions 20 ms after issue" \
	modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 completion_nsec=20000000 \
	memory_backed=1 gb=1 bs=4096 || tap_done
tap_check "mkfs.ext4 without journal" mkfs.ext4 -q -F -O ^has_journal /dev/nullb0 || tap_done
modprobe ext4
mkdir -p /mnt/nb
tap_check "mount" mount -t ext4 /dev/nullb0 /mnt/nb || tap_done
# the TSC clock where the kernel finds it constant (7.x gives the emulated
# CPU no constant_tsc: there the default clock)
clk=
grep -qw constant_tsc /proc/cpuinfo && clk=clock=tsc
tap_check "insmod${clk:+ ($clk)}" insmod module/tipme.ko buffer_size=16M $clk || tap_done

# run NAME DIR: DIR's usymprog saves a document and stays alive with a
# sleep while the dump is made (dump_beside_sleep)
run() {
	local name=$1 dir=$2 prog
	"$dir"/usymprog "/mnt/nb/$name" > "$out/$name.truth" &
	prog=$!
	wait_for 120 grep -q fsync_end_ns "$out/$name.truth"
	tap_cmp "$name: usymprog saved its document" "$?" -eq 0
	dump_beside_sleep "$name" "$prog"
	echo "sleep=$sleeper" >> "$out/$name.truth"
}

run files "$B/tests/vm/usym"
run stripped "$B/tests/vm/usym/stripped"
# an editor that exits 5 s before the dump: the module's capture of its
# mappings is in it (the 5 s are the scenario's, not a wait for anything)
"$B"/tests/vm/usym/usymprog /mnt/nb/gone 64 > "$out/gone.truth" &
gone=$!
wait_for 120 grep -q fsync_end_ns "$out/gone.truth"
kill "$gone"
wait "$gone" 2> /dev/null
tap_cmp "gone: the editor has exited" "$(test -e "/proc/$gone" && echo alive)" = ""
sleep 5
tap_check "gone: tipme dump 5 s after it exited" "$B"/tipme dump -o "$out/gone.dump"

tap_on_host tests/vm/host_check.sh python3 tests/vm/check_usym.py "$out" "$B"
tap_check "rmmod" rmmod tipme
umount /mnt/nb
tap_done
