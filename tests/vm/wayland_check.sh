#!/bin/bash
# A host step of t-wayland: the records of the dump the guest made after
# the press of MODE (the Nth press of tests/vm/progs/wlkey.c, whose ground
# truth is TIPME_OUT/wlkey.jsonl) checked against that truth
# (tests/vm/check_wayland.py); then tipme report --json (over a window
# that holds this press and no earlier one: check_wayland.py --window) and
# tipme latency --json of the dump, checked against the same truth: the
# press ends at the flip, the verdict per mode, the interval within 10%
# plus one refresh.
#
#   wayland_check.sh MODE N
#       reads TIPME_OUT/MODE.dump; writes TIPME_OUT/MODE.records.jsonl,
#       MODE.report.json, MODE.report.txt, MODE.latency.json
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
mode=$1 n=$2
dump=$out/$mode.dump
. "$TIPME_SRC/tests/vm/wlanalyse.sh"
wl_analyse "$dump" "$out/$mode" "$mode: " python3 tests/vm/check_wayland.py --window \
	"$out/wlkey.jsonl" "$n"
python3 tests/vm/check_wayland.py "$out/wlkey.jsonl" "$out/env.json" "$n" \
	"$out/$mode.records.jsonl" "$out/$mode.report.json" "$out/$mode.latency.json" \
	> "$out/$mode.tap" 2>&1
tap_merge "$out/$mode.tap"
tap_done
