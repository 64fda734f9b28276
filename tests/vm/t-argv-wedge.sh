#!/bin/bash
# vm: timeout=240 share
# One process cannot wedge the exec table's argv reader.  argvtrap makes
# the pages of its argv fault for ever (userfaultfd that nobody serves, as
# a FUSE-backed argv area whose daemon never answers would).  A trap set
# before the load (read by the snapshot) and one set after it (read at
# exec) must not stop the load, later argv reads, dumps or rmmod; the
# trapped entries keep what was in memory and say they are truncated.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
before=$(dmesg | wc -l)
trapped() { grep -q '^trapped ' "$1"; }

"$B"/tests/vm/argvtrap > "$out/trap1.out" 2>&1 &
wait_for 10 trapped "$out/trap1.out"
tap_check "a process whose argv pages fault for ever" cat "$out/trap1.out" || tap_done
read -r _ pid1 as1 lo1 _ < "$out/trap1.out"

# The snapshot at load reads every process's argv: a wedged read would
# hang insmod (the timeout turns that into a failure).  The readable
# part of the trap's argv is under 2 KiB, so a read of up to argv_max=4096
# bytes goes on into the trapped pages.
tap_check "insmod returns with the trap in place" \
	timeout 60 insmod module/tipme.ko buffer_size=8M argv_max=4096 || tap_done

"$B"/tests/vm/argvtrap > "$out/trap2.out" 2>&1 &
wait_for 10 trapped "$out/trap2.out"
tap_check "a second trap set after the load" cat "$out/trap2.out"
# Reads after the traps still happen: a program with a known argv.
"$B"/tests/vm/argvprog 3 after the traps &
after=$!
wait "$after"
tap_check "a dump with both traps in place" \
	timeout 60 "$B"/tipme dump -o "$out/wedge.dump"
"$B"/tipme ps --json "$out/wedge.dump" > "$out/ps.json"
python3 tests/vm/check_argv.py "$out/ps.json" "$pid1" "$as1" "$lo1" "$after" "$B" > "$out/ps.tap"
tap_merge "$out/ps.tap"
tap_check "rmmod returns with the traps in place" timeout 60 rmmod tipme
kill "$(cut -d' ' -f2 "$out/trap1.out")" "$(cut -d' ' -f2 "$out/trap2.out")" 2>/dev/null
wait
bad=$(dmesg | tail -n +"$((before + 1))" |
      grep -E 'WARNING|BUG|Oops|Call Trace|blocked for more than')
if [ -z "$bad" ]; then
	tap_ok "no warning in the kernel log"
else
	tap_fail "no warning in the kernel log" "$bad"
fi
tap_done
