#!/bin/bash
# vm: timeout=120 share
# Load tipme.ko, keep the machine busy for a second, unload, and check the
# module counted context switches and the kernel log stayed clean.
# Runs inside the guest (tests/vm/vm.sh); prints TAP.
. "$TIPME_SRC/tests/lib/tap.sh"

ko=$TIPME_SRC/module/tipme.ko
if [ ! -r "$ko" ]; then
	tap_fail "module built" "$ko missing: run 'make module' first"
	tap_done
fi
before=$(dmesg | wc -l)

if ! tap_check "insmod tipme.ko" insmod "$ko"; then
	dmesg | tail -n +"$((before + 1))" | sed 's/^/# dmesg: /'
	tap_done
fi
tap_check "tipme is listed in /proc/modules" grep -q '^tipme ' /proc/modules

# A second of work: one CPU spinning, the other ping-ponging through a pipe.
timeout 1 sh -c 'while :; do :; done' &
timeout 1 sh -c 'while :; do echo x; done' | cat >/dev/null
wait

tap_check "rmmod tipme" rmmod tipme
log=$(dmesg | tail -n +"$((before + 1))")
printf '%s\n' "$log" | sed 's/^/# dmesg: /'

n=$(printf '%s\n' "$log" | grep -oE 'sched_switch records: [0-9]+' | tail -n 1 | grep -oE '[0-9]+$')
if [ -z "$n" ]; then
	tap_fail "unload message reports 'sched_switch records: N'"
else
	tap_ok "unload message reports 'sched_switch records: N'"
	tap_cmp "sched_switch records > 0 (got $n)" "$n" -gt 0
fi
bad=$(printf '%s\n' "$log" | grep -E 'WARNING|BUG|Oops|Call Trace|general protection')
if [ -z "$bad" ]; then tap_ok "no WARNING/BUG/Oops in dmesg"; else tap_fail "no WARNING/BUG/Oops in dmesg" "$bad"; fi
tap_done
