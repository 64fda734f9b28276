#!/bin/bash
# Run tipme's KUnit suites in a User Mode Linux kernel (kunit.py).
#
#   tests/kunit/run.sh [--jobs N] [--timeout SEC] [--kasan] [FILTER_GLOB]
#
# --kasan builds a second UML kernel with KASAN (generic, with vmalloc
# shadow) in .cache/kunit/build-kasan, so that an out-of-bounds access or
# a use after free in the code under test fails its suite with a KASAN
# report instead of passing by luck.  The plain build stays for timing.
#
# FILTER_GLOB selects suites/tests as kunit.py does (e.g. 'tipme_uapi' or
# 'tipme_uapi.*wrap*').  First run on a machine: extracts linux-source-6.1
# into .cache/linux/ (~10 s) and builds UML (~2.5 min on 2 cores); later
# runs reuse .cache/kunit/build and rebuild in seconds.
#
# Output: kunit.py's own output as TAP comments ("# ..."), then one flat TAP
# line per test case ("ok N - suite.case"), a "# suite NAME: pass=P fail=F
# skip=S" line per suite and the plan.  Exit status 0 only if every test
# passed and at least one ran.
#
# To add a suite: drop tests/kunit/<area>_kunit.c here and add one line to
# tests/kunit/Makefile.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

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
build=$cache/build${kasan:+-kasan}
mkdir -p "$cache"

tap_bail() {
	echo "not ok 1 - kunit: $*"
	echo "1..1"
	exit 1
}

src=$(tipme_linux_src) || tap_bail "no linux-source tree (run tests/deps.sh)"
srcver=$(basename "$(dirname "$src")")

# One kunit.py at a time per build directory.
exec 9>"$cache/lock"
flock 9

# Hook our suites into the scratch tree as lib/tipme/.
hook=$src/lib/tipme
rm -rf "$hook"
mkdir -p "$hook"
for f in "$here"/Kconfig "$here"/Makefile "$here"/*.c "$here"/*.h \
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

# The build directory belongs to one source version.
if [ "$(cat "$build/.tipme-src-version" 2>/dev/null)" != "$srcver" ]; then
	rm -rf "$build"
	mkdir -p "$build"
	echo "$srcver" >"$build/.tipme-src-version"
fi

json=$cache/results${kasan:+-kasan}.json
log=$cache/kunit${kasan:+-kasan}.log
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
rm -f "$json"
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

[ -s "$json" ] || tap_bail "kunit.py failed before any test ran (exit $rc; log: $log)"

python3 - "$json" "$rc" "$build/test.log" "$TIPME_ROOT" "$hook" <<'EOF'
import json, os, re, sys

data = json.load(open(sys.argv[1]))
kunit_rc = int(sys.argv[2])
# The kernel's messages about failed expectations, by test case name,
# with file names pointing back into the repository.
details = {}
try:
    case, lines = None, []
    for raw in open(sys.argv[3], errors="replace"):
        line = raw.rstrip("\n")
        m = re.match(r"\s*# (\w+): (EXPECTATION|ASSERTION) FAILED", line)
        if m:
            case = m.group(1)
        if case:
            if re.match(r"\s*(not )?ok ", line):
                details.setdefault(case, []).extend(lines)
                case, lines = None, []
                continue
            line = re.sub(r"lib/tipme/([\w.-]+\.[ch])", lambda mm: os.path.relpath(
                os.path.realpath(os.path.join(sys.argv[5], mm.group(1))), sys.argv[4]), line)
            lines.append(line.strip())
except OSError:
    pass
n = 0
failed = 0
suites = []

def walk(group, path):
    global n, failed
    counts = [0, 0, 0]  # pass fail skip
    for case in group.get("test_cases", []):
        n += 1
        name = ".".join(path + [case["name"]])
        st = case["status"]
        if st == "PASS":
            print(f"ok {n} - {name}")
            counts[0] += 1
        elif st == "SKIP":
            print(f"ok {n} - {name} # SKIP")
            counts[2] += 1
        else:
            print(f"not ok {n} - {name} ({st})")
            for d in details.get(case["name"], [])[:20]:
                print(f"#   {d}")
            counts[1] += 1
            failed += 1
    for sub in group.get("sub_groups", []):
        sub_counts = walk(sub, path + [sub["name"]])
        if not path:
            suites.append((sub["name"], sub_counts))
        counts = [a + b for a, b in zip(counts, sub_counts)]
    return counts

walk(data, [])
# A KASAN report outside any test (or in a kernel without the hook that
# fails the current test) still fails the run.
try:
    reports = [l.strip() for l in open(sys.argv[3], errors="replace")
               if "BUG: KASAN" in l]
except OSError:
    reports = []
if reports:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: KASAN reported a bad access")
    for r in reports[:10]:
        print(f"#   {r}")
for name, (p, f, s) in suites:
    print(f"# suite {name}: pass={p} fail={f} skip={s}")
if n == 0:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: no test ran")
elif kunit_rc != 0 and failed == 0:
    n += 1
    failed += 1
    print(f"not ok {n} - kunit: kunit.py exited with status {kunit_rc}")
print(f"1..{n}")
sys.exit(1 if failed else 0)
EOF
