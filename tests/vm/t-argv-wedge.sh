#!/bin/bash
# vm: timeout=240
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
python3 - "$out/ps.json" "$pid1" "$as1" "$lo1" "$after" "$B" > "$out/ps.tap" <<'PY'
import json, sys
sys.path.insert(0, "tests/lib")
from tap import check
ents = json.load(open(sys.argv[1]))["exec_table"]["entries"]
pid1, as1, lo1, after = int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4], 0), int(sys.argv[5])
e = [x for x in ents if x["pid"] == pid1 and x["pid"] == x.get("tgid", x["pid"])]
check(bool(e), "the trapped process has an entry from the snapshot")
if e:
    e = e[-1]
    argv = e.get("argv") or []
    # NUL-separated; the last string was cut off without its NUL.
    held = sum(len(a) + 1 for a in argv) - 1 if argv else 0
    print("# flags", e["flags"], "argv bytes", held, "readable", lo1 - as1)
    check(len(argv) >= 2 and argv[0].endswith("argvtrap") and argv[1] == "trapped",
          "its argv keeps what was in memory (argv[0], 'trapped')", repr(argv)[:200])
    check("argv_truncated" in e["flags"] and held == lo1 - as1,
          "and stops exactly where the trapped pages start, flagged truncated",
          "flags %s, %d bytes held, %d readable" % (e["flags"], held, lo1 - as1))
a = [x for x in ents if x["pid"] == after and "execed" in x["flags"]]
want = [sys.argv[6] + "/tests/vm/argvprog", "3", "after", "the", "traps"]
check(bool(a) and a[-1].get("argv") == want,
      "a program run after the traps still gets its argv read",
      repr(a[-1].get("argv") if a else None))
PY
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
