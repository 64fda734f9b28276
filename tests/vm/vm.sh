#!/bin/bash
# Boot Debian's stock kernel in QEMU (TCG) and run one script inside it.
#
#   tests/vm/vm.sh [--timeout SEC] [--mem MB] [--smp N] [--cpu MODEL] [--kver KVER]
#                  [--kroot DIR] [--tcg multi|single] [--plugin SO[,ARGS]]
#                  [--out DIR] [--no-dmesg-check] SCRIPT [ARGS...]
#   tests/vm/vm.sh [options but --out] --batch DIR SCRIPT...
#
# --batch: the scripts one after the other in one guest (tests/vm/run.sh
# gives it the short tests that say "# vm: share"), each as if it had the
# guest to itself: a fresh overlay of the root, TIPME_OUT DIR/<script
# name>/, its output into DIR/<script name>.log (with its host steps and
# this command's findings; none streamed) and its exit status into
# DIR/<script name>.rc; its kernel log (dmesg.txt) is the boot's and its
# own.  Between two scripts every process is stopped and tipme.ko
# unloaded; what else the kernel keeps (modules loaded, cgroups, sysctls)
# stays, so only scripts that need nothing of it share a guest.  Their
# headers must ask for the same guest (all but timeout= and dmesg-ok); each
# keeps its timeout: the guest stops a script that outlives it (saving what
# its watchdog saw) and goes on with the next.  Exit status 0 if every
# script passed.
#
# The guest runs the host's own userland: the host's / is shared read-only
# over 9p with a tmpfs overlaid on it (so the guest can write anywhere, /tmp
# included, without touching the host), and SCRIPT -- a host path, made
# absolute -- runs as root inside it with
#   TIPME_SRC  the repository root (same path as on the host)
#   TIPME_OUT  a directory shared read-write with the host (same path on both
#              sides; default tests/vm/out/<script name>/, emptied first)
#   KVER       the guest kernel's version
#   TIPME_VM_OTHER_KERNEL  1 with --kroot (scripts/kernels.sh's per-kernel
#              runs), else empty: what does not depend on the kernel may
#              be left to the stock kernel's run
#   TIPME_CACHE  the host's cache (scripts/lib/common.sh), read-only
# and cwd TIPME_SRC.  Its stdout and stderr stream to this command's stdout;
# its exit status becomes this command's exit status.
#
# After the script, the guest's dmesg is saved as TIPME_OUT/dmesg.txt; if it
# contains WARNING, BUG, Oops, "Call Trace" or "general protection" the run
# fails and the lines are printed, unless --no-dmesg-check is given or the
# script opts out with a line "# vm: dmesg-ok" in its first 20 lines.  The
# same header may set defaults: "# vm: timeout=300 mem=2048 smp=1 cpu=MODEL
# tcg=single", and give the guest a display device: "gpu=bochs" (QEMU's
# standard VGA, which the bochs DRM driver drives) or "gpu=virtio"
# (virtio-gpu-pci); none otherwise.  The guest loads no driver for it by
# itself: the test modprobes one.  "append=ARG" adds one kernel argument
# (e.g. append=possible_cpus=4096), as VM_APPEND does.  "boot=bzimage"
# boots the compressed image (see Boot below).
# The kernel console is in TIPME_OUT/console.log.
#
# Host steps: what a test asks with tap_on_host (tests/lib/tap.sh) -- the
# analyses of the dumps it made and their checks, which need no guest and
# run many times faster natively than under TCG (a report, export and
# timeline of one X incident and their Python checks took 3 of t-xreport's
# 8 minutes in the guest) -- runs here after the guest has stopped, in
# TIPME_SRC with the same TIPME_OUT and KVER, bounded by the test's
# timeout; its TAP lines follow the guest's, and a step that exits
# non-zero fails the run.
#
# A guest that is not back within the timeout (default 120 s) is killed and
# the run fails with status 124; 15 s before that, a watchdog in the guest
# saves ps and the blocked tasks' stacks, which are printed.  Other harness
# failures exit 125.  While it runs, TIPME_OUT/.vm/monitor.sock is the QEMU
# monitor; VM_APPEND="..." adds kernel arguments (e.g. nokaslr).
# VM_TIMEOUT_SCALE=N multiplies the timeout: tests/vm/run.sh sets it to
# twice the guests it runs at a time per CPU (2 for two guests on two
# CPUs; scripts/lib/common.sh tipme_timeout_scale), so that a guest slowed
# by its siblings is not taken for a hung one.
#
# How long the run took (boot to the end of the host steps; in a batch, the
# script's own time in the guest and its host steps) is written to
# TIPME_OUT/.vm/seconds and $TIPME_CACHE/vm/seconds/KVER/<test>.
#
# Defaults: 1024 MB, 2 vCPUs, -cpu max, the newest non-RT kernel that has
# /boot/vmlinuz-KVER.  --kroot DIR boots a kernel that is not the host's:
# DIR/boot/vmlinuz-KVER with its modules under DIR/lib/modules/KVER (a
# root scripts/kernels.sh made for another Debian suite; KVER defaults to
# the one kernel there).  The initramfs (busybox-static + the 9p, virtio and
# overlay modules in the order modprobe computes) is built once per machine
# under $TIPME_CACHE/vm/, named by the kernel version and a hash of every
# input, so that every clone shares it (scripts/lib/common.sh).
#
# TCG threads: by default one host thread runs the vCPUs in turn
# ("single").  QEMU 7.2's MTTCG ("multi": a host thread per vCPU) can leave
# a vCPU executing a stale translation of kernel text that another vCPU
# just patched: we caught both vCPUs of a guest looping forever, IRQs off,
# on an INT3 that text_poke_bp() had already replaced (memory read back a
# NOP; the kprobes INT3 handler kept sending the CPU back to re-execute
# it), while the patching CPU waited for its sync-core IPI.  Every insmod
# and rmmod of tipme.ko patches text (tracepoints' static keys and calls),
# and guests hung that way, with no output and no watchdog report, at
# rmmod now and then (t-report; t-instr-exec on the RT kernel).  One thread
# keeps instruction fetch coherent, and on this 2-core machine the VM tests
# ran as fast or faster with it (t-report 42 s against 85-98 s).
# --plugin loads a TCG plugin (bench/tracers/insncount.c counts
# instructions) and implies --tcg single, where a plugin's plain counters
# are exact.
#
# Boot: QEMU starts the kernel's own ELF image (vmlinux) at its PVH entry
# (CONFIG_PVH, every Debian amd64 kernel since 5.0), not the bzImage: the
# bzImage first decompresses itself inside the guest, where TCG runs the
# decompressor several times slower than the host (Debian 12's 8 MB of XZ:
# 1 s on the host), at the start of every one of make check's ~65 guests.
# The ELF is unpacked from /boot/vmlinuz-KVER once per machine (a few
# seconds) into $TIPME_CACHE/vm/, named by the kernel version and a hash
# of the image, under a lock.  The decompressor is also what places the
# kernel's text at a random address (KASLR): a PVH boot runs it at its
# link address (the memory regions are still randomized).  A test that
# wants a slid kernel says "# vm: boot=bzimage" (t-symcache does: the
# kernel symbol table every dump carries); VM_BOOT=bzimage boots every
# guest that way, and an image that cannot be unpacked (no XZ, zstd or
# gzip stream in it, or no PVH entry) is booted as it is.
#
# Clocks: TCG cannot offer invtsc, so the guest never has constant_tsc or
# nonstop_tsc, even with -cpu max; with 2 vCPUs it also finds the TSCs
# unsynchronized, marks the TSC unstable and runs on hpet (with --smp 1 the
# clocksource stays tsc).  Guest timings are emulated: compare only within
# one guest.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"

fail() { echo "vm.sh: error: $*" >&2; exit 125; }

timeout= mem= smp= kver= kroot= out= cpu= tcg= plugin= dmesg_check=1 gpu= batch=
boot=${VM_BOOT:-}
hdr_append=
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) timeout=${2:?--timeout needs a value}; shift 2 ;;
	--mem) mem=${2:?--mem needs a value}; shift 2 ;;
	--smp) smp=${2:?--smp needs a value}; shift 2 ;;
	--cpu) cpu=${2:?--cpu needs a value}; shift 2 ;;
	--tcg) tcg=${2:?--tcg needs a value}; shift 2 ;;
	--plugin) plugin=${2:?--plugin needs a value}; tcg=single; shift 2 ;;
	--kver) kver=${2:?--kver needs a value}; shift 2 ;;
	--kroot) kroot=$(realpath -e -- "${2:?--kroot needs a value}") || fail "no such directory: $2"; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	--batch) batch=${2:?--batch needs a directory}; shift 2 ;;
	--no-dmesg-check) dmesg_check=0; shift ;;
	-h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) fail "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
scripts=()
if [ -n "$batch" ]; then
	[ -z "$out" ] || fail "--out and --batch exclude each other"
	[ $# -ge 1 ] || fail "usage: vm.sh [options] --batch DIR SCRIPT..."
	for s in "$@"; do
		s=$(realpath -e -- "$s") || fail "no such script: $s"
		[ -f "$s" ] || fail "$s is not a file"
		scripts+=("$s")
	done
	set --
else
	[ $# -ge 1 ] || fail "usage: vm.sh [options] SCRIPT [ARGS...]"
	script=$(realpath -e -- "$1") || fail "no such script: $1"
	shift
	[ -f "$script" ] || fail "$script is not a file"
	scripts=("$script")
fi
script=${scripts[0]}
names=()
for s in "${scripts[@]}"; do names+=("$(basename "$s" .sh)"); done
name=${names[0]}

# a batch's scripts must ask for the same guest
for s in "${scripts[@]:1}"; do
	[ "$(tipme_vm_guest "$s")" = "$(tipme_vm_guest "$script")" ] ||
		fail "$s and $script ask for different guests: they cannot share one"
done

# Defaults from the (first) script's header, then the built-in ones.
opt_timeout=$timeout
for word in $(tipme_vm_header "$script"); do
	case $word in
	timeout=*) : "${timeout:=${word#*=}}" ;;
	mem=*) : "${mem:=${word#*=}}" ;;
	smp=*) : "${smp:=${word#*=}}" ;;
	cpu=*) : "${cpu:=${word#*=}}" ;;
	tcg=*) : "${tcg:=${word#*=}}" ;;
	gpu=*) gpu=${word#*=} ;;
	append=*) hdr_append+=" ${word#*=}" ;;
	dmesg-ok|share) ;;
	boot=*) [ -n "${VM_BOOT:-}" ] || boot=${word#*=} ;;
	*) note "ignoring unknown header word '$word' in $script" ;;
	esac
done
: "${cpu:=max}" "${tcg:=single}"
case $tcg in multi|single) ;; *) fail "--tcg: 'multi' or 'single', not '$tcg'" ;; esac
gpu_dev=()
case $gpu in
'') ;;
bochs) gpu_dev=(-device VGA) ;;
virtio) gpu_dev=(-device virtio-gpu-pci) ;;
*) fail "gpu=$gpu in $script: 'bochs' or 'virtio'" ;;
esac
: "${timeout:=120}" "${mem:=1024}" "${smp:=2}" "${boot:=pvh}"
case $boot in pvh|bzimage) ;; *) fail "boot=$boot: 'pvh' or 'bzimage'" ;; esac
scale=${VM_TIMEOUT_SCALE:-1}
[[ $scale =~ ^[1-9][0-9]*$ ]] || fail "VM_TIMEOUT_SCALE: a positive whole number, not '$scale'"
timeout=$((timeout * scale))
# each script's own timeout and kernel log check (a batch's scripts differ)
timeouts=() checks=()
for s in "${scripts[@]}"; do
	t=$(tipme_vm_header "$s" | sed -n 's/^timeout=//p' | head -n 1)
	t=${opt_timeout:-${t:-120}}
	timeouts+=("$((t * scale))")
	if [ "$dmesg_check" = 1 ] && ! tipme_vm_header "$s" | grep -qx 'dmesg-ok'; then
		checks+=(1)
	else
		checks+=(0)
	fi
done
if [ -n "$kroot" ] && [ -z "$kver" ]; then
	kver=$(ls -1 "$kroot/lib/modules" 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kver" ] || fail "no kernel under $kroot/lib/modules"
fi
[ -n "$kver" ] || kver=$(tipme_kver) || fail "no kernel with /boot/vmlinuz-* and headers (run scripts/deps.sh)"
kernel=$kroot/boot/vmlinuz-$kver
[ -r "$kernel" ] || fail "$kernel missing or unreadable (install linux-image-$kver)"
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not found (run scripts/deps.sh)"
[ -x /bin/busybox ] || fail "/bin/busybox not found (install busybox-static)"
ldd /bin/busybox >/dev/null 2>&1 && fail "/bin/busybox is dynamically linked: install busybox-static"

# dirs: each script's TIPME_OUT.  share: the folder shared with the guest
# read-write (TIPME_OUT, or a batch's DIR, which holds every script's).
# jobdir: the guest's own files (console, QEMU's log, the job), in the
# share.
dirs=()
if [ -n "$batch" ]; then
	mkdir -p "$batch"
	share=$(cd "$batch" && pwd -P)
	for n in "${names[@]}"; do
		exec {lockfd}>"$share/.$n.lock"
		flock -w 900 "$lockfd" || fail "another run of $n holds $share/$n for 15 minutes"
		rm -rf "${share:?}/$n"
		mkdir -p "$share/$n/.vm"
		: >"$share/$n.log"
		dirs+=("$share/$n")
	done
	jobrel=.$name.batch
	jobdir=$share/$jobrel
	rm -rf "$jobdir"
	mkdir -p "$jobdir"
	console=$jobdir/console.log
else
	if [ -z "$out" ]; then
		out=$TIPME_ROOT/tests/vm/out/$name
		# Two runs of the same test on one checkout take turns for its out dir.
		mkdir -p "$TIPME_ROOT/tests/vm/out"
		exec 8>"$TIPME_ROOT/tests/vm/out/.$name.lock"
		flock -w 900 8 || fail "another run of $name holds tests/vm/out/$name for 15 minutes"
		rm -rf "$out"
	fi
	mkdir -p "$out"
	out=$(cd "$out" && pwd -P)
	rm -rf "$out/.vm" "$out/dmesg.txt" "$out/console.log"
	mkdir -p "$out/.vm"
	share=$out
	dirs=("$out")
	jobrel=.vm
	jobdir=$out/.vm
	console=$out/console.log
fi

# ---------------------------------------------------------------------------
# Initramfs
# ---------------------------------------------------------------------------
read -r -d '' INIT <<'EOF_INIT' || true
#!/bin/busybox sh
# tipme VM init: mount the host root; for each job of the list, overlay
# it afresh, run the job, save its status and kernel log; power off.
/bin/busybox --install -s /bin
export PATH=/bin
say() { echo "vm-init: $*"; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do
	insmod "/mods/$m" || say "insmod $m failed"
done </mods/order
# the job's folder in the shared one (vmjob= on the command line)
job=.vm
for w in $(cat /proc/cmdline); do
	case $w in vmjob=*) job=${w#vmjob=} ;; esac
done
mkdir -p /ctl /lower
ok=1
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /ctl || ok=0
[ -r "/ctl/$job/job" ] || ok=0
if [ $ok = 1 ]; then
	. "/ctl/$job/job"
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower ||
		ok=0
fi
[ $ok = 1 ] || { say "could not mount the host root or find the job"; poweroff -f; }
hostname tipme-vm
ip link set lo up 2>/dev/null
stty -F /dev/ttyS1 raw -echo 2>/dev/null
# root N: a fresh overlay of the host's root (a tmpfs over it) at N, with
# what a booted system has mounted
root() {
	local N=$1 U=$1.upper
	mkdir -p "$N" "$U"
	mount -t tmpfs -o mode=0755 tmpfs "$U" &&
	mkdir -p "$U/upper" "$U/work" &&
	mount -t overlay -o lowerdir=/lower,upperdir=$U/upper,workdir=$U/work overlay "$N" &&
	mount -t proc proc $N/proc &&
	mount -t sysfs sysfs $N/sys &&
	mount -t devtmpfs devtmpfs $N/dev || return 1
	mkdir -p $N/dev/pts $N/dev/shm
	# what udev would add: bash's <(...) needs /dev/fd (dkms uses it)
	ln -sf /proc/self/fd $N/dev/fd
	ln -sf /proc/self/fd/0 $N/dev/stdin
	ln -sf /proc/self/fd/1 $N/dev/stdout
	ln -sf /proc/self/fd/2 $N/dev/stderr
	mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $N/dev/pts
	mount -t tmpfs -o mode=1777 tmpfs $N/dev/shm
	mount -t tmpfs -o mode=0755 tmpfs $N/run
	mkdir -p $N/run/lock $N/run/user
	mount -t debugfs debugfs $N/sys/kernel/debug 2>/dev/null
	mount -t tracefs tracefs $N/sys/kernel/tracing 2>/dev/null
	mount --bind /ctl "$N$VM_OUT"
}
# stop_all [PID]: kill every process but this one (PID 1), PID and the
# kernel's threads (which have no executable)
stop_all() {
	local i p
	for i in 1 2 3; do
		for p in /proc/[0-9]*; do
			p=${p#/proc/}
			[ "$p" != 1 ] && [ "$p" != "${1:-}" ] && readlink "/proc/$p/exe" >/dev/null 2>&1 &&
				kill -9 "$p" 2>/dev/null
		done
	done
}
boot_lines=$(dmesg | wc -l)
k=1
while [ "$k" -le "$VM_JOBS" ]; do
	eval "d=\$VM_DIR_$k wd=\$VM_WATCHDOG_$k kill=\$VM_KILL_$k"
	N=/newroot$k
	O=/ctl/$d
	if ! root $N; then
		say "could not make a root for $d"
		k=$((k + 1))
		continue
	fi
	from=$(dmesg | wc -l)
	[ "$k" = 1 ] && from=$boot_lines
	read -r t0 _ </proc/uptime
	# Watchdog: shortly before the host gives up, put every blocked task's
	# stack and each CPU's backtrace in the kernel log and save it, so a
	# hang is diagnosable from the run's own files; with several jobs,
	# the job is then stopped when its time is up, and the next one runs.
	if [ "${wd:-0}" -gt 0 ]; then
		(
			sleep "$wd"
			echo 8 >/proc/sys/kernel/printk
			echo 1 >/proc/sys/kernel/sysrq
			say "watchdog: the job is still running after ${wd}s"
			# each process's state and wait channel from /proc itself
			# (whichever ps the PATH finds, busybox's has no wchan)
			for p in /proc/[0-9]*; do
				read -r _ _ st _ <"$p/stat" 2>/dev/null || continue
				printf '%s %s %s %s\n' "${p##*/}" "$st" "$(cat "$p/wchan" 2>/dev/null)" \
					"$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null | cut -c1-160)"
			done >"$O/.vm/watchdog-ps.txt" 2>&1
			echo w >/proc/sysrq-trigger
			echo l >/proc/sysrq-trigger
			dmesg >"$O/.vm/watchdog-dmesg.txt"
			sync
			if [ "${kill:-0}" -gt "$wd" ]; then
				sleep $((kill - wd))
				: >"$O/.vm/timedout"
				say "the job did not finish within ${kill}s: stopped"
				read -r me _ </proc/self/stat
				stop_all "$me"
			fi
		) &
		wdpid=$!
	fi
	if [ "$VM_STREAM" = file ]; then
		chroot $N /bin/sh "$VM_OUT/$d/.vm/run" </dev/null >"$O/.vm/stream" 2>&1
	else
		chroot $N /bin/sh "$VM_OUT/$d/.vm/run" </dev/null >/dev/ttyS1 2>&1
	fi
	rc=$?
	[ -e "$O/.vm/timedout" ] && rc=124
	read -r t1 _ </proc/uptime
	[ -z "${wdpid:-}" ] || kill -9 "$wdpid" 2>/dev/null
	wdpid=
	# the boot's kernel log, then this job's
	{ dmesg | head -n "$boot_lines"; dmesg | tail -n +"$((from + 1))"; } >"$O/dmesg.txt"
	[ "$k" = 1 ] && dmesg >"$O/dmesg.txt"
	echo "$t0 $t1" >"$O/.vm/guest-time"
	echo "$rc" >"$O/.vm/rc"
	if [ "$k" -lt "$VM_JOBS" ]; then
		# what this job left: processes, tipme.ko, the cgroups it made and
		# the controllers it enabled, its root
		stop_all
		for i in 1 2 3 4 5; do
			grep -q '^tipme ' /proc/modules || break
			rmmod tipme && break
			sleep 1
		done
		mkdir -p /cg
		grep -q ' /cg cgroup2 ' /proc/mounts || mount -t cgroup2 none /cg 2>/dev/null
		find /cg -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null
		for c in $(cat /cg/cgroup.subtree_control 2>/dev/null); do
			printf '%s\n' "-$c" >/cg/cgroup.subtree_control
		done
		umount -l "$N"
		umount -l "$N.upper"
	fi
	sync
	k=$((k + 1))
done
poweroff -f
EOF_INIT

# Modules in dependency order, each once.
mapfile -t mods < <(modprobe ${kroot:+-d "$kroot"} -S "$kver" --show-depends -a 9p 9pnet_virtio virtio_pci overlay |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }')
[ ${#mods[@]} -ge 4 ] || fail "modprobe -S $kver found no 9p/virtio/overlay modules (install linux-image-$kver)"
for m in "${mods[@]}"; do [ -r "$m" ] || fail "module $m missing"; done

# Cache key: every input of the image.
key=$({
	echo "$kver"
	printf '%s\n' "$INIT"
	sha256sum /bin/busybox
	for m in "${mods[@]}"; do stat -c '%n %s %Y' "$m"; done
} | sha256sum | cut -c1-16)
cachedir=$TIPME_CACHE/vm
initrd=$cachedir/initramfs-$kver-$key.cpio
if [ ! -s "$initrd" ]; then
	mkdir -p "$cachedir"
	tmp=$(mktemp -d "$cachedir/build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/root/bin" "$tmp/root/mods" "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev"
	cp /bin/busybox "$tmp/root/bin/busybox"
	for m in "${mods[@]}"; do
		b=$(basename "$m")
		case $b in
		*.ko) cp "$m" "$tmp/root/mods/$b" ;;
		*.ko.xz) xz -dc "$m" >"$tmp/root/mods/${b%.xz}"; b=${b%.xz} ;;
		*.ko.zst) zstd -qdc "$m" >"$tmp/root/mods/${b%.zst}"; b=${b%.zst} ;;
		*.ko.gz) gzip -dc "$m" >"$tmp/root/mods/${b%.gz}"; b=${b%.gz} ;;
		*) fail "unknown module format: $m" ;;
		esac
		echo "$b" >>"$tmp/root/mods/order"
	done
	printf '%s\n' "$INIT" >"$tmp/root/init"
	chmod 0755 "$tmp/root/init"
	(cd "$tmp/root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$tmp/initrd"
	mv "$tmp/initrd" "$initrd"
	rm -rf "$tmp"
	trap - EXIT
	# Drop images built from other inputs for this kernel and unused for a
	# day (another clone may still boot its own).
	find "$cachedir" -maxdepth 1 -name "initramfs-$kver-*.cpio" ! -name "${initrd##*/}" \
		-mtime +0 -delete
fi
touch "$initrd"

# ---------------------------------------------------------------------------
# The kernel's ELF image, for a PVH boot (see Boot above)
# ---------------------------------------------------------------------------
# unpack_vmlinux BZIMAGE OUT: the first XZ, zstd or gzip stream in the
# bzImage that unpacks to an ELF file with a PVH entry note (Xen note
# type 18), into OUT.  The stream's end is followed by the bzImage's
# trailer, which the decompressor reports as trailing garbage: what it
# wrote is checked, not its exit status.
unpack_vmlinux() {
	local magic tool off
	for magic in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
		tool=${magic%%:*}
		command -v "$tool" >/dev/null || continue
		for off in $(LC_ALL=C grep -aboP "${magic#*:}" "$1" | cut -d: -f1 | head -n 4); do
			tail -c +"$((off + 1))" "$1" | "$tool" -dc >"$2" 2>/dev/null
			if [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '177ELF' ] &&
				readelf -n "$2" 2>/dev/null | grep -q 'Unknown note type: (0x00000012)'; then
				return 0
			fi
		done
	done
	rm -f "$2"
	return 1
}
if [ "$boot" = pvh ]; then
	vkey=$(stat -L -c '%n %s %Y' "$kernel" | sha256sum | cut -c1-16)
	vmlinux=$cachedir/vmlinux-$kver-$vkey
	if [ ! -s "$vmlinux" ] && [ ! -e "$vmlinux.none" ]; then
		mkdir -p "$cachedir"
		(
			flock 9
			[ -s "$vmlinux" ] || [ -e "$vmlinux.none" ] && exit 0
			if unpack_vmlinux "$kernel" "$vmlinux.tmp"; then
				mv "$vmlinux.tmp" "$vmlinux"
				# images of this kernel unpacked from an older file
				find "$cachedir" -maxdepth 1 -name "vmlinux-$kver-*" ! -name "${vmlinux##*/}" \
					-delete
			else
				note "no PVH-bootable ELF image in $kernel: booting it as it is"
				touch "$vmlinux.none"
			fi
		) 9>"$cachedir/vmlinux.lock"
	fi
	[ -s "$vmlinux" ] && kernel=$vmlinux
fi

# ---------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# tipme.ko as the guest loads it: without its debug sections (DWARF, 7.2 of
# its 7.5 MB), which insmod reads and the kernel copies in but never keeps;
# its code, data, symbols and build ID are the same.  Measured in one idle
# guest: the first load and unload 2.5 s with the whole file (read over
# 9p), 1.2 s stripped; then a load that fails (t-faults makes some 240)
# 528 ms whole, 380 ms stripped; a full cycle 1070 ms and 1044 ms.
ko=$TIPME_ROOT/module/tipme.ko
small_ko=
if [ -f "$ko" ] && objcopy --strip-debug "$ko" "$jobdir/tipme.ko" 2>"$jobdir/objcopy.err"; then
	small_ko=$jobdir/tipme.ko
fi
# The job: the scripts in turn, each in a fresh overlay of the root (a
# batch: its output into its .vm/stream; alone: to the second serial port,
# which this command streams); a batch's guest stops a script that
# outlives its timeout, and the host stops the guest when the sum of the
# timeouts (and two minutes for the boot) is up.
if [ -n "$batch" ]; then
	qtimeout=120
	for t in "${timeouts[@]}"; do qtimeout=$((qtimeout + t)); done
else
	qtimeout=$timeout
fi
{
	echo "VM_OUT=$(q "$share")"
	echo "VM_JOBS=${#scripts[@]}"
	if [ -n "$batch" ]; then echo "VM_STREAM=file"; else echo "VM_STREAM=tty"; fi
	for k in "${!scripts[@]}"; do
		t=${timeouts[k]}
		if [ -n "$batch" ]; then echo "VM_DIR_$((k + 1))=$(q "${names[k]}")"; else echo "VM_DIR_1=."; fi
		# Leave the watchdog 15 s (of a slow, emulated guest) before the kill.
		echo "VM_WATCHDOG_$((k + 1))=$((t > 45 ? t - 15 : 0))"
		if [ -n "$batch" ]; then echo "VM_KILL_$((k + 1))=$t"; else echo "VM_KILL_1=0"; fi
	done
} >"$jobdir/job"
for k in "${!scripts[@]}"; do
	d=${dirs[k]} s=${scripts[k]}
	{
		echo "# generated by tests/vm/vm.sh"
		echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		echo "export HOME=/root LC_ALL=C.UTF-8 TERM=dumb"
		echo "export TIPME_SRC=$(q "$TIPME_ROOT") TIPME_OUT=$(q "$d") KVER=$(q "$kver")"
		echo "export TIPME_CACHE=$(q "$TIPME_CACHE")"
		# tests that run only when asked (TIPME_VM_OPTIN="t-a t-b")
		echo "export TIPME_VM_OPTIN=$(q "${TIPME_VM_OPTIN:-}")"
		# 1 on a kernel from --kroot (scripts/kernels.sh): a test may leave
		# what does not depend on the kernel to the stock kernel's run
		echo "export TIPME_VM_OTHER_KERNEL=$([ -z "$kroot" ] || echo 1)"
		echo "export TIPME_HOST_STEPS=$(q "$d/.vm/host-steps")"
		# a kernel from --kroot: its modules where modprobe looks for them
		if [ -n "$kroot" ]; then
			echo "mkdir -p /lib/modules/$(q "$kver") &&"
			echo "	mount --bind $(q "$kroot/lib/modules/$kver") /lib/modules/$(q "$kver") || exit 125"
		fi
		echo "cd \"\$TIPME_SRC\" || exit 125"
		# in the guest's overlay: the host's file stays as it is
		if [ -n "$small_ko" ]; then
			echo "rm -f module/tipme.ko && cp $(q "$small_ko") module/tipme.ko || exit 125"
		fi
		cmd="exec"
		[ -x "$s" ] || cmd="exec /bin/sh"
		printf '%s %s' "$cmd" "$(q "$s")"
		for a in "$@"; do printf ' %s' "$(q "$a")"; done
		echo
	} >"$d/.vm/run"
done

# ---------------------------------------------------------------------------
# Boot
# ---------------------------------------------------------------------------
stream=$jobdir/stream
: >"$stream"
start=$(date +%s%N)
# Stop QEMU if we are interrupted.
qpid=
tpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	true
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# RCU's stall reports while the kernel boots, before /init: a guest
# whose host runs other guests and builds on its two CPUs can go a minute
# without its timer softirq there (t-weston's guest, with four guests on
# the host, reported one at 62 s, as the clocksource went to the TSC,
# before any test ran), which the dmesg check would take for a bug.
# Stalls after the boot, when tipme.ko runs, are still reported.
boot_quiet=rcupdate.rcu_cpu_stall_suppress_at_boot=1
timeout -k 5 "$qtimeout" qemu-system-x86_64 \
	-accel "tcg,thread=$tcg" -cpu "$cpu" -m "$mem" -smp "$smp" \
	${plugin:+-plugin "$plugin"} "${gpu_dev[@]}" \
	-nodefaults -no-user-config -nographic -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 rdinit=/init loglevel=6 $boot_quiet vmjob=$jobrel$hdr_append${VM_APPEND:+ $VM_APPEND}" \
	-monitor "unix:$jobdir/monitor.sock,server=on,wait=off" \
	-serial "file:$console" \
	-chardev "file,id=stream,path=$stream,append=on" -serial chardev:stream \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$share,mount_tag=out,security_model=none,multidevs=remap" \
	</dev/null >"$jobdir/qemu.log" 2>&1 &
qpid=$!
if [ -z "$batch" ]; then
	tail -s 0.1 -n +1 -f --pid="$qpid" "$stream" &
	tpid=$!
fi
set +e
wait "$qpid"
qrc=$?
set -e
qpid=
[ -z "$tpid" ] || wait "$tpid" 2>/dev/null || true
tpid=

# watchdog_report DIR: what the guest's watchdog saved, if it fired
watchdog_report() {
	if [ -s "$1/.vm/watchdog-dmesg.txt" ]; then
		echo "vm.sh: the guest's watchdog saved its processes and blocked tasks:" >&2
		sed 's/^/vm.sh:   ps: /' "$1/.vm/watchdog-ps.txt" >&2
		# Tasks in D state with their stacks, from the sysrq-w dump on.
		sed -n '/sysrq: Show Blocked State/,$p' "$1/.vm/watchdog-dmesg.txt" |
			head -n 200 | sed 's/^/vm.sh:   /' >&2
	fi
}

# finish K: script K's end: its exit status (the guest's, a timeout's, the
# host steps'), its time, its kernel log checked.  Prints the host steps'
# TAP and vm.sh's findings; returns the status.
finish() {
	local k=$1 d=${dirs[$1]} s=${scripts[$1]} t=${timeouts[$1]} rc hrc ms h0
	if [ -e "$d/.vm/timedout" ]; then	# a batch's guest stopped it
		echo "vm.sh: TIMEOUT: $s did not finish within ${t}s; the guest stopped it." >&2
		echo "vm.sh: (a slower test can ask for more: --timeout SEC, or '# vm: timeout=SEC' in its header)" >&2
		watchdog_report "$d"
		return 124
	fi
	# the guest's time was up: alone, whatever it did; in a batch, for the
	# script it was running
	if { [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; } &&
		{ [ -z "$batch" ] || { [ ! -s "$d/.vm/rc" ] && [ -e "$d/.vm/stream" ]; }; }; then
		echo "vm.sh: TIMEOUT: $s did not finish within ${qtimeout}s; QEMU killed." >&2
		echo "vm.sh: (a slower test can ask for more: --timeout SEC, or '# vm: timeout=SEC' in its header)" >&2
		echo "vm.sh: last lines of the guest console ($console):" >&2
		tail -n 20 "$console" | tr -d '\r' | sed 's/^/vm.sh:   /' >&2
		watchdog_report "$d"
		return 124
	fi
	if [ ! -s "$d/.vm/rc" ]; then
		echo "vm.sh: error: $s: the guest stopped without reporting an exit status (QEMU status $qrc)." >&2
		echo "vm.sh: last lines of the guest console ($console):" >&2
		tail -n 30 "$console" | tr -d '\r' | sed 's/^/vm.sh:   /' >&2
		sed 's/^/vm.sh: qemu: /' "$jobdir/qemu.log" >&2
		return 125
	fi
	rc=$(cat "$d/.vm/rc")
	h0=$(date +%s%N)

	# The host steps the guest asked for (tap_on_host): natively, after it.
	if [ -s "$d/.vm/host-steps" ]; then
		set +e
		(cd "$TIPME_ROOT" &&
			TIPME_SRC=$TIPME_ROOT TIPME_OUT=$d KVER=$kver TIPME_HOST_STEPS= \
			timeout -k 5 "$t" bash -c 'rc=0
				while IFS= read -r step; do eval "$step" || rc=1; done < "$1"
				exit "$rc"' host-steps "$d/.vm/host-steps") </dev/null 2>&1
		hrc=$?
		set -e
		if [ "$hrc" = 124 ] || [ "$hrc" = 137 ]; then
			echo "vm.sh: TIMEOUT: the host steps of $s did not finish within ${t}s" >&2
		fi
		[ "$hrc" = 0 ] || [ "$rc" != 0 ] || rc=$hrc
	fi
	# how long it took: alone, from QEMU's start; in a batch, its time in
	# the guest and its host steps
	if [ -z "$batch" ]; then
		ms=$((($(date +%s%N) - start) / 1000000))
	else
		ms=$(awk '{ printf "%d", ($2 - $1) * 1000 }' "$d/.vm/guest-time" 2>/dev/null) || ms=0
		ms=$((${ms:-0} + ($(date +%s%N) - h0) / 1000000))
	fi
	printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000)) >"$d/.vm/seconds"
	# ... and in the cache, by kernel and test, where tests/vm/run.sh and
	# scripts/kernels.sh find it to start the longest first (a fresh clone too)
	if mkdir -p "$TIPME_CACHE/vm/seconds/$kver" 2>/dev/null; then
		cp "$d/.vm/seconds" "$TIPME_CACHE/vm/seconds/$kver/${names[k]}" 2>/dev/null || true
	fi

	if [ "${checks[k]}" = 1 ]; then
		bad=$(grep -E 'WARNING|BUG|Oops|Call Trace|general protection' "$d/dmesg.txt" || true)
		if [ -n "$bad" ]; then
			echo "vm.sh: guest kernel log of $s has warnings ($d/dmesg.txt):" >&2
			printf '%s\n' "$bad" | sed 's/^/vm.sh:   /' >&2
			[ "$rc" != 0 ] || rc=1
		fi
	fi
	return "$rc"
}

if [ -z "$batch" ]; then
	finish 0 && exit 0 || exit $?
fi
# A batch: each script's output and findings into DIR/NAME.log, its exit
# status into DIR/NAME.rc, in turn
brc=0
for k in "${!scripts[@]}"; do
	d=${dirs[k]}
	cp "$console" "$d/console.log" 2>/dev/null || true
	{
		cat "$d/.vm/stream" 2>/dev/null
		finish "$k" && rc=0 || rc=$?
		echo "$rc" >"$d/.vm/status"
	} >>"$share/${names[k]}.log" 2>&1
	rc=$(cat "$d/.vm/status")
	echo "$rc" >"$share/${names[k]}.rc.tmp"
	mv "$share/${names[k]}.rc.tmp" "$share/${names[k]}.rc"
	[ "$rc" = 0 ] || brc=1
done
exit "$brc"
