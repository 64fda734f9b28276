#!/bin/bash
# make bench: tipme.ko against ftrace, LTTng, perf and bpftrace in one
# QEMU guest, counted in guest instructions; the ring's fast path timed
# natively in User Mode Linux; the host's own event rate for the history
# figure.
#
#   bench/tracers/run.sh [--tracers LIST] [--reps N] [--no-doc] [--profile]
#   bench/tracers/run.sh --variants [--reps N] [--no-doc]
#
# LIST is a comma-separated subset of none,tipme,tipme-local,ftrace,perf,
# bpftrace,lttng and tipme's variants tipme-ustack-on, tipme-ustack-off
# (user_stacks=1 and 0), tipme-prof (the profiler at 99 Hz) and
# tipme-pool (pool=1)
# (none and ftrace are always kept: they are the baseline and the event
# count; the default is all but tipme-ustack-on, which is tipme).  Writes
# build/bench/tracers/result.json and, unless --no-doc,
# the generated part of Documentation/performance.md (with the analyses'
# speed from bench/analysis-speed.sh).  Last line:
# "RESULT {json}".
#
# --variants runs only tipme's variants against none and ftrace (issue
# 29's goals: bytes per switch with user chains on, the default against
# ftrace) into build/bench/tracers-variants/, without the native part,
# and rewrites only their table in the document.
#
# --profile also counts instructions per kernel block (tipme and ftrace,
# one turn, no desktop load, dump or native part, no document): then
# bench/tracers/profile.py build/bench/tracers-profile tipme pingpong shows where
# tipme's instructions go, function by function.
#
# What it fetches, once, into $TIPME_CACHE/bench/ (never into the machine's
# package database): QEMU's plugin header from Debian's qemu source
# package (apt-get source with a private sources list) and lttng-modules
# from Debian's lttng-modules-dkms, built against the stock kernel's
# headers.  The tracers' user-space tools come from scripts/deps.sh --bench.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"
cd "$TIPME_ROOT"

tracers=none,tipme,tipme-local,tipme-ustack-off,tipme-prof,tipme-pool,ftrace,perf,bpftrace,lttng
reps=3 doc=1 profile='' variants=''
while [ $# -gt 0 ]; do
	case $1 in
	--tracers) tracers=none,ftrace,${2:?}; shift 2 ;;
	--variants) variants=1 tracers=none,ftrace,tipme-ustack-on,tipme-ustack-off,tipme-prof,tipme-pool; shift ;;
	--reps) reps=${2:?}; shift 2 ;;
	--no-doc) doc=; shift ;;
	--profile) profile=1 tracers=none,ftrace,tipme,tipme-local reps=1 doc=; shift ;;
	-h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

cache=$TIPME_CACHE/bench
out=$TIPME_ROOT/build/bench/tracers${profile:+-profile}${variants:+-variants}
mkdir -p "$cache" "$out"
kver=$(tipme_kver) || die "no stock kernel (run scripts/deps.sh)"
# the other tracers' tools only when they run (--variants needs none)
case ,$tracers, in
*,perf,* | *,bpftrace,* | *,lttng,*) scripts/deps.sh --bench >&2 ;;
*) scripts/deps.sh >&2 ;;
esac

# --- QEMU's plugin API header, from the source of the QEMU we run.
apt_private() { # the private apt configuration under $cache/apt
	local d=$cache/apt
	mkdir -p "$d/lists/partial" "$d/archives/partial"
	local key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb-src [signed-by=$key] http://deb.debian.org/debian bookworm main"
		echo "deb-src [signed-by=$key] http://deb.debian.org/debian bookworm-updates main"
		echo "deb-src [signed-by=$key] http://deb.debian.org/debian-security bookworm-security main"
	} >"$d/sources.list"
	echo -o "Dir::Etc::sourcelist=$d/sources.list" -o Dir::Etc::sourceparts=- \
		-o "Dir::State::lists=$d/lists" -o "Dir::Cache::archives=$d/archives"
}
qver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86)
hdr=$cache/qemu-${qver//:/_}/qemu-plugin.h
if [ ! -s "$hdr" ]; then
	note "fetching QEMU $qver's source for its plugin header"
	# shellcheck disable=SC2046
	set -- $(apt_private)
	apt-get "$@" update -q >"$cache/apt.log" 2>&1 || die "apt-get update failed ($cache/apt.log)"
	rm -rf "$cache/qemu-src" && mkdir -p "$cache/qemu-src"
	(cd "$cache/qemu-src" && apt-get "$@" source --download-only "qemu=$qver") \
		>>"$cache/apt.log" 2>&1 || die "apt-get source qemu=$qver failed ($cache/apt.log)"
	mkdir -p "$(dirname "$hdr")"
	tar -xJOf "$cache"/qemu-src/qemu_*.orig.tar.xz --wildcards '*/include/qemu/qemu-plugin.h' >"$hdr.tmp"
	mv "$hdr.tmp" "$hdr"
	rm -rf "$cache/qemu-src"
fi
plugin=$TIPME_ROOT/build/bench/insncount.so
if [ ! -e "$plugin" ] || [ bench/tracers/insncount.c -nt "$plugin" ] || [ "$hdr" -nt "$plugin" ]; then
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -shared -I"$(dirname "$hdr")" \
		-o "$plugin" bench/tracers/insncount.c
fi

# --- lttng-modules for the stock kernel.
lt=$cache/lttng-$kver
if [[ ,$tracers, == *,lttng,* ]] && [ ! -e "$lt/.built" ]; then
	note "building lttng-modules against $kver"
	rm -rf "$lt" && mkdir -p "$lt"
	(cd "$lt" && apt-get download lttng-modules-dkms) >"$lt.log" 2>&1 ||
		die "apt-get download lttng-modules-dkms failed ($lt.log)"
	dpkg -x "$lt"/lttng-modules-dkms_*.deb "$lt/root"
	src=$(echo "$lt"/root/usr/src/lttng-modules-*)
	# Debian 12's kernel has a backported hrtimer_start tracepoint that
	# lttng-modules 2.13.9 does not know: leave the timer probe out (tipme
	# records no timer events either).
	sed -i 's/^obj-\$(CONFIG_LTTNG) += lttng-probe-timer\.o/# &/' "$src/src/probes/Kbuild"
	make -C "$src" KERNELDIR="/lib/modules/$kver/build" -j"$(nproc)" >>"$lt.log" 2>&1 ||
		die "lttng-modules did not build against $kver ($lt.log)"
	ln -sfn "$src" "$lt/build"
	touch "$lt/.built"
fi

make -s module all build/bench/tipme-tracer-load build/bench/poolwin >&2

# --- the guest: instructions and bytes per tracer.
note "guest run: tracers $tracers, $reps turns"
# An Intel vendor makes the guest's TSC constant (TCG never offers
# nonstop_tsc, hence tipme's clock=tsc; see guest.py).
tests/vm/vm.sh --timeout 3000 --mem 2048 --smp 2 --cpu max,vendor=GenuineIntel \
	--plugin "$plugin,out=$out/vm/insn.log${profile:+,profile=$out/vm/insn.prof}" \
	--out "$out/vm" bench/tracers/guest.py "$tracers" "$reps" ${profile:+profile} |
	tee "$out/guest.log"
grep '^RESULT ' "$out/guest.log" | tail -n 1 | cut -d' ' -f2- >"$out/guest.json"
[ -s "$out/guest.json" ] || die "the guest printed no RESULT line ($out/guest.log)"
if [ -n "$profile" ]; then
	for t in tipme tipme-local; do
		python3 bench/tracers/profile.py --top 15 "$out" "$t" pingpong
	done
	exit 0
fi
if [ -n "$variants" ]; then
	if [ -n "$doc" ]; then
		python3 bench/tracers/report.py --variants-doc Documentation/performance.md \
			"$out/guest.json"
	fi
	echo "RESULT $(cat "$out/guest.json")"
	exit 0
fi

# --- natively: the fast path in UML, the desktop load's switch rate.
note "native: tipme_ringbench in UML, the desktop load's switch rate"
python3 bench/tracers/native.py "$out/guest.json" >"$out/native.json"
# The analyses over a full 64 MiB dump, natively (bench/analysis-speed.sh
# makes the dump in QEMU once and keeps it in $TIPME_CACHE/bench/).
note "native: the analyses over a full dump"
bench/analysis-speed.sh >"$out/analysis.log" 2>&1 ||
	die "bench/analysis-speed.sh failed ($out/analysis.log)"
grep '^RESULT ' "$out/analysis.log" | tail -n 1 | cut -d' ' -f2- >"$out/analysis.json"

python3 bench/tracers/report.py ${doc:+--doc Documentation/performance.md} \
	"$out/guest.json" "$out/native.json" "$out/analysis.json" >"$out/result.json"
# The busy CPU's window with one pool for the machine, per-CPU rings and
# ftrace, in guests of 8 and 64 vCPUs (bench/pool-window.sh), its own
# block of the document
note "guest runs: the busy CPU's window (bench/pool-window.sh)"
bench/pool-window.sh $([ -n "$doc" ] || echo --no-doc) >"$out/pool-window.log" 2>&1 ||
	die "bench/pool-window.sh failed ($out/pool-window.log)"
# ... and over a synthetic 64 MiB dump written natively (build/tipme-bigdump),
# its own table in the document
note "native: the analyses over a synthetic dump"
bench/analysis-speed.sh --synthetic >"$out/analysis-synthetic.log" 2>&1 ||
	die "bench/analysis-speed.sh --synthetic failed ($out/analysis-synthetic.log)"
grep '^RESULT ' "$out/analysis-synthetic.log" | tail -n 1 | cut -d' ' -f2- \
	>"$out/analysis-synthetic.json"
if [ -n "$doc" ]; then
	python3 bench/tracers/report.py --analysis-doc Documentation/performance.md \
		"$out/analysis-synthetic.json"
fi
echo "RESULT $(cat "$out/result.json")"
