#!/bin/bash
# A host step of t-catalogue (tests/lib/tap.sh: tap_on_host): tipme report
# on one scenario's dump three ways -- the subject's own stall, and the
# waits of the two threads that waited for it on a mutex and on a pipe --
# each checked against the ground truth catalogue printed
# (tests/vm/check_catalogue.py).
#
#   catalogue_check.sh NAME TRUTH CAUSE RESOURCE CULPRIT [OPTION...]
#       (check_catalogue.py's arguments, after its JSON files)
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
name=$1 truth=$2
shift 2
kv() { printf '%s\n' "$truth" | sed -n "s/.*\b$1=\([^ ]*\).*/\1/p"; }
sec() {
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	printf '%d.%09d\n' $((10#$1 / 1000000000)) $((10#$1 % 1000000000))
}
# the three intervals: the thread, its first and last ns in the truth
for how in direct:subject:start_ns:end_ns mutex:mw:mw_start_ns:mw_end_ns \
	pipe:pw:pw_start_ns:pw_end_ns; do
	IFS=: read -r via pid from to <<< "$how"
	args=(--pid "$(kv "$pid")" --from "$(sec "$(kv "$from")")" --to "$(sec "$(kv "$to")")")
	"$B"/tipme report --json "${args[@]}" "$out/$name.dump" > "$out/$name-$via.json"
	tap_cmp "$name ($via): tipme report --json succeeds" "$?" -eq 0
	"$B"/tipme report "${args[@]}" "$out/$name.dump" > "$out/$name-$via.txt" 2>&1
	head -n 1 "$out/$name-$via.txt" | sed "s/^/# $via: /"
done
python3 tests/vm/check_catalogue.py "$name" "$truth" "$out/$name-direct.json" \
	"$out/$name-mutex.json" "$out/$name-pipe.json" "$@" > "$out/$name.tap" 2>&1
tap_merge "$out/$name.tap"
tap_done
