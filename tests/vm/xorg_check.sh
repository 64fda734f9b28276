#!/bin/bash
# The host steps of t-xorg (tests/lib/tap.sh: tap_on_host): tipme latency,
# tipme report and the flips' records of its two X incidents, tipme report
# and the auto trigger's counts of its kbd incident, checked against the
# truth the guest measured (tests/vm/check_xorg.py).
#
#   xorg_check.sh XORG_PID FRONT_PID PRESENT_PID KBD_PID TYPED_NS
#       KBD_PID: the kbd client, TYPED_NS when the keyboard typed its
#       slow key
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

i=$out/kbd.incident
"$B"/tipme report --json "$i" > "$out/kbd-report.json" 2> "$out/kbd-report.err"
tap_cmp "kbd: tipme report --json INCIDENT succeeds" "$?" -eq 0
"$B"/tipme report "$i" 2>&1 | head -n 4 | sed 's/^/# /'
"$B"/tipme info --json "$i/kernel.dump" > "$out/kbd-info.json"
python3 tests/vm/check_xorg.py kbd "$out/kbd-info.json" "$out/kbd-report.json" \
	"$i/meta.json" "$out/kbd.out" "$1" "$4" "$5" > "$out/kbd.tap" 2>&1
tap_merge "$out/kbd.tap"

for case in front present; do
	i=$out/$case.incident
	pid=$2
	[ "$case" = present ] && pid=$3
	"$B"/tipme latency --json "$i" > "$out/$case-latency.json" 2> "$out/$case-latency.err"
	tap_cmp "$case: tipme latency --json INCIDENT succeeds" "$?" -eq 0
	"$B"/tipme report --json "$i" > "$out/$case-report.json" 2> "$out/$case-report.err"
	tap_cmp "$case: tipme report --json INCIDENT succeeds" "$?" -eq 0
	"$B"/tipme records --json --type vblank_delivered "$i" > "$out/$case-flips.jsonl"
	"$B"/tipme latency "$i" > "$out/$case-latency.txt" 2>&1
	"$B"/tipme report "$i" > "$out/$case-report.txt" 2>&1
	head -n 4 "$out/$case-report.txt" | sed 's/^/# /'
	python3 tests/vm/check_xorg.py "$case" "$out/$case-latency.json" "$out/$case-report.json" \
		"$out/$case-flips.jsonl" "$out/$case.out" "$1" "$pid" > "$out/$case.tap" 2>&1
	tap_merge "$out/$case.tap"
done
tap_done
