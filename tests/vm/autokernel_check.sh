#!/bin/bash
# The host step of t-autokernel (tests/lib/tap.sh: tap_on_host): the
# slow press's incident reported and checked against the reader's truth,
# the counts in the dumps' parameters and in tipme status.
#
#   autokernel_check.sh TRUTH
#       TRUTH: the reader's "handled ..." line of the slow press.  Reads
#       TIPME_OUT/incident1/ (the auto incident), off.dump, status.json,
#       status2.json, claimed.meta.json; writes report.json, report.tap
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
incident=$out/incident1
param() { "$B"/tipme info --json "$1" | python3 tests/lib/jsonq.py get - "params.$2" -; }
eq() { python3 tests/lib/jsonq.py eq "$@"; }

press_ns=$(python3 tests/lib/jsonq.py get "$incident/meta.json" auto.press_mono_ns)
"$B"/tipme report --json "$incident" > "$out/report.json" 2> "$out/report.err"
tap_cmp "tipme report --json INCIDENT succeeds" "$?" -eq 0
"$B"/tipme report "$incident" 2>&1 | head -n 1 | sed 's/^/# /'
python3 tests/vm/check_report.py kinput "$1 auto_press=$press_ns" \
	"$out/report.json" > "$out/report.tap" 2>&1
tap_merge "$out/report.tap"
measured=$(param "$incident/kernel.dump" auto_presses_measured)
tap_cmp "the dump's parameters: both presses measured, one slow ($measured measured)" \
	"$measured/$(param "$incident/kernel.dump" auto_presses_slow)" = "2/1"
tap_check "again: tipme status counts it" eq "$out/status.json" tipmed.auto_made=1 tipmed.auto_held=1
tap_cmp "off: the press is not measured" "$(param "$out/off.dump" auto_presses_measured)" -eq 3
tap_cmp "off: no trigger" "$(param "$out/off.dump" auto_triggers)" -eq 2
tap_check "its incident: claimed by uid 1000, who asked for it" \
	eq "$out/claimed.meta.json" auto.claimed=True \
	auto.claimed_by_uid=1000 trigger.uid=1000 trigger.source=auto
tap_check "tipme status counts both" eq "$out/status2.json" tipmed.auto_made=2 tipmed.auto_held=2
tap_done
