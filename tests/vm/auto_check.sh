#!/bin/bash
# The host step of t-auto (tests/lib/tap.sh: tap_on_host): tipme report of
# the auto incident (its kernel and X dumps) checked against the stopped
# client's truth, and tipme status's counts of tipmed's auto incidents.
#
#   auto_check.sh TRUTH
#       TRUTH: "victim=PID <sigsend's stop/continue stamps> done_ns=NS".
#       Reads TIPME_OUT/auto.incident/, status.json; writes auto.json,
#       auto.txt, auto.tap
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
incident=$out/auto.incident
# a faster press came first, so the slowest is this one too: the report
# must still say it chose it as the auto trigger's press
press=$(python3 tests/lib/jsonq.py get "$incident/meta.json" auto.press_mono_ns)
"$B"/tipme report --json "$incident" > "$out/auto.json" 2> "$out/auto.err"
tap_cmp "tipme report --json INCIDENT succeeds" "$?" -eq 0
"$B"/tipme report "$incident" > "$out/auto.txt" 2>&1
head -n 1 "$out/auto.txt" | sed 's/^/# /'
python3 tests/vm/check_report.py xstopped "$1 auto_press=$press" "$out/auto.json" \
	> "$out/auto.tap" 2>&1
tap_merge "$out/auto.tap"
tap_check "a second slow press held back: tipme status: $(python3 tests/lib/jsonq.py get "$out/status.json" tipmed)" \
	python3 tests/lib/jsonq.py eq "$out/status.json" tipmed.auto_made=1 tipmed.auto_held=1 tipmed.auto_today=1
tap_done
