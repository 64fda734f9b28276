# shellcheck shell=bash
# What the VM tests with X clients share (t-xhook, t-latency, t-xreport,
# t-auto): Xvfb started the same way and the small predicates they wait
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

# focus WIN: give window WIN the input focus
focus() {
	xdotool windowfocus "$1"
	wait_for 20 focused "$1"
	tap_cmp "the client's window ($1) has the focus" "$?" -eq 0
}
