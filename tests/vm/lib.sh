# shellcheck shell=bash
# What the VM tests that run tipmed share (t-autokernel, and through
# tests/vm/xlib.sh the tests with X clients): tipmed started the same way,
# the incidents it made, the small predicates they wait on, and the check
# of an auto incident's meta.json.  Sourced after tests/lib/tap.sh, with B
# (the build directory), out (TIPME_OUT), inc (the incidents directory)
# and sock (tipmed's control socket) set.
# shellcheck disable=SC2154 # out, inc, sock: set by the test

mono_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }
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
	python3 - "$TIPME_SRC/tests/lib" "$@" > "$out/meta.tap" 2>&1 <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from tap import check
m = json.load(open(sys.argv[2]))
pid, comm = int(sys.argv[3]), sys.argv[4]
press_lo, press_hi, lat_lo, lat_hi = (int(a) for a in sys.argv[5:9])
a = m.get("auto") or {}
check(m["trigger"]["source"] == "auto", "meta.json: source auto", m["trigger"])
check(a.get("input") == "key" and a.get("pid") == pid and a.get("comm") == comm,
      f"meta.json: a key press to {comm} ({pid})", a)
press = a.get("press_mono_ns", 0)
check(press_lo <= press <= press_hi,
      "the press is when the test typed it: %.2f ms after the earliest, %.2f ms before the latest" % (
          (press - press_lo) / 1e6, (press_hi - press) / 1e6))
lat, lo, hi = a.get("latency_ns", 0) / 1e6, lat_lo / 1e6, lat_hi / 1e6
truth = f"{lo:.1f} ms" if lat_lo == lat_hi else f"{lo:.1f} .. {hi:.1f} ms"
check(0.9 * lo <= lat <= 1.1 * hi, f"latency {lat:.1f} ms within 10% of the truth, {truth}")
PY
	tap_merge "$out/meta.tap"
}
