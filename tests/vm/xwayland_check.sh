#!/bin/bash
# The host step of t-xwayland: tipme records, report (no --pid) and
# latency (--json; report's text too) of the incident the guest made after
# the X client's answer to a slow key reached the screen, checked against
# the client's ground truth by tests/vm/check_xwayland.py.
#
#   xwayland_check.sh NAME N
#       NAME: the delay (sleep, compute); N: the key's number in the
#       client's truth.  Reads TIPME_OUT/NAME.incident, victim.out,
#       env.json; writes TIPME_OUT/NAME.records.jsonl, NAME.report.json,
#       NAME.report.txt, NAME.latency.json, NAME.latency.txt, NAME.tap
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
name=$1
dir=$out/$name.incident
"$B"/tipme records --json "$dir" > "$out/$name.records.jsonl"
tap_cmp "$name: tipme records --json succeeds" "$?" -eq 0
"$B"/tipme report --json "$dir" > "$out/$name.report.json"
tap_cmp "$name: tipme report --json succeeds" "$?" -eq 0
"$B"/tipme report "$dir" > "$out/$name.report.txt" 2>&1
head -n 3 "$out/$name.report.txt" | sed "s/^/# $name: report: /"
"$B"/tipme latency --json "$dir" > "$out/$name.latency.json"
tap_cmp "$name: tipme latency --json succeeds" "$?" -eq 0
"$B"/tipme latency "$dir" > "$out/$name.latency.txt" 2>&1
python3 tests/vm/check_xwayland.py "$name" "$2" "$out/victim.out" "$out/env.json" \
	"$out/$name.records.jsonl" "$out/$name.report.json" "$out/$name.latency.json" \
	> "$out/$name.tap" 2>&1
tap_merge "$out/$name.tap"
tap_done
