#!/bin/bash
# vm: timeout=300 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
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
# Then the module's auto trigger (auto_trigger_ms 250, tipmed making the
# incident): 'w', which wlkey answers after sleeping 400 ms.  weston's
# first flip after the commit only starts its repaint loop; the trigger
# must measure the press to the next, the flip that showed the answer
# (the recorded flip nearest wp_presentation's presented time), not one
# repaint before (tests/vm/wlauto_check.sh, check_wlauto.py: as
# t-wlauto's sleep, and the incident's end at that very flip).
#
# weston runs as root (Debian's weston is built without libseat), so
# wlkey does too: its helper stops weston for the compstop press.
# Logs and the truth on the guest's tmpfs (tests/vm/wlkeyrun.sh, shared
# with t-wayland.sh).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
# the presses: KEY=MODE:MS for wlkey
inc=/tmp/incidents
sock=/tmp/tipmed.sock
AUTO_MS=250
# the presses: KEY=MODE:MS for wlkey, the last one the auto trigger's
WLK_PRESSES="a=none:0 s=sleep:300 c=compute:300 p=compstop:300 w=sleep:400"
. "$TIPME_SRC/tests/vm/lib.sh"
. "$TIPME_SRC/tests/vm/wlsession.sh"
. "$TIPME_SRC/tests/vm/wlkeyrun.sh"

# evdev before tipme, as at boot: the auto trigger sees weston woken
# during the delivery only when evdev's handler runs before tipme's
modprobe evdev
wlk_insmod
if ! wl_weston; then
	tap_fail "weston started" "$WL_ERR"
	wlk_cleanup
	tap_done
fi
tap_ok "weston started on $WAYLAND_DISPLAY"
grep -E 'launcher|DRM: head|Output .* enabled|repaint window|pixman' "$WL_LOGS/weston.log" |
	head -n 12 | sed 's/^/# /'

# shellcheck disable=SC2119 # wlkey as this user (root)
wlk_start
printf '{"event": "env", "weston": %d, "exact_flip": true, "kernel": "%s"}\n' "$WESTON_PID" \
	"$(uname -r)" > "$out/env.json"
wlk_each "${WLK_PRESSES% *}"

# the auto trigger's press: an incident by itself, measured to the flip
grep -q '^tipme:' /etc/group || echo 'tipme:x:990:' >> /etc/group
start_tipmed --auto-spacing 0
echo $AUTO_MS > /sys/module/tipme/parameters/auto_trigger_ms
before=$(incidents | wc -l)
wlk_typed "@$WESTON_PID w" auto && wl_auto_incident auto "$WLK_N"
echo 0 > /sys/module/tipme/parameters/auto_trigger_ms
kill "$TIPMED"
wait "$TIPMED" 2> /dev/null
wlk_end
