#!/bin/bash
# tipme-bench's exit codes and messages, and a real (tiny, unprivileged)
# fork-storm run whose --json output must parse: TAP.
#   TIPME_BENCH=build/tipme-bench tests/bench/cli.sh
set -u
bench=${TIPME_BENCH:-build/tipme-bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else failed=$((failed + 1)); echo "not ok $n - $2"; fi; }
# run WANT_STATUS PATTERN ARGS...: status, and PATTERN on stdout+stderr
run() {
	local want=$1 pat=$2 rc
	shift 2
	"$bench" "$@" > "$tmp/out" 2>&1 && rc=0 || rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$tmp/out"; then
		result 0 "tipme-bench $*: exit $want"
	else
		result 1 "tipme-bench $*: exit $want"
		echo "# got exit $rc:"; sed 's/^/#   /' "$tmp/out"
	fi
}
run 2 "Usage: tipme-bench paging|forkstorm"
run 0 "paging " --help
run 0 "Usage: tipme-bench paging" paging --help
run 0 "Usage: tipme-bench forkstorm" forkstorm -h
run 2 "unknown subcommand 'nope'" nope
run 2 "samples: must be at least 1" paging -n 0
run 2 "child-size: '-5M': must not be negative" paging --child-size -5M
run 2 "see tipme-bench forkstorm --help" forkstorm --compute -3
run 1 "cannot create a cgroup under $tmp/none" paging --short --cgroup "$tmp/none"
run 1 "not in a cgroup2 file system" paging --short --cgroup "$tmp"
run 1 "svg: cannot create" forkstorm -n 1 --svg "$tmp/none/x.svg"
# A tiny real run: 1 ms computation, 1 ms sleep, loads none, A and B.
"$bench" forkstorm -q -n 8 --compute 1 --sleep 1 --fork-period 3 --load none,A,B \
	--json --svg "$tmp/f.svg" > "$tmp/f.json" 2> "$tmp/f.err"
result $? "a tiny fork storm runs"
python3 "$(dirname "$0")/check_forkstorm.py" "$tmp/f.json" "$tmp/f.svg" > "$tmp/py" 2>&1
result $? "its --json parses and holds every sample; its SVG parses"
[ -s "$tmp/py" ] && sed 's/^/# /' "$tmp/py"
echo "1..$n"
[ "$failed" = 0 ]
