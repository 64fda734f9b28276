#!/bin/bash
# vm: timeout=300 mem=4096 append=possible_cpus=4096
# A machine with 4096 possible CPUs (the kernel's possible_cpus=, two of
# them online): tipme.ko loads, STATUS names every possible CPU (a dump of
# several messages; in one message it is refused, as a nest that long would
# wrap its 16-bit length), `tipme status --json` and a dump's `tipme info
# --json` list them all, and the sampler's rounds go on; the same with
# one pool for the machine (pool=1).  The ground truth
# is the kernel's /sys/devices/system/cpu/possible.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

possible=$(cat /sys/devices/system/cpu/possible)
tap_diag "possible CPUs: $possible, online: $(cat /sys/devices/system/cpu/online)"
tap_check "the kernel has 4096 possible CPUs" test "$possible" = "0-4095"
# With its defaults: 64M is 16 KiB a possible CPU, less than two default
# sub-buffers of 16 KiB, so the module lowers the sub-buffer to 8 KiB and
# says so, rather than refusing to load
tap_check "insmod with the defaults" insmod module/tipme.ko || tap_done
tap_cmp "the sub-buffer was lowered to two a CPU" \
	"$(cat /sys/module/tipme/parameters/subbuf_size)" -eq 8192
tap_check "the kernel log says so" \
	sh -c "dmesg | grep -q 'subbuf_size=16384 leaves fewer than 2 sub-buffers per CPU for 4096 CPUs: using 8192'"

python3 tests/vm/manycpus.py netlink "$possible" > "$out/netlink.tap" 2>&1
tap_merge "$out/netlink.tap"

if tap_check "tipme status --json" sh -c "'$B/tipme' status --json > '$out/status.json'"; then
	python3 tests/vm/manycpus.py status "$out/status.json" "$possible" > "$out/status.tap" 2>&1
	tap_merge "$out/status.tap"
fi
"$B"/tipme status > "$out/status.txt" 2>&1
tap_cmp "tipme status prints a row per possible CPU" \
	"$(grep -cE '^ *[0-9]+ +[0-9]+ ' "$out/status.txt")" -eq 4096

tap_check "tipme dump" "$B"/tipme dump -o "$out/many.dump"
if tap_check "tipme info --json" sh -c "'$B/tipme' info --json '$out/many.dump' > '$out/info.json'"; then
	python3 tests/vm/manycpus.py info "$out/info.json" "$possible" > "$out/info.tap" 2>&1
	tap_merge "$out/info.tap"
fi
n=$("$B"/tipme records --type sample_end "$out/many.dump" | grep -c 'sample_end')
tap_cmp "the sampler's rounds went on ($n sample_end records)" "$n" -gt 0
tap_check "rmmod" rmmod tipme

# The same with one pool for the machine (pool=1): each possible CPU's ring
# draws from it, so the pool needs four sub-buffers a possible CPU; the
# module lowers the sub-buffer to 4 KiB (64M over 4096 CPUs is 16 KiB
# each), and STATUS and the dump name every possible CPU as above
tap_check "insmod pool=1" insmod module/tipme.ko pool=1 || tap_done
tap_cmp "pool=1: the sub-buffer was lowered to four a CPU" \
	"$(cat /sys/module/tipme/parameters/subbuf_size)" -eq 4096
if tap_check "pool=1: tipme status --json" sh -c "'$B/tipme' status --json > '$out/pool-status.json'"; then
	python3 tests/vm/manycpus.py status "$out/pool-status.json" "$possible" > "$out/pool-status.tap" 2>&1
	tap_merge "$out/pool-status.tap"
fi
"$B"/tests/vm/pingpong 2000 1 > /dev/null
tap_check "pool=1: tipme dump" "$B"/tipme dump -o "$out/pool.dump"
if tap_check "pool=1: tipme info --json" sh -c "'$B/tipme' info --json '$out/pool.dump' > '$out/pool-info.json'"; then
	python3 tests/vm/manycpus.py info "$out/pool-info.json" "$possible" > "$out/pool-info.tap" 2>&1
	tap_merge "$out/pool-info.tap"
fi
n=$("$B"/tipme records --cpu 1 --type sched_switch "$out/pool.dump" | grep -c sched_switch)
tap_cmp "pool=1: the ping-pong on CPU 1 is in the dump ($n switches for 2000 rounds)" "$n" -ge 4000
tap_check "rmmod" rmmod tipme
tap_done
