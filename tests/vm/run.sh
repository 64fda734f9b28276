#!/bin/bash
# Run the VM tests: each tests/vm/t-*.sh in a fresh VM (short ones a few to
# a VM, each in a fresh root), results as flat TAP.
#
#   tests/vm/run.sh [PATTERN...]     PATTERN: part of a test's file name,
#                                    e.g. "load"; "t-pingpong.sh" is that
#                                    test only (not t-pingpong-tsc)
#   tests/vm/run.sh --plan [PATTERN...]
#                                    the guests it would boot, longest
#                                    first, one a line: the seconds
#                                    expected, then the tests
#
# Every test script runs in a VM of its own (tests/vm/vm.sh), so tests are
# independent -- but the short ones whose header says "share" share a
# guest when they ask for the same one, each in a fresh root (see "The
# guests" below) -- and TIPME_VM_JOBS guests (default: one per CPU, as the
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
# With TIPME_VM_POOL (make check: scripts/lib/common.sh) a guest starts
# when it gets a slot of that pool, which other schedulers of guests share
# (scripts/kernels.sh check), instead of by TIPME_VM_JOBS.
# Each test's timeout is multiplied by twice the guests per CPU
# (VM_TIMEOUT_SCALE, tests/vm/vm.sh; scripts/lib/common.sh): they share
# the machine's CPUs.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"

jobs_max=${TIPME_VM_JOBS:-$(tipme_guest_jobs)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || die "TIPME_VM_JOBS: a positive number, not '$jobs_max'"
outdir=$TIPME_ROOT/tests/vm/out
export VM_TIMEOUT_SCALE=${VM_TIMEOUT_SCALE:-$(tipme_timeout_scale "$jobs_max")}
plan=0
[ "${1:-}" != --plan ] || { plan=1; shift; }
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

# expected_secs TEST [UNKNOWN]: how long TEST is expected to take, for the
# order of starting: its last run's time in this clone, else on this
# machine with this kernel, else UNKNOWN, else its header's timeout, else
# vm.sh's.
expected_secs() {
	local name secs
	name=$(basename "$1" .sh)
	secs=$(cut -d. -f1 "$outdir/$name/.vm/seconds" 2>/dev/null)
	[[ $secs =~ ^[0-9]+$ ]] ||
		secs=$(cut -d. -f1 "$TIPME_CACHE/vm/seconds/$kver/$name" 2>/dev/null)
	[[ $secs =~ ^[0-9]+$ ]] || secs=${2:-}
	if ! [[ $secs =~ ^[0-9]+$ ]]; then
		secs=$(head -n 20 "$1" | sed -n 's/^# vm:.*timeout=\([0-9]*\).*/\1/p' | head -n 1)
		: "${secs:=120}"
	fi
	echo "$secs"
}

# guest_key TEST: what its guest is made of (scripts/lib/common.sh), if
# TEST may share its guest with other tests ("# vm: share" in its header),
# else nothing.
guest_key() {
	tipme_vm_header "$1" | grep -qx share || return 0
	echo "guest: $(tipme_vm_guest "$1")"
}

# The guests: each a list of indexes into tests[].  A test runs alone in
# its guest unless its header says "share" (a short test that needs
# nothing of its guest but what the others need): then it shares one with
# the other such tests that ask for the same guest, in the tests' order,
# as long as their expected times add up to no more than
# TIPME_VM_SHARE_SECS (300; a test not measured yet counts as a minute),
# so that no shared guest outlasts the longest tests.  Each runs in a fresh
# overlay of the root, with tipme.ko unloaded and every process stopped
# between them (vm.sh --batch).  TIPME_VM_SHARE=0: every test alone.
share_secs=${TIPME_VM_SHARE_SECS:-300}
[[ $share_secs =~ ^[0-9]+$ ]] || die "TIPME_VM_SHARE_SECS: a number of seconds, not '$share_secs'"
guests=() guest_secs=()
declare -A open_guest=() open_secs=()
for i in "${!tests[@]}"; do
	key=
	[ "${TIPME_VM_SHARE:-1}" = 0 ] || key=$(guest_key "${tests[i]}")
	if [ -n "$key" ]; then secs=$(expected_secs "${tests[i]}" 60); else secs=$(expected_secs "${tests[i]}"); fi
	if [ -n "$key" ] && [ -n "${open_guest[$key]:-}" ] &&
		[ $((open_secs[$key] + secs)) -le "$share_secs" ]; then
		g=${open_guest[$key]}
		guests[g]+=" $i"
		guest_secs[g]=$((guest_secs[g] + secs))
		open_secs[$key]=$((open_secs[$key] + secs))
		continue
	fi
	g=${#guests[@]}
	guests[g]=$i
	guest_secs[g]=$secs
	if [ -n "$key" ]; then
		open_guest[$key]=$g
		open_secs[$key]=$secs
	fi
done

# The start order: indexes into guests[], longest expected first.
mapfile -t order < <(for g in "${!guests[@]}"; do
	printf '%s %s\n' "${guest_secs[g]}" "$g"
done | sort -k1,1nr -k2,2n | cut -d' ' -f2)

if [ "$plan" = 1 ]; then
	for g in "${order[@]}"; do
		printf '%s' "${guest_secs[g]}"
		for i in ${guests[g]}; do printf ' %s' "$(basename "${tests[i]}" .sh)"; done
		echo
	done
	exit 0
fi

# run_one G: guest G's tests in their VM; each test's output (the log) and
# exit status into tests/vm/out/<test>.log and .rc.
run_one() {
	local members t name log vpid rc i blog scripts
	read -r -a members <<< "${guests[$1]}"
	trap - INT
	if [ ${#members[@]} = 1 ]; then
		t=${tests[members[0]]}
		name=$(basename "$t" .sh)
		log=$outdir/$name.log
		# shellcheck disable=SC2086
		tipme_pool_without "$TIPME_ROOT/tests/vm/vm.sh" ${VM_ARGS:-} "$t" >"$log" 2>&1 </dev/null &
	else
		name=$(basename "${tests[members[0]]}" .sh)
		blog=$outdir/.$name.batch.log
		scripts=()
		for i in "${members[@]}"; do scripts+=("${tests[i]}"); done
		# shellcheck disable=SC2086
		tipme_pool_without "$TIPME_ROOT/tests/vm/vm.sh" ${VM_ARGS:-} --batch "$outdir" \
			"${scripts[@]}" >"$blog" 2>&1 </dev/null &
	fi
	vpid=$!
	# vm.sh stops its QEMU when told to stop
	trap 'kill "$vpid" 2>/dev/null; wait "$vpid"; exit 130' TERM
	wait "$vpid"
	rc=$?
	if [ ${#members[@]} = 1 ]; then
		echo "$rc" >"$outdir/$name.rc.tmp"
		mv "$outdir/$name.rc.tmp" "$outdir/$name.rc"
		return
	fi
	# a batch writes each test's .log and .rc; a harness error before
	# that is every test's
	for i in "${members[@]}"; do
		name=$(basename "${tests[i]}" .sh)
		[ ! -e "$outdir/$name.rc" ] || continue
		cat "$blog" >>"$outdir/$name.log"
		echo "$((rc == 0 ? 125 : rc))" >"$outdir/$name.rc.tmp"
		mv "$outdir/$name.rc.tmp" "$outdir/$name.rc"
	done
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
# reap: mark the tests that ended (their .rc is written, or their
# guest's runner is gone), then print what can be printed.
reap() {
	local g i name gone left
	for g in "${!pids[@]}"; do
		gone=0 left=0
		kill -0 "${pids[g]}" 2>/dev/null || gone=1
		for i in ${guests[g]}; do
			name=$(basename "${tests[i]}" .sh)
			if [ "$gone" = 1 ] || [ -e "$outdir/$name.rc" ]; then
				done_[i]=1
			else
				left=1
			fi
		done
		if [ "$gone" = 1 ] || [ "$left" = 0 ]; then
			wait "${pids[g]}" 2>/dev/null
			unset "pids[g]"
			for i in ${guests[g]}; do done_[i]=1; done
		fi
	done
	flush
}
trap 'tipme_pool_leave; kill "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
for i in "${!tests[@]}"; do
	rm -f "$outdir/$(basename "${tests[i]}" .sh).rc"
done
for g in "${order[@]}"; do
	if [ -n "${TIPME_VM_POOL:-}" ]; then
		# a slot of the pool (scripts/lib/common.sh), which the
		# guest's runner holds; vm.sh does not (run_one)
		until tipme_pool_try "${guest_secs[g]}"; do
			sleep 0.5
			reap
		done
		run_one "$g" &
		pids[g]=$!
		exec {TIPME_POOL_FD}>&-
		continue
	fi
	while [ ${#pids[@]} -ge "$jobs_max" ]; do
		sleep 0.5
		reap
	done
	run_one "$g" &
	pids[g]=$!
done
tipme_pool_leave
while [ ${#pids[@]} -gt 0 ]; do
	sleep 0.5
	reap
done
flush
echo "1..$n"
[ "$failed" = 0 ]
