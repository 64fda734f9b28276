#!/bin/bash
# Install what tipme's build, tests and demo need on Debian 12 (bookworm).
#
#   scripts/deps.sh          install what is missing (fast no-op otherwise)
#   scripts/deps.sh --check  only report what is missing; exit 1 if anything is
#   scripts/deps.sh --bench  also the tracers `make bench` compares tipme with
#                            (perf, bpftrace, lttng-tools; lttng's modules
#                            and QEMU's plugin header are fetched into
#                            $TIPME_CACHE/bench/, scripts/lib/common.sh)
#
# Runs apt-get update only when something is missing.  Needs root (or sudo).
# Also checks that the stock kernel image and headers have the same ABI, as
# the VM tests boot the image and load a module built against the headers.
set -euo pipefail

PKGS=(
	# toolchain
	gcc libc6-dev make git perl python3 pkg-config xz-utils
	# the unit tests' C++ fixture (test_usym.c: demangled names); its
	# libstdc++6 gives tipme __cxa_demangle at run time (dlopen)
	g++
	# the module, against the stock and the PREEMPT_RT kernels
	linux-headers-amd64 linux-headers-rt-amd64 libelf-dev libssl-dev sparse
	# VM tests: the stock kernel booted in QEMU with a busybox initramfs
	linux-image-amd64 qemu-system-x86 busybox-static kmod cpio
	# VM tests' tools from the host userland: dm-delay for the paging
	# benchmark's disk-speed swap (t-bench) and the stacked devices of
	# t-stack, with dm-crypt (cryptsetup-bin: LUKS2) and a loop device
	# (losetup, util-linux); setpriv (util-linux); and t-catalogue's LVM
	# and md RAID1
	dmsetup cryptsetup-bin util-linux lvm2 mdadm
	# KUnit in User Mode Linux and checkpatch, from the kernel's sources
	linux-source-6.1 flex bison bc
	# userspace: netlink, X11 recorder
	libnl-3-dev libnl-genl-3-dev
	# the postmortem's user-space symbols (elfutils' libdwfl, libdw,
	# libelf; libdebuginfod.so.1 is loaded at run time when
	# DEBUGINFOD_URLS is set), and strip/objcopy for their unit test's
	# stripped fixtures and debug files, which debuginfod serves to it
	libdw-dev libdebuginfod1 binutils debuginfod
	# the compressed Perfetto export (zlib; libdw-dev brings it too)
	zlib1g-dev
	# VM tests' display program (t-drm: page flips on a KMS device, and
	# vgem's fences), built with libdrm's headers and library
	libdrm-dev
	libxcb1-dev libxcb-record0-dev libxcb-res0-dev libxcb-xtest0-dev
	# X11 tests (x11-utils: xprop, xdpyinfo; only recommended by xterm)
	# (x11-xkb-utils: setxkbmap, for the QWERTZ hotkey test; xvfb pulls it)
	xvfb xdotool xterm x11-apps x11-utils x11-xkb-utils
	# ... and a real Xorg on a KMS device in QEMU (t-xorg): its built-in
	# modesetting driver page-flips with glamor, on Mesa's softpipe; its
	# keyboard a uinput device that the libinput driver reads
	xserver-xorg-core xserver-xorg-input-libinput libgl1-mesa-dri
	# ... and under Xwayland: sway's headless backend as the Wayland
	# compositor, wtype as its keyboard, xhost to let root's clients in
	sway xwayland wtype x11-xserver-utils
	# ... and on a KMS device in QEMU (t-wayland): sway's DRM backend with
	# seatd, libinput's devices from udev, a client of our own built with
	# libwayland and wayland-protocols' XML (wayland-scanner), foot;
	# weston's DRM backend as the second compositor (t-weston)
	seatd udev libwayland-dev wayland-protocols foot weston
	# tipme timeline's test renders its SVG with a real renderer
	librsvg2-bin
	# the man pages' test renders them (groff), and runs the completion
	groff-base bash
	# other Debian suites' kernels and compilers, in roots of their own
	# (scripts/kernels.sh), never in this machine's package database
	debootstrap
	# make deb and its checks (scripts/deb.sh): debhelper, DKMS, lintian
	debhelper dh-dkms dkms lintian
	# fuzzing: clang with libFuzzer and the sanitizer runtimes
	clang-14 libclang-rt-14-dev
	# make check compiles through it, its cache shared by every clone
	# (scripts/lib/common.sh tipme_ccache)
	ccache
)

check_only=0
for arg in "$@"; do
	case $arg in
	--check) check_only=1 ;;
	--bench) PKGS+=(linux-perf bpftrace lttng-tools) ;;
	*) echo "usage: $0 [--check] [--bench]" >&2; exit 2 ;;
	esac
done

missing() {
	local have
	have=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PKGS[@]}" 2>/dev/null |
		awk '$2 == "installed" { print $1 }' || true)
	printf '%s\n' "${PKGS[@]}" | grep -vxF -f <(printf '%s\n' "$have") || true
}

mapfile -t todo < <(missing)
if [ ${#todo[@]} -gt 0 ]; then
	echo "deps.sh: missing: ${todo[*]}" >&2
	[ "$check_only" = 0 ] || exit 1
	sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "deps.sh: not root and no sudo: install the packages above" >&2; exit 1; }
		sudo="sudo -n"
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt_opts=(-o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)
	$sudo apt-get "${apt_opts[@]}" update -q
	$sudo apt-get "${apt_opts[@]}" install -y -q --no-install-recommends "${todo[@]}"
	mapfile -t still < <(missing)
	if [ ${#still[@]} -gt 0 ]; then
		echo "deps.sh: still missing after apt-get install: ${still[*]}" >&2
		exit 1
	fi
fi

# The image and the headers the meta-packages point to must be one ABI.
abi() { # meta-package prefix: "linux-image-6.1.0-56-amd64 (= 6.1.192-2)" -> "6.1.0-56-amd64"
	dpkg-query -W -f='${Depends}' "$1" | tr ',|' '\n\n' |
		sed -n "s/^ *$2-\([0-9][^ ]*\).*/\1/p" | head -n 1
}
img=$(abi linux-image-amd64 linux-image)
hdr=$(abi linux-headers-amd64 linux-headers)
if [ -z "$img" ] || [ "$img" != "$hdr" ]; then
	echo "deps.sh: linux-image-amd64 ($img) and linux-headers-amd64 ($hdr) are different kernels:" >&2
	echo "deps.sh: run 'apt-get update && apt-get install linux-image-amd64 linux-headers-amd64'" >&2
	exit 1
fi
for f in "/boot/vmlinuz-$img" "/lib/modules/$img/build/Makefile" "/lib/modules/$img/modules.dep"; do
	[ -e "$f" ] || { echo "deps.sh: $f missing (kernel $img incompletely installed)" >&2; exit 1; }
done
# The VM's initramfs copies 9p and virtio modules from the image; QEMU reads
# /boot/vmlinuz-* as the user running the tests.
[ -r "/boot/vmlinuz-$img" ] || { echo "deps.sh: /boot/vmlinuz-$img is not readable by $(id -un)" >&2; exit 1; }
echo "deps.sh: all ${#PKGS[@]} packages present; kernel $img (image and headers)"
