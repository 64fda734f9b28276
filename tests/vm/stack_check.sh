#!/bin/bash
# A host step of t-stack (tests/lib/tap.sh: tap_on_host): tipme report on
# one workload's dump over its interval, as JSON and text, checked against
# the ground truth the workload printed (tests/vm/check_stack.py).
#
#   stack_check.sh NAME TRUTH PID FROM_NS TO_NS CHECK_ARGS...
#       (check_stack.py's arguments after its JSON file: CASE TOP DM ...)
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
name=$1 truth=$2 pid=$3 from=$4 to=$5
shift 5
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}
args=(--pid "$pid" --from "$(sec "$from")" --to "$(sec "$to")")
"$B"/tipme report --json "${args[@]}" "$out/$name.dump" > "$out/$name.json"
tap_cmp "$name: tipme report --json succeeds" "$?" -eq 0
"$B"/tipme report "${args[@]}" "$out/$name.dump" > "$out/$name.txt" 2>&1
sed -n '1,3s/^/# /p' "$out/$name.txt"
python3 tests/vm/check_stack.py "$name" "$truth" "$out/$name.json" "$@" > "$out/$name.tap" 2>&1
tap_merge "$out/$name.tap"
tap_done
