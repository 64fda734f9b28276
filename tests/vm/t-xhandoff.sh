#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report on a key typed into xterm (under Xvfb, with tipme-xhook and
# tipmed) whose program echoes it after computing 300 ms
# (tests/vm/progs/handoff.c ttyecho; a first key before it, xterm's
# own first-key work out of the way): the key goes from the X server to
# xterm, through the pty and the tty layer's flush worker to the program,
# and its echo back the same way before xterm draws it.  Without --pid the
# report must pick that press, end it where xterm drew the echo (not where
# xterm first went back to select()), and charge it, through the flush
# worker, to the program's computing, within 10% of the time the program
# measured.  The report and its check run on the host after the guest
# (tests/vm/handoff_check.sh).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock

x_require "tipme report on a key typed into xterm"
command -v xterm > /dev/null || { tap_skip "a key typed into xterm" "xterm not installed"; tap_done; }

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
start_tipmed
start_xvfb

echo=$out/ttyecho.out
xterm -T tipme-handoff -e "$B"/tests/vm/handoff ttyecho 300 "$echo" > "$out/xterm.log" 2>&1 &
XTERM=$!
wait_for 60 says "$echo" ready
tap_check "xterm runs the program" says "$echo" ready
win=$(xdotool search --name tipme-handoff | head -n 1)
focus "$win"

# while the program computes, poll twice a second, not 20 times: each
# grep is a process the guest's two CPUs run beside the work measured
wait_slowly() { # SECS CMD...: as wait_for
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 2; i++)); do "$@" && return 0; sleep 0.5; done
	return 1
}
# xterm's first key is its own work (the keymap loaded, the cursor that
# hides the pointer made: round trips to the X server that a busy guest
# stretches into the program's work, where xterm then waits for X and
# not for the echo); the program reads it and says "warm".  xterm
# handles that key's release before the next press, the one measured.
# Typed before tipme-xhook records (xterm is then a client it finds
# connected): under load that first key took longer than the one
# measured (716 ms, xterm's own running 293 ms, against 479 ms), and
# the slowest press is the one chosen without --pid
xdotool key w
wait_for 60 says "$echo" warm
tap_check "the program got the first key" says "$echo" warm

"$B"/tipme-xhook -v --tipmed "$sock" -t 120 --auto-trigger-ms 0 > "$out/xhook.log" 2>&1 &
XHOOK=$!
wait_for 60 log_has "subscribed to tipmed"
tap_cmp "tipme-xhook subscribed to tipmed" "$?" -eq 0
xdotool key a
wait_slowly 60 says "$echo" echoed
tap_check "the program echoed the key" says "$echo" echoed
# a third key: the program reads it once xterm has handled the echo's
# arrival and gone back to its loop
xdotool key b
wait_slowly 60 says "$echo" second
tap_check "the program got the second key" says "$echo" second
truth="client=$XTERM $(sed -n 's/^echoed //p' "$echo")"
tap_diag "xterm: ground truth: $truth"
"$B"/tipme trigger > /dev/null
wait_for 60 log_has "stored xhook.dump"
incident=$(incidents | tail -n 1)
tap_check "the incident holds kernel.dump and root's X dump" \
	test -s "$incident/kernel.dump" -a -s "$incident/xhook-0.dump"
cp -r "$incident" "$out/xterm.incident"
tap_on_host tests/vm/handoff_check.sh xterm "$truth" xterm-auto

kill "$XTERM" "$XHOOK" "$TIPMED" 2> /dev/null
wait "$XTERM" "$XHOOK" "$TIPMED" 2> /dev/null
kill "$XVFB"
wait "$XVFB"
tap_check "rmmod" rmmod tipme
tap_done
