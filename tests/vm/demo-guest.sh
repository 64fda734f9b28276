#!/bin/bash
# vm: timeout=180
# The demo, inside the VM (started by tests/demo.sh).  Plain commands in
# order; each section prints what it shows.  Files land in $TIPME_OUT
# (build/demo/ on the host).
set -uo pipefail
ko=$TIPME_SRC/module/tipme.ko
bin=$TIPME_SRC/build
section() { printf '\n== %s\n' "$*"; }
# newlog [PATTERN]: kernel messages since the last call (matching PATTERN).
since=$(dmesg | wc -l)
newlog() {
	local all
	all=$(dmesg)
	printf '%s\n' "$all" | tail -n +"$((since + 1))" | grep -i -- "${1:-.}"
	since=$(printf '%s\n' "$all" | wc -l)
}

section "guest: $(uname -r), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

section "load tipme.ko"
insmod "$ko" || { newlog; exit 1; }
newlog tipme
[ -x "$bin/tipme" ] && "$bin/tipme" status 2>&1 | sed 's/^/  /'

section "workload: 2 s of one CPU spinning and a pipe ping-pong"
timeout 2 sh -c 'while :; do :; done' &
timeout 2 sh -c 'while :; do echo x; done' | cat >/dev/null
wait

section "unload tipme.ko: what it counted"
rmmod tipme
newlog tipme
