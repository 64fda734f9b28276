# shellcheck shell=bash
# What the VM tests with X clients share (t-xhook, t-latency, t-xreport,
# t-auto, t-xorg): Xvfb started the same way and the small predicates they wait
# on, on top of what every test with tipmed shares (tests/vm/lib.sh,
# sourced here).  Sourced after tests/lib/tap.sh, with B (the build
# directory), out (TIPME_OUT), inc (the incidents directory) and sock
# (tipmed's control socket) set.
# shellcheck disable=SC2154 # out: set by the test

. "$TIPME_SRC/tests/vm/lib.sh"

# x_require WHAT: skip the whole test (WHAT names it) without the X tools
x_require() {
	local p
	for p in Xvfb xdotool xdpyinfo; do
		command -v "$p" > /dev/null || { tap_skip "$1" "$p not installed"; tap_done; }
	done
}

# log_has TEXT [N]: tipme-xhook said TEXT at least N times
log_has() { [ "$(grep -c -- "$1" "$out/xhook.log")" -ge "${2:-1}" ]; }
x_up() { xdpyinfo > /dev/null 2>&1; }
focused() { [ "$(xdotool getwindowfocus 2>/dev/null)" = "$1" ]; }

# start_xvfb: Xvfb on :5 (DISPLAY exported), its PID in XVFB
start_xvfb() {
	export DISPLAY=:5
	Xvfb :5 -nolisten tcp -screen 0 800x600x24 > "$out/xvfb.log" 2>&1 &
	# shellcheck disable=SC2034 # for the test
	XVFB=$!
	wait_for 60 x_up
	tap_cmp "Xvfb is up" "$?" -eq 0
}

# x_hook: a fresh tipme-xhook (the one before stopped), subscribed to
# tipmed, its PID in XHOOK: each incident's X dump then holds only what
# came after (t-xreport's cases, t-xorg's)
XHOOK=
x_nhook=0
x_hook() {
	[ -n "$XHOOK" ] && { kill "$XHOOK"; wait "$XHOOK" 2> /dev/null; }
	x_nhook=$((x_nhook + 1))
	"$B"/tipme-xhook -v --tipmed "$sock" -t 120 --auto-trigger-ms 0 >> "$out/xhook.log" 2>&1 &
	XHOOK=$!
	wait_for 60 log_has "subscribed to tipmed" "$x_nhook"
}

# x_incident CASE: trigger; once tipme-xhook stored its dump in the
# incident tipmed made, keep that incident as $out/CASE.incident
x_nstored=0
x_incident() {
	local i
	"$B"/tipme trigger > /dev/null
	x_nstored=$((x_nstored + 1))
	wait_for 60 log_has "stored xhook.dump" "$x_nstored"
	i=$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort | tail -n 1)
	tap_check "$1: the incident holds kernel.dump and root's X dump, xhook-0.dump" \
		test -s "$i/kernel.dump" -a -s "$i/xhook-0.dump"
	cp -r "$i" "$out/$1.incident"
}

# focus WIN: give window WIN the input focus
focus() {
	xdotool windowfocus "$1"
	wait_for 20 focused "$1"
	tap_cmp "the client's window ($1) has the focus" "$?" -eq 0
}
