#!/bin/bash
# vm: timeout=600
# Measurement, not a test (issue 29): how many walks of a process's
# executable mappings (module/instr/xmaps.c) a fork and exec load makes.
# Loads tipme.ko as its defaults have it (user chains on), runs
# bench/tracers/load.c's forkexec N times (default 200: /bin/true, each
# exec'd by a fresh child), dumps, and prints `tipme info`'s line of
# captured mappings: "... of P processes' executable mappings kept ...,
# W walks, ...".  Run as: tests/vm/vm.sh bench/vm/measure-walks.sh [N]
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
insmod module/tipme.ko buffer_size=16M || exit 1
"$B"/bench/tipme-tracer-load - forkexec "${1:-200}" > /dev/null
"$B"/tipme dump -o "$TIPME_OUT/walks.dump" > /dev/null || exit 1
"$B"/tipme info "$TIPME_OUT/walks.dump" | grep -E "^captured mappings"
rmmod tipme
