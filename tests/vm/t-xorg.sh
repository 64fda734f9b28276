#!/bin/bash
# vm: timeout=360 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
# A real Xorg (Debian 12's 21.1, its built-in modesetting driver) on a KMS
# device in the guest (virtio-gpu), glamor on Mesa's softpipe
# (tests/vm/xorg-modesetting.conf), tipme-xhook recording it, keys through
# XTEST (xdotool).  Two incidents, checked on the host after the guest
# (tests/vm/xorg_check.sh, check_xorg.py):
#  1. front: a client that answers a key by filling a rectangle in its
#     window (core drawing: glamor draws into the front buffer, no page
#     flip, no DRM event): the press ends where Xorg executed the drawing
#     ("end": "x_drawn"), and the dump has no flip of Xorg's after it;
#  2. present: a client whose window covers the screen and that answers
#     each of three keys after a 200 ms sleep by filling a screen-sized
#     pixmap and presenting it (xhook-testclient present: PresentPixmap,
#     which Xorg flips in the request's dispatch: drmModePageFlip, whose
#     completion virtio-gpu's kworker delivers to Xorg's DRM file).  The
#     truth from outside tipme: the client's own clock stamps, Xorg's pid,
#     and Xorg's PresentCompleteNotify for each (mode flip, and the DRM
#     event's time).  tipme latency --json and tipme report --json must end
#     each press at the first flip of Xorg's after it executed the
#     client's drawing (the delivery record nearest that event's time),
#     not at the drawing, the legs adding up, the client's sleep in the
#     verdict.
# The TSC clock (as t-latency): recorder times are compared with the
# programs' CLOCK_MONOTONIC stamps.  The clients' output goes to the
# guest's tmpfs (a write to TIPME_OUT, 9p, blocks the writer), copied to
# TIPME_OUT at the end; Xorg's log goes to TIPME_OUT (it writes at start).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock

# at WHAT: the guest's uptime, where its time goes
at() { tap_diag "at $(cut -d' ' -f1 /proc/uptime) s: $*"; }

for p in Xorg xdotool xdpyinfo; do
	command -v "$p" > /dev/null || { tap_skip "Xorg with modesetting" "$p not installed"; tap_done; }
done
[ -e /usr/lib/xorg/modules/drivers/modesetting_drv.so ] ||
	{ tap_skip "Xorg with modesetting" "no modesetting_drv.so"; tap_done; }
[ -x "$B/xhook-testclient" ] || { tap_fail "build/xhook-testclient exists (make xhook-tests)"; tap_done; }

tap_check "modprobe virtio_gpu" modprobe virtio_gpu
tap_check "a KMS device" test -c /dev/dri/card0 || tap_done
tap_check "insmod" insmod module/tipme.ko buffer_size=32M clock=tsc || tap_done
start_tipmed
at "tipmed up"

export DISPLAY=:7
GALLIUM_DRIVER=softpipe Xorg :7 vt7 -config "$TIPME_SRC/tests/vm/xorg-modesetting.conf" \
	-logfile "$out/xorg.log" -nolisten tcp -noreset > /tmp/xorg.out 2>&1 &
XORG=$!
if ! wait_for 90 x_up; then
	tap_fail "Xorg is up on :7" "$(tail -n 20 "$out/xorg.log" /tmp/xorg.out)"
	tap_done
fi
tap_ok "Xorg is up on :7"
at "Xorg up"
grep -E 'modeset\(0\): (glamor|Output|Virtual)|Present|DRI3' "$out/xorg.log" | head -n 8 | sed 's/^/# /'
tap_check "glamor is on (without it modesetting never flips)" \
	grep -q 'glamor initialized' "$out/xorg.log"


# 1. front: core drawing into the front buffer
x_hook
at "tipme-xhook up"
"$B"/xhook-testclient victim plain > /tmp/front.out 2>&1 &
FRONT=$!
wait_for 30 says /tmp/front.out window
focus "$(field /tmp/front.out window)"
xdotool key a
wait_for 60 says /tmp/front.out "done"
tap_cmp "front: the client handled the key" "$?" -eq 0
at "front: handled"
x_incident front
at "front: incident stored"
kill "$FRONT"
wait "$FRONT" 2> /dev/null

# 2. present: three keys, each answered with a flip
x_hook
"$B"/xhook-testclient present 200 > /tmp/present.out 2>&1 &
PRESENT=$!
wait_for 30 says /tmp/present.out window
tap_cmp "present: the client's window covers the screen" "$?" -eq 0
at "present: window"
k=0
for key in a b c; do
	k=$((k + 1))
	xdotool key "$key"
	wait_for 60 says /tmp/present.out complete "$k"
	tap_cmp "present: Xorg completed the client's presentation $k" "$?" -eq 0
	at "present: $k completed"
done
x_incident present
at "present: incident stored"

kill "$PRESENT" "$XHOOK" "$TIPMED" 2> /dev/null
wait "$PRESENT" "$XHOOK" "$TIPMED" 2> /dev/null
kill "$XORG"
wait "$XORG"
cp /tmp/front.out /tmp/present.out /tmp/xorg.out "$out"/
sed 's/^/# /' "$out/present.out"
tap_on_host tests/vm/xorg_check.sh "$XORG" "$FRONT" "$PRESENT"
tap_check "rmmod" rmmod tipme
tap_done
