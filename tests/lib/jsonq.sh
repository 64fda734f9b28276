# shellcheck shell=bash
# jsonq QUESTION...: tests/lib/jsonq.py's answer (get, sum, each, ...; FILE
# a file, not "-"), from one python3 that answers every question of the
# test: under TCG each python3 start costs seconds, and a VM test that
# polls a value asks dozens of times.  Sourcing this starts it (so that
# a first question asked in $(...) does not start one of its own).  An
# answer "error: ..." goes to standard error and fails.

coproc JSONQ { exec python3 "$TIPME_SRC/tests/lib/jsonq.py" serve; }
# not one of the jobs a bare `wait` waits for (it would wait for ever)
disown "$JSONQ_PID"
jsonq() {
	local a
	printf '%q ' "$@" >&"${JSONQ[1]}"
	echo >&"${JSONQ[1]}"
	IFS= read -r a <&"${JSONQ[0]}" || { echo "jsonq: its python3 is gone" >&2; return 1; }
	case $a in
	"error: "*) echo "jsonq $*: $a" >&2; return 1 ;;
	esac
	printf '%s\n' "$a"
}
