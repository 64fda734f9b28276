#!/bin/bash
# vm: timeout=180 cpu=qemu64,+invtsc,vendor=GenuineIntel
# The demo, inside the VM (started by scripts/demo.sh): the whole TIPME story.
# A program stalls for a reason we planted; the "user" presses
# Ctrl-Alt-Minus (a virtual keyboard, through the kernel's input core);
# tipmed saves the incident; tipme report gives the verdict.  Files land in
# $TIPME_OUT (build/demo/ on the host).
set -uo pipefail
ko=$TIPME_SRC/module/tipme.ko
bin=$TIPME_SRC/build
inc=$TIPME_OUT/incidents
section() { printf '\n== %s\n' "$*"; }
indent() { sed 's/^/  /'; }

section "guest: $(uname -r), $(nproc) CPUs"
modprobe uinput

section "load tipme.ko: 16 MiB of per-CPU rings, TSC timestamps"
insmod "$ko" buffer_size=16M clock=tsc || { dmesg | tail; exit 1; }
dmesg | grep 'tipme: ' | grep -v taint | indent
"$bin"/tipme status | indent

section "start tipmed: one incident directory per trigger"
rm -rf "$inc"
"$bin"/tipmed -d "$inc" -s /tmp/tipmed.sock > "$TIPME_OUT/tipmed.log" 2>&1 &
for i in $(seq 100); do grep -q connected "$TIPME_OUT/tipmed.log" && break; sleep 0.05; done
indent < "$TIPME_OUT/tipmed.log"

section "reproduce a stall: an app asks a server for a reply, while a real-time hog holds the server's CPU for 300 ms"
truth=$("$bin"/tests/vm/stall 300)
echo "  $truth"
victim=$(echo "$truth" | sed 's/.*victim=\([0-9]*\).*/\1/')

section "the user felt it and presses Ctrl-Alt-Minus"
"$bin"/tests/vm/vkbd ctrl+alt+minus | indent
for i in $(seq 100); do ls "$inc"/*/kernel.dump > /dev/null 2>&1 && break; sleep 0.05; done
desc="the app (stall) froze when I clicked"
if ! "$bin"/tipme note --socket /tmp/tipmed.sock "$(ls "$inc" | head -n 1)" "$desc"; then
	echo "demo: FAILED: tipme note could not describe the incident" >&2
	demo_failed=1
fi
"$bin"/tipme incidents -d "$inc" | indent
dump=$(ls "$inc"/*/kernel.dump | head -n 1)

section "what the incident holds"
"$bin"/tipme info "$dump" | sed -n '1,16p' | indent

section "the verdict: tipme report $(basename "$(dirname "$dump")") (no --pid: it finds the stall itself)"
"$bin"/tipme report "$(dirname "$dump")" | indent

section "the demo checks its own verdict: tipme report --json against the stall it reproduced"
"$bin"/tipme report --json "$(dirname "$dump")" > "$TIPME_OUT/report.json"
rc=$?
if [ "$rc" != 0 ]; then
	echo "demo: FAILED: tipme report --json exited $rc" >&2
	demo_failed=1
elif ! python3 "$TIPME_SRC/scripts/demo-check.py" "$truth" "$TIPME_OUT/report.json" "$desc" |
	indent; then
	demo_failed=1
fi

section "the same wait in detail: tipme why --pid $victim"
"$bin"/tipme why --pid "$victim" "$dump" | indent

section "pictures: tipme timeline (SVG) and tipme export --perfetto"
"$bin"/tipme timeline -o "$TIPME_OUT/timeline.svg" "$(dirname "$dump")" | indent
"$bin"/tipme export --perfetto -o "$TIPME_OUT/trace.json.gz" "$(dirname "$dump")" | indent
echo "  build/demo/timeline.svg: open it in a browser; build/demo/trace.json.gz: at https://ui.perfetto.dev"

kill %1 2>/dev/null
wait 2>/dev/null
rmmod tipme
echo
echo "The incident is in build/demo/incidents/ (root-only files)."
if [ "${demo_failed:-0}" = 1 ]; then
	echo "demo: FAILED: the verdict above is not the stall the demo reproduced (build/demo/report.json)" >&2
	exit 1
fi
