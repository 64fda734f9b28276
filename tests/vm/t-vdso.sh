#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# Issue 29: user chains through the vDSO, which has no file.  A program
# built with frame pointers (tests/vm/progs/vdsoprog) spends 3 s of CPU
# time calling the vDSO's clock_gettime from poll_clock() (main ->
# poll_clock -> clock_gettime, some of them a system call made from the
# vDSO); with the profiler at 99 Hz, its dump (made while it is alive)
# holds its "[vdso]" mapping with the build-id read from its memory and
# the vDSO's image (section 22).  On the host (check_vdso.py): the
# samples taken in the vDSO name it clock_gettime from that image, not
# the host's, and their chains go on into poll_clock and main; `tipme
# profile --folded` shows the vDSO above poll_clock and main.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc profile_hz=99 || tap_done
"$B"/tests/vm/vdsoprog 3 > "$out/truth" &
prog=$!
wait_for 120 grep -q end_ns "$out/truth"
tap_cmp "vdsoprog ran 3 s of CPU time in the vDSO" "$?" -eq 0
truth=$(cat "$out/truth")
tap_diag "ground truth: $truth"
tap_check "tipme dump" "$B"/tipme dump -o "$out/vdso.dump"
kill "$prog"
wait "$prog" 2> /dev/null
"$B"/tipme info "$out/vdso.dump" > "$out/info.txt"
tap_check "the dump holds the vDSO's image" grep -q "sections:.* vdso" "$out/info.txt"
tap_check "rmmod" rmmod tipme
tap_on_host tests/vm/host_check.sh --records "$out/vdso.dump" "$out/vdso.jsonl" \
	python3 tests/vm/check_vdso.py "$truth" "$out/vdso.jsonl" "$B/tests/vm/vdsoprog" \
	"$out/vdso.dump"
tap_done
