#!/bin/bash
# vm: timeout=3000 mem=2048
# make soak (issue 30, item 5): a week of a desktop's triggers in an
# afternoon.  In the guest (tests/soak/guest.sh [SECONDS [RELOAD_S]]),
# for SECONDS (default 1800) of guest time:
# recording on with the module's auto trigger at 150 ms; a desktop-like
# load (a parallel build of tipme's userspace, over and over; a key press
# every ~15 s whose reader waits 50-500 ms; a fork storm every 30 s; a
# memory hog in a memory cgroup with swap on zram every 45 s); a trigger
# every 10 s; tipmed killed with SIGKILL at random (every 60-180 s) and
# started again; the incident file system filled to 100% twice (for 40 s
# each); the module unloaded and loaded again every RELOAD_S (default 300).
#
# What happened is written to TIPME_OUT: events.log ("UPTIME_S WHAT ..."
# lines), tipmed.log (every tipmed's, appended), status-N.json (tipme
# status before each unload and at the end), mem.txt (slab and module
# memory before the first load and after the last unload) and the
# incidents left at the end (incidents/).  tests/soak/check_soak.py reads
# them on the host after the guest (tap_on_host): no kernel warning (vm.sh
# checks the log too), memory back after the unload, every trigger
# accounted for, every incident readable, no recording gap longer than a
# dump's freeze; its figures go to TIPME_OUT/soak.json.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
secs=${1:-1800}
reload_s=${2:-300}
fs=/tmp/soakfs
inc=$fs/inc
sock=/tmp/tipmed.sock
cg=/sys/fs/cgroup
stop=/tmp/soak.stop
events=$out/events.log
RANDOM=${SOAK_SEED:-1}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
ev() { echo "$(uptime_s) $*" >> "$events"; }
slab() { awk -v n="$1" '$1 == n { print $2 }' /proc/slabinfo; }
meminfo() { awk -v n="$1:" '$1 == n { print $2 }' /proc/meminfo; }
settle() {
	timeout 120 sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'
	for s in mm_struct task_struct; do echo 1 > "/sys/kernel/slab/$s/shrink"; done
}
memline() { # WHEN
	echo "$1 task_struct=$(slab task_struct) mm_struct=$(slab mm_struct)" \
		"vmalloc_kb=$(meminfo VmallocUsed) percpu_kb=$(meminfo Percpu)" \
		"sunreclaim_kb=$(meminfo SUnreclaim)" >> "$out/mem.txt"
}

TIPMED=
nstatus=0
tipmed_up() {
	"$B"/tipmed -d "$inc" -s "$sock" >> "$out/tipmed.log" 2>&1 &
	TIPMED=$!
	ev tipmed-start "$TIPMED"
	wait_for 60 sh -c "grep -c 'connected to tipme.ko' '$out/tipmed.log' | grep -qx '$1'"
}
starts=0
start_tipmed() { starts=$((starts + 1)); tipmed_up "$starts"; }
status_save() {
	nstatus=$((nstatus + 1))
	"$B"/tipme status --json -s "$sock" > "$out/status-$nstatus.json" 2>/dev/null ||
		"$B"/tipme status --json > "$out/status-$nstatus.json" 2>/dev/null
	ev status "$nstatus"
}
load_module() {
	insmod module/tipme.ko buffer_size=8M auto_trigger_ms=150 || return 1
	ev insmod
}

# ---- set up
mkdir -p "$fs"
mount -t tmpfs -o size=160M tipme-soak "$fs"
mkdir -p "$inc" "$out/incidents"
modprobe uinput
modprobe evdev
modprobe zram && echo 256M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null &&
	swapon /dev/zram0
{ mountpoint -q $cg || mount -t cgroup2 none $cg; } &&
	echo +memory > $cg/cgroup.subtree_control && mkdir -p $cg/soak &&
	echo 48M > $cg/soak/memory.max
tap_check "a first load and unload" sh -c "insmod module/tipme.ko && rmmod tipme" || tap_done
settle
memline before
log0=$(dmesg | wc -l)
tap_check "insmod (8 MiB, auto_trigger_ms=150)" load_module || tap_done
start_tipmed
tap_cmp "tipmed is up" "$?" -eq 0
t_end=$(($(cut -d. -f1 /proc/uptime) + secs))
ev start "$secs"

# ---- the desktop's load, each until $stop exists
rm -f "$stop"
(	# a parallel build, over and over
	while [ ! -e "$stop" ]; do
		nice -n 5 make -s -j2 B=/tmp/soakbuild user > /dev/null 2>&1
		rm -rf /tmp/soakbuild
	done
) &
(	# a key press every ~15 s; its reader waits 50-500 ms for a helper
	n=0
	while [ ! -e "$stop" ]; do
		n=$((n + 1))
		ms=$((50 + RANDOM % 450))
		"$B"/tests/vm/evreader "tipme test keyboard" "$ms" > /dev/null 2>&1 &
		r=$!
		"$B"/tests/vm/vkbd --settle-ms 1000 a > /dev/null 2>&1
		wait "$r"
		ev press "$n" "$ms"
		sleep $((10 + RANDOM % 10))
	done
) &
(	# a fork storm every 30 s
	while [ ! -e "$stop" ]; do
		for i in $(seq 300); do /bin/true & done
		wait
		ev forkstorm
		sleep 30
	done
) &
(	# a memory hog in the 48 MiB cgroup every 45 s
	while [ ! -e "$stop" ]; do
		sh -c "echo \$\$ > $cg/soak/cgroup.procs && exec $B/tests/vm/memhog 96 2" > /dev/null 2>&1
		ev memhog
		sleep 45
	done
) &
(	# a trigger every 10 s (while the module is there)
	while [ ! -e "$stop" ]; do
		[ -w /proc/sys/tipme/trigger ] && echo 1 > /proc/sys/tipme/trigger 2>/dev/null &&
			ev trigger
		sleep 10
	done
) &

# ---- chaos, until the time is up
now() { cut -d. -f1 /proc/uptime; }
t0=$(now)
next_kill=$((t0 + 60 + RANDOM % 120))
next_reload=$((t0 + reload_s))
fill_at=("$((t0 + secs / 3))" "$((t0 + 2 * secs / 3))")
fills=0 kills=0 reloads=0 reload_fail=0
while [ "$(now)" -lt "$t_end" ]; do
	sleep 1
	t=$(now)
	if [ "$fills" -lt 2 ] && [ "$t" -ge "${fill_at[$fills]}" ]; then
		fills=$((fills + 1))
		ev disk-full-begin "$fills"
		dd if=/dev/zero of="$fs/fill" bs=1M > /dev/null 2>&1
		dd if=/dev/zero bs=4k >> "$fs/fill" 2> /dev/null
		df -k "$fs" | tail -n 1 | sed 's/^/# disk: /'
		sleep 40
		rm -f "$fs/fill"
		ev disk-full-end "$fills"
	fi
	if [ "$t" -ge "$next_kill" ]; then
		kills=$((kills + 1))
		kill -KILL "$TIPMED"
		wait "$TIPMED" 2>/dev/null
		ev tipmed-killed "$TIPMED"
		start_tipmed || ev tipmed-start-failed
		next_kill=$((t + 60 + RANDOM % 120))
	fi
	if [ "$t" -ge "$next_reload" ]; then
		reloads=$((reloads + 1))
		status_save
		kill "$TIPMED"
		wait "$TIPMED" 2>/dev/null
		ev tipmed-stopped "$TIPMED"
		if wait_for 60 rmmod tipme; then
			ev rmmod
			load_module || reload_fail=$((reload_fail + 1))
		else
			reload_fail=$((reload_fail + 1))
			ev rmmod-failed
		fi
		start_tipmed || ev tipmed-start-failed
		next_reload=$((t + reload_s))
	fi
done
ev end
touch "$stop"
# the loads stop: a build under TCG takes minutes, so it is cut short
pkill -x make
pkill -x memhog
status_save
kill "$TIPMED"
wait "$TIPMED" 2>/dev/null
ev tipmed-stopped "$TIPMED"
tap_cmp "$kills kills of tipmed, $starts starts" "$starts" -eq "$((kills + reloads + 1))"
tap_cmp "$reloads reloads of the module, $reload_fail failed" "$reload_fail" -eq 0
tap_cmp "the disk filled $fills times" "$fills" -eq 2
wait_for 60 rmmod tipme
tap_cmp "the last rmmod" "$?" -eq 0
ev rmmod
# wait for the loads to finish their round
wait
settle
memline after
dmesg | tail -n +"$((log0 + 1))" > "$out/soak-dmesg.txt"
cp -a "$inc"/. "$out/incidents/" 2>/dev/null
tap_on_host python3 tests/soak/check_soak.py "$out"
tap_done
