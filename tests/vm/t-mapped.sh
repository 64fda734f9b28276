#!/bin/bash
# vm: timeout=240 share
# Mapped dumps: /dev/tipme maps the rings read-only and the dump writes
# them from the mapping.  The device refuses what it must (ringdev.py);
# a stopped recorder dumped mapped and copied (no device: the fallback)
# gives the same records, which hold a ping-pong the test ran; dumps
# taken while every CPU floods a small ring keep each CPU's records in
# time order (a copy writers overtook was taken back, not kept); and a
# mapping holds the module.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

flood() { # PAIRS: a ping-pong on every CPU, each ring wrapped many times
	local cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		"$B"/tests/vm/pingpong "$1" "$cpu" > /dev/null &
	done
	wait
}
read_mode() { # JSON of tipme dump: how it read the rings
	python3 tests/lib/jsonq.py get "$1" read
}

tap_check "insmod a small ring (64 x 4 KiB per CPU)" \
	insmod module/tipme.ko buffer_size=$((256 * $(nproc)))K subbuf_size=4096 || tap_done
"$B"/tipme status --json > "$out/status.json"
subbuf=$(python3 tests/lib/jsonq.py get "$out/status.json" subbuf_bytes)
subbufs=$(python3 tests/lib/jsonq.py get "$out/status.json" subbufs_per_cpu)
ring=$((${subbuf:-0} * ${subbufs:-0}))
tap_cmp "each CPU's ring is 64 x 4 KiB" "$ring" -eq $((64 * 4096))
tap_cmp "/dev/tipme exists" "$(stat -c %F /dev/tipme 2>&1)" = "character special file"
python3 tests/vm/ringdev.py "$ring" > "$out/ringdev.tap" 2>&1
tap_merge "$out/ringdev.tap"

# 1. The same records, mapped and copied.
truth=$("$B"/tests/vm/pingpong 50 0)
parent=$(sed -n 's/.*parent=\([0-9]*\).*/\1/p' <<<"$truth")
"$B"/tipme stop > /dev/null
tap_check "mapped dump" sh -c "'$B/tipme' dump --json -o '$out/mapped.dump' > '$out/mapped.json'"
tap_cmp "it read the rings from the mapping" "$(read_mode "$out/mapped.json")" = mapped
mv /dev/tipme /dev/tipme.off
tap_check "dump without the device" sh -c "'$B/tipme' dump --json -o '$out/copied.dump' > '$out/copied.json'"
mv /dev/tipme.off /dev/tipme
tap_cmp "it fell back to copies in netlink messages" "$(read_mode "$out/copied.json")" = copied
"$B"/tipme records --json "$out/mapped.dump" > "$out/mapped.rec"
"$B"/tipme records --json "$out/copied.dump" > "$out/copied.rec"
tap_check "both hold the same records" cmp "$out/mapped.rec" "$out/copied.rec"
n=$(grep -c "\"type\":\"sched_switch\".*\"prev_pid\":$parent," "$out/mapped.rec")
tap_cmp "the ping-pong's parent is in them ($n switches out)" "$n" -ge 40

# 2. Dumps racing writers that wrap the rings, the dumper at nice 19 so
# that they overtake it: what it keeps is intact (the numbers of kept and
# overtaken sub-buffers are reported, not promised).
"$B"/tipme start > /dev/null
flood 20000 &
fl=$!
for i in 1 2 3; do
	nice -n 19 "$B"/tipme dump --json -o "$out/race$i.dump" > "$out/race$i.json" ||
		tap_fail "dump $i while the rings wrap"
done
wait "$fl"
for i in 1 2 3; do
	tap_on_host tests/vm/host_check.sh \
		python3 tests/vm/check_race.py "$B" "$out/race$i.dump" "$out/race$i.json"
done

# 3. A mapping holds the module.
python3 tests/vm/maphold.py < <(sleep 30) > "$out/holder.out" &
holder=$!
wait_for 20 grep -q mapped "$out/holder.out"
rmmod tipme 2> /dev/null
tap_cmp "rmmod fails while a mapping is held" "$?" -ne 0
kill "$holder"
wait "$holder" 2> /dev/null
tap_check "rmmod once it is gone" rmmod tipme
dmesg | grep -E "WARNING|BUG|Oops" > "$out/warn.txt"
tap_cmp "no warning in the kernel log" "$(wc -l < "$out/warn.txt")" -eq 0
tap_done
