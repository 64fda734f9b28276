#!/bin/bash
# Run the VM tests: one fresh VM per tests/vm/t-*.sh, results as flat TAP.
#
#   tests/vm/run.sh [PATTERN...]     PATTERN: part of a test's name, e.g. "load"
#
# Every test script runs in its own VM (tests/vm/vm.sh), so tests are
# independent.  Each "ok"/"not ok" line a test prints is renumbered and
# prefixed with the test's name; everything else becomes a "# " comment.
# A test that exits non-zero without a "not ok" line of its own gets one
# ("exit status N", "timed out"), and one that passes without printing any
# result gets a single "ok".  Logs: tests/vm/out/<test>.log, guest files in
# tests/vm/out/<test>/.  Extra options for vm.sh: VM_ARGS="--kver X ...".
set -uo pipefail
. "$(dirname "$0")/../lib/common.sh"

patterns=("$@")
[ ${#patterns[@]} -gt 0 ] || patterns=("")
n=0
failed=0
tests=()
for t in "$TIPME_ROOT"/tests/vm/t-*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	for pattern in "${patterns[@]}"; do
		case $name in *"$pattern"*) tests+=("$t"); break ;; esac
	done
done
if [ ${#tests[@]} -eq 0 ]; then
	echo "not ok 1 - vm: no test matches '${patterns[*]}'"
	echo "1..1"
	exit 1
fi

mkdir -p "$TIPME_ROOT/tests/vm/out"
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	log=$TIPME_ROOT/tests/vm/out/$name.log
	echo "# ---- $name"
	own_ok=0 own_fail=0
	# shellcheck disable=SC2086
	rc=
	while IFS= read -r line; do
		if [[ $line == __VM_RC__\ * ]]; then
			rc=${line#__VM_RC__ }
			continue
		fi
		printf '%s\n' "$line" >>"$log"
		if [[ $line =~ ^(not\ )?ok\ [0-9]*\ *-?\ *(.*)$ ]]; then
			n=$((n + 1))
			if [ -n "${BASH_REMATCH[1]}" ]; then
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
	done < <(: >"$log"; "$TIPME_ROOT/tests/vm/vm.sh" ${VM_ARGS:-} "$t" 2>&1; echo "__VM_RC__ $?")
	: "${rc:=125}"
	secs=$(cat "$TIPME_ROOT/tests/vm/out/$name/.vm/seconds" 2>/dev/null || echo "?")
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
done
echo "1..$n"
[ "$failed" = 0 ]
