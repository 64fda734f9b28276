#!/bin/bash
# vm: timeout=240 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# Issue 5: triggers and incidents.  A virtual keyboard presses the hotkeys
# through the kernel's input core; tipmed turns triggers into incident
# directories; key codes stay out unless key logging is on; storms
# coalesce; a killed tipmed leaves nothing half-written; a full disk is
# reported and survived; only root and the tipme group may trigger.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
sock=/tmp/tipmed.sock
mono() { python3 tests/lib/mono.py -s; }
n_incidents() { find "${1:-$inc}" -mindepth 1 -maxdepth 1 -type d ! -name '.*' 2>/dev/null | wc -l; }
# Conditions for wait_for: evaluated afresh on every poll.
incidents_at_least() { [ "$(n_incidents "${2:-}")" -ge "$1" ]; }
tipmed_ready() { [ "$(grep -c 'connected to tipme.ko' "$out/tipmed.log")" -gt "$1" ]; }
has_tmp() { ls -a "$inc" | grep -q '^\.tmp-'; }
# Start tipmed on ROOT (default $inc); ready once it joined the group.
start_tipmed() {
	local n
	n=$(grep -c 'connected to tipme.ko' "$out/tipmed.log" 2>/dev/null)
	"$B"/tipmed -d "${1:-$inc}" -s "$sock" >> "$out/tipmed.log" 2>&1 &
	TIPMED=$!
	wait_for 5 tipmed_ready "${n:-0}"
}

modprobe uinput
# the TSC clock, as on a workstation, where the kernel gives this emulated
# CPU a constant TSC (6.1, 6.12; not Debian's 7.2: then the default clock)
clk=tsc
grep -qw constant_tsc /proc/cpuinfo || { clk=auto; tap_diag "no constant_tsc in this guest: the default clock"; }
tap_check "insmod" insmod module/tipme.ko buffer_size=16M clock=$clk || tap_done
tap_cmp "key logging is off after load" "$(cat /proc/sys/tipme/keylog)" = 0
start_tipmed
tap_cmp "tipmed is up" "$?" -eq 0

# 1. Ctrl-Alt-Minus while the machine is busy for two seconds.
busy_since=$(mono)
timeout 2.5 sh -c "while :; do :; done" &
busy=$!
"$B"/tests/vm/pingpong 2000 1 > /dev/null
wait "$busy"
press=$("$B"/tests/vm/vkbd ctrl+alt+minus | awk '/^press/ {print $3}')
if wait_for 2 incidents_at_least 1; then
	tap_ok "an incident exists within 2 s of the press"
else
	tap_fail "an incident exists within 2 s of the press"
fi
first=$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort | head -n 1)
tap_check "it holds kernel.dump and meta.json" test -s "$first/kernel.dump" -a -s "$first/meta.json"
tap_cmp "meta.json names the hotkey" "$(grep -c '"source": "hotkey"' "$first/meta.json")" = 1
tap_cmp "kernel.dump is root-only" "$(stat -c %a "$first/kernel.dump")" = 600
# its records checked on the host, after the guest (9 of this test's 90 s
# under TCG): a copy where the host sees it
cp "$first/kernel.dump" "$out/hotkey.dump"
tap_on_host tests/vm/host_check.sh --records "$out/hotkey.dump" "$out/hotkey.jsonl" \
	python3 tests/vm/check_trigger.py "$out/hotkey.jsonl" "$press" "$busy_since"

# 2. Key logging: off at load, and the keyboard cannot switch it on
# unless keylog_hotkey=1 allows it; then Ctrl-Alt-1 on, Ctrl-Alt-0 off.
# Every switch is a kernel log line.  klog_mark/klog_new: the kernel log
# lines since the mark.
klog_mark() { KLOG=$(dmesg | wc -l); }
klog_new() { dmesg | tail -n +$((KLOG + 1)); }
echo 0 > /proc/sys/tipme/trigger_interval_ms
klog_mark
"$B"/tests/vm/vkbd s e c ctrl+alt+1 k e y > /dev/null
tap_cmp "by default Ctrl-Alt-1 leaves key logging off" "$(cat /proc/sys/tipme/keylog)" = 0
tap_check "... and the kernel log says it was refused (keylog_hotkey=0)" \
	sh -c "dmesg | tail -n +$((KLOG + 1)) | grep -F 'key logging from the keyboard is not allowed (keylog_hotkey=0); Ctrl-Alt-1 refused'"
tap_cmp "... and never that key logging went on" "$(klog_new | grep -c 'key logging switched on')" = 0
echo 1 > /sys/module/tipme/parameters/keylog_hotkey
tap_check "allowing it (keylog_hotkey=1) is a kernel log line" \
	sh -c "dmesg | tail -n +$((KLOG + 1)) | grep -F 'Ctrl-Alt-1 can now switch key logging on (keylog_hotkey=1, set by uid 0)'"
# The right Alt (AltGr) makes no hotkey: neither key logging nor a trigger.
t0=$(cat /proc/sys/tipme/triggers)
"$B"/tests/vm/vkbd ctrl+altgr+1 ctrl+altgr+minus > /dev/null
tap_cmp "Ctrl-AltGr-1 is no hotkey: key logging stays off" "$(cat /proc/sys/tipme/keylog)" = 0
tap_cmp "Ctrl-AltGr-Minus is no hotkey: no trigger" "$(cat /proc/sys/tipme/triggers)" = "$t0"
klog_mark
"$B"/tests/vm/vkbd s e c ctrl+alt+1 k e y ctrl+alt+0 r e t > /dev/null
tap_cmp "Ctrl-Alt-0 leaves key logging off" "$(cat /proc/sys/tipme/keylog)" = 0
tap_check "the kernel log says key logging was switched on from the keyboard" \
	sh -c "dmesg | tail -n +$((KLOG + 1)) | grep -F 'key logging switched on from the keyboard (Ctrl-Alt-1)'"
tap_check "... and off again" \
	sh -c "dmesg | tail -n +$((KLOG + 1)) | grep -F 'key logging switched off from the keyboard (Ctrl-Alt-0)'"
echo 0 > /sys/module/tipme/parameters/keylog_hotkey
"$B"/tipme dump -o "$out/keys.dump" > /dev/null
# its key codes, keylog flag and redacted copy checked on the host, after
# the guest (tests/vm/keys_check.sh: six python3 and seven tipme runs,
# seconds each under TCG)
tap_on_host tests/vm/keys_check.sh

# 2b. Recording that root stopped stays stopped: Ctrl-Alt-= is refused
# (and logged) until root starts it again; each switch is logged with the
# way and the uid.
klog_mark
echo 0 > /proc/sys/tipme/enabled
"$B"/tests/vm/vkbd ctrl+alt+equal > /dev/null
tap_cmp "after a stop through sysctl Ctrl-Alt-= leaves recording off" "$(cat /proc/sys/tipme/enabled)" = 0
"$B"/tipme start > /dev/null
tap_cmp "tipme start starts it" "$(cat /proc/sys/tipme/enabled)" = 1
"$B"/tipme stop > /dev/null
"$B"/tests/vm/vkbd ctrl+alt+equal > /dev/null
tap_cmp "after tipme stop Ctrl-Alt-= leaves recording off" "$(cat /proc/sys/tipme/enabled)" = 0
echo 1 > /proc/sys/tipme/enabled
klog_new > "$out/klog-recording.txt"
sed 's/^/#   /' "$out/klog-recording.txt"
for line in 'recording stopped through /proc/sys/tipme/enabled by uid 0' \
	'recording was stopped through /proc/sys/tipme/enabled; Ctrl-Alt-= refused' \
	'recording started through netlink by uid 0' \
	'recording stopped through netlink by uid 0' \
	'recording was stopped through netlink; Ctrl-Alt-= refused' \
	'recording started through /proc/sys/tipme/enabled by uid 0'; do
	tap_cmp "the kernel log says: $line" "$(grep -cF "$line" "$out/klog-recording.txt")" = 1
done
tap_cmp "... in that order" "$(grep -oE 'recording (was )?[a-z]+ through [a-z/]+' "$out/klog-recording.txt" | tr '\n' ,)" \
	= "recording stopped through /proc/sys/tipme/enabled,recording was stopped through /proc/sys/tipme/enabled,recording started through netlink,recording stopped through netlink,recording was stopped through netlink,recording started through /proc/sys/tipme/enabled,"
echo 2000 > /proc/sys/tipme/trigger_interval_ms

# 3. A storm of 1,000 sysctl triggers: a handful of incidents, the first kept.
# At most one trigger per trigger_interval_ms (2 s) of the storm, and the
# first: a handful when the storm takes 10 s or less, more on a busy host
# (7 in 13 s seen with two other loads on the 2 CPUs).
before=$(n_incidents)
t0=$(cat /proc/sys/tipme/triggers)
s0=$(date +%s%N)
for i in $(seq 1000); do echo 1 > /proc/sys/tipme/trigger; done
s1=$(date +%s%N)
t1=$(cat /proc/sys/tipme/triggers)
new=$((t1 - t0))
storm_ms=$(((s1 - s0) / 1000000))
tap_diag "1000 writes in $storm_ms ms made $new triggers, $(cat /proc/sys/tipme/coalesced) coalesced in all"
tap_cmp "1,000 writes coalesce: at most one trigger per 2 s of the storm, and the first ($new in $storm_ms ms)" \
	"$new" -le $((storm_ms / 2000 + 1))
tap_cmp "... and at least one" "$new" -ge 1
wait_for 10 incidents_at_least $((before + new))
tap_cmp "every trigger of the storm became an incident" "$(n_incidents)" -eq $((before + new))

# 4. and 5. are tipmed's alone (its incident directories under SIGKILL
# and on a full disk), the same on every kernel: scripts/kernels.sh's
# guests (TIPME_VM_OTHER_KERNEL, tests/vm/vm.sh) leave them to the stock
# kernel's run of this test.
if [ -n "${TIPME_VM_OTHER_KERNEL:-}" ]; then
	tap_diag "4. and 5. (tipmed alone): on the stock kernel only"
else
	# 4. SIGKILL during a dump: nothing half-written is visible.  tipmed runs
	# in a cgroup throttled to 2% of a CPU, so an incident takes seconds to
	# write; it is killed once its hidden .tmp- directory exists.
	echo 0 > /proc/sys/tipme/trigger_interval_ms
	caught=0 clean=1
	kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/slow
	echo "2000 100000" > /sys/fs/cgroup/slow/cpu.max
	start_tipmed
	echo "$TIPMED" > /sys/fs/cgroup/slow/cgroup.procs
	before=$(n_incidents)
	echo 1 > /proc/sys/tipme/trigger
	if wait_for 20 has_tmp; then
		kill -9 "$TIPMED"
		wait "$TIPMED" 2>/dev/null
		has_tmp && caught=1
	else
		kill -9 "$TIPMED"
		wait "$TIPMED" 2>/dev/null
	fi
	[ "$(n_incidents)" -eq "$before" ] || clean=0
	for d in "$inc"/*/; do
		[ -s "$d/kernel.dump" ] && [ -s "$d/meta.json" ] || clean=0
	done
	tap_cmp "a SIGKILL caught tipmed in the middle of an incident" "$caught" -eq 1
	tap_cmp "no partial incident is ever visible" "$clean" -eq 1
	before=$(n_incidents)
	"$B"/tipme incidents -d "$inc" > "$out/list.txt"
	tap_cmp "tipme incidents lists only complete ones" "$(wc -l < "$out/list.txt")" -eq "$before"
	start_tipmed
	tap_cmp "the leftover is cleaned up at restart" "$(ls -a "$inc" | grep -c '^\.tmp-')" -eq 0
	echo 1 > /proc/sys/tipme/trigger
	wait_for 5 incidents_at_least $((before + 1))
	tap_cmp "the restarted tipmed handles the next trigger" "$(n_incidents)" -eq $((before + 1))
	echo 2000 > /proc/sys/tipme/trigger_interval_ms

	# 5. Full disk: a clear error, recording goes on, the next trigger works.
	kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
	mkdir -p /tmp/small
	tap_check "a 256 KiB tmpfs as the incident root" mount -t tmpfs -o size=256k tmpfs /tmp/small
	start_tipmed /tmp/small/inc
	echo 0 > /proc/sys/tipme/trigger_interval_ms
	echo 1 > /proc/sys/tipme/trigger
	wait_for 5 grep -q 'incident not saved.*No space left' "$out/tipmed.log"
	tap_cmp "disk full: tipmed logs a clear error" "$?" -eq 0
	tap_cmp "disk full: no incident, no leftover" "$(ls /tmp/small/inc | wc -l)" -eq 0
	tap_check "tipmed is still running" kill -0 "$TIPMED"
	tap_cmp "recording continues" "$(cat /proc/sys/tipme/enabled)" = 1
	mount -o remount,size=64m /tmp/small
	echo 1 > /proc/sys/tipme/trigger
	wait_for 5 incidents_at_least 1 /tmp/small/inc
	tap_cmp "after space is freed the next trigger succeeds" "$(ls /tmp/small/inc | wc -l)" -eq 1
	echo 2000 > /proc/sys/tipme/trigger_interval_ms
fi

# 6. Permissions: not root -> EPERM/EACCES; the socket needs the group.
echo 'tipme:x:990:' >> /etc/group
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
start_tipmed
asuser() { setpriv --reuid=1000 --regid=1000 --clear-groups "$@"; }
asmember() { setpriv --reuid=1000 --regid=1000 --groups=990 "$@"; }
asuser sh -c 'echo 1 > /proc/sys/tipme/trigger' 2>/dev/null
tap_cmp "non-root cannot trigger through sysctl" "$?" -ne 0
msg=$(asuser "$B"/tipme trigger --direct 2>&1)
tap_cmp "non-root cannot trigger through netlink (EPERM)" "$(echo "$msg" | grep -c 'not permitted')" -ge 1
tap_diag "$msg"
msg=$(asuser "$B"/tipme trigger --socket "$sock" 2>&1)
tap_cmp "non-member cannot use the control socket" "$(echo "$msg" | grep -ci 'permission denied')" -ge 1
tap_diag "$msg"
echo 0 > /proc/sys/tipme/trigger_interval_ms
msg=$(asmember "$B"/tipme trigger --socket "$sock" --reason "from a member" 2>&1)
tap_cmp "a tipme group member can trigger through the socket" "$(echo "$msg" | grep -c '^trigger [0-9]')" -eq 1
tap_diag "$msg"
# the reason given with the trigger is the incident's description (tipmed
# answers the trigger at once and writes the incident when the dump is in)
described() { grep -q -l -x "from a member" "$inc"/*/description.txt 2>/dev/null; }
wait_for 10 described
desc=$(grep -l -x "from a member" "$inc"/*/description.txt 2>/dev/null | head -n 1)
tap_cmp "the reason is the incident's description.txt" "$desc" != ""
tap_cmp "description.txt is root-only" "$(stat -c %a "$desc" 2>/dev/null)" = 600

kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
tap_check "rmmod" rmmod tipme
tap_diag "tipmed log:"; sed 's/^/#   /' "$out/tipmed.log"
tap_done
