#!/bin/bash
# A host step (tests/lib/tap.sh: tap_on_host) around a checker that prints
# TAP lines but need not exit non-zero on a failure (the Python checkers):
# its results become this step's, and the step fails if any failed or none
# was reported.
#
#   host_check.sh [--records DUMP JSONL] CHECKER [ARGS...]
#       --records: first `tipme records --json DUMP > JSONL`
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
if [ "${1:-}" = --records ]; then
	"$TIPME_SRC"/build/tipme records --json "$2" > "$3"
	tap_cmp "tipme records --json ${2##*/}" "$?" -eq 0
	shift 3
fi
f=$(mktemp) || exit 1
"$@" > "$f" 2>&1
tap_merge "$f"
rm -f "$f"
tap_done
