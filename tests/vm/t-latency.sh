#!/bin/bash
# vm: timeout=300
# tipme latency: a client under Xvfb that takes over 500 ms to handle each
# press: a round trip the server answers 200 ms late (another connection
# of the client holds a server grab), then a 300 ms nanosleep, then a
# drawing.  One button press and one key press (XTEST: real device events
# in the server), a trigger, and `tipme latency INCIDENT` must find both
# presses, name the client, and end each handling where the client itself
# says it went back to waiting (within a few ms) -- not at the round trip's
# 200 ms wait in poll(), which a reply ends and which is part of the
# handling --, find its drawing on the screen after that, and name the
# nanosleep as the longest block.
. "$TIPME_SRC/tests/lib/tap.sh"
. "$TIPME_SRC/tests/vm/xlib.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
slow_has() { [ "$(grep -c "^$1 " "$out/slow.out")" -ge "$2" ]; }

x_require "tipme latency"

[ -x "$B/xhook-testclient" ] || { tap_fail "build/xhook-testclient exists (make xhook-tests)"; tap_done; }

tap_check "insmod" insmod module/tipme.ko || tap_done
start_tipmed
start_xvfb
"$B"/tipme-xhook -v --tipmed "$sock" -t 120 --auto-trigger-ms 0 > "$out/xhook.log" 2>&1 &
XHOOK=$!
wait_for 60 log_has "subscribed to tipmed"
tap_cmp "tipme-xhook subscribed to tipmed" "$?" -eq 0

"$B"/xhook-testclient slow 300 5 > "$out/slow.out" 2>&1 &
SLOW=$!
wait_for 30 slow_has window 1
win=$(awk '$1 == "window" { print $2 }' "$out/slow.out")
tap_check "the slow client has a window ($win)" test -n "$win"
xdotool mousemove --window "$win" 50 50 click 1
wait_for 30 slow_has done 1
tap_cmp "it handled the button press" "$?" -eq 0
xdotool windowfocus "$win"
wait_for 20 focused "$win"
xdotool key a
wait_for 30 slow_has done 2
tap_cmp "it handled the key press" "$?" -eq 0
# The client goes back to xcb_wait_for_event() after it printed "done":
# the trigger comes once it sleeps in poll(), so the dump holds that.
in_poll() { grep -q poll "/proc/$1/wchan"; }
wait_for 30 in_poll "$SLOW"
tap_cmp "the client is back in poll() ($(cat "/proc/$SLOW/wchan"))" "$?" -eq 0
"$B"/tipme trigger > /dev/null
wait_for 60 log_has "stored xhook.dump"
tap_cmp "the incident got tipme-xhook's dump" "$?" -eq 0
incident=$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort | tail -n 1)
tap_check "the incident holds kernel.dump and xhook.dump" \
	test -s "$incident/kernel.dump" -a -s "$incident/xhook.dump"

cp -r "$incident" "$out/incident"	# for a look afterwards (and the ASan run)
"$B"/tipme latency --json "$incident" > "$out/latency.json" 2> "$out/latency.err"
tap_cmp "tipme latency --json INCIDENT succeeds" "$?" -eq 0
"$B"/tipme records --json --pid "$SLOW" --type blocked "$incident" > "$out/blocked.jsonl"
python3 - "$out/latency.json" "$out/slow.out" "$SLOW" "$out/blocked.jsonl" > "$out/latency.tap" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# where the client's thread blocked, as the recorder saw it
blocked = [json.loads(l) for l in open(sys.argv[4]) if l.strip()]
truth = [l.split() for l in open(sys.argv[2])]
press = [int(v) for k, v in truth if k == "press"]
done = [int(v) for k, v in truth if k == "done"]
pid = int(sys.argv[3])
mine = [e for e in d["events"] if e["pid"] == pid]
n = 0
def check(ok, what):
    global n
    n += 1
    print("%sok %d - %s" % ("" if ok else "not ", n, what))
check([e["event"] for e in mine] == ["button_press", "key_press"],
      "both presses are found and given to the slow client: %s"
      % [(e["event"], e["result"]) for e in mine])
for e, p, t in zip(mine, press, done):
    lat = e.get("latency_ns", 0) / 1e6
    truth_ms = (t - e["press_mono_ns"]) / 1e6
    check(e["result"] == "handled", "%s: handled (%s)" % (e["event"], e["result"]))
    check(e["press_mono_ns"] <= p, "%s: the device event (%d) precedes the client's receipt (%d)"
          % (e["event"], e["press_mono_ns"], p))
    # done: where it first blocked in poll() after it said "done" (it
    # still writes that line first, and may wait for a CPU on the way)
    back = min((b["mono_ns"] for b in blocked if b["mono_ns"] >= t and
                any("poll" in f or "select" in f for f in b.get("site", []))), default=0)
    done_ms = (e.get("done_mono_ns", 0) - e["press_mono_ns"]) / 1e6
    check(back and abs(e.get("done_mono_ns", 0) - back) <= 10e3,
          "%s: the client is done where it went back to poll(): %.1f ms, %.1f ms after "
          "it said done" % (e["event"], done_ms, (back - t) / 1e6))
    # it drew one rectangle before it said "done": the input is on the
    # screen when the X server has executed it and waits for clients again
    check(e.get("drawing_requests", 0) >= 1 and e.get("display_mono_ns") and
          e["end_mono_ns"] == max(e["done_mono_ns"], e["display_mono_ns"]),
          "%s: its drawing (%d requests) was on the screen %.1f ms after the press"
          % (e["event"], e.get("drawing_requests", 0),
             ((e.get("display_mono_ns") or 0) - e["press_mono_ns"]) / 1e6))
    check(lat >= 500, "%s: at least the 200 ms round trip and the 300 ms sleep: %.1f ms"
          % (e["event"], lat))
    lb = e.get("longest_block", {})
    site = lb.get("site", [])
    # the sleep asked for 300 ms (TCG may stretch it, never shorten it) and
    # fits in the handling after the round trip of at least 200 ms
    check(any("nanosleep" in f for f in site) and
          299 <= lb.get("ns", 0) / 1e6 <= truth_ms - 200 + 1,
          "%s: the longest block is the nanosleep, 300 ms or more: %.1f ms in %s"
          % (e["event"], lb.get("ns", 0) / 1e6, " <- ".join(site)))
    check(e["blocked_ns"] + e["running_ns"] + e["runnable_ns"] + e["unknown_ns"] +
          e["drawing_after_done_ns"] == e["latency_ns"],
          "%s: running + runnable + blocked + the server's drawing after add up to the latency"
          % e["event"])
check(d.get("slowest_press_mono_ns") in [e["press_mono_ns"] for e in mine],
      "the slowest press is one of the slow client's")
print("1..%d" % n)
PY
tap_merge "$out/latency.tap"
"$B"/tipme latency "$incident" > "$out/latency.txt" 2>&1
tap_check "the text output names the client and suggests tipme why" \
	grep -q "tipme why --pid $SLOW --from" "$out/latency.txt"
sed 's/^/# /' "$out/latency.txt"

mkdir -p /tmp/kernel-only
cp "$incident/kernel.dump" /tmp/kernel-only/
"$B"/tipme latency /tmp/kernel-only > /dev/null 2> "$out/noX.err"
tap_cmp "an incident without an X dump: exit 1" "$?" -eq 1
tap_check "and says the X dump is missing" grep -q "without its X dump" "$out/noX.err"
"$B"/tipme latency --min-ms x "$incident" > /dev/null 2>&1
tap_cmp "a bad --min-ms: exit 2" "$?" -eq 2

kill "$SLOW" "$XHOOK" "$TIPMED"
wait "$SLOW" "$XHOOK" "$TIPMED" 2> /dev/null
kill "$XVFB"
wait "$XVFB"
tap_check "rmmod" rmmod tipme
tap_done
