#!/bin/bash
# vm: timeout=300 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
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
# guest's tmpfs, not to TIPME_OUT (tests/vm/wlkeyrun.sh, which t-weston.sh
# shares): TIPME_OUT is 9p, where every write is a round trip to the
# host, and a client or compositor blocked in one (uninterruptibly) is
# not woken by the messages the analysis follows: under load, wlkey's log
# line as the compositor's answer came left no wakeup of it (the commit
# was then taken from a later message), sway's as the key came none of
# sway.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
# the presses: KEY=MODE:MS for wlkey, and the name of the dump each makes
WLK_PRESSES="a=none:0 s=sleep:300 c=compute:300 f=fence:300 t=stop:300 p=compstop:300"
. "$TIPME_SRC/tests/vm/wlsession.sh"
. "$TIPME_SRC/tests/vm/wlkeyrun.sh"

wlk_insmod
if ! wl_session -d; then
	tap_fail "sway started" "$WL_ERR"
	wlk_cleanup
	tap_done
fi
tap_ok "sway started on $WAYLAND_DISPLAY"
grep -E 'Initializing DRM backend|Modesetting with' "$WL_LOGS/sway.log" | sed 's/^/# /'

# the fence's device, after sway (WLR_DRM_DEVICES keeps it from it)
tap_check "modprobe vgem" modprobe vgem
# (vgem's device is a platform device named vgem, bound to no driver)
for c in /sys/class/drm/card*; do
	[ "$(basename "$(readlink -f "$c/device")")" = vgem ] && chmod 0666 "/dev/dri/${c##*/}"
done

wlk_start as_wl
printf '{"event": "env", "sway": %d, "seatd": %d, "kernel": "%s"}\n' \
	"$SWAY_PID" "$SEATD_PID" "$(uname -r)" > "$out/env.json"
wlk_presses
