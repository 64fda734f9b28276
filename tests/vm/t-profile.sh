#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# Issue 29: the on-CPU profiler.  Off by default (profile_hz 0, `tipme
# status` says so); /proc/sys/tipme/profile_hz takes 99 and refuses 5000.
# A program built with frame pointers (tests/vm/progs/burnsplit) computes
# 70% of its work in burn_hot() and 30% in burn_cold() for 3 s of CPU time,
# counting its own split; `tipme profile` of the dump gives shares within
# 10 points of it, its folded output parses and the flame graph renders
# (tests/vm/check_profile.py, on the host, with nm and readelf of the
# binary).  CPU 1 goes offline and online while the profiler runs: its
# timer stops and starts again (prof_rate records), and the module unloads
# with the profiler on.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
hz=/proc/sys/tipme/profile_hz

tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
tap_cmp "the profiler is off by default" "$(cat $hz)" = 0
"$B"/tipme status > "$out/status0.txt"
tap_check "tipme status says it is off" grep -q "profiler off" "$out/status0.txt"
echo 99 > $hz
tap_cmp "profile_hz takes 99" "$(cat $hz)" = 99
echo 5000 > $hz 2> /dev/null
tap_cmp "and refuses 5000" "$?" -ne 0
tap_cmp "... staying at 99" "$(cat $hz)" = 99
"$B"/tipme status --json > "$out/status1.json"
tap_cmp "tipme status --json: profile_hz 99" \
	"$(python3 tests/lib/jsonq.py get "$out/status1.json" profile_hz)" = 99

"$B"/tests/vm/burnsplit 3 70 > "$out/truth" &
prog=$!
wait_for 120 grep -q end_ns "$out/truth"
tap_cmp "burnsplit ran 3 s of CPU time" "$?" -eq 0
truth=$(cat "$out/truth")
tap_diag "ground truth: $truth"

# CPU hotplug with the profiler on: CPU 1's timer stops and starts
cpu1=/sys/devices/system/cpu/cpu1/online
if [ -w $cpu1 ]; then
	echo 0 > $cpu1
	tap_cmp "CPU 1 offline with the profiler on" "$(cat $cpu1)" = 0
	echo 1 > $cpu1
	tap_cmp "and online again" "$(cat $cpu1)" = 1
else
	tap_skip "CPU 1 cannot go offline here"
fi
tap_check "tipme dump" "$B"/tipme dump -o "$out/profile.dump"
kill "$prog"
wait "$prog" 2> /dev/null
"$B"/tipme records --type prof_rate "$out/profile.dump" > "$out/rates.txt"
tap_check "CPU 1's timer stopped with the CPU" grep -q "\[001\] prof_rate stopped" "$out/rates.txt"
tap_check "... and started again at 99 Hz" grep -q "\[001\] prof_rate 99 Hz" "$out/rates.txt"
tap_check "rmmod with the profiler on" rmmod tipme
tap_on_host tests/vm/host_check.sh python3 tests/vm/check_profile.py "$truth" \
	"$out/profile.dump" "$B/tests/vm/burnsplit" "$out"
tap_done
