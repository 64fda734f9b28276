#!/bin/bash
# vm: timeout=300
# Issue 7: the reproducing microbenchmarks (tipme-bench paging|forkstorm) in
# short mode.  Bad options give clear errors; the paging benchmark under
# pressure (a memory cgroup smaller than the buffers, zram swap behind a
# read-delay device standing in for a disk) swaps and has a wider distribution
# than the same run without a memory limit; --trigger-above makes an
# incident whose dump covers the slow sample; the fork storm runs both
# loads.  The guest's timings are emulated (TCG): only differences within
# this guest are asserted, never absolute figures.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
bench=$B/tipme-bench
n_incidents() { find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' 2>/dev/null | wc -l; }
incidents_at_least() { [ "$(n_incidents)" -ge "$1" ]; }
tipmed_ready() { grep -q 'connected to tipme.ko' "$out/tipmed.log" 2>/dev/null; }

# expect_fail NAME STATUS PATTERN ARGS...: tipme-bench ARGS exits with
# STATUS and says PATTERN on stderr, and prints nothing on stdout.
expect_fail() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$bench" "$@" > "$out/bad.out" 2> "$out/bad.err" && rc=0 || rc=$?
	tap_diag "tipme-bench $*: $(head -c 300 "$out/bad.err")"
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$out/bad.err" && [ ! -s "$out/bad.out" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "exit status $rc (want $want), stderr: $(cat "$out/bad.err")"
	fi
}

mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup

# 1. Bad options: exit 2 with a message naming the option; a cgroup that
# cannot be created: exit 1, before any swap or process is set up.
expect_fail "zero samples: exit 2" 2 "samples: must be at least 1" paging -n 0
expect_fail "negative size: exit 2" 2 "child-size: '-5M': must not be negative" paging --child-size -5M
expect_fail "negative threshold: exit 2" 2 "trigger-above: '-1': must not be negative" forkstorm --trigger-above -1
expect_fail "unknown load: exit 2" 2 "load: 'C'" forkstorm --load C
expect_fail "an option of the other benchmark: exit 2" 2 "is for 'tipme-bench forkstorm'" paging --load A
expect_fail "a cgroup under a missing directory: exit 1" 1 "cannot create a cgroup under /sys/fs/cgroup/no/such" \
	paging --short --cgroup /sys/fs/cgroup/no/such
expect_fail "a cgroup outside cgroup2: exit 1" 1 "not in a cgroup2 file system" paging --short --cgroup /tmp
tap_cmp "... and no swap device was left behind" "$(grep -c zram /proc/swaps)" -eq 0

# 2. Paging without a memory limit: the baseline.
swp0=$(awk '/^pswpout/ {print $2}' /proc/vmstat)
"$bench" paging --short --memory-max max --json > "$out/paging-nolimit.json" 2> "$out/paging-nolimit.err"
tap_cmp "paging without a memory limit runs" "$?" -eq 0
swp1=$(awk '/^pswpout/ {print $2}' /proc/vmstat)
tap_cmp "... and does not swap" "$((swp1 - swp0))" -eq 0

# 3. tipme.ko and tipmed, then paging under pressure with a trigger.
tap_check "insmod" insmod module/tipme.ko buffer_size=16M || tap_done
"$B"/tipmed -d "$inc" -s "$sock" >> "$out/tipmed.log" 2>&1 &
TIPMED=$!
wait_for 10 tipmed_ready
tap_cmp "tipmed is up" "$?" -eq 0
# A page-in from the delay device costs at least 50 ms (a disk of the
# paper's day; zram alone pages in at memory speed, well under the noise of
# an emulated machine).  vm.page-cluster=0: one page per swap-in, as in the
# paper; Linux's default reads 8 ahead, and a walk with a 4 KiB stride then
# waits once every 8 samples.  30 ms is below any sample that pages in.
echo 0 > /proc/sys/vm/page-cluster
"$bench" paging --short --swap-delay 50 --trigger-above 30 --socket "$sock" \
	--json --svg "$out/paging.svg" > "$out/paging.json" 2> "$out/paging.err"
paging_rc=$?
tap_cmp "paging under pressure runs" "$paging_rc" -eq 0
sed 's/^/# /' "$out/paging.err"
tap_cmp "no swap device is left behind" "$(grep -c zram /proc/swaps)" -eq 0
tap_cmp "its cgroup is removed" "$(find /sys/fs/cgroup -maxdepth 1 -name 'tipme-bench-*' | wc -l)" -eq 0
[ "$paging_rc" = 0 ] && wait_for 30 incidents_at_least 1
tap_cmp "an incident was created" "$(n_incidents)" -ge 1
dump=$(find "$inc" -name kernel.dump | head -n 1)
if [ -n "$dump" ]; then
	"$B"/tipme info --json "$dump" > "$out/info.json" 2> "$out/info.err"
	cp "$(dirname "$dump")/meta.json" "$out/meta.json" 2>/dev/null
	cat "$(dirname "$dump")/description.txt" > "$out/description.txt" 2>/dev/null
fi
python3 tests/vm/check_bench.py paging "$out/paging-nolimit.json" "$out/paging.json" \
	"$out/info.json" "$out/description.txt" > "$out/paging.tap" 2>&1
tap_merge "$out/paging.tap"
tap_check "the SVG figure is well-formed XML" python3 tests/lib/is_svg.py "$out/paging.svg"
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
rmmod tipme

# 4. The fork storm, both loads.
"$bench" forkstorm --short -n 150 --json --svg "$out/forkstorm.svg" > "$out/forkstorm.json" 2> "$out/forkstorm.err"
tap_cmp "the fork storm runs" "$?" -eq 0
python3 tests/vm/check_bench.py forkstorm "$out/forkstorm.json" > "$out/forkstorm.tap" 2>&1
tap_merge "$out/forkstorm.tap"
"$bench" forkstorm --short -n 10 > "$out/forkstorm.txt" 2>&1
tap_cmp "text output has a histogram per load" "$(grep -c '^  histogram, 10 ms buckets' "$out/forkstorm.txt")" -eq 2

tap_diag "tipmed log:"; sed 's/^/#   /' "$out/tipmed.log"
tap_done
