#!/bin/bash
# vm: timeout=300
# Issue 6: tipme-xhook with tipmed and tipme.ko, under Xvfb in the guest.
#  1. A trigger the kernel announces (a key of the virtual keyboard, which
#     Xvfb does not see) gets tipme-xhook's X dump in its incident.
#  2. One press seen by both sides, as on a real machine: the kernel's
#     hotkey, then Ctrl-Alt-Minus in X within the coalescing interval; one
#     incident holds kernel.dump, xhook.dump and the "What felt slow?" answer.
#  3. Ctrl-Alt-Minus in X alone makes an incident of its own (source xhook).
#  4. tipmed gone: the X hotkey writes a dump to --output-dir.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
xdir=/tmp/xdumps
interval=/proc/sys/tipme/trigger_interval_ms
n_incidents() { incidents | wc -l; }
no_window() { ! xdotool search --name "tipme: what felt slow" > /dev/null 2>&1; }
# check_dump INCIDENT_DIR CAUSES PID: xhook.dump parses with `tipme
# xrecords`, its cause is one of CAUSES (a,b), its time the kernel
# trigger's, and it has the X client PID that ran before the trigger
check_dump() {
	"$B"/tipme xrecords --json "$1/xhook-0.dump" > "$out/x.json" 2> "$out/x.err" &&
		python3 tests/vm/check_xdump.py "$out/x.json" "$1/meta.json" "$2" "$3"
}
# an X client that runs to its end; its PID in $client
x_client() {
	xprop -root _NET_SUPPORTED > /dev/null 2>&1 &
	client=$!
	wait "$client"
}
source_of() { python3 tests/lib/jsonq.py get "$1/meta.json" trigger.source; }

x_require "tipme-xhook with tipmed"
[ -x "$B/tipme-xhook" ] || { tap_fail "build/tipme-xhook exists (make user)"; tap_done; }

modprobe uinput
tap_check "insmod" insmod module/tipme.ko || tap_done
echo 0 > "$interval"
start_tipmed

start_xvfb
"$B"/tipme-xhook -v --tipmed "$sock" -o "$xdir" -t 120 --auto-trigger-ms 0 > "$out/xhook.log" 2>&1 &
XHOOK=$!
wait_for 60 log_has "subscribed to tipmed"
tap_cmp "tipme-xhook subscribed to tipmed" "$?" -eq 0

# 1. the kernel's hotkey only
x_client
"$B"/tests/vm/vkbd ctrl+alt+minus > /dev/null
wait_for 60 log_has "stored xhook.dump" 1
tap_cmp "kernel hotkey: tipme-xhook stored its dump" "$?" -eq 0
first=$(incidents | head -n 1)
tap_cmp "one incident" "$(n_incidents)" -eq 1
tap_check "it holds kernel.dump and root's X dump, xhook-0.dump" test -s "$first/kernel.dump" -a -s "$first/xhook-0.dump"
tap_check "xhook.dump: cause request, the kernel trigger's time, the X client" \
	check_dump "$first" request "$client"

# 2. one press seen by the kernel and by X: a long coalescing interval
# stands for "the same moment" (XTEST keys do not reach the kernel)
x_client
"$B"/tests/vm/vkbd ctrl+alt+minus > /dev/null
echo 60000 > "$interval"
xdotool key ctrl+alt+minus
wait_for 60 log_has "(joined it)"
tap_cmp "X hotkey: TRIGGER xhook joined the kernel's trigger" "$?" -eq 0
win=$(xdotool search --sync --name "tipme: what felt slow" | head -n 1)
xdotool mousemove --window "$win" 30 30 click 1
wait_for 20 focused "$win"
xdotool type --delay 20 "menu froze"
xdotool key Return
wait_for 60 log_has "stored xhook.dump" 2
tap_cmp "tipme-xhook stored its second dump" "$?" -eq 0
wait_for 60 log_has "description saved"
tap_cmp "the description was saved" "$?" -eq 0
second=$(incidents | tail -n 1)
tap_cmp "one more incident, not two" "$(n_incidents)" -eq 2
tap_check "it holds kernel.dump and root's X dump, xhook-0.dump" test -s "$second/kernel.dump" -a -s "$second/xhook-0.dump"
tap_cmp "its source is the kernel's hotkey" "$(source_of "$second")" = hotkey
tap_cmp "description.txt is the answer" "$(cat "$second/description.txt" 2>/dev/null)" = "menu froze"
# snapshot at the kernel's trigger; the cause is "hotkey" only if our
# TRIGGER's answer came before the incident (here xdotool starts slowly)
tap_check "xhook.dump: the kernel trigger's time, the X client" \
	check_dump "$second" request,hotkey "$client"

# 3. the X hotkey alone
echo 0 > "$interval"
x_client
xdotool key ctrl+alt+minus
wait_for 60 log_has "stored xhook.dump" 3
tap_cmp "X hotkey alone: tipme-xhook stored its dump" "$?" -eq 0
third=$(incidents | tail -n 1)
tap_cmp "a third incident" "$(n_incidents)" -eq 3
tap_cmp "its source is xhook" "$(source_of "$third")" = xhook
tap_check "it holds kernel.dump and root's X dump, xhook-0.dump" test -s "$third/kernel.dump" -a -s "$third/xhook-0.dump"
tap_check "xhook.dump: cause hotkey, the trigger's time, the X client" \
	check_dump "$third" hotkey "$client"
xdotool key Escape
wait_for 20 no_window

# 4. tipmed gone
kill "$TIPMED"
wait "$TIPMED"
wait_for 20 log_has "lost tipmed"
tap_cmp "tipme-xhook noticed tipmed is gone" "$?" -eq 0
xdotool key ctrl+alt+minus
wait_for 60 log_has "wrote $xdir/x11-"
tap_cmp "X hotkey without tipmed: a dump in --output-dir" "$?" -eq 0
tap_cmp "no more incidents" "$(n_incidents)" -eq 3

kill "$XHOOK"
wait "$XHOOK"
tap_cmp "tipme-xhook exits 0 on SIGTERM" "$?" -eq 0
kill "$XVFB"
wait "$XVFB"
tap_check "rmmod" rmmod tipme
tap_diag "tipme-xhook's log: $out/xhook.log"
tap_done
