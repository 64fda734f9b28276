#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# Issue 16: the auto trigger end to end (Xvfb, tipme-xhook, tipmed and
# tipme.ko in the guest).  A press the client answers at once fires
# nothing; a key typed while the client is stopped for 600 ms makes one
# incident of source "auto" by itself: meta.json names the press, the
# client's PID and the latency (within 10% of what the test measured),
# there is no description, `tipme incidents` shows the latency, and
# `tipme report INCIDENT` analyses that press (not the slowest) and
# charges it to the stopped client.  A second slow press within tipmed's
# spacing (tipme-xhook's own is 0 here) is held back by tipmed, counted in
# `tipme status`, and no dump is written anywhere.  With --keep 2, a third
# incident prunes the auto one, not the older one a user asked for.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock

x_require "the auto trigger"
[ -x "$B/xhook-testclient" ] || { tap_fail "build/xhook-testclient exists (make xhook-tests)"; tap_done; }

tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
start_tipmed --keep 2
start_xvfb

"$B"/xhook-testclient victim plain plain > "$out/victim.out" 2>&1 &
VICTIM=$!
wait_for 30 says "$out/victim.out" window
win=$(field "$out/victim.out" window)
focus "$win"
mkdir -p /tmp/xdumps
"$B"/tipme-xhook -v --tipmed "$sock" -o /tmp/xdumps --auto-trigger-ms 300 --auto-spacing 0 \
	> "$out/xhook.log" 2>&1 &
XHOOK=$!
wait_for 60 log_has "subscribed to tipmed"
tap_cmp "tipme-xhook subscribed to tipmed" "$?" -eq 0

# 0. an incident a user asked for, the oldest
"$B"/tipme trigger -s "$sock" > /dev/null
wait_for 60 log_has "stored xhook.dump" 1
tap_cmp "a user's incident" "$(incidents | wc -l)" -eq 1
asked=$(incidents | head -n 1)

# 1. a press answered at once: measured, nothing fires
xdotool key a
wait_for 60 says "$out/victim.out" done 1
wait_for 60 log_has "answered in" 1
tap_cmp "a quick press is measured: $(grep -o 'answered in [0-9.]* ms' "$out/xhook.log" | head -n 1)" "$?" -eq 0
tap_cmp "... and makes no incident" "$(incidents | wc -l)" -eq 1

# 2. a key while the client is stopped for 600 ms (the sleep is the
# stall the test makes, not a wait for something)
kill -STOP "$VICTIM"
t0=$(mono_ns)
xdotool key s
t1=$(mono_ns)
sleep 0.6
sent=$("$B"/tests/vm/sigsend "$(kill -l CONT)" "$VICTIM")
wait_for 60 says "$out/victim.out" done 2
done_ns=$(grep '^done' "$out/victim.out" | sed -n 2p | cut -d' ' -f2)
wait_for 60 log_has "stored xhook.dump" 2
tap_cmp "tipme-xhook handed its dump to the incident" "$?" -eq 0
tap_cmp "one incident more, by itself" "$(incidents | wc -l)" -eq 2
incident=$(incidents | grep -v -x "$asked" | tail -n 1)
cp -r "$incident" "$out/auto.incident"
# the press between xdotool's start and 2 ms after its end; the latency
# between the client's answer and xdotool's end or start
check_auto_meta "$incident/meta.json" "$VICTIM" xhook-testclien \
	"$t0" $((t1 + 2000000)) $((done_ns - t1)) $((done_ns - t0))
tap_check "no description (nobody was asked)" test ! -e "$incident/description.txt"
"$B"/tipme incidents -d "$inc" > "$out/incidents.txt"
tap_check "tipme incidents: source auto and the latency ($(tail -n 1 "$out/incidents.txt" | cut -c50-))" \
	grep -q " auto .*a press took [0-9]* ms" "$out/incidents.txt"
"$B"/tipme incidents --json -d "$inc" > "$out/incidents.json"
tap_check "tipme incidents --json: auto_latency_ns" grep -q '"auto_latency_ns"' "$out/incidents.json"
# its report (kernel and X dumps) checked on the host after the guest
# (tests/vm/auto_check.sh), with tipme status's counts below
tap_on_host tests/vm/auto_check.sh "victim=$VICTIM $sent done_ns=$done_ns"

# 3. a second slow press: tipmed's spacing (60 s) holds it back
kill -STOP "$VICTIM"
xdotool key d
sleep 0.6
kill -CONT "$VICTIM"
wait_for 60 says "$out/victim.out" done 3
wait_for 60 log_has "tipmed held it back"
tap_cmp "a second slow press: tipmed held it back" "$?" -eq 0
"$B"/tipme status --json -s "$sock" > "$out/status.json"
"$B"/tipme status -s "$sock" | grep '^tipmed:' | sed 's/^/# /'
tap_cmp "no incident for it" "$(incidents | wc -l)" -eq 2
tap_cmp "and no dump elsewhere" "$(find /tmp/xdumps -type f | wc -l)" -eq 0

# 4. --keep 2 and a third incident: the auto one goes, not the older one
"$B"/tipme trigger -s "$sock" > /dev/null
wait_for 60 log_has "stored xhook.dump" 3
tap_cmp "a third incident: two kept" "$(incidents | wc -l)" -eq 2
tap_check "the user's older incident is kept" test -d "$asked"
tap_check "the auto incident was pruned first" test ! -e "$incident"

kill "$XHOOK" "$VICTIM"
wait "$XHOOK"
tap_cmp "tipme-xhook exits 0 on SIGTERM" "$?" -eq 0
kill "$TIPMED" "$XVFB"
wait "$TIPMED" "$XVFB" 2> /dev/null
tap_check "rmmod" rmmod tipme
tap_done
