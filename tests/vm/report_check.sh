#!/bin/bash
# A host step of t-report (tests/lib/tap.sh: tap_on_host): tipme report
# on the dump the guest made, checked against the ground truth the guest
# measured.
#
#   report_check.sh CASE TRUTH NAME [REPORT ARGS...] -- [CHECK EXTRA...]
#       tipme report --json and text on TIPME_OUT/NAME.dump, then
#       tests/vm/check_report.py CASE TRUTH NAME.json EXTRA...
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
case=$1 truth=$2 name=$3
shift 3
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift
"$B"/tipme report --json "${args[@]}" "$out/$name.dump" > "$out/$name.json"
tap_cmp "$case: tipme report --json succeeds" "$?" -eq 0
"$B"/tipme report "${args[@]}" "$out/$name.dump" > "$out/$name.txt" 2>&1
head -n 1 "$out/$name.txt" | sed 's/^/# /'
python3 tests/vm/check_report.py "$case" "$truth" "$out/$name.json" "$@" \
	> "$out/$name.tap" 2>&1
tap_merge "$out/$name.tap"
tap_done
