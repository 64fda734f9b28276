#!/bin/bash
# make check: everything tipme can test on this machine, as TAP.
#
#   tests/check.sh [STEP...]     default: every step below but kunit, in
#                                this order
#
# Steps:
#   deps        scripts/deps.sh: install what is missing
#   module      make module (W=1, -Werror) against the stock amd64 headers
#   module-rt   the same against the PREEMPT_RT headers, in a copy of the
#               tree in build/rt-build/
#   sparse      sparse (make module C=2) on the module; any warning fails
#   user        make user (-Werror)
#   checkpatch  checkpatch.pl --strict on the kernel sources; errors and
#               warnings fail, "CHECK"s are listed in the log only (a
#               file checked before, by the same checkpatch: its findings
#               from the cache)
#   lint        tests/lint/circles.py: no circles between the files of a
#               folder, no include reaching into another program's folder;
#               tests/lint/tails.py: only postmortem/dump/ (the decoder
#               and the tail accessors) and records/ read a variable-length
#               record's tail
#               tests/lint/inline_python.py: no shell script starts python
#               inline (a .py file beside it checks the JSON)
#               tests/lint/unit-security.sh: tipmed.service's sandbox (systemd-analyze)
#   kunit-kasan tests/kunit/run.sh --kasan (UML with KASAN): every KUnit
#               suite, with out-of-bounds and use-after-free reports
#   kunit       tests/kunit/run.sh (UML without KASAN): the same suites;
#               only when named (the plain build is bench's, for timing),
#               so a fresh clone builds one UML kernel, not two (~3 min)
#   unit        userspace unit tests (make unit-tests)
#   unit-asan   the same under ASan+UBSan (build/asan/)
#   xhook       make xhook-tests: X11 recorder unit + Xvfb integration tests
#   xhook-asan  the same under ASan+UBSan (build/asan/)
#   fuzz        tests/fuzz/run.sh: replay the fuzzers' regression inputs,
#               then the smoke run of each libFuzzer harness: a fixed
#               seed and count, from the seeds (kdump in two processes);
#               once the cache holds the corpus such a run made, that
#               corpus and a sixteenth of the count; make fuzz explores
#   deb         scripts/deb.sh check: make deb (debhelper), lintian (errors
#               fail), dkms building tipme-dkms's source; t-deb in the vm
#               step installs and runs what this built
#   vm          tests/vm/run.sh: every tests/vm/t-*.sh in its own VM (the
#               short ones that say "# vm: share" a few to a VM, one after
#               the other), one VM per CPU at a time, two on a 2-core
#               machine (TIPME_VM_JOBS)
#   kernels     scripts/kernels.sh check: the other kernels tipme supports,
#               Debian 13's 6.12, unstable's 7.x (both fetched once with
#               debootstrap into $TIPME_CACHE/kernels/, shared by every
#               clone: scripts/lib/common.sh) and Debian 12's PREEMPT_RT
#               6.1; tipme.ko built against each with its suite's compiler,
#               and the per-kernel VM tests booted on each: every
#               kernel's guests in one queue, longest first; after the vm
#               step it starts with it, and the guests of both share the
#               CPUs, one guest per CPU (step_vm below)
#
# Every "ok"/"not ok" line a step prints counts once; a build step is one
# point; a step that fails without printing "not ok" counts as one failure.
# A "not ok ... # TODO REASON" line is a known failure (TAP's TODO): listed,
# not counted as failed.
# Logs: build/check/<step>.log (a failing step's tail is printed).  The last
# line is "N passed, N failed" (", N skipped" when some were skipped, ", N
# known failures (TODO)" when some were); the
# exit status is non-zero if anything failed.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
cd "$TIPME_ROOT"

ALL_STEPS=(deps module module-rt sparse user checkpatch lint kunit-kasan unit unit-asan bench bench-asan xhook xhook-asan fuzz deb vm kernels)
NAMED_STEPS=(kunit)
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("${ALL_STEPS[@]}")

logdir=$TIPME_ROOT/build/check
mkdir -p "$logdir"
N=0 PASSED=0 FAILED=0 SKIPPED=0 TODO=0
t_start=$(date +%s)
# every build of every step through ccache (its cache outside the clone;
# scripts/lib/common.sh), once scripts/deps.sh has installed it
tipme_ccache

# emit ok|not_ok|skip DESC
emit() {
	N=$((N + 1))
	case $1 in
	ok) PASSED=$((PASSED + 1)); echo "ok $N - $2" ;;
	skip) SKIPPED=$((SKIPPED + 1)); echo "ok $N - $2 # SKIP ${3:-}" ;;
	todo) TODO=$((TODO + 1)); echo "not ok $N - $2 # TODO ${3:-}" ;;
	*) FAILED=$((FAILED + 1)); echo "not ok $N - $2" ;;
	esac
}

# show_tail LOG: a failed step's compiler/checker diagnostics, then its tail.
show_tail() {
	local diag
	diag=$(grep -E ': (fatal error|error|warning|ERROR|WARNING)[: ]' "$1" | head -n 30)
	if [ -n "$diag" ]; then
		echo "# ---- diagnostics in $1"
		printf '%s\n' "$diag" | sed 's/^/#   /'
	fi
	echo "# ---- last lines of $1"
	tail -n "${2:-30}" "$1" | sed 's/^/#   /'
	echo "# ----"
}

# run_build NAME CMD...: one point, ok if CMD succeeds.
run_build() {
	local name=$1 log=$logdir/$1.log t0 rc
	shift
	t0=$(date +%s)
	echo "# == $name: $*"
	"$@" >"$log" 2>&1 </dev/null && rc=0 || rc=$?
	if [ "$rc" = 0 ]; then
		emit ok "$name ($(($(date +%s) - t0))s)"
	else
		emit not_ok "$name: exit status $rc ($(($(date +%s) - t0))s, log: ${log#"$TIPME_ROOT"/})"
		show_tail "$log"
	fi
	return "$rc"
}

# run_tap NAME CMD...: every ok/not ok line CMD prints is a point.
run_tap() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	echo "# == $name: $*"
	"$@" >"$logdir/$name.log" 2>&1 </dev/null && rc=0 || rc=$?
	tap_results "$name" "$rc" "$t0"
}

# tap_results NAME RC T0: the points of step NAME's log, whose command
# exited with RC and started at T0.
tap_results() {
	local name=$1 log=$logdir/$1.log rc=$2 t0=$3 line own_fail=0 own=0 desc neg
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]*\ *-?\ *(.*)$ ]]; then
			desc=${BASH_REMATCH[2]}
			neg=${BASH_REMATCH[1]}
			own=$((own + 1))
			if [ -n "$neg" ] && [[ $desc =~ ^(.*)\ \#\ TODO\ ?(.*)$ ]]; then
				emit todo "$name: ${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
			elif [ -n "$neg" ]; then
				own_fail=$((own_fail + 1))
				emit not_ok "$name: $desc"
			elif [[ $desc =~ ^(.*)\ \#\ [Ss][Kk][Ii][Pp]\ ?(.*)$ ]]; then
				emit skip "$name: ${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
			else
				emit ok "$name: $desc"
			fi
		fi
	done <"$log"
	if [ "$rc" != 0 ] && [ "$own_fail" = 0 ]; then
		emit not_ok "$name: exit status $rc (log: ${log#"$TIPME_ROOT"/})"
	elif [ "$own" = 0 ]; then
		emit not_ok "$name: no test result printed (log: ${log#"$TIPME_ROOT"/})"
	fi
	[ "$rc" = 0 ] && [ "$own_fail" = 0 ] || show_tail "$log"
	echo "# $name: $own results, exit status $rc, $(($(date +%s) - t0))s"
}

kver=$(tipme_kver 2>/dev/null || true)
rt_kver=$(tipme_rt_kver 2>/dev/null || true)

step_deps() { run_build deps scripts/deps.sh && tipme_ccache; }

step_module() {
	[ -n "$kver" ] || kver=$(tipme_kver 2>/dev/null || true)
	if [ -z "$kver" ]; then emit not_ok "module: no stock kernel headers (deps failed?)"; return; fi
	run_build module make -j"$(nproc)" module KDIR="/lib/modules/$kver/build" KCFLAGS=-Werror
}

# Build in a copy of the tree so the amd64 tipme.ko in module/ stays intact.
# The module is the one the kernels step boots on Debian 12's PREEMPT_RT
# kernel (the same headers, compiler and flags): kept in the cache where
# that step looks (scripts/kernels.sh keep), it is built once, not twice
# (25 s of a cold run's kernels step).
rt_build() {
	local dst=$TIPME_ROOT/build/rt-build
	rm -rf "$dst"
	mkdir -p "$dst"
	tar -C "$TIPME_ROOT" -cf - --exclude=./.git --exclude=./.cache --exclude=./build \
		--exclude=./tests/vm/out --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude=modules.order \
		--exclude=Module.symvers . | tar -C "$dst" -xf - &&
		make -j"$(nproc)" -C "$dst" module KDIR="$1" KCFLAGS=-Werror || return
	scripts/kernels.sh keep bookworm-rt "$rt_kver" "$dst/module/tipme.ko" ||
		echo "module-rt: not kept for the kernels step (it builds its own)"
}

step_module-rt() {
	[ -n "$rt_kver" ] || rt_kver=$(tipme_rt_kver 2>/dev/null || true)
	if [ -z "$rt_kver" ]; then emit not_ok "module-rt: no PREEMPT_RT headers (deps failed?)"; return; fi
	run_build module-rt rt_build "/lib/modules/$rt_kver/build"
}

# With the module step's flags (KCFLAGS=-Werror), so that its objects are
# up to date: C=2 runs sparse on every source all the same, and nothing is
# compiled a second time (without them kbuild saw a changed command line
# and rebuilt all 41 objects: 24 s of the step, 8 s without).
sparse_check() {
	local out n
	out=$(make -j"$(nproc)" module C=2 KDIR="$1" KCFLAGS=-Werror 2>&1) || { printf '%s\n' "$out"; return 1; }
	printf '%s\n' "$out"
	n=$(printf '%s\n' "$out" | grep -cE ': (warning|error): ')
	echo "sparse: $n warnings"
	[ "$n" = 0 ]
}

step_sparse() {
	if ! command -v sparse >/dev/null; then
		emit skip "sparse" "sparse not installed"
		return
	fi
	[ -n "$kver" ] || kver=$(tipme_kver 2>/dev/null || true)
	run_build sparse sparse_check "/lib/modules/$kver/build"
}

step_user() { run_build user make -j"$(nproc)" user; }

# An out-of-tree module must test kernel versions where no feature test
# works (module/compat.h, STYLE.md): checkpatch's LINUX_VERSION_CODE warning
# is ignored, and so is CONSTANT_COMPARISON on a line that compares
# LINUX_VERSION_CODE with KERNEL_VERSION(), the kernel's own idiom.
drop_version_checks() {
	local line n
	while IFS= read -r line; do
		if [[ $line =~ ^[^:]+:([0-9]+):\ WARNING:CONSTANT_COMPARISON: ]]; then
			n=${BASH_REMATCH[1]}
			sed -n "${n}p" "$1" | grep -q 'LINUX_VERSION_CODE' && continue
		fi
		printf '%s\n' "$line"
	done
}

CHECKPATCH_OPTS=(--no-tree --strict --terse --show-types --ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE)
# checkpatch_one SRC FILE: checkpatch's findings in FILE, then its counts;
# exits 1 on an error or a warning.  What it printed for the same file
# (name and bytes), options, this function and checkpatch (the script and
# the lists it reads) is kept in $TIPME_CACHE/checkpatch/ and printed
# again instead (26 s of a warm check; the files of a commit that changed
# none are checked in 0.2 s).
checkpatch_one() {
	local out e w c key keep=$TIPME_CACHE/checkpatch
	key=$({ printf '%s\n' "$2" "${CHECKPATCH_OPTS[*]}"; declare -f checkpatch_one drop_version_checks
		cat "$1/scripts/checkpatch.pl" "$1/scripts/spelling.txt" \
			"$1/scripts/const_structs.checkpatch" "$2"; } 2>/dev/null | sha256sum | cut -c1-32)
	if [ -f "$keep/$key" ]; then
		out=$(cat "$keep/$key")
	else
		out=$("$1/scripts/checkpatch.pl" "${CHECKPATCH_OPTS[@]}" -f "$2" 2>&1 | grep -v '^total: ' |
			drop_version_checks "$2")
		mkdir -p "$keep" && printf '%s' "$out" > "$keep/$key.$BASHPID" &&
			mv "$keep/$key.$BASHPID" "$keep/$key"
	fi
	e=$(printf '%s\n' "$out" | grep -c ': ERROR:')
	w=$(printf '%s\n' "$out" | grep -c ': WARNING:')
	c=$(printf '%s\n' "$out" | grep -c ': CHECK:')
	[ -z "$out" ] || printf '%s\n' "$out"
	echo "$2: $e errors, $w warnings, $c checks"
	[ "$e" = 0 ] && [ "$w" = 0 ]
}

# Every kernel source, one checkpatch per CPU at a time; the findings in
# the files' order.
checkpatch() {
	local src files f i tmp bad=0
	src=$(tipme_linux_src) || return 1
	shopt -s nullglob
	files=(module/*.c module/*.h module/*/*.c module/*/*.h tests/kunit/*.c bench/kunit/*.c)
	shopt -u nullglob
	[ ${#files[@]} -gt 0 ] || { echo "no kernel sources to check"; return 0; }
	tmp=$(mktemp -d) || return 1
	for i in "${!files[@]}"; do
		f=${files[$i]}
		case $f in *.mod.c) continue ;; esac	# generated by modpost
		while [ "$(jobs -pr | wc -l)" -ge "$(nproc)" ]; do wait -n; done
		{ checkpatch_one "$src" "$f" >"$tmp/$i.out"; echo $? >"$tmp/$i.rc"; } &
	done
	wait
	for i in "${!files[@]}"; do
		[ -e "$tmp/$i.rc" ] || continue
		cat "$tmp/$i.out"
		[ "$(cat "$tmp/$i.rc")" = 0 ] || bad=1
	done
	rm -rf "$tmp"
	return $bad
}
step_checkpatch() { run_build checkpatch checkpatch; }

step_kunit() { run_tap kunit tests/kunit/run.sh; }
step_kunit-kasan() { run_tap kunit-kasan tests/kunit/run.sh --kasan; }

# The test steps build with one job per CPU (a fresh clone's ASan build of
# every program and test took 80 of unit-asan's 97 s with one job): their
# make targets build everything first and then run the tests in one
# recipe, one after the other, so -j only makes the build parallel.

# The sanitizers of the *-asan steps (their builds in build/asan/).
ASAN_FLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer'

# has_target T: the Makefile has a rule for T (and parses at all).
has_target() { make -n "$1" >/dev/null 2>&1; }
has_unit_target() { has_target unit-tests; }

step_unit() {
	if ! has_unit_target; then
		emit skip "unit" "no 'unit-tests' make target yet (tests/unit/unit.mk)"
		return
	fi
	run_tap unit make -j"$(nproc)" unit-tests
}

step_unit-asan() {
	if ! has_unit_target; then
		emit skip "unit-asan" "no 'unit-tests' make target yet (tests/unit/unit.mk)"
		return
	fi
	run_tap unit-asan make -j"$(nproc)" B=build/asan SAN="$ASAN_FLAGS" unit-tests
}

# The benchmarks' own unit tests (statistics, histograms, options, CLI).
step_bench() {
	if ! has_target bench-tests; then
		emit skip "bench" "no 'bench-tests' make target"
		return
	fi
	run_tap bench make -j"$(nproc)" bench-tests
}

step_bench-asan() {
	if ! has_target bench-tests-asan; then
		emit skip "bench-asan" "no 'bench-tests-asan' make target"
		return
	fi
	run_tap bench-asan make -j"$(nproc)" bench-tests-asan
}

# A step may start beside an earlier one, in the background (bg_start),
# when the two leave each other the CPUs they need; its results are
# printed in its own turn (bg_finish), and its timing line counts from its
# start.  TIPME_CHECK_SERIAL=1: every step in its turn, one at a time.
declare -A bg_pid=() bg_t0=() bg_cmd=() bg_with=()
# later STEP: STEP is to run after the step running now ($cur).
later() {
	local s seen=0
	[ "${TIPME_CHECK_SERIAL:-0}" != 1 ] || return 1
	for s in "${steps[@]}"; do
		[ "$seen" = 1 ] && [ "$s" = "$1" ] && return 0
		[ "$s" = "$cur" ] && seen=1
	done
	return 1
}
# bg_start STEP CMD...: STEP's command, now, beside the running step.
bg_start() {
	local name=$1
	shift
	bg_t0[$name]=$(date +%s)
	bg_cmd[$name]="$*"
	bg_with[$name]=$cur
	echo "# $name: $* starts now, beside $cur"
	# a process group of its own, which an interrupted check stops
	# (a background job of a script ignores the terminal's SIGINT)
	setsid "$@" >"$logdir/$name.log" 2>&1 </dev/null &
	bg_pid[$name]=$!
}
bg_stop() {
	local p
	for p in "${bg_pid[@]}"; do kill -TERM -- -"$p" 2>/dev/null; done
	wait
	exit 130
}
trap bg_stop INT TERM
# bg_finish STEP: STEP's results, if it was started beside another step
# (status 1 if it was not).
bg_finish() {
	local name=$1 rc
	[ -n "${bg_pid[$name]:-}" ] || return 1
	echo "# == $name: ${bg_cmd[$name]} (started with ${bg_with[$name]})"
	wait "${bg_pid[$name]}" && rc=0 || rc=$?
	unset "bg_pid[$name]"
	tap_results "$name" "$rc" "${bg_t0[$name]}"
}

# The X11 tests wait on Xvfb and their clients much more than they
# compute: xhook-asan beside xhook took 27-31 s against 50 s one after the
# other, but one of seven such runs failed xhook's t_cost ("the X server
# ended the recording" in its 100,000-request benchmark), never seen one
# at a time; until that is understood they run in turn
# (TIPME_CHECK_XHOOK_BESIDE=1 starts them together).
step_xhook() {
	if ! has_target xhook-tests; then
		emit skip "xhook" "no 'xhook-tests' make target"
		return
	fi
	[ "${TIPME_CHECK_XHOOK_BESIDE:-0}" != 1 ] || ! later xhook-asan ||
		bg_start xhook-asan make -j"$(nproc)" B=build/asan SAN="$ASAN_FLAGS" xhook-tests
	run_tap xhook make -j"$(nproc)" xhook-tests
}

# xhook-unit and tipme-xhook under ASan+UBSan; the Xvfb tests fail on any
# sanitizer report in tipme-xhook's stderr.
step_xhook-asan() {
	if ! has_target xhook-tests; then
		emit skip "xhook-asan" "no 'xhook-tests' make target"
		return
	fi
	bg_finish xhook-asan ||
		run_tap xhook-asan make -j"$(nproc)" B=build/asan SAN="$ASAN_FLAGS" xhook-tests
}

step_lint() {
	run_tap lint python3 tests/lint/circles.py
	run_tap lint-tails python3 tests/lint/tails.py
	run_tap lint-python python3 tests/lint/inline_python.py
	run_tap lint-unit tests/lint/unit-security.sh
}

step_fuzz() { run_tap fuzz tests/fuzz/run.sh; }

step_deb() { run_tap deb scripts/deb.sh check; }

# The VM tests and the other kernels' guests share one pool of guest
# slots (TIPME_VM_POOL, scripts/lib/common.sh), one per CPU: when the
# kernels step comes after the vm step, it starts with it, in the
# background (its fetches and builds while the first guests run), and
# its guests take the slots with the VM tests', longest first; its
# results are printed in its turn.  Run one after the other, each step
# ended with one guest alone on the two CPUs (the vm step 1070 s, the
# kernels step 252 s).
step_vm() {
	local pool=$TIPME_ROOT/build/vm-pool
	if later kernels && tipme_pool_init "$pool" "${TIPME_VM_JOBS:-$(tipme_guest_jobs)}"; then
		export TIPME_VM_POOL=$pool
		bg_start kernels scripts/kernels.sh check
	fi
	run_tap vm tests/vm/run.sh
}

# The other kernels: tipme.ko built with W=1 -Werror by each suite's
# compiler, then the VM tests that matter per kernel booted on each.
step_kernels() { bg_finish kernels || run_tap kernels scripts/kernels.sh check; }

for s in "${steps[@]}"; do
	cur=$s
	if ! declare -F "step_$s" >/dev/null; then
		echo "check.sh: unknown step '$s' (steps: ${ALL_STEPS[*]} ${NAMED_STEPS[*]})" >&2
		exit 2
	fi
	"step_$s"
done

echo "1..$N"
echo "# check.sh: $(($(date +%s) - t_start))s, logs in ${logdir#"$TIPME_ROOT"/}/"
[ "$N" -gt 0 ] || { echo "check.sh: no test ran" >&2; FAILED=1; }
summary="$PASSED passed, $FAILED failed"
[ "$SKIPPED" = 0 ] || summary+=", $SKIPPED skipped"
[ "$TODO" = 0 ] || summary+=", $TODO known failures (TODO)"
echo "$summary"
[ "$FAILED" = 0 ]
