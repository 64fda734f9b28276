#!/bin/bash
# Run tipme's KUnit suites in a User Mode Linux kernel (kunit.py).
#
#   tests/kunit/run.sh [--jobs N] [--timeout SEC] [--kasan] [FILTER_GLOB]
#
# --kasan builds a second UML kernel with KASAN (generic, with vmalloc
# shadow), so that an out-of-bounds access or a use after free in the code
# under test fails its suite with a KASAN report instead of passing by
# luck.  The plain build stays for timing (bench/kunit/ringbench_kunit.c).
#
# FILTER_GLOB selects suites/tests as kunit.py does (e.g. 'tipme_uapi' or
# 'tipme_uapi.*wrap*').  First run on a machine: extracts linux-source-6.1
# into $TIPME_CACHE/linux/ (~10 s) and builds UML (~2.5 min on 2 cores, 9
# with KASAN) in $TIPME_CACHE/kunit/build-<source version>-<config hash>
# (-kasan); later runs, from any clone, reuse it and rebuild in seconds.
# One run at a time per machine (a lock): the scratch tree's lib/tipme/
# points into the clone being tested, and a build that last compiled
# another clone's files recompiles tipme's objects.  kunit.py's log, its
# JSON results and the UML kernel's test.log are copied to build/kunit/.
#
# Output: kunit.py's own output as TAP comments ("# ..."), then one flat TAP
# line per test case ("ok N - suite.case"), a "# suite NAME: pass=P fail=F
# skip=S" line per suite and the plan.  Exit status 0 only if every test
# passed and at least one ran.
#
# To add a suite: drop tests/kunit/<area>_kunit.c here and add one line to
# tests/kunit/Makefile (a benchmark suite: bench/kunit/).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"

jobs=2
timeout=300
filter=
kasan=
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--jobs=*) jobs=${1#*=}; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--timeout=*) timeout=${1#*=}; shift ;;
	--kasan) kasan=1; shift ;;
	-h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) filter=$1; shift ;;
	esac
done

here=$TIPME_ROOT/tests/kunit
cache=$TIPME_CACHE/kunit
outdir=$TIPME_ROOT/build/kunit
mkdir -p "$cache" "$outdir"

tap_bail() {
	echo "not ok 1 - kunit: $*"
	echo "1..1"
	exit 1
}

src=$(tipme_linux_src) || tap_bail "no linux-source tree (run scripts/deps.sh)"
srcver=$(basename "$(dirname "$src")")

kconfig_add=()
if [ -n "$kasan" ]; then
	# KASAN fails the KUnit test that made a report only when its own
	# test suite is built (6.1: update_kunit_status() in
	# mm/kasan/report.c); that suite is built but not run (the filter).
	kconfig_add=(--kconfig_add CONFIG_KASAN=y
		--kconfig_add CONFIG_KASAN_GENERIC=y --kconfig_add CONFIG_KASAN_VMALLOC=y
		--kconfig_add CONFIG_KASAN_KUNIT_TEST=y)
	: "${filter:=tipme_*}"
fi
# The build directory belongs to one source version and one configuration.
cfg=$(cat "$here/.kunitconfig" "$here/Kconfig" <(printf '%s\n' "${kconfig_add[@]}") |
	sha256sum | cut -c1-12)
build=$cache/build-$srcver-$cfg${kasan:+-kasan}

# One kunit.py at a time on this machine: the scratch tree is shared.
exec 9>"$cache/lock"
flock 9

# Hook our suites into the scratch tree as lib/tipme/.
hook=$src/lib/tipme
rm -rf "$hook"
mkdir -p "$hook"
for f in "$here"/Kconfig "$here"/Makefile "$here"/*.c "$here"/*.h \
	 "$TIPME_ROOT"/bench/kunit/*.c \
	 "$TIPME_ROOT"/module/*.c "$TIPME_ROOT"/module/*.h; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	# A suite file wins over a module file of the same name.
	[ -e "$hook/$name" ] && continue
	ln -s "$f" "$hook/$name"
done
# The module's subfolders as they are, for objects like instr/exectab.o.
for d in "$TIPME_ROOT"/module/*/; do
	ln -s "${d%/}" "$hook/$(basename "$d")"
done
printf 'TIPME_REPO := %s\n' "$TIPME_ROOT" >"$hook/repo.mk"
grep -qxF 'source "lib/tipme/Kconfig"' "$src/lib/Kconfig" ||
	printf '\nsource "lib/tipme/Kconfig"\n' >>"$src/lib/Kconfig"
grep -qxF 'obj-y += tipme/' "$src/lib/Makefile" ||
	printf '\nobj-y += tipme/\n' >>"$src/lib/Makefile"

mkdir -p "$build"
# tipme's objects from another clone's files would look newer than this
# clone's sources: compile them again.
if [ "$(cat "$build/.tipme-repo" 2>/dev/null)" != "$TIPME_ROOT" ]; then
	rm -rf "$build/lib/tipme"
	printf '%s\n' "$TIPME_ROOT" >"$build/.tipme-repo"
fi
touch "$build/.tipme-repo"
# Builds of other sources or configurations unused for two weeks go.
for d in "$cache"/build-*/; do
	d=${d%/}
	[ "$d" != "$build" ] && [ -d "$d" ] || continue
	[ -n "$(find "$d/.tipme-repo" -mtime -14 2>/dev/null)" ] || rm -rf "$d"
done

json=$outdir/results${kasan:+-kasan}.json
log=$outdir/kunit${kasan:+-kasan}.log
rm -f "$json" "$outdir/test${kasan:+-kasan}.log"
set +e
# shellcheck disable=SC2086
python3 "$src/tools/testing/kunit/kunit.py" run \
	--kunitconfig="$here/.kunitconfig" \
	--build_dir="$build" \
	--jobs="$jobs" \
	--timeout="$timeout" \
	--json="$json" \
	"${kconfig_add[@]}" \
	${filter:+"$filter"} 2>&1 | tee "$log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
set -e

cp "$build/test.log" "$outdir/test${kasan:+-kasan}.log" 2>/dev/null || true
[ -s "$json" ] || tap_bail "kunit.py failed before any test ran (exit $rc; log: $log)"

python3 "$here/kunit_tap.py" "$json" "$rc" "$build/test.log" "$TIPME_ROOT" "$hook"
