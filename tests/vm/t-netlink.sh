#!/bin/bash
# vm: timeout=300 share
# Hostile netlink clients: named malformed requests with the answer each
# must get, random malformed requests from fixed seeds (two clients at
# once), and the same as an unprivileged user.  Afterwards the module
# still answers, dumps, unloads, and the kernel log holds no warning.
# Trigger announcements reach root in the initial namespace only: not an
# unprivileged user, not a listener in another network namespace.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
before=$(dmesg | wc -l)

tap_check "insmod" insmod module/tipme.ko buffer_size=4M || tap_done

python3 tests/vm/nlfuzz.py probe > "$out/probe.tap" 2>&1
tap_merge "$out/probe.tap"

python3 tests/vm/nlfuzz.py fuzz 2 1500 > "$out/fuzz2.tap" 2>&1 &
f2=$!
python3 tests/vm/nlfuzz.py fuzz 3 1500 > "$out/fuzz3.tap" 2>&1
wait "$f2"
tap_merge "$out/fuzz2.tap"
tap_merge "$out/fuzz3.tap"
python3 tests/vm/nlfuzz.py unpriv 4 500 > "$out/unpriv.tap" 2>&1
tap_merge "$out/unpriv.tap"

tap_check "a dump after the fuzzing" "$B"/tipme dump -o "$out/after.dump"
tap_check "... parses" "$B"/tipme info "$out/after.dump"
python3 tests/vm/mcast.py > "$out/mcast.tap" 2>&1
tap_merge "$out/mcast.tap"
tap_check "rmmod" rmmod tipme
bad=$(dmesg | tail -n +"$((before + 1))" |
      grep -E 'WARNING|BUG|Oops|Call Trace|general protection|refcount')
if [ -z "$bad" ]; then
	tap_ok "no warning in the kernel log"
else
	tap_fail "no warning in the kernel log" "$bad"
fi
tap_done
