# shellcheck shell=bash
# What the VM tests that run tipmed share (t-autokernel, t-thaw, and
# through tests/vm/xlib.sh the tests with X clients): tipmed started the
# same way, the incidents it made, the small predicates they wait on, a
# key press the module's auto trigger measures, and the check of an auto
# incident's meta.json (of wlkey's press on a Wayland desktop: t-wlauto,
# t-weston).  Sourced after tests/lib/tap.sh, with B (the build
# directory), out (TIPME_OUT), inc (the incidents directory) and sock
# (tipmed's control socket) set.
# shellcheck disable=SC2154 # out, inc, sock, truth, before: set by the test

mono_ns() { python3 "$TIPME_SRC/tests/lib/mono.py"; }
# says FILE WORD [N]: FILE has at least N lines starting with WORD
says() { [ "$(grep -c "^$2" "$1")" -ge "${3:-1}" ]; }
# field FILE KEY: the value of the last "KEY VALUE" line of FILE
field() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"; }
incidents() { find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort; }
more_than() { [ "$(incidents | wc -l)" -gt "$1" ]; }

# wl_auto_incident MODE N: one auto incident more than $before, by itself,
# for wlkey's press N, copied to $out/MODE.incident with wlkey's truth
# ($truth), and its host step (tests/vm/wlauto_check.sh MODE N)
wl_auto_incident() {
	wait_for 60 more_than "$before"
	tap_cmp "$1: an auto incident, by itself" "$?" -eq 0
	tap_cmp "$1: one incident more" "$(incidents | wc -l)" -eq $((before + 1))
	rm -rf "$out/$1.incident"
	cp -r "$(incidents | tail -n 1)" "$out/$1.incident"
	cp "$truth" "$out/wlkey.jsonl"
	tap_on_host tests/vm/wlauto_check.sh "$1" "$2"
}

# start_tipmed [ARGS...]: tipmed on $inc and $sock, its PID in TIPMED
start_tipmed() {
	"$B"/tipmed -d "$inc" -s "$sock" "$@" > "$out/tipmed.log" 2>&1 &
	# shellcheck disable=SC2034 # for the test
	TIPMED=$!
	wait_for 20 grep -q 'connected to tipme.ko' "$out/tipmed.log"
	tap_cmp "tipmed is up" "$?" -eq 0
}

# vkbd_start FIFO LOG FD: a virtual keyboard (vkbd --stdin) that types the
# lines written to FIFO, opened on FD for writing (the keyboard lasts until
# FD closes), its output in LOG; its PID in VKBD once it said "ready"
# (tap_cmp's result: 0 if it did)
vkbd_start() {
	rm -f "$1"
	mkfifo "$1"
	"$B"/tests/vm/vkbd --stdin < "$1" > "$2" 2>&1 &
	VKBD=$!
	eval "exec $3> \"\$1\""
	wait_for 20 says "$2" ready
}

# press NAME SLEEP_MS: a keyboard, a reader whose helper sleeps SLEEP_MS,
# one key once the reader has the device open; the keyboard then goes
# away, which ends the reader.  Its "handled ..." line in $out/NAME.out;
# the reader's PID in reader, when vkbd typed the key (ns) in typed.
# The reader writes to the guest's tmpfs, copied to $out after: its
# "back" line, between its truth's end and its poll(), to TIPME_OUT (9p)
# would wait for a round trip to the host, which the module measures and
# the truth does not (586.3 ms against 515.2 in a t-autokernel run with
# the host loaded).
# shellcheck disable=SC2034 # reader, typed: for the test
press() {
	local kbd
	vkbd_start /tmp/keys "$out/$1.vkbd" 3
	kbd=$VKBD
	# (not holding the keyboard's input open: its end ends the keyboard)
	"$B"/tests/vm/evreader "tipme test keyboard" "$2" > "/tmp/$1.out" 2> "$out/$1.err" 3>&- &
	reader=$!
	wait_for 20 says "/tmp/$1.out" open
	echo a >&3
	# the keyboard stays until the reader is back asleep in poll(), so
	# that it waits for input again (what the module measures up to)
	wait_for 30 says "/tmp/$1.out" back
	wait_for 30 grep -q poll "/proc/$reader/wchan"
	exec 3>&-
	wait "$kbd"
	wait "$reader"
	cp "/tmp/$1.out" "$out/$1.out"
	tap_check "$1: the reader handled the press ($(grep -o 'handled.*' "$out/$1.out"))" \
		grep -q '^handled' "$out/$1.out"
	typed=$(awk '$1 == "press" { printf "%.0f", $3 * 1e9 }' "$out/$1.vkbd")
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
