#!/bin/bash
# vm: timeout=240 gpu=virtio
# make demo-wayland, inside the VM (started by scripts/demo.sh --wayland):
# a slow key press on a Wayland desktop, diagnosed from the kernel's
# records alone.  sway runs on virtio-gpu's DRM device
# (tests/vm/wlsession.sh); an app (tests/vm/progs/wlkey) answers the key
# 'c' by computing for 300 ms before it draws; the "user" presses 'c',
# sees the answer late and presses Ctrl-Alt-Minus; tipmed saves the
# incident; tipme report follows the press from the kernel's input record
# through sway to the app, its commit and the page flip that showed the
# answer.  The demo checks its own verdict (scripts/demo-wayland-check.py).
# Files land in $TIPME_OUT (build/demo-wayland/ on the host).
set -uo pipefail
# shellcheck source=tests/lib/tap.sh
. "$TIPME_SRC/tests/lib/tap.sh"	# wait_for only: the demo prints no TAP
bin=$TIPME_SRC/build
B=$bin out=$TIPME_OUT
inc=$out/incidents
truth=$out/wlkey.jsonl
# shellcheck source=tests/vm/wlsession.sh
. "$TIPME_SRC/tests/vm/wlsession.sh"
section() { printf '\n== %s\n' "$*"; }
indent() { sed 's/^/  /'; }
failed() {
	echo "demo-wayland: FAILED: $*" >&2
	kill "$tipmed" 2>/dev/null
	wl_end
	rmmod tipme
	exit 1
}
answered() { grep -q '"press"' "$truth"; }
dumped() { ls "$inc"/*/kernel.dump > /dev/null 2>&1; }

section "guest: $(uname -r), $(nproc) CPUs"

section "load tipme.ko and start tipmed"
insmod "$TIPME_SRC/module/tipme.ko" buffer_size=16M || { dmesg | tail; exit 1; }
rm -rf "$inc"
"$bin"/tipmed -d "$inc" -s /tmp/tipmed.sock > "$out/tipmed.log" 2>&1 &
tipmed=$!
wait_for 20 grep -q connected "$out/tipmed.log" || failed "tipmed did not start"
indent < "$out/tipmed.log"

section "a Wayland desktop: sway on the DRM device of virtio-gpu (pixman renderer), seatd, a virtual keyboard"
wl_session || failed "$WL_ERR"
echo "  sway (pid $SWAY_PID) on $WAYLAND_DISPLAY"

section "an app: wlkey answers the key 'c' by computing for 300 ms, then draws"
as_wl "$bin"/tests/vm/wlkey c=compute:300 > "$truth" 2> "$out/wlkey.err" &
wait_for 60 grep -q '"ready"' "$truth" || failed "wlkey did not get its window: $(tail -n 3 "$out/wlkey.err")"
echo "  wlkey: its window is on the screen, with the keyboard focus"

section "the user presses 'c': the answer reaches the screen late"
# (typed when sway is seen asleep: it wakes at 60 Hz in this guest, and a
# key that finds it runnable wakes no reader, a press tipme cannot follow
# yet: Documentation/wayland.md)
wl_type "@$SWAY_PID c"
wait_for 60 answered || failed "wlkey's answer never reached the screen: $(tail -n 3 "$out/wlkey.err")"

section "the user felt it and presses Ctrl-Alt-Minus"
wl_type ctrl+alt+minus
wait_for 60 dumped || failed "tipmed saved no incident: $(tail -n 3 "$out/tipmed.log")"
# (what wlkey measured, shown only now: the hotkey came right after the
# answer, as a user's would, within the 2 s tipme report looks back)
python3 "$TIPME_SRC/scripts/demo-wayland-check.py" --press "$truth" | indent
"$bin"/tipme incidents -d "$inc" | indent
dir=$(dirname "$(ls "$inc"/*/kernel.dump | head -n 1)")

section "the verdict: tipme report $(basename "$dir") (no --pid: it finds the press itself)"
"$bin"/tipme report "$dir" | indent

section "the press stage by stage: tipme latency $(basename "$dir")"
"$bin"/tipme latency "$dir" 2>&1 | indent

section "the demo checks its own verdict: tipme report --json against what wlkey measured"
"$bin"/tipme report --json "$dir" > "$out/report.json" || failed "tipme report --json exited $?"
python3 "$TIPME_SRC/scripts/demo-wayland-check.py" "$truth" "$out/report.json" | indent
check=${PIPESTATUS[0]}

kill "$tipmed" 2>/dev/null
wait "$tipmed" 2>/dev/null
wl_end
rmmod tipme
echo
echo "The incident is in build/demo-wayland/incidents/ (root-only files)."
if [ "$check" != 0 ]; then
	echo "demo-wayland: FAILED: the verdict above is not the stall the demo made (build/demo-wayland/report.json)" >&2
	exit 1
fi
