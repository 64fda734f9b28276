#!/bin/bash
# make demo: build tipme, boot Debian's stock kernel in QEMU, show it at work.
#
#   scripts/demo.sh [--wayland]
#
# Host side only installs, builds and boots; everything the demo shows is in
# scripts/demo-guest.sh, which runs inside the VM.  Output files (dmesg,
# dumps) end up in build/demo/.  --wayland (make demo-wayland): a slow key
# press on a Wayland desktop instead, scripts/demo-wayland-guest.sh, its
# files in build/demo-wayland/.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
cd "$TIPME_ROOT"
guest=scripts/demo-guest.sh demo=demo
case ${1:-} in
'') ;;
--wayland) guest=scripts/demo-wayland-guest.sh demo=demo-wayland ;;
*) die "usage: scripts/demo.sh [--wayland]" ;;
esac

scripts/deps.sh
kver=$(tipme_kver) || die "no stock kernel with headers installed"

echo "== building tipme.ko for $kver"
make module KDIR="/lib/modules/$kver/build"
echo "== building the userspace programs"
make user || note "userspace programs did not build; the demo goes on with the module alone"

echo "== booting $kver in QEMU (TCG: about 6 s to boot)"
exec tests/vm/vm.sh --kver "$kver" --out "$TIPME_ROOT/build/$demo" "$guest"
