#!/bin/bash
# vm: timeout=300 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
# An X client on a Wayland desktop: sway on its DRM backend
# (tests/vm/wlsession.sh, as t-wayland.sh and t-foot.sh) with Xwayland
# (tests/vm/xwayland-sway.conf), tipme-xhook recording Xwayland and
# handing its X dump to tipmed, and the X client xhook-testclient victim
# (tests/xhook/testclient.c), which answers a key by drawing after a
# delay of its own: a first key at once (it has the focus and draws), the
# second after sleeping 300 ms, the third after computing 400 ms.  The
# first key is typed before tipme-xhook records: report without --pid
# takes the slowest press of the X dump, and the first drawing's cold
# path (translation under TCG) took 1093 ms to the flip in CI, slower
# than either slow key.  It
# writes the ground truth (when it got each key, when Xwayland had
# executed its drawing, the CPU time it computed) to a guest tmpfs file.
# The key goes uinput -> evdev -> sway -> Xwayland (wl_keyboard) -> the X
# client, and its answer X client -> Xwayland -> sway (Xwayland's commit)
# -> sway's page flip.  After each slow key's flip (the primary plane's
# new framebuffer in DRM's debugfs state) `tipme trigger` makes an
# incident with both dumps; on the host, tests/vm/xwayland_check.sh runs
# tipme report (no --pid) and tipme latency on it and
# tests/vm/check_xwayland.py checks them against the truth.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
# the client's truth and tipme-xhook's log on the guest's tmpfs: a write
# to TIPME_OUT (9p) blocks the writer for a round trip to the host
truth=/tmp/victim.out
xlog=/tmp/xhook.log
. "$TIPME_SRC/tests/vm/wlsession.sh"
pids=()
finish() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wl_end
	[ -z "${TIPMED:-}" ] || kill "$TIPMED"
	cp "$truth" "$out/victim.out" 2>/dev/null
	cp "$xlog" "$out/xhook.log" 2>/dev/null
	tap_check "rmmod" rmmod tipme
	tap_done
}
done_n() { says "$truth" "done" "$1"; }
xlog_has() { [ "$(grep -c -- "$1" "$xlog")" -ge "${2:-1}" ]; }
x_up() { [ -s /tmp/xwl-display ] && DISPLAY=$(cat /tmp/xwl-display) xdpyinfo > /dev/null 2>&1; }
x_up_or_gone() { x_up || ! kill -0 "$SWAY_PID" 2> /dev/null; }

for p in Xwayland xdpyinfo xhost; do
	command -v "$p" > /dev/null || { tap_skip "an X client under Xwayland" "$p not installed"; tap_done; }
done
# evdev before tipme, as at boot (t-foot.sh)
modprobe evdev
tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
# the input records name the key: each press is found by its code
echo 1 > /proc/sys/tipme/keylog
# shellcheck disable=SC2119 # tipmed without extra arguments
start_tipmed

rm -f /tmp/xwl-display
# (WL_DRM_USER: Xwayland asks sway for a DRM lease at start, for which
# wlroots opens the device as the session's user; wlsession.sh)
# shellcheck disable=SC2119 # sway without extra arguments
if ! WL_CONF=$TIPME_SRC/tests/vm/xwayland-sway.conf WL_DRM_USER=1 wl_session; then
	tap_fail "sway started" "$WL_ERR"
	finish
fi
tap_ok "sway started on $WAYLAND_DISPLAY"
tap_check "ftrace records DRM's page-flip events" wl_flips_watch
# (or sway gone: it crashed when Xwayland could not start, wlsession.sh)
wait_for 60 x_up_or_gone
if ! x_up; then
	tap_fail "Xwayland answers" "$(grep -v DEBUG "$out/sway.log" | tail -n 8)"
	finish
fi
tap_ok "Xwayland answers"
DISPLAY=$(cat /tmp/xwl-display)
export DISPLAY
xwl=$(pgrep -x -u "$WL_UID" Xwayland | head -n 1)
tap_diag "Xwayland pid $xwl on $DISPLAY: $(xdpyinfo | grep -m1 -i 'version number')"
# tipme-xhook needs RECORD and X-Resource: say what this Xwayland has
xdpyinfo -queryExtensions > "$out/xdpyinfo.txt" 2>&1
for e in RECORD X-Resource; do
	tap_check "Xwayland has the $e extension" grep -q "^    $e  *(" "$out/xdpyinfo.txt"
done

"$B"/xhook-testclient victim plain sleep:300 compute:400 > "$truth" 2>&1 &
victim=$!
pids+=("$victim")
wait_for 60 says "$truth" window
tap_check "the X client mapped its window" says "$truth" window

# key N (KEY): typed once sway sleeps (a key that finds it busy wakes
# nobody: t-foot.sh), answered by the client, shown by a flip
key() {
	local fb0
	fb0=$(wl_fb)
	wl_type "@$SWAY_PID $2"
	if ! wait_for 60 done_n "$1"; then
		tap_fail "the X client answered key $1 ('$2')" "$(tail -n 3 "$truth")"
		return 1
	fi
	tap_ok "the X client answered key $1 ('$2')"
	wait_for 30 wl_fb_not "$fb0"
	tap_cmp "a flip after its drawing (framebuffer $fb0 -> $(wl_fb))" "$?" -eq 0
	# ... and completed: the framebuffer changes at sway's commit, the
	# flip's event comes at the vblank after (CI's busy guest once
	# triggered in between: no flip after the drawing in the dump); it
	# follows "done" (Xwayland commits the drawing before it answers the
	# client's round trip; sway flips after: 50-80 ms after here)
	wait_for 30 wl_flip_after "$(awk -v k="$1" '$1 == "done" && ++n == k { print $2 }' "$truth")"
	tap_cmp "its flip's event delivered after the client's \"done\"" "$?" -eq 0
}
# key N KEY NAME: ... and an incident for it, checked on the host
slow_key() {
	local n
	key "$1" "$2" || return
	n=$(incidents | wc -l)
	"$B"/tipme trigger > /dev/null
	wait_for 60 xlog_has "stored xhook" "$((n + 1))"
	tap_check "$3: the incident holds kernel.dump and root's X dump" \
		test -s "$(incidents | tail -n 1)/kernel.dump" -a -s "$(incidents | tail -n 1)/xhook-0.dump"
	rm -rf "$out/$3.incident"
	cp -r "$(incidents | tail -n 1)" "$out/$3.incident"
	cp "$truth" "$out/victim.out"
	printf '{"event": "env", "sway": %d, "seatd": %d, "xwayland": %d, "client": %d}\n' \
		"$SWAY_PID" "$SEATD_PID" "$xwl" "$victim" > "$out/env.json"
	tap_on_host tests/vm/xwayland_check.sh "$3" "$1"
}
key 1 a
"$B"/tipme-xhook -v --tipmed "$sock" -t 120 --auto-trigger-ms 0 > "$xlog" 2>&1 &
pids+=("$!")
wait_for 60 xlog_has "subscribed to tipmed"
tap_cmp "tipme-xhook records Xwayland and is subscribed to tipmed" "$?" -eq 0
slow_key 2 s sleep
slow_key 3 c compute
finish
