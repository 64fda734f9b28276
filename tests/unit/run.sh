#!/bin/bash
# tests/unit/run.sh CMD...: make unit-tests' runner.  Each CMD (one
# argument: a command line, run by sh -c, e.g. "TIPME_SCEN_COMPACT=1
# build/tests/unit/test_report") runs with its output kept aside, up to
# TIPME_UNIT_JOBS (default: the CPUs) at a time, and the outputs are
# printed in the order given, each after a "# CMD" line and followed by
# "# FAILED: CMD" when it failed, so the TAP reads as it did when they ran
# one after the other.  Run one at a time, the tests kept one CPU of two
# busy (test_staterange alone is a third of the run under ASan).  The
# tests make their files in directories of their own (mkdtemp).  Exit
# status 1 if any failed.
set -uo pipefail
jobs_max=${TIPME_UNIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "TIPME_UNIT_JOBS: a positive number, not '$jobs_max'" >&2; exit 2; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for i in $(seq $#); do
	while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	{ sh -c "${!i}" >"$tmp/$i.out" 2>&1 </dev/null; echo $? >"$tmp/$i.rc"; } &
done
wait
fail=0
for i in $(seq $#); do
	echo "# ${!i}"
	cat "$tmp/$i.out"
	if [ "$(cat "$tmp/$i.rc" 2>/dev/null)" != 0 ]; then
		echo "# FAILED: ${!i}"
		fail=1
	fi
done
exit $fail
