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
#   scripts/kernels.sh keep SUITE KVER KO
#                                      KO (built by make check's module-rt
#                                      step) into the cache as build's
#                                      own for SUITE (bookworm-rt)
#   scripts/kernels.sh check [SUITE...]
#                                      `test` for each suite (default: every
#                                      kernel make check covers: trixie sid
#                                      bookworm-rt): the fetches and builds
#                                      first, then every suite's VM tests
#                                      in one queue, longest first, one
#                                      guest per CPU at a time (one TCG
#                                      thread each: two on a 2-core
#                                      machine; TIPME_KERNEL_JOBS; with
#                                      TIPME_VM_POOL, a slot of that pool
#                                      each: make check runs the VM tests
#                                      in the same pool at the same time,
#                                      scripts/lib/common.sh); one TAP stream,
#                                      each result named by its suite, in
#                                      the order given
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
# The VM tests each kernel runs, by exact name: ground truth of the
# scheduler records on the default clock and on the TSC (each loads and
# unloads the module, and every guest's kernel log is checked), triggers
# (the netlink family, sysctl and input handler that module/compat.h
# adapts), the instrumentation of exec and locks (the exit, clone and
# lock-owner layouts compat.h knows).  t-load is not among them: its
# load, unload and "sched_switch records > 0" are what t-pingpong does
# first, with ground truth; it was 15-22 s of guest time per kernel.
PER_KERNEL=(t-pingpong t-pingpong-tsc t-triggers t-instr-exec t-instr-lock)

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

# ko_key SUITE KVER SRC: what tipme.ko built against KVER in SUITE is made
# of: the sources copied to SRC (every file, by content), the packages that
# build it (the kernel's headers and kbuild, the compiler, binutils, libelf,
# pahole: in the suite's root, or the host's for bookworm-rt), the flags.
ko_key() {
	local admin=/var/lib/dpkg root
	root=$(root_of "$1")
	[ ! -x "$root/usr/bin/make" ] || admin=$root/var/lib/dpkg
	{
		echo "$1 $2 W=1 KCFLAGS=-Werror modules"
		dpkg-query --admindir="$admin" -W -f '${Package} ${Version}\n' "linux-headers-$2" \
			'linux-headers-*-common*' 'linux-kbuild-*' 'gcc-*' 'binutils*' 'libelf*' dwarves \
			2>/dev/null | sort || true
		(cd "$3" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	} | sha256sum | cut -c1-16
}

# The modules built for the other kernels are kept in the cache
# ($TIPME_CACHE/kernels/ko/SUITE-KEY.ko, KEY: ko_key), so that another
# clone of the same sources (the warm make check) copies them instead of
# building them again (50 s of the step's 257 s); any change to a source,
# a header package or the compiler makes a new key, which builds.  The
# newest four of each suite are kept.
KO_CACHE=$KDIR_CACHE/ko

# copy_sources DIR: what tipme.ko is built from, into DIR (ko_key's SRC).
copy_sources() {
	mkdir -p "$1/module"
	cp -r "$TIPME_ROOT/Kbuild" "$TIPME_ROOT/include" "$1/"
	(cd "$TIPME_ROOT/module" && find . \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) -print0 |
		cpio -0pdm --quiet "$1/module")
}

# keep SUITE KVER KO: KO, a tipme.ko built from this clone's sources
# against KVER with the flags and compiler build() uses, into the cache
# under build()'s key, unless an entry is there.  make check's module-rt
# step builds Debian 12's PREEMPT_RT module with the host's rt headers
# and compiler, as build bookworm-rt does: kept, the kernels step takes
# it from the cache instead of building it a second time.
keep() {
	local suite=$1 kver=$2 ko=$3 src key
	src=$(mktemp -d) || return 1
	copy_sources "$src"
	key=$(ko_key "$suite" "$kver" "$src") || key=
	rm -rf "$src"
	[ -n "$key" ] || return 1
	[ ! -s "$KO_CACHE/$suite-$key.ko" ] || return 0
	mkdir -p "$KO_CACHE" && cp "$ko" "$KO_CACHE/$suite-$key.ko.tmp.$$" &&
		mv "$KO_CACHE/$suite-$key.ko.tmp.$$" "$KO_CACHE/$suite-$key.ko" || return 1
	echo "kept $ko as $KO_CACHE/$suite-$key.ko"
	ls -1t "$KO_CACHE/$suite"-*.ko | tail -n +5 | xargs -r rm -f
}

# One compiler per CPU: `check` builds two suites at a time, and the
# third alone (bookworm-rt's took 41 s with one job, after the other two).
build() {
	local suite=$1 root kver tree src rel log jobs key ko
	jobs=$(nproc 2>/dev/null) || jobs=2
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
	mkdir -p "$tree"
	copy_sources "$src"
	key=$(ko_key "$suite" "$kver" "$src") || key=
	ko=$KO_CACHE/$suite-$key.ko
	if [ -n "$key" ] && [ -s "$ko" ] && cp "$ko" "$src/module/tipme.ko"; then
		echo "tipme.ko for $kver from the cache: $ko (the same sources, headers and compiler)" > "$log"
	elif [ -x "$root/usr/bin/make" ]; then
		# objtool reads /proc (its stack limit): a private mount of it
		unshare -m sh -c 'r=$1; shift; mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$root" \
			make -j"$jobs" -C "/usr/src/linux-headers-$kver" M="/$rel" W=1 KCFLAGS=-Werror modules \
			> "$log" 2>&1
	else	# an image only (bookworm-rt): the host's headers and compiler
		make -j"$jobs" -C "/usr/src/linux-headers-$kver" M="$src" W=1 KCFLAGS=-Werror modules \
			> "$log" 2>&1
	fi || { tail -n 30 "$log" >&2; rm -rf "$src"; die "tipme.ko does not build against $kver"; }
	# a module just built: kept (made aside and renamed)
	if [ -n "$key" ] && [ ! -s "$ko" ] && mkdir -p "$KO_CACHE" &&
		cp "$src/module/tipme.ko" "$ko.tmp.$$"; then
		mv "$ko.tmp.$$" "$ko"
		ls -1t "$KO_CACHE/$suite"-*.ko | tail -n +5 | xargs -r rm -f
	fi
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
CHECK_JOBS=${TIPME_KERNEL_JOBS:-$(tipme_guest_jobs)}

# check SUITE...: fetch and build for each suite, CHECK_JOBS at a time;
# then every guest of every suite as one job, longest first, CHECK_JOBS
# guests at a time, so that no kernel's tests run alone at the end (run
# suite by suite, three suites on two slots left the third running alone
# for half of the step); a suite's tests are in the guests tests/vm/run.sh
# would boot (--plan: the short ones share one); then the results in the
# suites' order, each description prefixed with its suite.
check() {
	local suites=("$@") kvers=() plog=() i j s t name rc=0 n=0 line queue=() pats=() members=()
	local -A glog=() guests=()
	[ ${#suites[@]} -gt 0 ] || suites=("${CHECK_SUITES[@]}")
	mkdir -p "$KBUILD"
	for i in "${!suites[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$CHECK_JOBS" ]; do wait -n || true; done
		plog[i]=$KBUILD/${suites[i]}-prepare.log
		rm -f "$KBUILD/${suites[i]}.kver"
		echo "# $(date +%T) ${suites[i]}: fetch and build (log ${plog[i]#"$TIPME_ROOT"/})"
		(fetch "${suites[i]}" >&2 && build "${suites[i]}" > "$KBUILD/${suites[i]}.kver") \
			> "${plog[i]}" 2>&1 < /dev/null &
	done
	wait
	for i in "${!suites[@]}"; do
		kvers[i]=$(cat "$KBUILD/${suites[i]}.kver" 2> /dev/null || true)
		[ -n "${kvers[i]}" ] || continue
		pats=()
		for t in "$KBUILD/${suites[i]}-tree"/tests/vm/t-*.sh; do
			name=$(basename "$t" .sh)
			for s in "${PER_KERNEL[@]}"; do
				[ "$name" = "$s" ] && pats+=("$name.sh")
			done
		done
		[ ${#pats[@]} -gt 0 ] || continue
		# "SECS TEST..." a guest: the times this kernel's tests took last
		while read -r s line; do
			queue+=("$s $i $line")
			for name in $line; do guests[$i.$name]=$line; done
		done < <(VM_ARGS="--kroot $(root_of "${suites[i]}") --kver ${kvers[i]}" \
			"$KBUILD/${suites[i]}-tree/tests/vm/run.sh" --plan "${pats[@]}")
	done
	mapfile -t queue < <(printf '%s\n' "${queue[@]}" | sort -k1,1nr -k2,2n -k3,3)
	echo "# $(date +%T) ${#queue[@]} guests, $CHECK_JOBS at a time, longest first"
	for j in "${queue[@]}"; do
		[ -n "$j" ] || continue
		read -r s i line <<< "$j"
		read -r -a members <<< "$line"
		if [ -n "${TIPME_VM_POOL:-}" ]; then
			# a slot of the pool the VM tests share (make check)
			until tipme_pool_try "$s"; do sleep 0.5; done
		else
			while [ "$(jobs -rp | wc -l)" -ge "$CHECK_JOBS" ]; do wait -n || true; done
		fi
		glog[$i.${members[0]}]=$KBUILD/${suites[i]}-${members[0]}.log
		# the guests of the other kernels share the CPUs: their timeouts
		# grow as in tests/vm/run.sh; this guest's runner (the
		# subshell) holds its slot of the pool, its run.sh none
		(VM_TIMEOUT_SCALE=${VM_TIMEOUT_SCALE:-$(tipme_timeout_scale "$CHECK_JOBS")} TIPME_VM_JOBS=1 \
			TIPME_VM_POOL='' VM_ARGS="--kroot $(root_of "${suites[i]}") --kver ${kvers[i]}" \
			tipme_pool_without "$KBUILD/${suites[i]}-tree/tests/vm/run.sh" "${members[@]/%/.sh}") \
			> "${glog[$i.${members[0]}]}" 2>&1 < /dev/null &
		[ -z "${TIPME_VM_POOL:-}" ] || exec {TIPME_POOL_FD}>&-
	done
	tipme_pool_leave
	wait
	echo "# $(date +%T) done"
	for i in "${!suites[@]}"; do
		echo "# ---- ${suites[i]}"
		if [ -z "${kvers[i]}" ]; then
			n=$((n + 1))
			rc=1
			echo "not ok $n - ${suites[i]}: fetch or build failed (log ${plog[i]#"$TIPME_ROOT"/})"
			tail -n 20 "${plog[i]}" | sed 's/^/#   /'
			continue
		fi
		echo "# tipme.ko built against ${kvers[i]} (W=1 -Werror, ${suites[i]}'s compiler)"
		# each guest's results once, at its first test
		for t in "$KBUILD/${suites[i]}-tree"/tests/vm/t-*.sh; do
			name=$(basename "$t" .sh)
			[ -n "${guests[$i.$name]:-}" ] || continue
			read -r -a members <<< "${guests[$i.$name]}"
			[ "$name" = "${members[0]}" ] || continue
			while IFS= read -r line; do
				if [[ $line =~ ^(not\ )?ok\ [0-9]+\ -\ (.*)$ ]]; then
					n=$((n + 1))
					[ -z "${BASH_REMATCH[1]}" ] || rc=1
					echo "${BASH_REMATCH[1]}ok $n - ${suites[i]}: ${BASH_REMATCH[2]}"
				elif [[ $line == "#"* ]]; then
					echo "$line"
				fi
			done < "${glog[$i.$name]}"
			# run.sh prints a "not ok" for any failure of its own; a test
			# without a result at all is one
			for s in "${members[@]}"; do
				grep -qE "^(not )?ok [0-9]+ - $s(:|\$)" "${glog[$i.$name]}" && continue
				n=$((n + 1))
				rc=1
				echo "not ok $n - ${suites[i]}: $s printed no result"
				tail -n 20 "${glog[$i.$name]}" | sed 's/^/#   /'
			done
		done
	done
	echo "1..$n"
	return "$rc"
}

case ${1:-} in
check)
	shift
	check "$@"
	;;
keep)
	[ $# -eq 4 ] || usage
	keep "$2" "$3" "$4"
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
	# run.sh matches parts of names: "t-pingpong.sh" is that test only
	[ ${#pats[@]} -gt 0 ] || pats=("${PER_KERNEL[@]/%/.sh}")
	echo "# tipme.ko built against $kver (W=1 -Werror, $suite's compiler)"
	VM_ARGS="--kroot $(root_of "$suite") --kver $kver" \
		"$KBUILD/$suite-tree/tests/vm/run.sh" "${pats[@]}"
	;;
*)
	usage
	;;
esac
