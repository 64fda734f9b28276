#!/bin/bash
# make soak: tests/soak/guest.sh in a VM on the stock kernel (tests/vm/vm.sh),
# then its check on the host (tests/soak/check_soak.py).  Not part of make
# check: it takes SOAK_SECONDS (default 1800) of guest time and more.
#
#   tests/soak/run.sh [SECONDS [RELOAD_S]]
#
# Output (TAP) on stdout; the run's files in build/soak/ (events.log,
# tipmed.log, status-N.json, mem.txt, incidents/, soak.json with the
# figures).  Documentation/security.md ("A week in an afternoon") has the
# figures of a run.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"
cd "$TIPME_ROOT"
secs=${1:-${SOAK_SECONDS:-1800}}
reload=${2:-300}
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "SECONDS: a positive number, not '$secs'"
[[ $reload =~ ^[1-9][0-9]*$ ]] || die "RELOAD_S: a positive number, not '$reload'"
mkdir -p build && make -s module user > build/soak-build.log 2>&1 ||
	{ tail -n 20 build/soak-build.log >&2; die "the build failed (build/soak-build.log)"; }
exec tests/vm/vm.sh --timeout "$((secs + 1200))" --mem 2048 --out "$TIPME_ROOT/build/soak" \
	tests/soak/guest.sh "$secs" "$reload"
