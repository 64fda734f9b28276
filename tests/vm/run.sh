#!/bin/bash
# Run the VM tests: one fresh VM per tests/vm/t-*.sh, results as flat TAP.
#
#   tests/vm/run.sh [PATTERN...]     PATTERN: part of a test's file name,
#                                    e.g. "load"; "t-pingpong.sh" is that
#                                    test only (not t-pingpong-tsc)
#
# Every test script runs in its own VM (tests/vm/vm.sh), so tests are
# independent, and TIPME_VM_JOBS of them (default: one per CPU, as the
# memory allows, scripts/lib/common.sh tipme_guest_jobs; one TCG thread
# each) run at the same time.  The longest start first (by the
# time they took last in this clone, tests/vm/out/<test>/.vm/seconds, else
# on this machine with the same kernel in any clone, $TIPME_CACHE/vm/
# seconds/KVER/<test> (tests/vm/vm.sh), else by the timeout in their
# header), so that the last two finish together;
# the results are printed in the tests' alphabetical order, each test's as
# soon as it and every test before it have finished.
#
# Each "ok"/"not ok" line a test prints is renumbered and prefixed with the
# test's name ("not ok ... # TODO ..." is a known failure, not counted);
# everything else becomes a "# " comment.  A test that exits
# non-zero without a "not ok" line of its own gets one ("exit status N",
# "timed out"), and one that passes without printing any result gets a
# single "ok".  Logs: tests/vm/out/<test>.log, guest files in
# tests/vm/out/<test>/.  Extra options for vm.sh: VM_ARGS="--kver X ...".
# Each test's timeout is multiplied by twice the guests per CPU
# (VM_TIMEOUT_SCALE, tests/vm/vm.sh; scripts/lib/common.sh): they share
# the machine's CPUs.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"

jobs_max=${TIPME_VM_JOBS:-$(tipme_guest_jobs)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || die "TIPME_VM_JOBS: a positive number, not '$jobs_max'"
outdir=$TIPME_ROOT/tests/vm/out
export VM_TIMEOUT_SCALE=${VM_TIMEOUT_SCALE:-$(tipme_timeout_scale "$jobs_max")}
patterns=("$@")
[ ${#patterns[@]} -gt 0 ] || patterns=("")
n=0
failed=0
tests=()
for t in "$TIPME_ROOT"/tests/vm/t-*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	for pattern in "${patterns[@]}"; do
		case $name.sh in *"$pattern"*) tests+=("$t"); break ;; esac
	done
done
if [ ${#tests[@]} -eq 0 ]; then
	echo "not ok 1 - vm: no test matches '${patterns[*]}'"
	echo "1..1"
	exit 1
fi
mkdir -p "$outdir"

# The guests' kernel (VM_ARGS="--kver X" or vm.sh's default), for the
# times recorded in the cache.
kver=$(printf '%s\n' "${VM_ARGS:-}" | sed -n 's/.*--kver[= ]\([^ ]*\).*/\1/p')
[ -n "$kver" ] || kver=$(tipme_kver 2>/dev/null) || kver=none

# expected_secs TEST: how long TEST is expected to take, for the order of
# starting: its last run's time in this clone, else on this machine with
# this kernel, else its header's timeout, else vm.sh's.
expected_secs() {
	local name secs
	name=$(basename "$1" .sh)
	secs=$(cut -d. -f1 "$outdir/$name/.vm/seconds" 2>/dev/null)
	[[ $secs =~ ^[0-9]+$ ]] ||
		secs=$(cut -d. -f1 "$TIPME_CACHE/vm/seconds/$kver/$name" 2>/dev/null)
	if ! [[ $secs =~ ^[0-9]+$ ]]; then
		secs=$(head -n 20 "$1" | sed -n 's/^# vm:.*timeout=\([0-9]*\).*/\1/p' | head -n 1)
		: "${secs:=120}"
	fi
	echo "$secs"
}

# The start order: indexes into tests[], longest expected first.
mapfile -t order < <(for i in "${!tests[@]}"; do
	printf '%s %s\n' "$(expected_secs "${tests[i]}")" "$i"
done | sort -k1,1nr -k2,2n | cut -d' ' -f2)

# run_one I: test I in its VM; its output (the log) and exit status into
# tests/vm/out/<test>.log and .rc.
run_one() {
	local t=${tests[$1]} name log vpid rc
	name=$(basename "$t" .sh)
	log=$outdir/$name.log
	trap - INT
	# shellcheck disable=SC2086
	"$TIPME_ROOT/tests/vm/vm.sh" ${VM_ARGS:-} "$t" >"$log" 2>&1 </dev/null &
	vpid=$!
	# vm.sh stops its QEMU when told to stop
	trap 'kill "$vpid" 2>/dev/null; wait "$vpid"; exit 130' TERM
	wait "$vpid"
	rc=$?
	echo "$rc" >"$outdir/$name.rc.tmp"
	mv "$outdir/$name.rc.tmp" "$outdir/$name.rc"
}

# report I: test I's results as TAP, renumbered, from its log.
report() {
	local t=${tests[$1]} name log rc line own_ok=0 own_fail=0 secs why
	name=$(basename "$t" .sh)
	log=$outdir/$name.log
	echo "# ---- $name"
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]*\ *-?\ *(.*)$ ]]; then
			n=$((n + 1))
			if [ -n "${BASH_REMATCH[1]}" ] && [[ ${BASH_REMATCH[2]} == *" # TODO"* ]]; then
				echo "not ok $n - $name: ${BASH_REMATCH[2]}"	# a known failure
			elif [ -n "${BASH_REMATCH[1]}" ]; then
				own_fail=$((own_fail + 1))
				failed=$((failed + 1))
				echo "not ok $n - $name: ${BASH_REMATCH[2]}"
			else
				own_ok=$((own_ok + 1))
				echo "ok $n - $name: ${BASH_REMATCH[2]}"
			fi
		elif [[ $line =~ ^1\.\.[0-9]+ ]]; then
			echo "# $name: plan $line"
		elif [[ $line == \#* ]]; then
			echo "$line"
		else
			echo "# $line"
		fi
	done <"$log"
	rc=$(cat "$outdir/$name.rc" 2>/dev/null)
	: "${rc:=125}"
	secs=$(cat "$outdir/$name/.vm/seconds" 2>/dev/null || echo "?")
	if [ "$rc" != 0 ] && [ "$own_fail" = 0 ]; then
		n=$((n + 1))
		failed=$((failed + 1))
		case $rc in
		124) why="timed out" ;;
		125) why="harness error" ;;
		*) why="exit status $rc" ;;
		esac
		echo "not ok $n - $name: $why (log: $log)"
	elif [ "$rc" = 0 ] && [ "$own_ok" = 0 ] && [ "$own_fail" = 0 ]; then
		n=$((n + 1))
		echo "ok $n - $name"
	fi
	echo "# $name: exit status $rc, ${secs}s"
}

# Start the tests in their order, jobs_max at a time; whenever one ends,
# print every finished test whose predecessors (alphabetically) are printed.
pids=()
done_=()
next_print=0
flush() {
	local i
	for ((i = next_print; i < ${#tests[@]}; i++)); do
		[ -n "${done_[i]:-}" ] || break
		report "$i"
		next_print=$((i + 1))
	done
}
# reap: mark the tests that ended (their .rc is written, or their runner
# is gone), then print what can be printed.
reap() {
	local i name
	for i in "${!pids[@]}"; do
		name=$(basename "${tests[i]}" .sh)
		if [ -e "$outdir/$name.rc" ] || ! kill -0 "${pids[i]}" 2>/dev/null; then
			wait "${pids[i]}" 2>/dev/null
			unset "pids[i]"
			done_[i]=1
		fi
	done
	flush
}
trap 'kill "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
for i in "${order[@]}"; do
	rm -f "$outdir/$(basename "${tests[i]}" .sh).rc"
done
for i in "${order[@]}"; do
	while [ ${#pids[@]} -ge "$jobs_max" ]; do
		sleep 0.5
		reap
	done
	run_one "$i" &
	pids[i]=$!
done
while [ ${#pids[@]} -gt 0 ]; do
	sleep 0.5
	reap
done
flush
echo "1..$n"
[ "$failed" = 0 ]
