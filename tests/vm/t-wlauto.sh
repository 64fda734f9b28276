#!/bin/bash
# vm: timeout=400 gpu=virtio cpu=qemu64,+invtsc,vendor=GenuineIntel
# The module's own auto trigger on a Wayland desktop (issue 28, section 4):
# sway on its DRM backend (tests/vm/wlsession.sh, as t-wayland.sh) reads
# the keyboard and passes each key to our client wlkey
# (tests/vm/progs/wlkey.c), which answers it late by a known amount.  The
# trigger (auto_trigger_ms 250) must measure each press to the page flip
# that showed the answer, not to sway's next wait (sway is done with a key
# in a few tens of ms, long before wlkey answers):
#  0. 'a' with the trigger off: the first answer after sway and wlkey
#     started takes long under TCG (a first run took 298 ms, key to
#     screen), as wlkey's truth shows; it warms the path up.
#  1. 'a' again, answered at once: measured to its flip
#     (auto_presses_to_flip), and fired iff wlkey's truth says it was
#     slow: below 90% of 250 ms nothing fires and no incident is made.
#  2. 's', wlkey sleeps 400 ms before it commits: an incident of source
#     "auto" by itself, meta.json's press sway's, "end": "flip", its time
#     the key event's and its latency wlkey's key-to-screen time (the key
#     event to wp_presentation's presented time) within 10% plus one
#     refresh; `tipme report INCIDENT` (no --pid) takes that press, ends
#     it at the flip and names the sleep (timer, wlkey the culprit).
#  3. 'c', wlkey computes 400 ms: the same, running, wlkey the culprit
#     (tipmed's spacing is 0 here).
#  3b. 'p', which wlkey passes to its helper process (a pipe, as a
#     terminal writes a key to its pty) before it waits in its main loop
#     again; the helper answers 600 ms later.  The key is held down until
#     wlkey waits again and released then: sway's message of the release
#     finds wlkey in the very wait it was woken from for the press, before
#     the answer (t-foot's race, made certain; wlkey's truth says the
#     release came first).  wlkey passed the press on, so that is no proof
#     it drew nothing: an incident as in 2, the verdict the helper's sleep
#     (timer).  Before, the module dropped the press as undrawn
#     (auto_presses_undrawn) and tipme report ended it at sway's wait.
#  4. 'x', which wlkey handles without drawing anything, typed just after
#     another window (wlkey --blink 1000, which sway never focuses) redrew
#     itself (its flip done: wp_presentation), as a blinking cursor does
#     once a second: the press is not
#     ended at that window's next flip a second later (it drew nothing),
#     so no incident comes while the window flips twice more.
# Each key is typed once sway sleeps (a key that finds it runnable wakes
# nobody: no reader, nothing measured).  The checks run on the host:
# tests/vm/wlauto_check.sh, tests/vm/check_wlauto.py.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/lib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
truth=/tmp/wlkey.jsonl
logs=/tmp/wlkeylogs
PRESSES="a=none:0 s=sleep:400 c=compute:400 p=ask:600 x=silent"
blinks=/tmp/wlblink.jsonl
AUTO_MS=250
param() { "$B"/tipme info --json "$1" | python3 tests/lib/jsonq.py get - "params.$2" -; }
. "$TIPME_SRC/tests/vm/wlsession.sh"
# the logs and the truth go to the guest's tmpfs (t-wayland.sh says why)
cleanup() {
	[ -z "${wlkey_pid:-}" ] || kill "$wlkey_pid" 2>/dev/null
	[ -z "${blink_pid:-}" ] || kill "$blink_pid" 2>/dev/null
	cp "$blinks" "$out/wlblink.jsonl" 2>/dev/null
	wl_end
	[ -z "${TIPMED:-}" ] || { kill "$TIPMED"; wait "$TIPMED" 2> /dev/null; }
	cp "$truth" "$out/wlkey.jsonl" 2>/dev/null
	cp "$logs"/* "$out"/ 2>/dev/null
}
answered() { [ "$(grep -c '"press"' "$truth")" -ge "$1" ]; }
blinked() { [ "$(grep -c '"blink"' "$blinks")" -ge "$1" ]; }
shown() { [ "$(grep -c '"presented"' "$blinks")" -ge "$1" ]; }

# evdev before tipme, as at boot: the auto trigger sees a reader woken
# during the delivery only when evdev's handler runs before tipme's
modprobe evdev
tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
# the input records name the key: the report's press is found by its code
echo 1 > /proc/sys/tipme/keylog
grep -q '^tipme:' /etc/group || echo 'tipme:x:990:' >> /etc/group
start_tipmed --auto-spacing 0
mkdir -p "$logs"
WL_LOGS=$logs
# shellcheck disable=SC2119 # sway without extra arguments
if ! wl_session; then
	tap_fail "sway started" "$WL_ERR"
	cleanup
	tap_done
fi
tap_ok "sway started on $WAYLAND_DISPLAY"

# shellcheck disable=SC2086
as_wl "$B"/tests/vm/wlkey -v --count 6 $PRESSES > "$truth" 2> "$logs/wlkey.err" &
wlkey_pid=$!
if ! wait_for 60 grep -q '"ready"' "$truth"; then
	tap_fail "wlkey mapped its window and has the focus" "$(tail -n 5 "$logs/wlkey.err")"
	cleanup
	tap_done
fi
tap_ok "wlkey mapped its window and has the focus"
printf '{"event": "env", "sway": %d, "seatd": %d}\n' "$SWAY_PID" "$SEATD_PID" > "$out/env.json"

# 0. the first answer, slow under TCG: the trigger is off
wl_type "@$SWAY_PID a"
wait_for 60 answered 1
tap_cmp "warm-up: wlkey's answer to 'a' reached the screen" "$?" -eq 0
echo $AUTO_MS > /sys/module/tipme/parameters/auto_trigger_ms

# 1. answered at once: measured to the flip, fired iff the truth says slow
wl_type "@$SWAY_PID a"
wait_for 60 answered 2
tap_cmp "none: wlkey's answer to 'a' reached the screen" "$?" -eq 0
"$B"/tipme dump -o "$out/fast.dump" > /dev/null
"$B"/tipme info --json "$out/fast.dump" > "$out/fast.info.json"
tap_check "DRM's flip completions are seen (drm_vblank_event_delivered attached)" \
	grep -q '"tp.drm_vblank_event_delivered": *"attached"' "$out/fast.info.json"
cp "$truth" "$out/wlkey.jsonl"
tap_on_host tests/vm/wlauto_check.sh --fast 2 "$AUTO_MS" "$(incidents | wc -l)"

# 2. and 3. slow answers: an incident each, by itself
n=2
for p in s:sleep c:compute; do
	key=${p%%:*} mode=${p#*:}
	n=$((n + 1))
	before=$(incidents | wc -l)
	wl_type "@$SWAY_PID $key"
	wait_for 60 answered $n
	tap_cmp "$mode: wlkey's answer to '$key' reached the screen" "$?" -eq 0
	wl_auto_incident "$mode" "$n"
done

# 3b. a key passed on, its release before the answer
n=$((n + 1))
before=$(incidents | wc -l)
client=$(grep -m1 '"ready"' "$truth" | sed 's/.*"pid": \([0-9]*\).*/\1/')
wl_type "@$SWAY_PID down:p"
wait_for 60 grep -q '"asked"' "$truth"
tap_cmp "ask: wlkey passed 'p' to its helper" "$?" -eq 0
# released once wlkey's client waits again (vkbd's @PID: seen asleep)
wl_type "@$client up:p"
wait_for 60 answered $n
tap_cmp "ask: wlkey's answer to 'p' reached the screen" "$?" -eq 0
wl_auto_incident ask "$n"

# 4. a key that draws nothing while another window blinks
before=$(incidents | wc -l)
as_wl "$B"/tests/vm/wlkey --blink 1000 > "$blinks" 2> "$logs/wlblink.err" &
blink_pid=$!
wait_for 60 blinked 2
tap_cmp "silent: another window redraws itself every second" "$?" -eq 0
# just after a blink reached the screen (its flip is not the key's): the
# next one is a second away, far past 250 ms
b=$(grep -c '"presented"' "$blinks")
wait_for 10 shown $((b + 1))
tap_cmp "silent: a blink reached the screen (wp_presentation)" "$?" -eq 0
wl_type "@$SWAY_PID x"
wait_for 60 answered 6
tap_cmp "silent: wlkey handled 'x' without drawing anything" "$?" -eq 0
b=$(grep -c '"blink"' "$blinks")
wait_for 10 blinked $((b + 2))
tap_cmp "silent: the other window flipped twice more" "$?" -eq 0
tap_cmp "silent: no incident for a press that drew nothing" "$(incidents | wc -l)" -eq "$before"
"$B"/tipme dump -o "$out/silent.dump" > /dev/null
for k in auto_presses_followed auto_presses_to_flip auto_presses_undrawn auto_triggers; do
	echo "# silent: $k $(param "$out/silent.dump" "$k")"
done
grep 'auto' "$out/tipmed.log" | sed 's/^/# tipmed: /'
cleanup
tap_check "rmmod" rmmod tipme
tap_cmp "no WARNING/BUG in the kernel log" "$(dmesg | grep -c -E 'WARNING|BUG|Oops')" -eq 0
tap_done
