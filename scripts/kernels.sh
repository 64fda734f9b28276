#!/bin/bash
# Other kernels than the host's: fetch, build tipme.ko against, boot.
#
#   scripts/kernels.sh fetch SUITE     a root for Debian SUITE (trixie: 6.12)
#                                      under $TIPME_CACHE/kernels/SUITE-root,
#                                      with its kernel image, headers and
#                                      compiler; SUITE bookworm-rt: Debian
#                                      12's own PREEMPT_RT kernel image (the
#                                      host's rt headers and compiler build
#                                      for it)
#   scripts/kernels.sh --list          the kernel versions fetched, one a line
#   scripts/kernels.sh build SUITE|KVER
#                                      tipme.ko for that kernel, W=1 -Werror,
#                                      with the suite's own compiler (in its
#                                      root), into this clone's
#                                      build/kernels/SUITE-tree/ (`make
#                                      module KVER=KVER` comes here for a
#                                      kernel fetched this way); prints the
#                                      kernel version, then the module
#   scripts/kernels.sh test SUITE [PATTERN...]
#                                      fetch, build, then boot that kernel
#                                      in QEMU and run the VM tests that
#                                      matter per kernel (TAP)
#   scripts/kernels.sh check [SUITE...]
#                                      `test` for each suite (default: every
#                                      kernel make check covers: trixie sid
#                                      bookworm-rt), two at a time (one TCG
#                                      thread each on a 2-core machine); one
#                                      TAP stream, each result named by its
#                                      suite, in the order given
#
# A suite's root is made by debootstrap from Debian's archive (the only
# network this needs) and never touches the host's package database; it is
# made once per machine, under a lock, and shared by every clone (the
# cache: scripts/lib/common.sh).  Its kernel is booted with tests/vm/vm.sh
# --kroot; the guest runs the host's userland, so the userspace programs
# are the host's build/.  The module is built in a copy of the source tree
# that belongs to this clone (build/kernels/SUITE-tree, module sources only
# plus a link to build/), so the VM tests load module/tipme.ko there
# unchanged; logs are in build/kernels/ too.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

KDIR_CACHE=$TIPME_CACHE/kernels
# what belongs to this clone: the trees the module is built in, the logs
KBUILD=$TIPME_ROOT/build/kernels
MIRROR=${TIPME_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The VM tests each kernel runs: load and unload, ground truth of the
# scheduler records, triggers, the instrumentation of exec and locks.
PER_KERNEL=(t-load t-pingpong t-triggers t-instr-exec t-instr-lock)

usage() { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }

root_of() { echo "$KDIR_CACHE/$1-root"; }
kver_of() { ls -1 "$(root_of "$1")/lib/modules" 2>/dev/null | sort -V | tail -n 1; }

# Debian 12's PREEMPT_RT kernel: the image of the rt headers the host has
# (scripts/deps.sh installs them), unpacked with dpkg -x, never installed.
fetch_rt() {
	local root=$1 kver dir
	kver=$(cd /usr/src && ls -d linux-headers-*-rt-amd64 2> /dev/null | sort -V | tail -n 1)
	kver=${kver#linux-headers-}
	[ -n "$kver" ] || die "no PREEMPT_RT headers in /usr/src (run scripts/deps.sh)"
	note "fetching Debian 12's linux-image-$kver into $root (once)"
	rm -rf "$root"
	dir=$(mktemp -d)
	(cd "$dir" && apt-get download "linux-image-$kver" > "$KDIR_CACHE/bookworm-rt-download.log" 2>&1) ||
		{ rm -rf "$dir"; die "apt-get download linux-image-$kver failed (see $KDIR_CACHE/bookworm-rt-download.log)"; }
	mkdir -p "$root"
	dpkg -x "$dir"/linux-image-*.deb "$root"
	rm -rf "$dir"
	[ -e "$root/boot/vmlinuz-$kver" ] || die "linux-image-$kver has no /boot/vmlinuz-$kver"
	# what the package's postinst would do: the index modprobe reads
	depmod -b "$root" "$kver" || die "depmod for $kver failed"
	touch "$root/.complete"
}

# fetch SUITE: once per machine; concurrent callers (two clones) wait for
# the first one's root.
fetch() {
	local suite=$1 root
	root=$(root_of "$suite")
	[ -e "$root/.complete" ] && return 0
	mkdir -p "$KDIR_CACHE"
	exec 7>"$KDIR_CACHE/$suite.lock"
	flock 7
	if [ -e "$root/.complete" ]; then
		exec 7>&-
		return 0
	fi
	fetch_locked "$suite" "$root"
	exec 7>&-
}

fetch_locked() {
	local suite=$1 root=$2
	if [ "$suite" = bookworm-rt ]; then
		fetch_rt "$root"
		return
	fi
	command -v debootstrap > /dev/null || die "debootstrap not found (run scripts/deps.sh)"
	rm -rf "$root"
	note "fetching Debian $suite's kernel, headers and compiler into $root (once)"
	debootstrap --variant=minbase \
		--include=gcc,make,libc6-dev,libelf-dev,bc,flex,bison,kmod,perl,linux-headers-amd64,linux-image-amd64 \
		"$suite" "$root" "$MIRROR" > "$KDIR_CACHE/$suite-debootstrap.log" 2>&1 ||
		die "debootstrap $suite failed (see $KDIR_CACHE/$suite-debootstrap.log)"
	rm -rf "$root/var/cache/apt/archives"/*.deb
	touch "$root/.complete"
}

build() {
	local suite=$1 root kver tree src rel log
	root=$(root_of "$suite")
	kver=$(kver_of "$suite")
	[ -n "$kver" ] || die "no kernel in $root (scripts/kernels.sh fetch $suite)"
	tree=$KBUILD/$suite-tree
	log=$KBUILD/$suite-build.log
	# the sources inside the shared root, apart for each clone
	rel=src/$(tipme_clone_id)
	src=$root/$rel
	mkdir -p "$KBUILD"
	rm -rf "$src" "$tree"
	mkdir -p "$src/module" "$tree"
	cp -r "$TIPME_ROOT/Kbuild" "$TIPME_ROOT/include" "$src/"
	(cd "$TIPME_ROOT/module" && find . \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) -print0 |
		cpio -0pdm --quiet "$src/module")
	if [ -x "$root/usr/bin/make" ]; then
		# objtool reads /proc (its stack limit): a private mount of it
		unshare -m sh -c 'r=$1; shift; mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$root" \
			make -C "/usr/src/linux-headers-$kver" M="/$rel" W=1 KCFLAGS=-Werror modules \
			> "$log" 2>&1
	else	# an image only (bookworm-rt): the host's headers and compiler
		make -C "/usr/src/linux-headers-$kver" M="$src" W=1 KCFLAGS=-Werror modules \
			> "$log" 2>&1
	fi || { tail -n 30 "$log" >&2; rm -rf "$src"; die "tipme.ko does not build against $kver"; }
	# the source tree for the VM tests: everything but the module is the
	# host's (same paths inside the guest), the module is this kernel's
	(cd "$TIPME_ROOT" && tar --exclude=./.cache --exclude=./build --exclude=./.git \
		--exclude='./tests/vm/out' --exclude='*.o' --exclude='*.ko' -cf - .) | tar -xf - -C "$tree"
	ln -s "$TIPME_ROOT/build" "$tree/build"
	cp "$src/module/tipme.ko" "$tree/module/tipme.ko"
	rm -rf "$src"
	echo "$kver"
}

# The kernels `make check` covers besides the host's own 6.1.
CHECK_SUITES=(trixie sid bookworm-rt)
CHECK_JOBS=${TIPME_KERNEL_JOBS:-2}

# check SUITE...: `test` each, CHECK_JOBS at a time, then their results in
# order, each description prefixed with its suite.
check() {
	local suites=("$@") logs=() pids=() i running rc=0 n=0 line s
	[ ${#suites[@]} -gt 0 ] || suites=("${CHECK_SUITES[@]}")
	mkdir -p "$KBUILD"
	for i in "${!suites[@]}"; do
		# wait for a free slot
		while running=$(jobs -rp | wc -l) && [ "$running" -ge "$CHECK_JOBS" ]; do
			wait -n || true
		done
		logs[i]=$KBUILD/${suites[i]}-test.log
		echo "# $(date +%T) ${suites[i]}: started (log ${logs[i]#"$TIPME_ROOT"/})"
		# one guest at a time per kernel: the kernels run side by side
		TIPME_VM_JOBS=1 "$0" test "${suites[i]}" > "${logs[i]}" 2>&1 < /dev/null &
		pids[i]=$!
	done
	for i in "${!suites[@]}"; do
		if wait "${pids[i]}"; then s=0; else s=$?; rc=1; fi
		echo "# ---- ${suites[i]}: exit status $s"
		while IFS= read -r line; do
			if [[ $line =~ ^(not\ )?ok\ [0-9]+\ -\ (.*)$ ]]; then
				n=$((n + 1))
				echo "${BASH_REMATCH[1]}ok $n - ${suites[i]}: ${BASH_REMATCH[2]}"
			elif [[ $line == "#"* ]]; then
				echo "$line"
			fi
		done < "${logs[i]}"
		if [ "$s" != 0 ] && ! grep -q '^not ok' "${logs[i]}"; then
			n=$((n + 1))
			echo "not ok $n - ${suites[i]}: exit status $s before any failed test"
			tail -n 20 "${logs[i]}" | sed 's/^/#   /'
		fi
	done
	echo "1..$n"
	return "$rc"
}

case ${1:-} in
check)
	shift
	check "$@"
	;;
--list)
	for r in "$KDIR_CACHE"/*-root; do
		[ -e "$r/.complete" ] && ls -1 "$r/lib/modules"
	done 2> /dev/null | sort -V
	;;
fetch)
	[ $# -eq 2 ] || usage
	fetch "$2"
	kver_of "$2"
	;;
build)
	[ $# -eq 2 ] || usage
	suite=$2
	if [ ! -d "$(root_of "$suite")" ]; then	# a kernel version: its suite
		suite=
		for r in "$KDIR_CACHE"/*-root; do
			[ -e "$r/.complete" ] && [ -d "$r/lib/modules/$2" ] && suite=$(basename "$r" -root)
		done
		[ -n "$suite" ] || die "nothing fetched for $2: scripts/kernels.sh fetch SUITE first (--list: the kernels fetched)"
	fi
	build "$suite"
	echo "$KBUILD/$suite-tree/module/tipme.ko"
	;;
test)
	[ $# -ge 2 ] || usage
	suite=$2
	shift 2
	fetch "$suite"
	kver=$(build "$suite")
	pats=("$@")
	[ ${#pats[@]} -gt 0 ] || pats=("${PER_KERNEL[@]}")
	echo "# tipme.ko built against $kver (W=1 -Werror, $suite's compiler)"
	VM_ARGS="--kroot $(root_of "$suite") --kver $kver" \
		"$KBUILD/$suite-tree/tests/vm/run.sh" "${pats[@]}"
	;;
*)
	usage
	;;
esac
