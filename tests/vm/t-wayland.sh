#!/bin/bash
# vm: timeout=300 gpu=virtio
# A key press on a real Wayland desktop, end to end: sway on its DRM
# backend (virtio-gpu; wlroots 0.15 refuses bochs, which has no PRIME
# import) with the pixman renderer, seatd, and a uinput keyboard that
# libinput finds through udev; the client is tests/vm/progs/wlkey.c,
# which answers each key by committing a new buffer after a delay of a
# known kind (none, sleep, compute, a vgem fence another process signals,
# stopped, the compositor stopped) and writes the ground truth of each
# press: the key event, the delay, the commit and the presentation time
# of the flip that showed it (wp_presentation).  One dump per press; the
# host steps (tests/vm/wayland_check.sh, tests/vm/check_wayland.py) find
# each press's path in the records -- the kernel's input record, the
# compositor woken, the client woken by the compositor, the commit waking
# the compositor, the flip's completion event -- and save tipme report
# and tipme latency of each dump.
#
# wlkey's output (the truth, and its -v log) and sway's log go to the
# guest's tmpfs, not to TIPME_OUT: TIPME_OUT is 9p, where every write is
# a round trip to the host, and a client or compositor blocked in one
# (uninterruptibly) is not woken by the messages the analysis follows:
# under load, wlkey's log line as the compositor's answer came left no
# wakeup of it (the commit was then taken from a later message), sway's
# as the key came none of sway.  The truth is copied to TIPME_OUT for
# each host step, the logs at the end.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
truth=/tmp/wlkey.jsonl
logs=/tmp/wlkeylogs
# the presses: KEY=MODE:MS for wlkey, and the name of the dump each makes
PRESSES="a=none:0 s=sleep:300 c=compute:300 f=fence:300 t=stop:300 p=compstop:300"
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
# the input records name the key: each press is found by its code
echo 1 > /proc/sys/tipme/keylog
mkdir -p "$logs"
WL_LOGS=$logs
if ! wl_session -d; then
	tap_fail "sway started" "$WL_ERR"
	cleanup
	tap_done
fi
tap_ok "sway started on $WAYLAND_DISPLAY"
sway_pid=$SWAY_PID seatd_pid=$SEATD_PID
grep -E 'Initializing DRM backend|Modesetting with' "$logs/sway.log" | sed 's/^/# /'

# the fence's device, after sway (WLR_DRM_DEVICES keeps it from it)
tap_check "modprobe vgem" modprobe vgem
# (vgem's device is a platform device named vgem, bound to no driver)
for c in /sys/class/drm/card*; do
	[ "$(basename "$(readlink -f "$c/device")")" = vgem ] && chmod 0666 "/dev/dri/${c##*/}"
done

# shellcheck disable=SC2086
as_wl "$B"/tests/vm/wlkey -v --count 6 $PRESSES > "$truth" 2> "$logs/wlkey.err" &
wlkey_pid=$!
pids+=($wlkey_pid)
if ! wait_for 60 grep -q '"ready"' "$truth"; then
	tap_fail "wlkey mapped its window and has the focus" "$(tail -n 5 "$logs/wlkey.err")"
	cleanup
	tap_done
fi
tap_ok "wlkey mapped its window and has the focus"
printf '{"event": "env", "sway": %d, "seatd": %d, "kernel": "%s"}\n' \
	"$sway_pid" "$seatd_pid" "$(uname -r)" > "$out/env.json"

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
