#!/bin/bash
# vm: timeout=1500
# Measurement, not a test (issue 31, item 2): a fork/exec storm at the
# module's default table sizes.  tests/vm/progs/churn forks and execs a
# tiny static program (built here: it only exits) up to N times, one
# after the other, for at most SECS seconds; every exec is an exec-table
# entry.  Reports the module's vmalloc'ed memory before and after, the
# kernel's slab and free memory, and what `tipme info` counts as lost.
#
#   tests/vm/vm.sh --timeout 1500 bench/vm/measure-storm.sh [N] [SECS]
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
n=${1:-100000}
secs=${2:-900}
out=$TIPME_OUT
vmalloc_bytes() { awk '/\[tipme\]/ { s += $2 } END { print s + 0 }' /proc/vmallocinfo; }
meminfo() { awk '/^(MemFree|Slab):/ { printf "%s %s kB ", $1, $2 }' /proc/meminfo; }

printf 'void _start(void)\n{\n\t__asm__ volatile("mov $60, %%eax\\n\\txor %%edi, %%edi\\n\\tsyscall");\n}\n' \
	> /tmp/exit0.c
cc -O2 -static -nostdlib -o /tmp/exit0 /tmp/exit0.c || exit 1
insmod module/tipme.ko || exit 1
for p in exec_table_size exec_strings site_table ustack_table xmaps_procs buffer_size; do
	[ -r /sys/module/tipme/parameters/$p ] &&
		echo "param $p=$(cat /sys/module/tipme/parameters/$p)"
done
echo "before: tipme vmalloc $(vmalloc_bytes) bytes; $(meminfo)"
"$B"/tests/vm/churn storm "$n" "$secs" /tmp/exit0 | tee "$out/storm.truth"
echo "after: tipme vmalloc $(vmalloc_bytes) bytes; $(meminfo)"
"$B"/tipme dump -o "$out/storm.dump" > /dev/null
"$B"/tipme info "$out/storm.dump" | tee "$out/storm.info"
ls -l "$out/storm.dump"
rmmod tipme
