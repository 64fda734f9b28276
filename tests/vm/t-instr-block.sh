#!/bin/bash
# vm: timeout=180 share
# Issue 4: blocking sites.  A child blocks 300 ms reading an empty pipe; the
# dump must show it switched out to sleep with a pipe_read blocking site,
# and woken by the writer's write, at least 300 ms later (measured brackets).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

# Twice: with the site table (a blocking site is a 4-byte number in a
# TIPME_REC_SITE) and without it (site_table=0: every site written whole in
# a TIPME_REC_BLOCKED).  The records the reader gives must be the same.
for mode in table whole; do
	param=
	[ "$mode" = whole ] && param=site_table=0
	# shellcheck disable=SC2086
	tap_check "insmod tipme.ko ($mode)" insmod module/tipme.ko buffer_size=16M $param || tap_done
	truth=$("$B"/tests/vm/blockpipe 300)
	tap_cmp "blockpipe ran ($mode)" "$?" -eq 0
	tap_diag "ground truth: $truth"
	tap_check "tipme stop ($mode)" "$B"/tipme stop
	tap_check "tipme dump ($mode)" "$B"/tipme dump -o "$out/block-$mode.dump"
	"$B"/tipme records --json "$out/block-$mode.dump" > "$out/block-$mode.jsonl"
	tap_cmp "tipme records --json succeeds ($mode)" "$?" -eq 0
	python3 tests/vm/check_instr.py block "$truth ms=300" "$out/block-$mode.jsonl" > "$out/check.tap" 2>&1
	tap_merge "$out/check.tap"
	# Which form the dump holds: the record-type counts of tipme info.
	"$B"/tipme info --json "$out/block-$mode.dump" > "$out/info-$mode.json"
	counts=$(python3 tests/lib/jsonq.py table "$out/info-$mode.json" types name count \
		site sched_switch_site_s blocked | awk '{ print $1 + $2, $3 }')
	tap_diag "$mode: site and blocked records: $counts"
	if [ "$mode" = table ]; then
		tap_cmp "sites are numbers in the ring" "${counts% *}" -gt 0
	else
		tap_cmp "no site numbers without the table" "${counts% *}" -eq 0
		tap_cmp "sites written whole without the table" "${counts#* }" -gt 0
	fi
	reader=$(printf '%s\n' "$truth" | sed -n 's/.*reader=\([0-9]*\).*/\1/p')
	"$B"/tipme records --pid "$reader" "$out/block-$mode.dump" | grep -E 'blocked|waking' | tail -n 4 |
		sed 's/^/# /'
	tap_check "rmmod ($mode)" rmmod tipme
done
tap_done
