#!/bin/bash
# vm: timeout=600
# Faults in the kernel side.  1. Every step of the load (each allocation
# and registration) is made to fail in turn (fail_load_step=N): the load
# fails with ENOMEM and says which step, or goes on without what that step
# was for; nothing stays loaded, and the kernel's vmalloc and unreclaimable
# slab counters come back to where they were.  2. rmmod while a dump is in
# flight is refused, the dump completes, and rmmod works after it, or
# after the reader closes its socket mid-dump.  3. Dumps run at once and
# under a storm of triggers from every source.  The kernel log stays clean.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
ko=module/tipme.ko
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
loaded() { [ -d /sys/module/tipme ]; }
# The kernel log since line $1 (1-based count of lines already seen).
since() { dmesg | tail -n +"$(($1 + 1))"; }
# The walks below make some 200 loads.  Under TCG every process the test
# starts costs 0.1-0.25 s (as much as half a load), so a step of the walk
# starts only insmod and rmmod.  The kernel log comes from one reader of
# /dev/kmsg, started once (fd 6, a pipe); newlog writes a marker into the
# log and reads up to it: NEW holds the messages since the last newlog,
# matched with bash's own patterns.  (A dmesg per step, reading the whole
# log each time, cost 50 s of the test's 244.)
klog() { dmesg > /tmp/klog; mapfile -t KLOG < /tmp/klog; }
klog
start=${#KLOG[@]}
exec 6< <(exec cat /dev/kmsg)
kmsg_reader=$!
marks=0
newlog() {
	local line
	marks=$((marks + 1))
	# at level 7 (debug): in the log, not on the console
	echo "<7>tipme-test: mark $marks" > /dev/kmsg
	NEW=()
	while IFS= read -r line <&6; do
		# "LEVEL,SEQ,USECS,FLAGS;TEXT"; " KEY=VALUE" lines follow some
		[[ $line == " "* ]] && continue
		line=${line#*;}
		[ "$line" = "tipme-test: mark $marks" ] && return 0
		NEW+=("$line")
	done
	tap_fail "the kernel log (/dev/kmsg) ended before mark $marks"
	tap_done
}

tap_check "a plain load and unload" sh -c "insmod $ko buffer_size=4M && rmmod tipme" || tap_done

# The walks load and unload with busybox's insmod and rmmod (static: no
# libkmod, libcrypto, libzstd and liblzma to map and relocate for each of
# the some 230 processes; t-instr-cycles does the same), through links
# with those names; their failure says the kernel's error as kmod's does
# ("... Cannot allocate memory").  Everything after the walks uses kmod's.
bb=/tmp/bb
mkdir -p "$bb"
ln -sf /bin/busybox "$bb/insmod"
ln -sf /bin/busybox "$bb/rmmod"

# 1. Walk the load's steps: fail step 1, 2, ... until a load runs them all
# (a load has some 40 steps: a walk that goes on to 120 lost its way).
walk() {
	local line err t0=$SECONDS
	n=1 steps='' failed=0 soft='' silent='' wrong='' stayed=''
	newlog
	while [ "$n" -le 120 ]; do
		if "$bb"/insmod "$ko" buffer_size=4M fail_load_step="$n" 2> "$out/insmod.err"; then
			newlog
			for line in "${NEW[@]}"; do
				[[ $line =~ fail_load_step=[0-9]+:\ the\ load\ has\ ([0-9]+)\ steps ]] &&
					steps=${BASH_REMATCH[1]}
				# The failed step was one the module can do without.
				[[ $line =~ failing\ \"(.*)\" ]] && soft="$soft $n:${BASH_REMATCH[1]}"
			done
			"$bb"/rmmod tipme
			newlog
			[ -n "$steps" ] && break
		else
			failed=$((failed + 1))
			newlog
			[[ "${NEW[*]}" == *"fail_load_step=$n: failing"* ]] || silent="$silent $n"
			read -r -d '' err < "$out/insmod.err"
			[[ $err == *"Cannot allocate memory"* ]] || wrong="$wrong $n:$err"
			loaded && stayed="$stayed $n"
		fi
		n=$((n + 1))
	done
	tap_diag "a walk of $n loads: $((SECONDS - t0)) s"
}
# The kernel's own caches grow over the first few dozen loads of any
# module; the first walk warms them, the later ones are measured.
walk
tap_diag "steps that may fail without failing the load:${soft:- none}"
tap_cmp "the walk reached a load with every step done (steps: ${steps:-?})" "${steps:-0}" -eq $((n - 1))
tap_cmp "most steps fail the load ($failed of $((n - 1)))" "$failed" -ge $(((n - 1) / 2))
tap_cmp "each failed load names its failed step in the kernel log" "${silent:-none}" = none
tap_cmp "each failed load fails with ENOMEM" "${wrong:-none}" = none
tap_cmp "no failed load leaves the module loaded" "${stayed:-none}" = none
# Up to three more walks, measured: a leak grows by the same amount with
# every walk, while the slab counters move by a few dozen KiB either way
# at any moment without one (measured: -16..+52 KiB between two readings),
# and now and then by ~100 KiB in one step when a cache takes a new slab.
# So the growth per walk is the median of three walks' growths: one step
# does not move it, a leak moves all three.  The median of three is below
# a limit exactly when two of the three are: when the first two walks'
# growths are both below it (or both not), the third cannot change the
# verdict and is not walked (40 s of the test's 207 s).  Then the median
# is known to lie between those two: the larger stands for it when both
# are below, the smaller when neither is.
WALKS=3
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
# vs_limit LIMIT GROWTH...: the median of the three walks' growths, or
# the bound that decides it from two of them; nothing while undecided.
vs_limit() {
	local limit=$1 lo hi
	shift
	[ $# -ge 3 ] && { median "$@"; return; }
	lo=$(median "$1" "$2") hi=$(($1 > $2 ? $1 : $2))
	if [ "$hi" -lt "$limit" ]; then echo "$hi"; elif [ "$lo" -ge "$limit" ]; then echo "$lo"; fi
}
# One 4M load holds 4 MiB of rings in vmalloc space: a leaked ring is
# 2 MiB; a leaked 4 KiB buffer on most failure paths is ~100 KiB a walk.
# (Kernel stacks of new processes are vmalloc'ed too: 16 KiB each.)
VLIMIT=256 SLIMIT=48
v=$(meminfo VmallocUsed) s=$(meminfo SUnreclaim)
same= dvs= dss=
for k in $(seq $WALKS); do
	walk
	same="$same $steps"
	dvs="$dvs $(($(meminfo VmallocUsed) - v))" dss="$dss $(($(meminfo SUnreclaim) - s))"
	v=$(meminfo VmallocUsed) s=$(meminfo SUnreclaim)
	# shellcheck disable=SC2086 # one number per walk
	[ "$k" -ge 2 ] && [ -n "$(vs_limit $VLIMIT $dvs)" ] && [ -n "$(vs_limit $SLIMIT $dss)" ] && break
done
tap_diag "$k walks of $n loads: VmallocUsed grew by$dvs KiB, SUnreclaim by$dss KiB"
# shellcheck disable=SC2086 # one number per walk
dv=$(vs_limit $VLIMIT $dvs) ds=$(vs_limit $SLIMIT $dss)
# what LIMIT VALUE: what VALUE (vs_limit's) says of the median
what() {
	if [ "$k" = 3 ]; then echo "median $2"
	elif [ "$2" -lt "$1" ]; then echo "median of three at most $2 (two walks decide it)"
	else echo "median of three at least $2 (two walks decide it)"; fi
}
# shellcheck disable=SC2086 # one number per walk
tap_cmp "later walks visit the same steps (${same# })" \
	"$(printf '%s\n' $same | sort -u | tr '\n' ' ')" = "$((n - 1)) "
tap_cmp "vmalloc space does not grow walk after walk ($(what $VLIMIT "$dv") KiB a walk)" "$dv" -lt $VLIMIT
tap_cmp "unreclaimable slab does not grow walk after walk ($(what $SLIMIT "$ds") KiB a walk)" "$ds" -lt $SLIMIT
exec 6<&-
kill "$kmsg_reader" 2> /dev/null

# 2. rmmod while a dump is in flight.  The rings get a few MiB first, so
# the dump is far longer than what the kernel queues ahead of the reader.
insmod "$ko" buffer_size=4M || tap_done
"$B"/tests/vm/pingpong 3000 1 > /dev/null
# The fifo lives in the guest's /tmp: the output folder (9p) has none.
go=/tmp/go
mkfifo "$go"
python3 tests/vm/nlfuzz.py hold < "$go" > "$out/hold.out" 2>&1 &
holder=$!
exec 7> "$go"
wait_for 20 grep -q '^holding' "$out/hold.out"
tap_check "a dump is in flight" grep '^holding' "$out/hold.out"
refs=$(awk '$1 == "tipme" { print $3 }' /proc/modules)
tap_cmp "... and holds a reference on the module (refcount $refs)" "$refs" -ge 1
timeout 20 rmmod tipme 2> "$out/rmmod.err"
rc=$?
tap_cmp "rmmod during the dump is refused at once (status $rc: $(cat "$out/rmmod.err"))" "$rc" -eq 1
tap_check "... and the module stays" loaded
echo go >&7
exec 7>&-
wait "$holder"
tap_check "the held dump then completes" grep '^done' "$out/hold.out"
tap_check "rmmod after the dump" rmmod tipme
insmod "$ko" buffer_size=4M || tap_done
"$B"/tests/vm/pingpong 3000 1 > /dev/null
python3 tests/vm/nlfuzz.py hold close < "$go" > "$out/close.out" 2>&1 &
holder=$!
exec 7> "$go"
wait_for 20 grep -q '^holding' "$out/close.out"
echo go >&7
exec 7>&-
wait "$holder"
tap_check "a reader closed its socket mid-dump" grep '^closed' "$out/close.out"
tap_cmp "... which drops the dump's reference" "$(awk '$1 == "tipme" { print $3 }' /proc/modules)" -eq 0
tap_check "rmmod after the reader left" timeout 20 rmmod tipme

# 3. Dumps at once, under a storm of triggers from sysctl and netlink.
insmod "$ko" buffer_size=4M || tap_done
echo 50 > /proc/sys/tipme/trigger_interval_ms
t0=$(cat /proc/sys/tipme/triggers) c0=$(cat /proc/sys/tipme/coalesced)
(for i in $(seq 400); do echo 1 > /proc/sys/tipme/trigger; done) &
s1=$!
(for i in $(seq 100); do "$B"/tipme trigger > /dev/null || echo "trigger $i failed"; done) > "$out/ntrig.out" 2>&1 &
s2=$!
pids=
for i in 1 2 3; do
	"$B"/tipme dump -o "$out/c$i.dump" > "$out/c$i.out" 2>&1 &
	pids="$pids $!"
done
ok=0
for p in $pids; do wait "$p" && ok=$((ok + 1)); done
wait "$s1" "$s2"
tap_cmp "three dumps at once all succeed ($ok)" "$ok" -eq 3
for i in 1 2 3; do
	tap_check "dump $i parses" "$B"/tipme info "$out/c$i.dump"
done
tap_cmp "every netlink trigger was accepted" "$(wc -c < "$out/ntrig.out")" -eq 0
t1=$(cat /proc/sys/tipme/triggers) c1=$(cat /proc/sys/tipme/coalesced)
tap_cmp "500 requests = triggers + coalesced ($((t1 - t0)) + $((c1 - c0)))" \
	$((t1 - t0 + c1 - c0)) -eq 500
tap_check "rmmod after the storm" rmmod tipme

bad=$(since "$start" | grep -E 'WARNING|BUG|Oops|Call Trace|general protection|refcount|leak')
if [ -z "$bad" ]; then
	tap_ok "no warning in the kernel log"
else
	tap_fail "no warning in the kernel log" "$bad"
fi
tap_done
