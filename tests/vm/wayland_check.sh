#!/bin/bash
# A host step of t-wayland: the records of the dump the guest made after
# the press of MODE (the Nth press of tests/vm/progs/wlkey.c, whose ground
# truth is TIPME_OUT/wlkey.jsonl) checked against that truth
# (tests/vm/check_wayland.py); tipme report --json and tipme latency
# --json of the dump saved next to it (only their success is checked:
# the analyses that end a press at the flip are checked elsewhere), the
# report's verdict shown as a comment.
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
"$B"/tipme records --json "$dump" > "$out/$mode.records.jsonl"
tap_cmp "$mode: tipme records --json succeeds" "$?" -eq 0
python3 tests/vm/check_wayland.py "$out/wlkey.jsonl" "$out/env.json" "$n" \
	"$out/$mode.records.jsonl" \
	> "$out/$mode.tap" 2>&1
tap_merge "$out/$mode.tap"
"$B"/tipme report --json "$dump" > "$out/$mode.report.json"
tap_cmp "$mode: tipme report --json succeeds" "$?" -eq 0
"$B"/tipme report "$dump" > "$out/$mode.report.txt" 2>&1
head -n 1 "$out/$mode.report.txt" | sed "s/^/# $mode: report: /"
"$B"/tipme latency --json "$dump" > "$out/$mode.latency.json" 2> "$out/$mode.latency.err"
rc=$?
if [ "$rc" != 0 ] && grep -q 'X dump' "$out/$mode.latency.err"; then
	# today's tipme latency follows presses through the X server only
	tap_skip "$mode: tipme latency --json succeeds" "$(head -n 1 "$out/$mode.latency.err")"
else
	tap_cmp "$mode: tipme latency --json succeeds" "$rc" -eq 0
fi
tap_done
