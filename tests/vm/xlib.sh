# shellcheck shell=bash
# What the VM tests with X clients share (t-xhook, t-latency, t-xreport,
# t-auto): tipmed and Xvfb started the same way, and the small predicates
# they wait on.  Sourced after tests/lib/tap.sh, with B (the build
# directory), out (TIPME_OUT), inc (the incidents directory) and sock
# (tipmed's control socket) set.

# x_require WHAT: skip the whole test (WHAT names it) without the X tools
x_require() {
	local p
	for p in Xvfb xdotool xdpyinfo; do
		command -v "$p" > /dev/null || { tap_skip "$1" "$p not installed"; tap_done; }
	done
}

mono_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }
# log_has TEXT [N]: tipme-xhook said TEXT at least N times
log_has() { [ "$(grep -c -- "$1" "$out/xhook.log")" -ge "${2:-1}" ]; }
# says FILE WORD [N]: FILE has at least N lines starting with WORD
says() { [ "$(grep -c "^$2" "$1")" -ge "${3:-1}" ]; }
x_up() { xdpyinfo > /dev/null 2>&1; }
focused() { [ "$(xdotool getwindowfocus 2>/dev/null)" = "$1" ]; }
# field FILE KEY: the value of the last "KEY VALUE" line of FILE
field() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"; }
incidents() { find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort; }

# start_tipmed [ARGS...]: tipmed on $inc and $sock, its PID in TIPMED
start_tipmed() {
	"$B"/tipmed -d "$inc" -s "$sock" "$@" > "$out/tipmed.log" 2>&1 &
	TIPMED=$!
	wait_for 20 grep -q 'connected to tipme.ko' "$out/tipmed.log"
	tap_cmp "tipmed is up" "$?" -eq 0
}

# start_xvfb: Xvfb on :5 (DISPLAY exported), its PID in XVFB
start_xvfb() {
	export DISPLAY=:5
	Xvfb :5 -nolisten tcp -screen 0 800x600x24 > "$out/xvfb.log" 2>&1 &
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
