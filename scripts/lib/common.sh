# shellcheck shell=bash
# Shared helpers for tipme's scripts, tests and benchmarks (host side).
# Source it by its path from the script's folder, e.g.
#   . "$(dirname "$0")/lib/common.sh"                 (from scripts/)
#   . "$(dirname "$0")/../../scripts/lib/common.sh"   (from tests/vm/)
# Sets TIPME_ROOT (repository root, absolute) and TIPME_CACHE.
#
# TIPME_CACHE holds what is fetched and built once per machine, outside the
# clone, so that every clone of the same user shares it: the linux-source
# tree (linux/<package version>/), the UML builds of KUnit (kunit/), the VM
# initramfs images and kernel images unpacked for a PVH boot (vm/), other
# suites' kernels (kernels/), the compilers' cache (ccache/, tipme_ccache
# below) and the benchmarks' downloads (bench/).  Each entry is keyed by the versions it
# was made from and made under a lock, so clones at different commits and
# concurrent runs can share it.  Default: $XDG_CACHE_HOME/tipme, else
# ~/.cache/tipme, else (no HOME) /var/tmp/tipme-cache-UID.  Removing the
# directory is always safe (the next run fetches and builds again).  What
# belongs to one clone (copies of its tree, build logs) stays in its build/.

TIPME_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
if [ -z "${TIPME_CACHE:-}" ]; then
	if [ -n "${XDG_CACHE_HOME:-}" ]; then
		TIPME_CACHE=$XDG_CACHE_HOME/tipme
	elif [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
		TIPME_CACHE=$HOME/.cache/tipme
	else
		TIPME_CACHE=/var/tmp/tipme-cache-$(id -u)
	fi
fi
export TIPME_CACHE

die() { echo "${0##*/}: error: $*" >&2; exit 1; }
note() { echo "${0##*/}: $*" >&2; }

# tipme_ccache: compile through ccache from here on (make check: every
# gcc, cc and clang-14 of the builds, the module's and the packages'
# included), when scripts/deps.sh installed it and TIPME_CCACHE is not 0.
# Its cache is $TIPME_CACHE/ccache, shared by every clone: paths under the
# clone are hashed relative to it (base_dir) and the working directory is
# not hashed, so a second clone at the same commit compiles nothing again
# (an object's debug information then names the directory of the clone
# that compiled it first: nothing the tests read).  ccache checks the
# compiler, its flags and every included file: a hit is the object the
# same compile would make.
tipme_ccache() {
	[ "${TIPME_CCACHE:-1}" != 0 ] && [ -x /usr/lib/ccache/gcc ] || return 0
	case ":$PATH:" in *:/usr/lib/ccache:*) ;; *) PATH=/usr/lib/ccache:$PATH ;; esac
	export PATH CCACHE_DIR=$TIPME_CACHE/ccache CCACHE_BASEDIR=$TIPME_ROOT \
		CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
}

# tipme_clone_id: a short name for this clone (a hash of its path), for
# what a shared cache entry must keep apart per clone.
tipme_clone_id() { printf '%s' "$TIPME_ROOT" | sha256sum | cut -c1-12; }

# tipme_guest_jobs: how many VM guests to run at a time by default (the
# VM tests, the other kernels): one per CPU, since each runs on one TCG
# thread and keeps it busy, and no more than the memory holds (2.5 GB
# each: a guest of up to 2 GB and QEMU's own).  2 on the 2-core machines
# the figures in README.md come from; 4 on a 4-CPU CI runner.
tipme_guest_jobs() {
	local n mem
	n=$(nproc 2>/dev/null) || n=2
	mem=$(awk '$1 == "MemAvailable:" { print int($2 / 2621440) }' /proc/meminfo 2>/dev/null)
	[[ $mem =~ ^[0-9]+$ ]] && [ "$mem" -lt "$n" ] && n=$mem
	[ "$n" -ge 1 ] 2>/dev/null || n=1
	echo "$n"
}

# A pool of guest slots that more than one scheduler of guests shares:
# make check runs the VM tests (tests/vm/run.sh) and the other kernels'
# guests (scripts/kernels.sh check) at the same time, in one pool of
# tipme_guest_jobs slots, instead of the kernels' guests after the VM
# tests (each step then ended with one guest running alone on two CPUs).
# TIPME_VM_POOL=DIR names it: DIR/slot.N, one file a slot; a guest runs
# while its runner holds a lock (flock) on one, so a slot frees itself
# when its runner ends, however it ends.  Each scheduler offers its next
# guest, the longest it has left, with the seconds it is expected to take
# (DIR/wait.PID, its PID); a free slot goes to the longest guest offered (ties: the
# lower PID), so the guests of both start longest first, as one queue's
# would.  Unset or empty: no pool (each scheduler counts its own guests).

# tipme_pool_init DIR N: a pool of N slots in DIR (made empty).
tipme_pool_init() {
	local i
	rm -rf "$1"
	mkdir -p "$1" || return 1
	for ((i = 0; i < $2; i++)); do : > "$1/slot.$i"; done
}

# tipme_pool_try SECS: offer a guest expected to take SECS; if it is the
# longest offered and a slot is free, take the slot: TIPME_POOL_FD is
# then an open file that holds its lock, and status 0; else status 1
# (call again).  Every process that inherits the file holds the slot: the
# scheduler closes it (exec {TIPME_POOL_FD}>&-) once the guest's runner
# has started, and the runner starts the guest with tipme_pool_without.
tipme_pool_try() {
	local dir=$TIPME_VM_POOL me=$TIPME_VM_POOL/wait.$BASHPID w pid secs f
	echo "$1" > "$me"
	for w in "$dir"/wait.*; do
		if [ ! -e "$w" ] || [ "$w" = "$me" ]; then continue; fi
		pid=${w##*.}
		if ! kill -0 "$pid" 2>/dev/null; then	# its scheduler is gone
			rm -f "$w"
			continue
		fi
		secs=$(cat "$w" 2>/dev/null) || continue
		[[ $secs =~ ^[0-9]+$ ]] || continue
		if [ "$secs" -gt "$1" ] || { [ "$secs" = "$1" ] && [ "$pid" -lt "$BASHPID" ]; }; then
			return 1
		fi
	done
	for f in "$dir"/slot.*; do
		exec {TIPME_POOL_FD}>>"$f" || return 1
		if flock -n "$TIPME_POOL_FD"; then
			rm -f "$me"
			return 0
		fi
		exec {TIPME_POOL_FD}>&-
	done
	return 1
}

# tipme_pool_without CMD...: CMD without the slot's file (the runner
# holds the slot until CMD ends: nothing CMD leaves behind holds it).
tipme_pool_without() {
	if [ -n "${TIPME_POOL_FD:-}" ]; then "$@" {TIPME_POOL_FD}>&-; else "$@"; fi
}

# tipme_pool_leave: this scheduler offers nothing more.
tipme_pool_leave() { [ -z "${TIPME_VM_POOL:-}" ] || rm -f "$TIPME_VM_POOL/wait.$BASHPID"; }

# tipme_timeout_scale JOBS: what a guest's timeout is multiplied by when
# JOBS guests run at a time (VM_TIMEOUT_SCALE, tests/vm/vm.sh): twice the
# guests per CPU, at least 1 -- 2 for two guests on two CPUs (as it always
# was here) or four on four, 4 for four on two.
tipme_timeout_scale() {
	local n
	n=$(nproc 2>/dev/null) || n=2
	echo $(((2 * $1 + n - 1) / n))
}

# tipme_vm_header SCRIPT: the words of a VM test's "# vm:" header lines
# (in its first 20 lines; tests/vm/vm.sh), one a line.
tipme_vm_header() { head -n 20 "$1" | sed -n 's/^# vm: *//p' | tr -s ' \t' '\n' | sed '/^$/d'; }

# tipme_vm_guest SCRIPT: the words of its header that make its guest (all
# but its timeout, its own kernel log check and "share"), sorted, on one
# line: tests whose guests are the same may share one (tests/vm/run.sh).
tipme_vm_guest() {
	tipme_vm_header "$1" | grep -v -e '^timeout=' -e '^dmesg-ok$' -e '^share$' | sort | tr '\n' ' '
	echo
}

# tipme_kver: the stock (non-RT) kernel to build against and boot in QEMU.
# The newest version that has both /boot/vmlinuz-V and /lib/modules/V/build.
# Never `uname -r`: the host may run a different kernel.
tipme_kver() {
	local v best=
	for v in $(ls -1 /lib/modules 2>/dev/null | grep -v -- '-rt-' | sort -V); do
		[ -e "/boot/vmlinuz-$v" ] && [ -e "/lib/modules/$v/build/Makefile" ] && best=$v
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# tipme_rt_kver: the newest PREEMPT_RT kernel whose headers are installed.
tipme_rt_kver() {
	local v best=
	for v in $(ls -1 /lib/modules 2>/dev/null | grep -- '-rt-' | sort -V); do
		[ -e "/lib/modules/$v/build/Makefile" ] && best=$v
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# tipme_linux_src: print the path of a scratch linux-source tree (Debian's
# linux-source-6.1), extracted once under $TIPME_CACHE/linux/<package
# version>/ and reused.  Older versions are removed.  Safe against concurrent callers and
# against an interrupted extraction (a stamp file marks a complete tree).
TIPME_LINUX_SRC_PKG=${TIPME_LINUX_SRC_PKG:-linux-source-6.1}
tipme_linux_src() {
	local pkg=$TIPME_LINUX_SRC_PKG ver tarball dir
	ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
		{ echo "tipme_linux_src: $pkg is not installed (run scripts/deps.sh)" >&2; return 1; }
	tarball=/usr/src/$pkg.tar.xz
	[ -r "$tarball" ] || { echo "tipme_linux_src: $tarball missing" >&2; return 1; }
	dir=$TIPME_CACHE/linux/$ver
	mkdir -p "$TIPME_CACHE/linux"
	(
		flock 9
		if [ ! -e "$dir/.tipme-complete" ]; then
			echo "tipme_linux_src: extracting $tarball (version $ver) into $dir ..." >&2
			rm -rf "$dir" "$dir.tmp"
			mkdir -p "$dir.tmp"
			tar -xJf "$tarball" -C "$dir.tmp" || exit 1
			mv "$dir.tmp" "$dir"
			touch "$dir/.tipme-complete"
			# Drop trees of older package versions (1.5 GB each).
			for old in "$TIPME_CACHE"/linux/*; do
				[ "$old" = "$dir" ] || [ "$old" = "$TIPME_CACHE/linux/lock" ] || rm -rf "$old"
			done
		fi
	) 9>"$TIPME_CACHE/linux/lock" || return 1
	echo "$dir/$pkg"
}
