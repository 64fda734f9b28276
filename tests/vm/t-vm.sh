#!/bin/bash
# vm: share
# The VM harness itself: the environment a guest test can rely on.
# Runs inside the guest (tests/vm/vm.sh); prints TAP.
. "$TIPME_SRC/tests/lib/tap.sh"

tap_cmp "guest runs KVER ($KVER)" "$(uname -r)" = "$KVER"
tap_cmp "running as root" "$(id -u)" -eq 0
tap_cmp "cwd is TIPME_SRC" "$(pwd -P)" = "$(cd "$TIPME_SRC" && pwd -P)"
tap_check "repository visible at the host path" test -r "$TIPME_SRC/include/uapi/linux/tipme.h"
tap_check "TIPME_OUT writable" sh -c 'echo hello >"$TIPME_OUT/t-vm.txt"'
tap_check "/tmp writable" sh -c 't=$(mktemp) && echo x >"$t" && rm "$t"'
tap_check "root fs writable (overlay)" sh -c 'echo x >/etc/tipme-vm-test && rm /etc/tipme-vm-test'
tap_check "host userland works (python3)" python3 -V
tap_check "kmod present" sh -c 'command -v insmod && command -v rmmod'
tap_check "modules of KVER visible" test -d "/lib/modules/$KVER/kernel"
tap_check "tracefs mounted" test -e /sys/kernel/tracing/trace
ncpu=$(grep -c ^processor /proc/cpuinfo)
tap_cmp "guest sees at least 1 CPU ($ncpu)" "$ncpu" -ge 1
mem_kb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)
tap_cmp "guest has memory ($((mem_kb / 1024)) MB)" "$mem_kb" -gt 100000

# What the recorder's clock choice depends on: reported, not asserted.
flags=$(grep -m1 '^flags' /proc/cpuinfo)
for f in tsc constant_tsc nonstop_tsc tsc_known_freq rdtscp; do
	case " $flags " in *" $f "*) tap_diag "cpu flag $f: yes" ;; *) tap_diag "cpu flag $f: no" ;; esac
done
tap_diag "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
tap_diag "model: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2-)"
dmesg | grep -iE 'tsc|clocksource' | sed 's/^/dmesg: /' | while read -r l; do tap_diag "$l"; done
tap_done
