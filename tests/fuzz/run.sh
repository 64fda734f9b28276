#!/bin/bash
# tests/fuzz/run.sh: build the libFuzzer harnesses (clang, ASan + UBSan) and
# run each one: first every input of its regression corpus
# (tests/fuzz/regress/NAME/: inputs that once crashed, replayed as they are),
# then a run from its seeds (tests/fuzz/corpus/NAME/).  Prints TAP.  A crash
# leaves its input in build/fuzz/artifacts/NAME/: fix the bug, then add the
# input to tests/fuzz/regress/NAME/.
#
#   tests/fuzz/run.sh [NAME...]                the smoke run of make check:
#                                              a fixed seed, a fixed number
#                                              of inputs, from the seeds only,
#                                              so every run tries the same
#                                              inputs (about a minute each);
#                                              after the first, the corpus
#                                              it made and a sixteenth of
#                                              the inputs (below)
#   tests/fuzz/run.sh --seconds N [NAME...]    exploration (make fuzz): a
#                                              random seed, N seconds, a
#                                              corpus kept in build/fuzz/
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"
cd "$TIPME_ROOT" || exit 1

secs=
names=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) secs=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) names+=("$1"); shift ;;
	esac
done
[ ${#names[@]} -gt 0 ] || names=(kdump xdump ctlproto meta nlevents dumprx elfnote xmaps ckpt elfid)
# inputs of the smoke run, about a minute each on a 2-core machine (xdump:
# 50000 since its JSON outputs are checked, which costs a third of a run;
# 100000 took 242 s beside kdump's 155 s and set the step's length, and
# the same seed reached input 50000 after about 138 s, with 388 of the
# 396 edges and 1515 of the 1573 features: make fuzz explores)
declare -A SMOKE_RUNS=([kdump]=4000 [xdump]=50000 [ctlproto]=1000000 [meta]=500000 [nlevents]=1000000 [dumprx]=20000 [elfnote]=500000 [xmaps]=500000 [ckpt]=300000 [elfid]=500000)
# The corpus a full smoke run made is kept for later runs, in the cache
# outside the clone ($TIPME_CACHE/fuzz/NAME-HASH, HASH: the seeds' own),
# shared by every clone: a later smoke run replays it -- every input the
# first run kept, so it reaches the coverage that run ended with (kdump:
# the 4851 edges and 15790 features of its 4000 inputs, in 339 inputs) --
# and then tries a sixteenth of the full run's count of new inputs from
# it, seed 1 (kdump on a busy 2-core machine: the full run 199 s; the
# replay alone 57 s, with 1000 new inputs 89 to 120 s: a quarter made the
# step 246 s of a warm check's 2796, the replay is what finds a parser that
# lost its way on a path the corpus knows; exploring is make fuzz's).  Never added to: what one
# run finds does not make the next one longer.  New seeds make a new
# entry (a full run again); rm -rf "$TIPME_CACHE/fuzz" to start over.
KEPT=$TIPME_CACHE/fuzz

B=build/fuzz
n=0 fail=0
tap() {	# tap ok|not_ok DESC
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

if ! make -s -j"$(nproc)" B=$B CC=clang-14 \
	SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	fuzzers >"$B.log" 2>&1; then
	tail -n 20 "$B.log" | sed 's/^/# /'
	tap not_ok "fuzz: build the harnesses with clang (log: $B.log)"
	echo "1..$n"
	exit 1
fi
tap ok "fuzz: build the harnesses with clang"

# NAME's smoke run is made by SPLIT[NAME] processes at once, each with its
# own seed and its share of the inputs: a first run from the seeds, whose
# corpora together are kept; a later one each over every SPLIT-th input
# of the kept corpus.  kdump's inputs each run a dozen analyses under
# ASan (0.1-0.25 s an input), and its run alone was longer than all the
# other harnesses' runs together, one CPU busy and the other idle.
declare -A SPLIT=([kdump]=2)

# kept_dir NAME: where the corpus of NAME's full smoke run is kept.
kept_dir() {
	echo "$KEPT/$1-$(cd "tests/fuzz/corpus/$1" && find . -type f -print0 |
		sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
}

# fuzz_one NAME PART PARTS: replay NAME's regression inputs (PART 1), then
# its run (PART of PARTS, see SPLIT); prints "ok DESC" / "not_ok DESC"
# lines and "# " comments for tap().
fuzz_one() {
	local name=$1 part=$2 parts=$3 bin=$B/tests/fuzz/fuzz_$1 art=$B/artifacts/$1
	local work=$B/corpus/$1 log=$B/$1.log regress how what rc runs kept i f
	[ "$parts" = 1 ] || { work=$work.$part log=$B/$name.$part.log; }
	mkdir -p "$art" "$work"
	regress=(tests/fuzz/regress/"$name"/*)
	if [ "$part" = 1 ] && [ -e "${regress[0]}" ]; then
		# FUZZ_ALL: each input through every option combination
		if FUZZ_ALL=1 "$bin" -close_fd_mask=3 "${regress[@]}" >"$B/$name-regress.log" 2>&1; then
			echo "ok fuzz $name: ${#regress[@]} regression inputs replayed, no crash"
		else
			grep -E 'ERROR|runtime error|SUMMARY|Running:' "$B/$name-regress.log" | head -n 8 | sed 's/^/# /'
			echo "not_ok fuzz $name: a regression input crashes again (log: $B/$name-regress.log)"
		fi
	fi
	kept=
	if [ -n "$secs" ]; then
		how=(-max_total_time="$secs")
		what="${secs} s from a random seed"
	else
		# seed PART and a count, from a fresh corpus: the seeds', or
		# (its share of) the one the first full run kept, replayed
		# first (its inputs and the seeds count among the runs)
		rm -rf "$work" && mkdir -p "$work"
		kept=$(kept_dir "$name")
		if [ -d "$kept" ]; then
			local nkept=0 nseeds
			i=0
			for f in "$kept"/*; do
				[ $((i % parts + 1)) = "$part" ] && cp "$f" "$work/" && nkept=$((nkept + 1))
				i=$((i + 1))
			done
			nseeds=$(find "tests/fuzz/corpus/$name" -type f | wc -l)
			how=(-seed="$part" -runs=$((nkept + nseeds + SMOKE_RUNS[$name] / 16 / parts)))
			what="seed $part, from the $nkept kept of a full run's corpus"
			[ "$parts" = 1 ] || what="$what, part $part of $parts"
			kept=
		else
			how=(-seed="$part" -runs=$((SMOKE_RUNS[$name] / parts)))
			what="seed $part"
			[ "$parts" = 1 ] || { what="$what, part $part of $parts"; kept=; }
		fi
	fi
	"$bin" "${how[@]}" -close_fd_mask=3 -timeout=20 -rss_limit_mb=2048 \
		-artifact_prefix="$art/" "$work" "tests/fuzz/corpus/$name" \
		>"$log" 2>&1
	rc=$?
	echo "$rc" > "$B/$name.$part.rc"
	# a full smoke run that passed: its corpus kept for the next ones
	# (made aside and renamed: a clone that does it first wins)
	if [ "$rc" = 0 ] && [ -n "$kept" ] && mkdir -p "$KEPT" &&
		cp -r "$work" "$kept.tmp.$$"; then
		mv -T "$kept.tmp.$$" "$kept" 2>/dev/null || rm -rf "$kept.tmp.$$"
	fi
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
	if [ "$rc" = 0 ]; then
		echo "ok fuzz $name: ${runs:-?} inputs ($what), no crash, leak or UB"
	else
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -n 8 | sed 's/^/# /'
		echo "not_ok fuzz $name: found a crash (input in $art/, log: $log)"
	fi
}

# Each harness (or part of one) is one process: TIPME_FUZZ_JOBS (default:
# the CPUs) of them at a time, longest first (kdump's parts); the results
# in the order named.
jobs_max=${TIPME_FUZZ_JOBS:-$(nproc)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "TIPME_FUZZ_JOBS: a positive number, not '$jobs_max'" >&2; exit 2; }
units=()
rm -f "$B"/*.rc "$B"/*.tapres
for name in "${names[@]}"; do
	parts=1
	[ -z "$secs" ] && parts=${SPLIT[$name]:-1}
	for ((p = 1; p <= parts; p++)); do units+=("$name $p $parts"); done
done
for u in "${units[@]}"; do
	read -r name p parts <<<"$u"
	while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	fuzz_one "$name" "$p" "$parts" >"$B/$name.$p.tapres" 2>&1 &
done
wait
# the parts of a first run that all passed: their corpora kept as one
for name in "${names[@]}"; do
	parts=${SPLIT[$name]:-1} kept=$(kept_dir "$name")
	[ -z "$secs" ] && [ "$parts" -gt 1 ] && [ ! -d "$kept" ] || continue
	[ "$(cat "$B/$name".[0-9]*.rc 2>/dev/null | sort -u)" = 0 ] || continue
	[ ! -d "$B/corpus/$name.1" ] && continue
	mkdir -p "$kept.tmp.$$" && cp "$B/corpus/$name".[0-9]*/* "$kept.tmp.$$/" &&
		mv -T "$kept.tmp.$$" "$kept" 2>/dev/null || rm -rf "$kept.tmp.$$"
done
for u in "${units[@]}"; do
	read -r name p parts <<<"$u"
	while IFS= read -r line; do
		case $line in
		"ok "*) tap ok "${line#ok }" ;;
		"not_ok "*) tap not_ok "${line#not_ok }" ;;
		*) echo "$line" ;;
		esac
	done <"$B/$name.$p.tapres"
done
echo "1..$n"
exit $fail
