#!/bin/bash
# The host steps of t-xreport (tests/lib/tap.sh: tap_on_host): tipme
# report, the Perfetto export and the timeline of one incident the guest
# made, checked against the ground truth the guest measured.
#
#   xreport_check.sh case CASE TRUTH VICTIM TIMELINE_CLASS [EXTRA...]
#       report --json and text on TIPME_OUT/CASE.incident without --pid
#       (tests/vm/check_report.py CASE TRUTH ... EXTRA), its Perfetto
#       export (tests/lib/check_perfetto.py) and its timeline, whose
#       victim's lane must show TIMELINE_CLASS (tests/lib/check_timeline.py)
#   xreport_check.sh roundtrip CASE TRUTH VICTIM FROM_NS TO_NS
#       report --json --pid VICTIM over [FROM_NS, TO_NS] on the same
#       incident
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

sec() { printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }

report_case() {
	local case=$1 truth=$2 victim=$3 tl_class=$4 incident=$out/$1.incident
	shift 4
	"$B"/tipme report --json "$incident" > "$out/$case.json" 2> "$out/$case.err"
	tap_cmp "$case: tipme report --json INCIDENT succeeds" "$?" -eq 0
	"$B"/tipme report "$incident" > "$out/$case.txt" 2>&1
	head -n 1 "$out/$case.txt" | sed 's/^/# /'
	python3 tests/vm/check_report.py "$case" "$truth" "$out/$case.json" "$@" \
		> "$out/$case.tap" 2>&1
	tap_merge "$out/$case.tap"
	# the same incident as a Perfetto trace: every switch, the client's
	# interval, the X server's requests
	"$B"/tipme export --perfetto -o "$out/$case.trace.json.gz" "$incident" > /dev/null
	tap_cmp "$case: tipme export --perfetto succeeds" "$?" -eq 0
	python3 tests/lib/check_perfetto.py "$out/$case.trace.json.gz" \
		--threads xhook-testclien,Xvfb --verdict "$victim" --x-requests \
		--switches "$("$B"/tipme records --json --type sched_switch "$incident" | wc -l)" \
		> "$out/$case.perfetto.tap" 2>&1
	tap_merge "$out/$case.perfetto.tap"
	# the last case's trace holds the whole run (over 100 MB): not kept
	rm -f "$out/$case.trace.json.gz"
	# and as TIPME's timeline: the client's lane first, what it waited for
	"$B"/tipme timeline -o "$out/$case.svg" "$incident" > /dev/null
	tap_cmp "$case: tipme timeline succeeds" "$?" -eq 0
	python3 tests/lib/check_timeline.py "$out/$case.svg" --classes "$tl_class" \
		--lanes "cpu 0,cpu 1,$victim xhook-testclien" > "$out/$case.timeline.tap" 2>&1
	tap_merge "$out/$case.timeline.tap"
}

round_trip() {
	local case=$1 truth=$2 victim=$3 from=$4 to=$5
	"$B"/tipme report --json --pid "$victim" --from "$(sec "$from")" --to "$(sec "$to")" \
		"$out/$case.incident" > "$out/$case-rt.json" 2> "$out/$case-rt.err"
	tap_cmp "$case: tipme report --pid over the client's round trip succeeds" "$?" -eq 0
	python3 tests/vm/check_report.py "$case-rt" "$truth" "$out/$case-rt.json" \
		> "$out/$case-rt.tap" 2>&1
	tap_merge "$out/$case-rt.tap"
}

what=$1
shift
case $what in
case) report_case "$@" ;;
roundtrip) round_trip "$@" ;;
*) tap_fail "xreport_check.sh: unknown step '$what'" ;;
esac
tap_done
