#!/bin/bash
# vm: timeout=300 gpu=virtio
# A key press on a second Wayland compositor, weston 10, end to end: its
# DRM backend (virtio-gpu) with the pixman renderer and the kiosk shell
# (tests/vm/wlsession.sh: wl_weston), a uinput keyboard that libinput
# finds through udev, and the client of t-wayland.sh,
# tests/vm/progs/wlkey.c, answering each key after a delay of a known
# kind: none, 300 ms asleep (timer), 300 ms computing (running), weston
# itself stopped for 300 ms (stopped, the compositor).  weston differs
# from sway in how it paces its output: after a client's commit it
# repaints only at its repaint window before the next refresh (a timer),
# and on an idle output it first flips the old picture again to learn
# the refresh's time (virtio-gpu has no vblank counter to ask).  The host
# steps are t-wayland's (tests/vm/wayland_check.sh, check_wayland.py):
# the press's path in the records, and tipme report (no --pid) and tipme
# latency against wlkey's truth: the interval ends at the flip that
# showed the answer, within 10% plus one refresh, the verdict per mode.
#
# weston runs as root (Debian's weston is built without libseat), so
# wlkey does too: its helper stops weston for the compstop press.
# Logs and the truth on the guest's tmpfs, as in t-wayland.sh.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
truth=/tmp/wlkey.jsonl
logs=/tmp/wlkeylogs
# the presses: KEY=MODE:MS for wlkey
PRESSES="a=none:0 s=sleep:300 c=compute:300 p=compstop:300"
. "$TIPME_SRC/tests/vm/wlsession.sh"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wl_end
	cp "$truth" "$out/wlkey.jsonl" 2>/dev/null
	cp "$logs"/* "$out"/ 2>/dev/null
}
answered() { [ "$(grep -c '"press"' "$truth")" -ge "$1" ]; }

tap_check "insmod" insmod module/tipme.ko buffer_size=16M || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
echo 1 > /proc/sys/tipme/keylog
mkdir -p "$logs"
WL_LOGS=$logs
if ! wl_weston; then
	tap_fail "weston started" "$WL_ERR"
	cleanup
	tap_done
fi
tap_ok "weston started on $WAYLAND_DISPLAY"
grep -E 'launcher|DRM: head|Output .* enabled|repaint-window|pixman' "$logs/weston.log" |
	head -n 12 | sed 's/^/# /'

# shellcheck disable=SC2086
"$B"/tests/vm/wlkey -v --count 4 $PRESSES > "$truth" 2> "$logs/wlkey.err" &
wlkey_pid=$!
pids+=("$wlkey_pid")
if ! wait_for 60 grep -q '"ready"' "$truth"; then
	tap_fail "wlkey mapped its window and has the focus" "$(tail -n 5 "$logs/wlkey.err")"
	cleanup
	tap_done
fi
tap_ok "wlkey mapped its window and has the focus"
printf '{"event": "env", "weston": %d, "exact_flip": true, "kernel": "%s"}\n' "$WESTON_PID" "$(uname -r)" \
	> "$out/env.json"

n=0
for p in $PRESSES; do
	key=${p%%=*} mode=${p#*=}
	mode=${mode%%:*}
	n=$((n + 1))
	wl_type "$key"
	if ! wait_for 60 answered $n; then
		tap_fail "$mode: wlkey's answer to '$key' reached the screen" "$(tail -n 5 "$logs/wlkey.err")"
		continue
	fi
	tap_ok "$mode: wlkey's answer to '$key' reached the screen"
	echo 1 > /proc/sys/tipme/trigger
	tap_check "$mode: tipme dump" "$B"/tipme dump -o "$out/$mode.dump"
	cp "$truth" "$out/wlkey.jsonl"
	tap_on_host tests/vm/wayland_check.sh "$mode" "$n"
done
tap_check "wlkey exited after its presses" wait "$wlkey_pid"
cleanup
tap_check "rmmod" rmmod tipme
tap_done
