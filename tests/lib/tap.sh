# shellcheck shell=bash
# Minimal TAP producer for test scripts (host or guest).  Source it, then:
#   tap_check "insmod works" insmod "$ko"     # ok if the command succeeds
#   tap_ok "name" / tap_fail "name"           # explicit result
#   tap_cmp "N > 0" "$n" -gt 0                # ok if [ "$n" -gt 0 ]
#   tap_skip "name" "reason"
#   tap_todo "name" "reason"                  # a known failure, not counted
#   tap_diag "free text"                      # a "# " comment line
#   tap_done                                  # prints the plan; exit 1 if any failed
#   wait_for 20 grep -q ready "$log"          # poll a condition, bounded
# Output is flat TAP: "ok N - name", "not ok N - name", "1..N".

TAP_N=0
TAP_FAILED=0

tap_diag() { printf '# %s\n' "$*"; }

tap_ok() { TAP_N=$((TAP_N + 1)); printf 'ok %d - %s\n' "$TAP_N" "$1"; }

tap_fail() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	printf 'not ok %d - %s\n' "$TAP_N" "$1"
	shift
	[ $# -eq 0 ] || tap_diag "$*"
}

# tap_todo NAME REASON: a known failure (TAP's "# TODO"): listed, not failed
tap_todo() { TAP_N=$((TAP_N + 1)); printf 'not ok %d - %s # TODO %s\n' "$TAP_N" "$1" "$2"; }

tap_skip() { TAP_N=$((TAP_N + 1)); printf 'ok %d - %s # SKIP %s\n' "$TAP_N" "$1" "${2:-}"; }

# tap_check NAME CMD [ARGS...]: run CMD; its output is shown as comments.
tap_check() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
	if [ "$rc" = 0 ]; then tap_ok "$name"; else tap_fail "$name" "exit status $rc: $*"; fi
	return "$rc"
}

# tap_cmp NAME A OP B: ok if [ "A" OP "B" ] (OP: -eq -ne -gt -ge -lt -le = !=).
tap_cmp() {
	if [ "$2" "$3" "$4" ] 2>/dev/null; then tap_ok "$1"; else tap_fail "$1" "got '$2', want $3 '$4'"; fi
}

# tap_merge FILE: renumber the "ok"/"not ok" lines of a checker's output
# into this test; other lines become comments.  A file without any result
# counts as a failure.
tap_merge() {
	local line seen=0
	while IFS= read -r line; do
		case $line in
		"ok "*) tap_ok "${line#ok * - }"; seen=1 ;;
		"not ok "*" # TODO"*)
			line=${line#not ok * - }
			tap_todo "${line% \# TODO*}" "${line##* \# TODO }"
			seen=1
			;;
		"not ok "*) tap_fail "${line#not ok * - }"; seen=1 ;;
		"# "*) echo "$line" ;;
		*) tap_diag "$line" ;;
		esac
	done < "$1"
	[ "$seen" = 1 ] || tap_fail "checker $1 reported results"
}

# tap_on_host PROGRAM [ARGS...]: in a VM test, run PROGRAM on the host once
# the guest has stopped (tests/vm/vm.sh: "Host steps"), in TIPME_SRC,
# natively; elsewhere, now.  PROGRAM prints TAP (its own numbering and
# plan: tests/vm/run.sh renumbers) and exits non-zero if anything failed;
# it sees TIPME_SRC, TIPME_OUT and KVER, and only the files the guest left
# in TIPME_OUT.  For the analyses of a test's dumps and their checks, not
# for anything the guest goes on to depend on.
tap_on_host() {
	if [ -n "${TIPME_HOST_STEPS:-}" ]; then
		printf '%q ' "$@" >> "$TIPME_HOST_STEPS"
		echo >> "$TIPME_HOST_STEPS"
	else
		local f rc
		f=$(mktemp) || return 1
		"$@" > "$f" 2>&1 && rc=0 || rc=$?
		tap_merge "$f"
		rm -f "$f"
		return "$rc"
	fi
}

tap_done() {
	printf '1..%d\n' "$TAP_N"
	[ "$TAP_FAILED" = 0 ]
	exit $?
}

# wait_for SECONDS CMD...: run CMD every 50 ms until it succeeds (0) or
# SECONDS have passed (1).  The condition is a command, evaluated each time:
# no fixed sleeps standing in for synchronisation.  SECONDS counts tries
# (20 a second), so a guest slowed by a loaded host waits longer, but never
# more than twice SECONDS plus 10 s of real time: a condition that never
# comes fails with its own message before the guest's timeout (a 90 s wait
# for a compositor took ~10 minutes under TCG with the host busy).
wait_for() {
	local limit=$1 i end
	shift
	end=$((SECONDS + 2 * limit + 10))
	for ((i = 0; i < limit * 20 && SECONDS < end; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	"$@" && return 0
	return 1
}
