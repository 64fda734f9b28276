#!/bin/bash
# Sourced by the user-space chain tests (t-ustack.sh, t-usym.sh), after
# tests/lib/tap.sh, with B (the build folder) and out (TIPME_OUT) set.

# state_of PID STATE: /proc/PID/stat says PID is in STATE (S, R, ...)
state_of() { [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" = "$2" ]; }

# dump_beside_sleep NAME PROG: Debian's sleep (no frame pointers) put to
# sleep beside PROG (a pid, alive), `tipme dump` to $out/NAME.dump while
# both are alive (their mappings are read at dump time), then both
# killed; the sleep's pid is left in $sleeper
dump_beside_sleep() {
	local name=$1 prog=$2
	sleep 1000 &
	sleeper=$!
	wait_for 10 state_of "$sleeper" S
	tap_check "$name: tipme dump" "${B:?}"/tipme dump -o "${out:?}/$name.dump"
	kill "$prog" "$sleeper"
	wait "$prog" "$sleeper" 2> /dev/null
}
