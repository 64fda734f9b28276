#!/bin/bash
# vm: timeout=300
# Issue 16, part 2: the module's own auto trigger, without X.  A virtual
# keyboard (uinput) and a reader of its event device (evreader) whose
# handling of a key press waits for a helper that sleeps first.
#  1. The helper sleeps 20 ms: the press is measured, nothing fires.
#  2. It sleeps 500 ms: one incident of source "auto" by itself; meta.json
#     names the press (when vkbd typed it), the reader's PID and command,
#     and a latency within 10% of what the reader measured; `tipme report
#     INCIDENT` picks that press and charges the wait to the helper.
#  3. Another 500 ms press: tipmed's spacing holds it back, `tipme status`
#     counts it, no incident.
#  4. auto_trigger_ms=0 (the default): a slow press is not even measured.
#  5. A member of the socket's group claims a slow press (TRIGGER auto):
#     it spends the member's own budget, not the kernel's (spent in 2), so
#     it makes an incident, marked as claimed by the member; the member's
#     second claim is held back.
# Keys are typed only once the reader has the device open (vkbd --stdin).
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/lib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock

modprobe uinput
modprobe evdev
tap_check "insmod auto_trigger_ms=300" insmod module/tipme.ko auto_trigger_ms=300 || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
grep -q '^tipme:' /etc/group || echo 'tipme:x:990:' >> /etc/group
start_tipmed --auto-spacing 3600

truth() { sed -n 's/^handled //p' "$out/$1.out"; }
# truth_field NAME KEY: KEY=VALUE of the reader's "handled ..." line
truth_field() { truth "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# 1. handled in 20 ms
press fast 20
tap_cmp "fast: no incident" "$(incidents | wc -l)" -eq 0

# 2. handled in 500 ms
press slow 500
wait_for 60 grep -q 'trigger [0-9]* (auto): incident' "$out/tipmed.log"
tap_cmp "slow: an auto incident, by itself" "$?" -eq 0
tap_cmp "slow: one incident (none for the fast press)" "$(incidents | wc -l)" -eq 1
incident=$(incidents | tail -n 1)
cp -r "$incident" "$out/incident1"
# the press within the 50 ms before vkbd's stamp, the latency the reader's own
pressed=$(truth_field slow press_ns)
back=$(truth_field slow back_ns)
check_auto_meta "$incident/meta.json" "$(truth_field slow reader)" evreader \
	$((typed - 50000000)) "$typed" $((back - pressed)) $((back - pressed))
tap_check "no description (nobody was asked)" test ! -e "$incident/description.txt"
"$B"/tipme incidents -d "$inc" > "$out/incidents.txt"
tap_check "tipme incidents: source auto and the latency" \
	grep -q " auto .*a press took [0-9]* ms" "$out/incidents.txt"
# its report, the dumps' parameters and tipme status's counts checked on
# the host after the guest (tests/vm/autokernel_check.sh: eight python3
# and seven tipme runs, seconds each under TCG)
slow_truth=$(truth slow)

# 3. tipmed's spacing (60 s)
press again 500
wait_for 60 grep -q 'trigger [0-9]* (auto, tipme.ko) held back' "$out/tipmed.log"
tap_cmp "again: tipmed held it back" "$?" -eq 0
grep 'held back' "$out/tipmed.log" | sed 's/^/# /'
"$B"/tipme status --json -s "$sock" > "$out/status.json"
tap_cmp "again: no incident" "$(incidents | wc -l)" -eq 1

# 4. off
echo 0 > /sys/module/tipme/parameters/auto_trigger_ms
press off 500
tap_check "off: tipme dump" "$B"/tipme dump -o "$out/off.dump"

# 5. a member's claim
claim() {
	setpriv --reuid=1000 --regid=1000 --groups=990 python3 tests/vm/ctlreq.py "$sock" \
		"TRIGGER auto input=key pid=$$ press_ns=1 latency_ns=900000000 comm=forged"
}
r=$(claim)
tap_cmp "a member's claimed press: its own budget lets it through ($r)" \
	"$(echo "$r" | grep -c '^OK seq=')" -eq 1
two_incidents() { [ "$(incidents | wc -l)" -ge 2 ]; }
wait_for 60 two_incidents
claimed=$(incidents | tail -n 1)
cp "$claimed/meta.json" "$out/claimed.meta.json"
"$B"/tipme incidents -d "$inc" > "$out/incidents2.txt"
tap_check "tipme incidents says the press was claimed, and by whom" \
	grep -q "(claimed by uid 1000)" "$out/incidents2.txt"
r=$(claim)
tap_cmp "the member's second claim: held back by the member's own spacing ($r)" \
	"$(echo "$r" | grep -c '^ERR EBUSY')" -eq 1
"$B"/tipme status --json -s "$sock" > "$out/status2.json"
tap_on_host tests/vm/autokernel_check.sh "$slow_truth"

kill "$TIPMED"
wait "$TIPMED" 2> /dev/null
tap_check "rmmod" rmmod tipme
tap_cmp "no WARNING/BUG in the kernel log" "$(dmesg | grep -c -E 'WARNING|BUG|Oops')" -eq 0
tap_done
