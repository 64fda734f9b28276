#!/usr/bin/env python3
"""Inside the VM (bench/tracers/run.sh): tipme.ko against ftrace, LTTng,
perf and bpftrace, same kernel, same workloads, same boot.

QEMU runs the insncount plugin, so every workload is measured in guest
instructions (deterministic up to timer interrupts), not emulated time.
Each tracer records the same tracepoints tipme attaches to, into 64 MiB in
all.  Per workload and tracer, three runs in turns; the medians are kept.

Prints a report and, last, "RESULT {json}" (the host adds the native
figures and writes Documentation/performance.md from it).
"""
import json, os, re, signal, statistics, subprocess, sys, time
from loadstat import load_switches  # bench/tracers/loadstat.py, beside this file
from pairs import summarize  # bench/tracers/pairs.py, beside it too

SRC = os.environ["TIPME_SRC"]
CACHE = os.environ["TIPME_CACHE"]  # the host's (scripts/lib/common.sh), from vm.sh
B = f"{SRC}/build"
OUT = os.environ["TIPME_OUT"]
KVER = os.environ["KVER"]
T = "/sys/kernel/tracing"
MARKS = f"{OUT}/insn.log"
LOAD = f"{B}/bench/tipme-tracer-load"
SMPBENCH = f"{B}/bench/smpbench"
BUF_MIB = 64
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
NCPU = os.cpu_count()
WORKLOADS = {
    "pingpong": ["pingpong", "20000"],
    "messaging": ["messaging", "2", "50"],
    "forkexec": ["forkexec", "200"],
}
ONLY = (sys.argv[1] if len(sys.argv) > 1 else
        "none,tipme,tipme-local,tipme-ustack-off,tipme-prof,tipme-pool,ftrace,perf,bpftrace,lttng"
        ).split(",")
# "profile": QEMU also profiles kernel blocks (run.sh --profile); keep the
# symbols of each tipme.ko load, and skip the desktop load and the dump.
# "nodesktop": the instructions per event alone, without the desktop load
# (tests/vm/vm.sh ... bench/tracers/guest.py none,ftrace,tipme-pool 1 nodesktop)
FLAGS = sys.argv[3].split(",") if len(sys.argv) > 3 else []
PROFILE = "profile" in FLAGS
NODESKTOP = "nodesktop" in FLAGS
if PROFILE:     # the sampler's cost, by function (the full run measures it apart)
    WORKLOADS["idle"] = ["idle", "2000", "4"]

# The tracepoints tipme.ko attaches to (module/probes/*.c), by subsystem.
EVENTS = [
    ("sched", "sched_switch"), ("sched", "sched_waking"),
    ("sched", "sched_process_exec"), ("sched", "sched_process_exit"),
    ("task", "task_newtask"), ("task", "task_rename"),
    ("block", "block_rq_insert"), ("block", "block_rq_issue"),
    ("block", "block_rq_complete"),
    ("lock", "contention_begin"), ("lock", "contention_end"),
    ("vmscan", "mm_vmscan_direct_reclaim_begin"),
    ("vmscan", "mm_vmscan_direct_reclaim_end"),
    ("vmscan", "mm_vmscan_memcg_reclaim_begin"),
    ("vmscan", "mm_vmscan_memcg_reclaim_end"),
    ("vmscan", "mm_vmscan_kswapd_wake"), ("vmscan", "mm_vmscan_wakeup_kswapd"),
    ("vmscan", "mm_vmscan_throttled"),
]


def sh(cmd, **kw):
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True, **kw)
    if p.returncode:
        raise RuntimeError(f"{cmd}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def wr(path, val):
    with open(path, "w") as f:
        f.write(str(val))


def log(msg):
    print(f"# {msg}", flush=True)


if not os.path.isdir(f"{T}/events"):
    sh(f"mount -t tracefs nodev {T}")
EVENTS = [e for e in EVENTS if os.path.isdir(f"{T}/events/{e[0]}/{e[1]}")]


def ftrace_stats():
    ent = ovr = byt = 0
    for c in range(NCPU):
        st = open(f"{T}/per_cpu/cpu{c}/stats").read()
        ent += int(re.search(r"^entries: (\d+)", st, re.M).group(1))
        ovr += int(re.search(r"^overrun: (\d+)", st, re.M).group(1))
        byt += int(re.search(r"^bytes: (\d+)", st, re.M).group(1))
    return ent, ovr, byt


class Tracer:
    """start() before the marks, stop() after; stop returns the bytes the
    tracer put in its buffer during the run (None: not measurable) and a
    dict of extra figures."""
    name = "none"

    def setup(self):
        pass

    def start(self):
        pass

    def stop(self):
        return 0, {}

    def teardown(self):
        pass


class Tipme(Tracer):
    """tipme.ko with its defaults, and the clock given: "tsc" is what a
    workstation's invariant TSC makes clock=auto choose (TCG offers
    constant_tsc with vendor=GenuineIntel but never nonstop_tsc, so auto
    would not); "local" is local_clock(), tipme's clock on machines without
    a stable TSC (as "tipme-local")."""
    name = "tipme"
    clock = "tsc"
    params = ""
    ko = f"{SRC}/module/tipme.ko"
    loads = 0

    def setup(self):
        sh(f"insmod {self.ko} buffer_size={BUF_MIB}M autostart=0 clock={self.clock}"
           + self.params)
        if PROFILE:
            Tipme.loads += 1
            sh(f"cat /proc/kallsyms > {OUT}/kallsyms-tipme-{Tipme.loads}.txt")

    def _status(self):
        st = json.loads(sh(f"{B}/tipme status --json"))
        return (sum(c["bytes"] for c in st["cpus"]),
                sum(c["written"] for c in st["cpus"]),
                sum(c["dropped"] for c in st["cpus"]))

    def start(self):
        self.before = self._status()
        sh(f"{B}/tipme start")

    def stop(self):
        sh(f"{B}/tipme stop")
        after = self._status()
        d = [a - b for a, b in zip(after, self.before)]
        return d[0], {"records": d[1], "dropped": d[2]}

    def teardown(self):
        sh("rmmod tipme")


class TipmeLocal(Tipme):
    name = "tipme-local"
    clock = "local"


class TipmeUstackOn(Tipme):
    """User-space call chains on and off (the user_stacks parameter), the
    pair that measures what they cost: bench/tracers/run.sh --tracers
    tipme-ustack-on,tipme-ustack-off."""
    name = "tipme-ustack-on"
    params = " user_stacks=1"


class TipmeBase(TipmeUstackOn):
    """The default as another commit built it, for a before/after in one
    guest run: build/base/tipme.ko, which the host builds by hand (e.g.
    `git archive COMMIT | tar -x -C DIR && make -C DIR module`, then
    DIR/module/tipme.ko copied there)."""
    name = "tipme-base"
    ko = f"{B}/base/tipme.ko"


class TipmeUstackOff(Tipme):
    name = "tipme-ustack-off"
    params = " user_stacks=0"


class TipmeProf(Tipme):
    """The on-CPU profiler on at 99 Hz per CPU (profile_hz; off by
    default), against "tipme" with the same defaults otherwise:
    bench/tracers/run.sh --tracers tipme,tipme-prof (which adds
    none and ftrace)."""
    name = "tipme-prof"
    params = " profile_hz=99"


class TipmePool(Tipme):
    """Every CPU's ring drawing from one pool (pool=1, issue 31), against
    "tipme" with per-CPU rings: the fast path is the same, the slow path
    (a sub-buffer taken from the pool and one given back) is not."""
    name = "tipme-pool"
    params = " pool=1"


class Ftrace(Tracer):
    name = "ftrace"

    def setup(self):
        wr(f"{T}/tracing_on", 0)
        wr(f"{T}/buffer_size_kb", BUF_MIB * 1024 // NCPU)
        for sub, ev in EVENTS:
            wr(f"{T}/events/{sub}/{ev}/enable", 1)

    def start(self):
        wr(f"{T}/trace", "")
        wr(f"{T}/tracing_on", 1)

    def stop(self):
        wr(f"{T}/tracing_on", 0)
        ent, ovr, byt = ftrace_stats()
        return byt, {"records": ent + ovr, "overrun": ovr}

    def teardown(self):
        for sub, ev in EVENTS:
            wr(f"{T}/events/{sub}/{ev}/enable", 0)
        wr(f"{T}/trace", "")
        wr(f"{T}/buffer_size_kb", 1408)


class Perf(Tracer):
    """perf record of the same tracepoints, system-wide, started disabled
    and switched on and off through its control FIFO (acknowledged, so no
    guessing when it is ready)."""
    name = "perf"

    def start(self):
        for f in ("/tmp/perf.ctl", "/tmp/perf.ack"):
            if not os.path.exists(f):
                os.mkfifo(f)
        evs = ",".join(f"{s}:{e}" for s, e in EVENTS)
        pages = BUF_MIB * 1024 * 1024 // NCPU // 4096
        self.p = subprocess.Popen(
            ["perf", "record", "-q", "-a", "-D", "-1", "-m", str(pages),
             "--control", "fifo:/tmp/perf.ctl,/tmp/perf.ack",
             "-e", evs, "-o", "/tmp/perf.data"],
            stdout=subprocess.DEVNULL, stderr=open("/tmp/perf.err", "w"))
        self.ctl = open("/tmp/perf.ctl", "w")
        self.ack = open("/tmp/perf.ack", "r")
        self._cmd("enable")

    def _cmd(self, what):
        self.ctl.write(what + "\n")
        self.ctl.flush()
        a = self.ack.readline()
        if "ack" not in a:
            raise RuntimeError(f"perf did not acknowledge {what}: {a!r}")

    def stop(self):
        self._cmd("disable")
        self.p.send_signal(signal.SIGINT)
        self.p.wait()
        self.ctl.close()
        self.ack.close()
        with open("/tmp/perf.data", "rb") as f:
            hdr = f.read(64)
        data_size = int.from_bytes(hdr[48:56], "little")
        err = open("/tmp/perf.err").read()
        lost = re.search(r"(\d+) (?:events|chunks) LOST", err)
        return data_size, {"lost": int(lost.group(1)) if lost else 0}


class Bpftrace(Tracer):
    """bpftrace keeping the same fields per event in a BPF hash map used
    as a ring (slot = a running count modulo its size), the way a
    bpftrace flight recorder would: printing every event instead makes
    bpftrace wake for each one, which feeds back into the scheduler events
    it traces.  Bytes: key and value written per event (8 + 40)."""
    name = "bpftrace"
    SLOTS = BUF_MIB * 1024 * 1024 // 64

    def start(self):
        probes = []
        for sub, ev in EVENTS:
            if ev == "sched_switch":
                f = ["args->prev_pid", "args->next_pid", "args->prev_state"]
            elif ev == "sched_waking":
                f = ["args->pid", "args->target_cpu", "0"]
            else:
                f = ["tid", "0", "0"]
            f = ", ".join(f"(int64){x}" for x in f)
            probes.append(f"tracepoint:{sub}:{ev} {{ @ring[@n % {self.SLOTS}] = "
                          f"(nsecs, (uint64)cpu, {f}); @n = @n + 1; }}")
        prog = ('BEGIN { printf("ready\\n"); } ' + " ".join(probes) +
                ' END { printf("records %d\\n", @n); clear(@ring); clear(@n); }')
        env = dict(os.environ, BPFTRACE_MAP_KEYS_MAX=str(self.SLOTS))
        self.p = subprocess.Popen(["bpftrace", "-B", "line", "-e", prog], env=env, text=True,
                                  stdout=subprocess.PIPE,
                                  stderr=open("/tmp/bpftrace.err", "w"))
        # BEGIN runs once every probe is attached: wait for its line.
        for line in self.p.stdout:
            if line.startswith("ready"):
                break
        else:
            raise RuntimeError("bpftrace: " + open("/tmp/bpftrace.err").read()[-600:])

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        rest = self.p.stdout.read()
        self.p.wait()
        m = re.search(r"^records (\d+)", rest, re.M)
        if not m:
            raise RuntimeError("bpftrace: no record count: " + open("/tmp/bpftrace.err").read())
        n = int(m.group(1))
        return 48 * n, {"records": n}


class Lttng(Tracer):
    """LTTng (lttng-modules built against this kernel by run.sh) in
    snapshot mode: the flight-recorder setup.  Bytes: what a snapshot of
    the channel's buffers writes."""
    name = "lttng"

    daemon = False

    def setup(self):
        if not Lttng.daemon:
            dst = f"/lib/modules/{KVER}/updates/lttng"
            os.makedirs(dst, exist_ok=True)
            sh(f"find {CACHE}/bench/lttng-{KVER}/build/src -name '*.ko' -exec cp {{}} {dst}/ \\;")
            sh("depmod -a")
            sh("lttng-sessiond -d")
            Lttng.daemon = True
        sub = 1024 * 1024
        self.nsub = BUF_MIB * 1024 * 1024 // NCPU // sub
        sh("lttng create bench --snapshot -o /tmp/lttng")
        sh(f"lttng enable-channel -k --subbuf-size={sub} --num-subbuf={self.nsub} ch")
        have = sh("lttng list -k")
        self.events = [e for _, e in EVENTS if re.search(rf"^\s*{e} ", have, re.M)]
        self.missing = [e for _, e in EVENTS if e not in self.events]
        sh(f"lttng enable-event -k -c ch {','.join(self.events)}")

    def start(self):
        sh("rm -rf /tmp/lttng/snap")
        sh("lttng start")

    def stop(self):
        sh("lttng stop")
        sh("lttng snapshot record file:///tmp/lttng/snap")
        byt = int(sh("du -sb /tmp/lttng/snap | cut -f1"))
        sh("lttng clear")
        return byt, {"missing_events": self.missing}

    def teardown(self):
        sh("lttng destroy bench")


TRACERS = [c() for c in (Tracer, Tipme, TipmeLocal, TipmeUstackOn, TipmeBase, TipmeUstackOff,
                         TipmeProf, TipmePool, Ftrace, Perf, Bpftrace, Lttng)
           if c.name in ONLY]


def run_load(args):
    # The last line is the load program's; a command it ran may print first.
    return json.loads(sh(" ".join([LOAD, MARKS] + args)).strip().splitlines()[-1])


def measure(tr, args):
    tr.start()
    r = run_load(args)
    byt, extra = tr.stop()
    r.update(extra)
    r["bytes"] = byt
    return r


# --- instructions: every workload under every tracer, REPS turns.
runs = {tr.name: {w: [] for w in WORKLOADS} for tr in TRACERS}
for w, args in WORKLOADS.items():
    run_load(args)       # warm up: page cache, first translations
for rep in range(REPS):
    for tr in TRACERS:
        tr.setup()
        for w, args in WORKLOADS.items():
            r = measure(tr, args)
            runs[tr.name][w].append(r)
            log(f"rep {rep} {tr.name:8} {w:10} insn={r['insn']} ctxt={r['ctxt']} "
                f"bytes={r['bytes']} " + " ".join(f"{k}={v}" for k, v in r.items()
                                                  if k not in ("workload", "insn", "kernel_insn", "ctxt", "bytes")))
        tr.teardown()

# --- a desktop-like load: a parallel build (two gcc at a time) and an
# interactive task waking every 16 ms.  Bytes per switch of the load's own
# tasks here, times their switch rate natively under the same load
# (native.py, counted the same way), gives the history 64 MiB holds.
DESKTOP_FILES = sorted(f"lib/{f}" for f in os.listdir(f"{SRC}/lib") if f.endswith(".c"))[:6]
DESKTOP_BUILD = (f"printf '%s\\n' {' '.join(DESKTOP_FILES)} | xargs -P2 -I@ "
                 "gcc -O1 -std=c11 -D_GNU_SOURCE -Iinclude/uapi -Iinclude -Ilib -c @ -o /dev/null")


def desktop():
    s0, c0 = load_switches(), run_ctxt()
    per = subprocess.Popen([LOAD, "-", "periodic", "16", "3600"])
    sh(DESKTOP_BUILD, cwd=SRC)
    per.terminate()
    per.wait()
    return load_switches() - s0, run_ctxt() - c0


def run_ctxt():
    for line in open("/proc/stat"):
        if line.startswith("ctxt "):
            return int(line.split()[1])


res_desktop = {}
for tr in ([] if PROFILE or NODESKTOP else TRACERS):
    tr.setup()
    tr.start()
    n, ctxt = desktop()
    byt, extra = tr.stop()
    tr.teardown()
    res_desktop[tr.name] = {"load_switches": n, "ctxt": ctxt, "bytes": byt,
                            "bytes_per_switch": round(byt / ctxt, 1) if byt is not None else None,
                            "bytes_per_load_switch": round(byt / n, 1) if byt is not None else None}
    log(f"desktop {tr.name:8} load_switches={n} ctxt={ctxt} bytes={byt}")

# --- reading a full 64 MiB buffer out: tipme's dump against a minimal C
# reader of ftrace's trace_pipe_raw, instructions and (emulated) seconds.
dump = {}
if "tipme" in ONLY and not PROFILE:
    t = Ftrace()
    t.setup()
    t.start()
    while True:
        run_load(WORKLOADS["pingpong"])
        ent, ovr, byt = ftrace_stats()
        if ovr > 0:
            break
    wr(f"{T}/tracing_on", 0)
    r = run_load(["readraw", "/tmp/ftrace.raw"])
    dump["ftrace_raw_read_bytes"] = os.path.getsize("/tmp/ftrace.raw")
    dump["ftrace_raw_read_s"] = round(r["seconds"], 3)
    dump["ftrace_raw_read_insn"] = r["insn"]
    t.teardown()
    os.unlink("/tmp/ftrace.raw")
    sh(f"insmod {SRC}/module/tipme.ko buffer_size={BUF_MIB}M clock=tsc")
    # The first dump of a boot (or after a module came or went) reads the
    # kernel's symbols from /proc/kallsyms; later ones take them from
    # /run/tipme/symbols.cache.  Counted apart, on nearly empty rings.
    sh("rm -rf /run/tipme")
    r = run_load(["exec", f"{B}/tipme", "dump", "-o", "/tmp/first.dump"])
    dump["first_dump_empty_insn"] = r["insn"]
    os.unlink("/tmp/first.dump")
    while True:
        run_load(WORKLOADS["pingpong"])
        st = json.loads(sh(f"{B}/tipme status --json"))
        if all(c["overwritten"] > 0 for c in st["cpus"]):
            break
    # A trigger freezes the full rings; the dump reads and thaws them.
    wr("/proc/sys/tipme/trigger", 1)
    sh(f"{B}/tipme stop")
    lines = sh(" ".join([LOAD, MARKS, "exec", f"{B}/tipme", "dump", "--json",
                         "-o", "/tmp/full.dump"])).strip().splitlines()
    r = json.loads(lines[-1])
    dump["tipme_read"] = next((json.loads(l)["read"] for l in lines[:-1]
                               if l.startswith("{") and '"read"' in l), None)
    params = json.loads(sh(f"{B}/tipme info --json /tmp/full.dump"))["params"]
    if params.get("freeze_ns_last"):
        dump["trigger_to_frozen_us"] = round(int(params["freeze_ns_last"]) / 1000, 1)
    dump["bytes"] = os.path.getsize("/tmp/full.dump")
    dump["tipme_s"] = round(r["seconds"], 3)
    dump["tipme_insn"] = r["insn"]
    dump["insn_ratio_tipme_over_ftrace"] = round(
        (r["insn"] / dump["bytes"]) / (dump["ftrace_raw_read_insn"] / dump["ftrace_raw_read_bytes"]), 2)
    sh("rmmod tipme")
    os.unlink("/tmp/full.dump")
    log(f"dump {dump}")

# --- the sampler with 2,000 threads: what tipme adds while they sleep and
# nothing else happens, per sampler round (its rounds are counted from the
# seq of the dump's sample_end records around the marks).
sampler = {}
if "tipme" in ONLY and not PROFILE:
    SAMPLER_THREADS, SAMPLER_S = 2000, 4
    idle_args = ["idle", str(SAMPLER_THREADS), str(SAMPLER_S)]
    run_load(idle_args)     # warm up
    none_insn = [run_load(idle_args)["insn"] for _ in range(REPS)]
    # What turns instructions into time: the sampler's full round as user
    # space code (smpbench, the module's own table and update code over
    # objects laid out like task_struct), whose time per thread native.py
    # measures; here its instructions per thread (600 rounds less 100:
    # without its set-up).
    smp = [run_load(["exec", SMPBENCH, str(SAMPLER_THREADS), str(n), "warm"])["insn"]
           for n in (100, 600)]
    smp_insn_per_thread = (smp[1] - smp[0]) / (500 * SAMPLER_THREADS)
    sh(f"insmod {SRC}/module/tipme.ko buffer_size=16M clock=tsc")
    per_round, rounds_all, full_all, threads_full, threads_part = [], [], [], [], []
    for _ in range(REPS):
        r = run_load(idle_args)
        sh(f"{B}/tipme dump -o /tmp/idle.dump")
        ends = [json.loads(line) for line in
                sh(f"{B}/tipme records --json -t sample_end /tmp/idle.dump").splitlines()]
        os.unlink("/tmp/idle.dump")
        # A quiet round writes no sample_end, so rounds are counted by
        # seq: from the last one before the first mark to the one before
        # the first after the second mark (the threads' start before the
        # first mark and their exit after the second make those rounds
        # write).
        before = [e for e in ends if e["mono_ns"] < r["mono0_ns"]]
        after = [e for e in ends if e["mono_ns"] > r["mono1_ns"]]
        ends = [e for e in ends if r["mono0_ns"] <= e["mono_ns"] <= r["mono1_ns"]]
        if not ends:
            raise RuntimeError("no sampler round between the marks")
        last = after[0]["seq"] - 1 if after else ends[-1]["seq"]
        rounds = last - (before[-1]["seq"] if before else ends[0]["seq"] - 1)
        full = [e for e in ends if e["full"]]
        part = [e for e in ends if not e["full"]]
        per_round.append((r["insn"] - statistics.median(none_insn)) / rounds)
        rounds_all.append(rounds)
        full_all.append(len(full))
        threads_full += [e["threads"] for e in full]
        threads_part += [e["threads"] for e in part]
    sh("rmmod tipme")
    sampler = {"threads": SAMPLER_THREADS, "seconds": SAMPLER_S,
               "smpbench_insn_per_thread": round(smp_insn_per_thread, 1),
               "insn_none": none_insn, "insn_per_round_runs": [round(x) for x in per_round],
               "insn_per_round": round(statistics.median(per_round)),
               "rounds": rounds_all, "full_rounds": full_all,
               "threads_per_full_round": round(statistics.median(threads_full)) if threads_full else 0,
               "threads_per_round_between": round(statistics.median(threads_part), 1)
               if threads_part else 0}
    log(f"sampler {sampler}")

med = lambda xs: statistics.median(xs)
res = {"cpus": NCPU, "kernel": KVER, "buffer_mib": BUF_MIB, "reps": REPS,
       "workloads": {w: " ".join(a) for w, a in WORKLOADS.items()},
       "events": [e for _, e in EVENTS], "runs": runs, "tracers": {},
       "desktop": res_desktop, "desktop_build": DESKTOP_BUILD, "dump": dump,
       "sampler": sampler,
       "lttng_missing_events": next((t.missing for t in TRACERS if t.name == "lttng"), None)}
# The denominator: tracepoint hits of the run, counted by ftrace (every hit
# of the enabled events is one ftrace record; its overruns are counted too).
events = {w: med([r["records"] for r in runs["ftrace"][w]]) for w in WORKLOADS} \
    if "ftrace" in runs else None
res["events_per_workload"] = events
# Each tracer's runs against the run without a tracer of the same turn
# (pairs.py says why).
res["tracers"] = summarize(runs, events)
print("\ninstructions added per traced event (median of %d turns, each against the turn's "
      "run without a tracer; events counted by ftrace)" % REPS)
print(f"{'tracer':10}" + "".join(f"{w:>12}" for w in WORKLOADS) + f"{'all':>10}{'B/switch':>10}")
for name, t in res["tracers"].items():
    print(f"{name:10}" + "".join(f"{t['workloads'][w]['insn_per_event']!s:>12}" for w in WORKLOADS)
          + f"{t.get('insn_per_event')!s:>10}{t['bytes_per_switch']!s:>10}")
print("RESULT " + json.dumps(res), flush=True)
