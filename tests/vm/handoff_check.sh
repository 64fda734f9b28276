#!/bin/bash
# A host step of t-handoff: tipme report (JSON and text) on the dump the
# guest made for MODE, checked against the ground truth handoff printed
# (tests/vm/check_handoff.py).
#
#   handoff_check.sh MODE TRUTH NAME [REPORT ARGS...]
#       reads TIPME_OUT/MODE.incident (t-xhandoff) or else MODE.dump,
#       writes TIPME_OUT/NAME.json and NAME.txt
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
mode=$1 truth=$2 name=$3
shift 3
dump=$out/$mode.dump
[ -d "$out/$mode.incident" ] && dump=$out/$mode.incident
"$B"/tipme report --json "$@" "$dump" > "$out/$name.json"
tap_cmp "$name: tipme report --json succeeds" "$?" -eq 0
"$B"/tipme report "$@" "$dump" > "$out/$name.txt" 2>&1
head -n 1 "$out/$name.txt" | sed 's/^/# /'
python3 tests/vm/check_handoff.py "$mode" "$truth" "$out/$name.json" > "$out/$name.tap" 2>&1
tap_merge "$out/$name.tap"
tap_done
