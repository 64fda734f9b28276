#!/bin/bash
# vm: timeout=150 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# The diagnosis: a victim waits on a server that a real-time hog keeps off
# its CPU (tests/vm/progs/stall); the user presses Ctrl-Alt-Minus; `tipme
# why` on the incident must say: the victim slept ~the stall in pipe_read,
# woken by the server, which was runnable all along behind the hog.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
modprobe uinput
tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
"$B"/tipmed -d /tmp/inc -s /tmp/tipmed.sock > "$out/tipmed.log" 2>&1 &
for i in $(seq 100); do grep -q connected "$out/tipmed.log" && break; sleep 0.05; done
truth=$("$B"/tests/vm/stall 300)
tap_diag "ground truth: $truth"
"$B"/tests/vm/vkbd ctrl+alt+minus > /dev/null
for i in $(seq 100); do ls /tmp/inc/*/kernel.dump > /dev/null 2>&1 && break; sleep 0.05; done
dump=$(ls /tmp/inc/*/kernel.dump | head -n 1)
tap_check "the hotkey made an incident" test -s "$dump"
victim=$(echo "$truth" | sed 's/.*victim=\([0-9]*\).*/\1/')
"$B"/tipme why --pid "$victim" "$dump" | sed 's/^/# /'
cp "$dump" "$out/why.dump"	# for a look afterwards
"$B"/tipme why --json --pid "$victim" "$dump" > "$out/why.json"
tap_cmp "tipme why --json succeeds" "$?" -eq 0
python3 tests/vm/check_why.py "$truth" "$out/why.json" > "$out/why.tap" 2>&1
tap_merge "$out/why.tap"
kill %1 2>/dev/null; wait
tap_check "rmmod" rmmod tipme
tap_done
