#!/bin/bash
# The host step of t-foot: tipme records, report and latency (--json) of
# the dump the guest made after foot showed the stopped key (report's
# window: check_foot.py --window), checked
# against ttystop's ground truth by tests/vm/check_foot.py.
#
#   foot_check.sh
#       reads TIPME_OUT/foot.dump, ttystop.jsonl, env.json; writes
#       TIPME_OUT/foot.records.jsonl, foot.report.json, foot.report.txt,
#       foot.latency.json, foot.info.json
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
dump=$out/foot.dump
. "$TIPME_SRC/tests/vm/wlanalyse.sh"
wl_analyse "$dump" "$out/foot" "" python3 tests/vm/check_foot.py --window "$out/ttystop.jsonl"
"$B"/tipme info --json "$dump" > "$out/foot.info.json"
tap_cmp "tipme info --json succeeds" "$?" -eq 0
python3 tests/vm/check_foot.py "$out/ttystop.jsonl" "$out/env.json" "$out/foot.records.jsonl" \
	"$out/foot.report.json" "$out/foot.latency.json" "$out/foot.info.json" > "$out/foot.tap" 2>&1
tap_merge "$out/foot.tap"
tap_done
