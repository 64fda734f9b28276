#!/bin/bash
# make demo: build tipme, boot Debian's stock kernel in QEMU, show it at work.
#
# Host side only installs, builds and boots; everything the demo shows is in
# scripts/demo-guest.sh, which runs inside the VM.  Output files (dmesg,
# dumps) end up in build/demo/.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
cd "$TIPME_ROOT"

scripts/deps.sh
kver=$(tipme_kver) || die "no stock kernel with headers installed"

echo "== building tipme.ko for $kver"
make module KDIR="/lib/modules/$kver/build"
echo "== building the userspace programs"
make user || note "userspace programs did not build; the demo goes on with the module alone"

echo "== booting $kver in QEMU (TCG: about 6 s to boot)"
exec tests/vm/vm.sh --kver "$kver" --out "$TIPME_ROOT/build/demo" scripts/demo-guest.sh
