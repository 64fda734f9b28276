# shellcheck shell=bash
# What t-wayland.sh and t-weston.sh share around wlkey
# (tests/vm/progs/wlkey.c) on the desktop the test started
# (tests/vm/wlsession.sh): the module loaded for it, wlkey started with
# the presses, each press typed, waited for, dumped and checked on the
# host (tests/vm/wayland_check.sh), and the end.  wlkey's output (the
# truth, and its -v log) and the compositor's log go to the guest's tmpfs,
# not to TIPME_OUT (9p: a write there blocks the writer for a round trip
# to the host, and a client or compositor blocked in one is not woken by
# the messages the analysis follows); they are copied to TIPME_OUT for
# each host step and at the end.  Sourced after tests/lib/tap.sh and
# tests/vm/wlsession.sh, with B, out and WLK_PRESSES (KEY=MODE:MS ...)
# set.
# shellcheck disable=SC2154 # B, out, WLK_PRESSES: set by the caller

truth=/tmp/wlkey.jsonl
WL_LOGS=/tmp/wlkeylogs
wlk_pids=()
wlk_cleanup() {
	local p
	for p in "${wlk_pids[@]}"; do kill "$p" 2>/dev/null; done
	wl_end
	cp "$truth" "$out/wlkey.jsonl" 2>/dev/null
	cp "$WL_LOGS"/* "$out"/ 2>/dev/null
}
wlk_answered() { [ "$(grep -c '"press"' "$truth")" -ge "$1" ]; }

# wlk_insmod: the module, every trigger taken, the input records naming
# the key (each press is found by its code)
wlk_insmod() {
	tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=tsc || tap_done
	echo 0 > /proc/sys/tipme/trigger_interval_ms
	echo 1 > /proc/sys/tipme/keylog
	mkdir -p "$WL_LOGS"
}

# wlk_start [RUN...]: wlkey, through RUN (as_wl; none: as this user),
# answering WLK_PRESSES; its PID in WLK_PID.  Returns once its window is
# mapped and has the focus, else ends the test.
wlk_start() {
	local n
	n=$(echo "$WLK_PRESSES" | wc -w)
	# shellcheck disable=SC2086
	"$@" "$B"/tests/vm/wlkey -v --count "$n" $WLK_PRESSES > "$truth" 2> "$WL_LOGS/wlkey.err" &
	WLK_PID=$!
	wlk_pids+=("$WLK_PID")
	if ! wait_for 60 grep -q '"ready"' "$truth"; then
		tap_fail "wlkey mapped its window and has the focus" "$(tail -n 5 "$WL_LOGS/wlkey.err")"
		wlk_cleanup
		tap_done
	fi
	tap_ok "wlkey mapped its window and has the focus"
}

# wlk_typed KEY MODE: KEY typed (press number WLK_N, counted), its answer
# waited for; false if it never came
WLK_N=0
wlk_typed() {
	WLK_N=$((WLK_N + 1))
	wl_type "$1"
	if ! wait_for 60 wlk_answered $WLK_N; then
		tap_fail "$2: wlkey's answer to '$1' reached the screen" \
			"$(tail -n 5 "$WL_LOGS/wlkey.err")"
		return 1
	fi
	tap_ok "$2: wlkey's answer to '$1' reached the screen"
}

# wlk_each [PRESSES]: each press (default WLK_PRESSES) typed, its answer
# waited for, a dump, its host step
# shellcheck disable=SC2120 # t-weston passes PRESSES, t-wayland none
wlk_each() {
	local p key mode
	for p in ${1:-$WLK_PRESSES}; do
		key=${p%%=*} mode=${p#*=}
		mode=${mode%%:*}
		wlk_typed "$key" "$mode" || continue
		echo 1 > /proc/sys/tipme/trigger
		tap_check "$mode: tipme dump" "$B"/tipme dump -o "$out/$mode.dump"
		cp "$truth" "$out/wlkey.jsonl"
		tap_on_host tests/vm/wayland_check.sh "$mode" "$WLK_N"
	done
}

# wlk_end: wlkey's exit, the end of the desktop and of the module
wlk_end() {
	tap_check "wlkey exited after its presses" wait "$WLK_PID"
	wlk_cleanup
	tap_check "rmmod" rmmod tipme
	tap_done
}

# wlk_presses: wlk_each, then wlk_end
wlk_presses() {
	# shellcheck disable=SC2119 # every press
	wlk_each
	wlk_end
}
