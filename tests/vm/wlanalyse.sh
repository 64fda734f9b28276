# shellcheck shell=bash
# What the host steps of the Wayland tests (wayland_check.sh, foot_check.sh)
# run on a dump: tipme records, report and latency.  Sourced after
# tests/lib/tap.sh, with B (the build directory) set.
# shellcheck disable=SC2154 # B: set by the caller

# wl_analyse DUMP BASE LABEL WINDOW_CMD...: tipme records --json of DUMP
# into BASE.records.jsonl; the report window WINDOW_CMD prints, given
# that file as its last argument (ms); tipme report --window --json and
# text into BASE.report.json and .txt (its first line as a comment);
# tipme latency --json into BASE.latency.json (errors: .latency.err).
# Each as a TAP line, named after LABEL.
wl_analyse() {
	local dump=$1 base=$2 label=$3 win
	shift 3
	"$B"/tipme records --json "$dump" > "$base.records.jsonl"
	tap_cmp "${label}tipme records --json succeeds" "$?" -eq 0
	win=$("$@" "$base.records.jsonl")
	tap_cmp "${label}a report window for the press ($win ms)" "$?" -eq 0
	"$B"/tipme report --window "$win" --json "$dump" > "$base.report.json"
	tap_cmp "${label}tipme report --json succeeds" "$?" -eq 0
	"$B"/tipme report --window "$win" "$dump" > "$base.report.txt" 2>&1
	head -n 1 "$base.report.txt" | sed "s/^/# ${label}report: /"
	"$B"/tipme latency --json "$dump" > "$base.latency.json" 2> "$base.latency.err"
	tap_cmp "${label}tipme latency --json succeeds" "$?" -eq 0
}
