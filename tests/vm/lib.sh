# shellcheck shell=bash
# What the VM tests that run tipmed share (t-autokernel, and through
# tests/vm/xlib.sh the tests with X clients): tipmed started the same way,
# the incidents it made, the small predicates they wait on, and the check
# of an auto incident's meta.json.  Sourced after tests/lib/tap.sh, with B
# (the build directory), out (TIPME_OUT), inc (the incidents directory)
# and sock (tipmed's control socket) set.
# shellcheck disable=SC2154 # out, inc, sock: set by the test

mono_ns() { python3 "$TIPME_SRC/tests/lib/mono.py"; }
# says FILE WORD [N]: FILE has at least N lines starting with WORD
says() { [ "$(grep -c "^$2" "$1")" -ge "${3:-1}" ]; }
# field FILE KEY: the value of the last "KEY VALUE" line of FILE
field() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"; }
incidents() { find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort; }

# start_tipmed [ARGS...]: tipmed on $inc and $sock, its PID in TIPMED
start_tipmed() {
	"$B"/tipmed -d "$inc" -s "$sock" "$@" > "$out/tipmed.log" 2>&1 &
	# shellcheck disable=SC2034 # for the test
	TIPMED=$!
	wait_for 20 grep -q 'connected to tipme.ko' "$out/tipmed.log"
	tap_cmp "tipmed is up" "$?" -eq 0
}

# check_auto_meta META PID COMM PRESS_LO PRESS_HI LAT_LO LAT_HI: the meta.json
# of an incident the auto trigger made (times in ns, CLOCK_MONOTONIC): source
# "auto", a key press to PID (COMM) between PRESS_LO and PRESS_HI, and a
# latency within 10% of the truth, LAT_LO .. LAT_HI.  Its results are this
# test's; the checker's output is kept in $out/meta.tap.
check_auto_meta() {
	python3 "$TIPME_SRC/tests/vm/check_meta.py" "$@" > "$out/meta.tap" 2>&1
	tap_merge "$out/meta.tap"
}
