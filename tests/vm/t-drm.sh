#!/bin/bash
# vm: timeout=300 gpu=bochs
# Display and GPU records on a real KMS device (QEMU's standard VGA, the
# bochs DRM driver) and vgem's fences.  tipme.ko is loaded before drm.ko:
# its DRM tracepoints wait for the module, attach when modprobe loads the
# driver (and drm.ko with it), and detach when it is removed.  Ground
# truth from tests/vm/progs/drmflip.c: the page flips it made and the
# events it read (each flip's completion is recorded as one
# vblank_delivered to its file, the committer its owner), and a fence wait
# that another process of it ended (tests/vm/check_drm.py).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
loaded() { grep -q "^$1 " /proc/modules; }
status() {
	"$B"/tipme status --json > "$out/status-$1.json"
	tap_cmp "tipme status --json ($1) succeeds" "$?" -eq 0
	python3 tests/vm/check_drm.py status "$out/status-$1.json" "$2" > "$out/status-$1.tap" 2>&1
	tap_merge "$out/status-$1.tap"
}

if loaded drm; then
	tap_fail "drm.ko is not loaded before the test" "$(grep '^drm' /proc/modules)"
fi
tap_check "insmod before drm.ko" insmod module/tipme.ko buffer_size=32M
status before no_module
"$B"/tipme status | grep '^optional tracepoints' | sed 's/^/# /'

tap_check "modprobe bochs (and drm.ko)" modprobe bochs
tap_check "a KMS device" test -c /dev/dri/card0
status loaded attached

t=$("$B"/tests/vm/drmflip flip 30)
tap_cmp "drmflip flip 30: every flip's event came back" "$?" -eq 0
tap_diag "flip truth: $t"
"$B"/tipme dump -o "$out/flip.dump" > /dev/null
tap_cmp "tipme dump (flips)" "$?" -eq 0
"$B"/tipme records --json --type vblank_delivered --type vblank_queued --type vblank \
	"$out/flip.dump" > "$out/flip.jsonl"
python3 tests/vm/check_drm.py flip "$t" "$out/flip.jsonl" > "$out/flip.tap" 2>&1
tap_merge "$out/flip.tap"
tap_check "the dump's parameters say drm_vblank_event_delivered was attached" \
	grep -q "tp.drm_vblank_event_delivered=attached" <("$B"/tipme info "$out/flip.dump")

tap_check "modprobe vgem" modprobe vgem
t=$("$B"/tests/vm/drmflip fence 300)
tap_cmp "drmflip fence 300: the wait ended" "$?" -eq 0
tap_diag "fence truth: $t"
"$B"/tipme dump -o "$out/fence.dump" > /dev/null
tap_cmp "tipme dump (fence)" "$?" -eq 0
"$B"/tipme records --json --type fence --type fence_name "$out/fence.dump" > "$out/fence.jsonl"
python3 tests/vm/check_drm.py fence "$t" "$out/fence.jsonl" > "$out/fence.tap" 2>&1
tap_merge "$out/fence.tap"

# the drivers, then the helpers they leave loaded, then drm.ko
for m in vgem bochs drm_vram_helper drm_shmem_helper drm_ttm_helper ttm drm_kms_helper drm; do
	loaded $m || continue
	tap_check "rmmod $m" rmmod $m
done
if loaded drm; then
	tap_fail "drm.ko is gone" "$(grep '^drm' /proc/modules)"
else
	tap_ok "drm.ko is gone"
fi
status after no_module
tap_check "modprobe bochs again" modprobe bochs
status again attached
tap_check "rmmod tipme with drm.ko loaded" rmmod tipme
tap_check "modprobe -r bochs after tipme" modprobe -r bochs
tap_done
