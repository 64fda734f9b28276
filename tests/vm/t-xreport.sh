#!/bin/bash
# vm: timeout=360 cpu=qemu64,+invtsc,vendor=GenuineIntel
# tipme report on typing into an X client (Xvfb, tipme-xhook, tipmed),
# delayed three ways the test creates, one incident each, no --pid: the
# report must pick that key press and its client and name the cause.
#  1. stopped: the client is stopped (SIGSTOP) when the key comes, and
#     continued 400 ms later;
#  2. x_server: the press makes another client grab the server and draw for
#     300 ms; the client's round trip waits for it;
#  3. block_io: the client reads 10 blocks (O_DIRECT) of a null_blk device
#     that completes every request 20 ms after issue.
# tipme-xhook is restarted for each case so that each incident's X dump
# holds that case's press only.  The analyses run on the host after the
# guest (tests/vm/xreport_check.sh, natively: in this TCG guest they and
# their Python checks took 7 of the test's 8 minutes): the report, the
# Perfetto export (tests/lib/check_perfetto.py) and the timeline, whose
# client lane must show the cause's colour.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock

x_require "tipme report on X input"
[ -x "$B/xhook-testclient" ] || { tap_fail "build/xhook-testclient exists (make xhook-tests)"; tap_done; }

tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
start_tipmed
start_xvfb

if modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 completion_nsec=20000000 \
	memory_backed=1 gb=1 bs=4096; then
	dev=$(cat /sys/block/nullb0/dev)
	tap_ok "a null_blk device ($dev)"
else
	tap_fail "a null_blk device"
fi

"$B"/xhook-testclient victim plain x read:/dev/nullb0:10 > "$out/victim.out" 2>&1 &
VICTIM=$!
wait_for 30 says "$out/victim.out" window
win=$(field "$out/victim.out" window)
focus "$win"

ndone=0
# handled CASE: wait until the client says it handled the next press.
handled() {
	ndone=$((ndone + 1))
	wait_for 60 says "$out/victim.out" done "$ndone"
	tap_cmp "$1: the client handled the press" "$?" -eq 0
}
# Trigger, keep the incident, and have the host report on it without
# --pid (tests/vm/xreport_check.sh, after the guest: natively).
# report_case CASE TRUTH [EXTRA...]
report_case() {
	local case=$1 truth=$2
	shift 2
	truth="$truth done_ns=$(grep '^done' "$out/victim.out" | sed -n "${ndone}p" | cut -d' ' -f2)"
	x_incident "$case"
	tap_diag "$case: ground truth: $truth"
	tap_on_host tests/vm/xreport_check.sh case "$case" "$truth" "$VICTIM" "$tl_class" "$@"
}

# 1. stopped: the key arrives while the client is stopped (the 400 ms
# sleep is the stall this case makes, not a wait for something)
x_hook
tl_class=stopped
kill -STOP "$VICTIM"
xdotool key a
sleep 0.4
sent=$("$B"/tests/vm/sigsend "$(kill -l CONT)" "$VICTIM")
handled xstopped
report_case xstopped "victim=$VICTIM $sent"

# 2. x_server: the flooder sees the same press, grabs the server, draws
x_hook
tl_class="waiting for the X server"
"$B"/xhook-testclient flood "$win" 300 > "$out/flood.out" 2>&1 &
FLOOD=$!
wait_for 30 says "$out/flood.out" ready
xdotool key b
wait "$FLOOD"
tap_check "x_server: the flooder held the server" says "$out/flood.out" released
handled xserver
report_case xserver "victim=$VICTIM flooder=$FLOOD xserver=$XVFB round_trip_ns=$(field "$out/victim.out" round_trip_ns)"
# the round trip alone, as the client measured it, with --pid
rt_from=$(field "$out/victim.out" round_trip_from_ns)
rt_to=$((rt_from + $(field "$out/victim.out" round_trip_ns)))
tap_on_host tests/vm/xreport_check.sh roundtrip xserver "victim=$VICTIM flooder=$FLOOD" \
	"$VICTIM" "$rt_from" "$rt_to"

# 3. block_io: the press makes the client read from the slow device
x_hook
tl_class="blocked: block I/O"
xdotool key c
if [ -n "${dev:-}" ]; then
	handled xdisk
	report_case xdisk "victim=$VICTIM reads=10 read_ns=$(field "$out/victim.out" read_ns)" "$dev"
fi

kill "$XHOOK" "$VICTIM" "$TIPMED" 2> /dev/null
wait "$XHOOK" "$VICTIM" "$TIPMED" 2> /dev/null
kill "$XVFB"
wait "$XVFB"
tap_check "rmmod" rmmod tipme
tap_done
