#!/bin/bash
# The host step of t-pool (tests/lib/tap.sh: tap_on_host): tipme info
# --json of each dump the guest made and tipme records --json of those
# that must hold a ping-pong's marker, then every comparison of t-pool's
# in tests/vm/check_pool.py.
#
#   pool_check.sh BUF
#       BUF: the buffer size the guest loaded.  Reads TIPME_OUT/*.dump,
#       *.status.json, *.pp; writes NAME.json (info), NAME.jsonl
#       (records), pool.tap
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
for d in busy-pool busy-percpu wrap offline offline2 online frozen; do
	"$B"/tipme info --json "$out/$d.dump" > "$out/$d.json"
	tap_cmp "$d: the dump decodes, every CPU in order (tipme info --json)" "$?" -eq 0
done
for d in offline online frozen; do
	"$B"/tipme records --json "$out/$d.dump" > "$out/$d.jsonl"
	tap_cmp "$d: tipme records --json" "$?" -eq 0
done
python3 tests/vm/check_pool.py "$out" "$1" > "$out/pool.tap" 2>&1
tap_merge "$out/pool.tap"
tap_done
