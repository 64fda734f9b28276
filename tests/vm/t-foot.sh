#!/bin/bash
# vm: timeout=300 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
# A real terminal typed into: foot, Debian's native Wayland terminal, on
# sway's DRM backend (tests/vm/wlsession.sh, as t-wayland.sh), running
# tests/vm/progs/ttystop, which echoes every byte foot passes it and, for
# the key 's', first stops foot (SIGSTOP) for 300 ms: foot has read the
# key from sway and written it to its terminal, and can only show the echo
# once it has been continued.  ttystop writes the ground truth (when the
# byte came, the stop, the continue, the echo).  A first key 'a' (echoed
# at once) shows foot has the focus and draws.  The display's own record
# of the flip is the primary plane's framebuffer in DRM's debugfs state:
# the dump is taken once it changed after the echo.  On the host,
# tests/vm/check_foot.py checks tipme report and tipme latency of the dump
# against the truth: from the key's input record to the first flip after
# the echo, foot stopped (culprit foot) for the time ttystop kept it so;
# and that the module's auto trigger, at 5000 ms, measured the press past
# sway to a flip and did not fire (t-wlauto.sh makes it fire).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
truth=/tmp/ttystop.jsonl	# written by the session's user, copied to $out
. "$TIPME_SRC/tests/vm/wlsession.sh"
finish() {
	[ -z "${foot_pid:-}" ] || kill "$foot_pid" 2>/dev/null
	wl_end
	cp "$truth" "$out/ttystop.jsonl" 2>/dev/null
	tap_check "rmmod" rmmod tipme
	tap_done
}
bytes() { [ "$(grep -c '"byte"' "$truth")" -ge "$1" ]; }

# evdev before tipme, as at boot: the auto trigger sees a reader woken
# during the delivery only when evdev's handler runs before tipme's
modprobe evdev
tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
# the input records name the key: the press is found by its code
echo 1 > /proc/sys/tipme/keylog
# shellcheck disable=SC2119 # sway without extra arguments
if ! wl_session; then
	tap_fail "sway started" "$WL_ERR"
	finish
fi
tap_ok "sway started on $WAYLAND_DISPLAY"
tap_check "ftrace records DRM's page-flip events" wl_flips_watch

: > "$truth"
chown "$WL_UID" "$truth"
as_wl env LANG=C.UTF-8 foot -W 20x4 --app-id foot -- "$B"/tests/vm/ttystop s 300 "$truth" \
	> "$out/foot.log" 2>&1 &
foot_pid=$!
if ! wait_for 60 grep -q '"ready"' "$truth"; then
	tap_fail "foot started ttystop" "$(tail -n 5 "$out/foot.log")"
	finish
fi
tap_ok "foot started ttystop"
tap_diag "foot pid $foot_pid; $(head -n 1 "$truth")"

# the first key: foot has the focus and draws
fb0=$(wl_fb)
wl_type a
wait_for 60 bytes 1
tap_cmp "foot passed the key 'a' to its terminal" "$?" -eq 0
wait_for 30 wl_fb_not "$fb0"
tap_cmp "a flip after the echo of 'a' (framebuffer $fb0 -> $(wl_fb))" "$?" -eq 0

# the module's auto trigger follows the press past the reader of the
# keyboard (sway), which is done with the key long before foot shows it,
# to the flip; above the press's latency it must not fire (check_foot.py
# reads its counts in the dump)
echo 5000 > /sys/module/tipme/parameters/auto_trigger_ms
fb0=$(wl_fb)
# (when sway sleeps: it wakes at 60 Hz here, and a key that finds it busy
# wakes nobody, so no reader of the key would be seen)
wl_type "@$SWAY_PID s"
wait_for 60 bytes 2
tap_cmp "foot passed the key 's', was stopped and continued" "$?" -eq 0
wait_for 30 wl_fb_not "$fb0"
tap_cmp "a flip after the echo of 's' (framebuffer $fb0 -> $(wl_fb))" "$?" -eq 0
# the framebuffer changes at sway's commit, the flip's event (which the
# report ends the press at) at the vblank after: not before it
wait_for 30 wl_flip_after "$(grep '"byte": "s"' "$truth" | grep -o '"echo_ns": [0-9]*' | grep -o '[0-9]*$')"
tap_cmp "its flip's event delivered after the echo" "$?" -eq 0
printf '{"event": "env", "sway": %d, "seatd": %d, "foot": %d}\n' \
	"$SWAY_PID" "$SEATD_PID" "$foot_pid" > "$out/env.json"
echo 1 > /proc/sys/tipme/trigger
tap_check "tipme dump" "$B"/tipme dump -o "$out/foot.dump"
grep -v '^\[.*DEBUG' "$out/foot.log" | tail -n 3 | sed 's/^/# foot: /'
tap_on_host tests/vm/foot_check.sh
finish
