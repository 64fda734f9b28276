#!/bin/bash
# vm: timeout=300 cpu=qemu64,+invtsc,vendor=GenuineIntel share
# Incidents are kept in creation order, whatever the wall clock does, and
# a full disk makes room for the newest.  1. With --keep 3, four triggers
# of which the last two come after the clock was set back a day (so their
# names sort first): the one pruned is the first created.  A restarted
# tipmed numbers on.  2. On a tmpfs that holds two incidents and a half,
# the third trigger removes the oldest incident, says so, and is saved.
# 3. tipmed makes the new incident's checkpoint file (tipme index).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
sock=/tmp/tipmed.sock
n_in() { find "$1" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | wc -l; }
at_least() { [ "$(n_in "$2")" -ge "$1" ]; }
logged() { grep -q "$1" "$TIPME_OUT/tipmed.log"; }	# (tap_check has its own $out)
numbers() {	# the incidents' numbers, in name order
	for d in $(find "$1" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort); do
		sed -n 's/^  "number": \([0-9]*\),$/\1/p' "$d/meta.json"
	done | tr '\n' ' '
}
start_tipmed() {	# ROOT [OPTIONS]: ready once connected
	local root=$1 n
	shift
	n=$(grep -c 'connected to tipme.ko' "$out/tipmed.log" 2>/dev/null)
	"$B"/tipmed -d "$root" -s "$sock" "$@" >> "$out/tipmed.log" 2>&1 &
	TIPMED=$!
	wait_for 10 sh -c "[ \$(grep -c 'connected to tipme.ko' '$out/tipmed.log') -gt ${n:-0} ]"
}
trigger() {	# ROOT: one trigger, wait for its incident
	local before
	before=$(grep -c 'trigger [0-9]* (sysctl): incident ' "$out/tipmed.log")
	echo 1 > /proc/sys/tipme/trigger
	wait_for 30 sh -c "[ \$(grep -c 'trigger [0-9]* (sysctl): incident ' '$out/tipmed.log') -gt $before ]"
}

tap_check "insmod" insmod module/tipme.ko buffer_size=1M || tap_done
echo 0 > /proc/sys/tipme/trigger_interval_ms
inc=/tmp/incidents
start_tipmed "$inc" --keep 3
tap_cmp "tipmed is up" "$?" -eq 0
trigger "$inc"; trigger "$inc"
first=$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort | head -n 1)
date -s "@$(( $(date +%s) - 86400 ))" > /dev/null
trigger "$inc"; trigger "$inc"
tap_diag "incidents by name: $(ls "$inc" | tr '\n' ' ')"
tap_cmp "--keep 3 kept three" "$(n_in "$inc")" -eq 3
tap_cmp "the one pruned is the first created, not the newest (names sort the other way)" \
	"$(test -e "$first" && echo kept || echo pruned)" = pruned
tap_cmp "the kept ones are numbers 2 3 4 (by name: 3 4 2)" "$(numbers "$inc")" = "3 4 2 "
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
start_tipmed "$inc" --keep 3
trigger "$inc"
tap_cmp "a restarted tipmed numbers on: 5" "$(numbers "$inc" | tr ' ' '\n' | sort -n | tail -n 1)" = 5
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
date -s "@$(( $(date +%s) + 86400 ))" > /dev/null

# 2. A full disk.  How big is one incident here?
size=$(du -sk "$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | head -n 1)" | cut -f1)
mkdir -p /tmp/small
tap_check "a tmpfs for two incidents and a half ($((size * 5 / 2)) KiB)" \
	mount -t tmpfs -o size=$((size * 5 / 2))k tmpfs /tmp/small
start_tipmed /tmp/small/inc
trigger /tmp/small/inc; trigger /tmp/small/inc
two=$(find /tmp/small/inc -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sort)
tap_cmp "two incidents fit" "$(n_in /tmp/small/inc)" -eq 2
trigger /tmp/small/inc
tap_check "the third one made room: tipmed says so" logged 'disk full: removed incident'
tap_check "... and saved it" logged 'disk full: pruned 1 incidents to make room; the new incident fits'
oldest=$(printf '%s\n' "$two" | head -n 1)
tap_cmp "the oldest went" "$(test -e "$oldest" && echo kept || echo removed)" = removed
tap_cmp "two incidents, the newest two" "$(n_in /tmp/small/inc)" -eq 2
tap_cmp "nothing half-written is left" "$(ls -a /tmp/small/inc | grep -c '^\.tmp-')" -eq 0
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
umount /tmp/small

# 3. The checkpoints made after the incident (--index-min-mib 0: whatever
# the dump's size): tipmed runs tipme index at idle priority, says so,
# and the file is there; tipme index finds it kept; a report reads it and
# prints what it prints without it.
start_tipmed /tmp/inc3 --index-min-mib 0
trigger /tmp/inc3
name=$(grep -o 'trigger [0-9]* (sysctl): incident [^,]*' "$out/tipmed.log" | tail -n 1 | sed 's/.* incident //')
wait_for 60 logged "indexed /tmp/inc3/$name in "
tap_check "tipmed indexed incident $name: it says so" logged "indexed /tmp/inc3/$name in "
tap_check "... its kernel.dump.ckpt is there" test -s "/tmp/inc3/$name/kernel.dump.ckpt"
"$B"/tipme index --json "/tmp/inc3/$name" > /tmp/index.json
tap_check "tipme index: already kept ($(cat /tmp/index.json))" grep -q '"made":false' /tmp/index.json
"$B"/tipme report --json "/tmp/inc3/$name" > /tmp/with.json
TIPME_CKPT_FILE=0 "$B"/tipme report --json "/tmp/inc3/$name" > /tmp/without.json
tap_check "tipme report with the file prints what it prints without it" cmp /tmp/with.json /tmp/without.json
kill "$TIPMED"; wait "$TIPMED" 2>/dev/null
tap_check "rmmod" rmmod tipme
tap_done
