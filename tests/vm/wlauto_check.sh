#!/bin/bash
# A host step of t-wlauto: the incident the module's auto trigger made for
# wlkey's slow answer to press N (MODE: sleep, compute or ask), copied by the
# guest to TIPME_OUT/MODE.incident: tipme records --json of its dump and
# tipme report --json of the incident without --pid, checked with its
# meta.json against wlkey's ground truth (TIPME_OUT/wlkey.jsonl) by
# tests/vm/check_wlauto.py.
#
#   wlauto_check.sh MODE N
#       writes TIPME_OUT/MODE.records.jsonl, MODE.report.json, MODE.report.txt
#   wlauto_check.sh --fast N AUTO_MS INCIDENTS
#       press N answered at once (check_wlauto.py --fast): reads
#       TIPME_OUT/fast.info.json
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
if [ "$1" = --fast ]; then
	python3 tests/vm/check_wlauto.py --fast "$out/wlkey.jsonl" "$2" "$3" \
		"$out/fast.info.json" "$4" > "$out/fast.tap" 2>&1
	tap_merge "$out/fast.tap"
	tap_done
fi
mode=$1 n=$2
incident=$out/$mode.incident
"$B"/tipme records --json "$incident/kernel.dump" > "$out/$mode.records.jsonl"
tap_cmp "$mode: tipme records --json succeeds" "$?" -eq 0
"$B"/tipme report --json "$incident" > "$out/$mode.report.json"
tap_cmp "$mode: tipme report --json INCIDENT succeeds" "$?" -eq 0
"$B"/tipme report "$incident" > "$out/$mode.report.txt" 2>&1
head -n 1 "$out/$mode.report.txt" | sed "s/^/# $mode: report: /"
python3 tests/vm/check_wlauto.py "$out/wlkey.jsonl" "$out/env.json" "$n" \
	"$incident/meta.json" "$out/$mode.records.jsonl" "$out/$mode.report.json" \
	> "$out/$mode.tap" 2>&1
tap_merge "$out/$mode.tap"
tap_done
