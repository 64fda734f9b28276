#!/usr/bin/env python3
"""Inside the VM (bench/recorder-vs-ftrace.sh): tipme.ko against ftrace,
same kernel, same workload, same run.

1. Bytes per record for sched_switch + sched_waking.
2. The cost the recorder adds to a scheduler-heavy workload (pipe
   ping-pong): time with no tracer, with tipme, with ftrace.
3. Reading a full buffer out: tipme dump of BUF MiB vs reading the same
   amount from ftrace's per-CPU trace_pipe_raw.
Prints a report and a JSON line (prefix "RESULT ").
"""
import json, os, re, subprocess, sys, time

SRC = os.environ["TIPME_SRC"]
B = f"{SRC}/build"
OUT = os.environ.get("TIPME_OUT", "/tmp")
T = "/sys/kernel/tracing"
BUF_MB = int(sys.argv[1]) if len(sys.argv) > 1 else 64
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
ncpu = os.cpu_count()


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, check=True, capture_output=True, text=True, **kw).stdout


def wr(path, val):
    with open(path, "w") as f:
        f.write(str(val))


def workload(rounds=ROUNDS):
    t0 = time.monotonic()
    sh(f"{B}/tests/vm/pingpong {rounds} 0")
    return time.monotonic() - t0


def best(n=3, rounds=ROUNDS):
    return min(workload(rounds) for _ in range(n))


if not os.path.isdir(T):
    sh("mount -t tracefs nodev /sys/kernel/tracing")
res = {"buffer_mib": BUF_MB, "rounds": ROUNDS, "cpus": ncpu}

# --- cost on a scheduler-heavy workload: no tracer, tipme, ftrace, run
# in turns (5 each, medians) so drift in the emulator hits all three alike.
import statistics
sh(f"insmod {SRC}/module/tipme.ko buffer_size={BUF_MB}M clock=tsc autostart=0")
wr(f"{T}/tracing_on", 0)
wr(f"{T}/buffer_size_kb", BUF_MB * 1024 // ncpu)
wr(f"{T}/trace", "")
wr(f"{T}/events/sched/sched_switch/enable", 1)
wr(f"{T}/events/sched/sched_waking/enable", 1)
workload(2000)
runs = {"base": [], "tipme": [], "ftrace": []}
for i in range(5):
    runs["base"].append(workload())
    sh(f"{B}/tipme start")
    runs["tipme"].append(workload())
    sh(f"{B}/tipme stop")
    wr(f"{T}/tracing_on", 1)
    runs["ftrace"].append(workload())
    wr(f"{T}/tracing_on", 0)
for k, v in runs.items():
    res[k + "_s"] = round(statistics.median(v), 4)
    res[k + "_runs"] = [round(x, 4) for x in v]
sh(f"{B}/tipme dump -o /tmp/t.dump")
info = json.loads(sh(f"{B}/tipme info --json /tmp/t.dump"))
types = {t["name"]: t for t in info["types"]}
res["tipme_bytes_per_switch"] = round(types["sched_switch"]["bytes_per_record"], 1)
res["tipme_bytes_per_waking"] = round(types["sched_waking"]["bytes_per_record"], 1)
sh("rmmod tipme")
ent = byt = 0
for c in range(ncpu):
    st = open(f"{T}/per_cpu/cpu{c}/stats").read()
    ent += int(re.search(r"^entries: (\d+)", st, re.M).group(1))
    byt += int(re.search(r"^bytes: (\d+)", st, re.M).group(1))
res["ftrace_bytes_per_event"] = round(byt / ent, 1) if ent else None

# --- reading out a full buffer: fill both, time the read.
def fill_ftrace():
    wr(f"{T}/trace", "")
    wr(f"{T}/tracing_on", 1)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        workload(20000)
        full = True
        for c in range(ncpu):
            st = open(f"{T}/per_cpu/cpu{c}/stats").read()
            if int(re.search(r"^overrun: (\d+)", st, re.M).group(1)) == 0:
                full = False
        if full:
            break
    wr(f"{T}/tracing_on", 0)


def read_ftrace():
    total = 0
    t0 = time.monotonic()
    with open("/tmp/ftrace.raw", "wb") as out:
        for c in range(ncpu):
            fd = os.open(f"{T}/per_cpu/cpu{c}/trace_pipe_raw", os.O_RDONLY | os.O_NONBLOCK)
            while True:
                try:
                    d = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if not d:
                    break
                out.write(d)
                total += len(d)
            os.close(fd)
        out.flush()
        os.fsync(out.fileno())
    return total, time.monotonic() - t0


fill_ftrace()
fb, fs = read_ftrace()
res["ftrace_read_bytes"], res["ftrace_read_s"] = fb, round(fs, 3)
wr(f"{T}/events/sched/sched_switch/enable", 0)
wr(f"{T}/events/sched/sched_waking/enable", 0)
wr(f"{T}/buffer_size_kb", 1408)

sh(f"insmod {SRC}/module/tipme.ko buffer_size={BUF_MB}M clock=tsc")
deadline = time.monotonic() + 240
while time.monotonic() < deadline:
    workload(20000)
    st = json.loads(sh(f"{B}/tipme status --json"))
    if all(c["overwritten"] > 0 for c in st["cpus"]):
        break
sh(f"{B}/tipme stop")
t0 = time.monotonic()
out = sh(f"{B}/tipme dump --json -o /tmp/full.dump")
res["tipme_dump_s"] = round(time.monotonic() - t0, 3)
d = json.loads(out)
res["tipme_dump_bytes"] = d["bytes"]
res["tipme_dump_kernel_part_s"] = round(d["seconds"], 3)
sh("rmmod tipme")

mb = lambda b, s: round(b / s / 2**20, 1) if s else None
res["tipme_dump_mib_s"] = mb(res["tipme_dump_bytes"], res["tipme_dump_s"])
res["ftrace_read_mib_s"] = mb(fb, fs)
ov_t = res["tipme_s"] - res["base_s"]
ov_f = res["ftrace_s"] - res["base_s"]
res["overhead_ratio_tipme_over_ftrace"] = round(ov_t / ov_f, 2) if ov_f > 0 else None

print(f"""
tipme vs ftrace in one VM (QEMU TCG: emulated, compare only within this run)
  bytes per sched_switch record: tipme {res['tipme_bytes_per_switch']}, ftrace {res['ftrace_bytes_per_event']} (average over switch+waking)
  bytes per sched_waking record: tipme {res['tipme_bytes_per_waking']}
  pipe ping-pong, {ROUNDS} rounds, median of 5 taken in turns:
     no tracer {res['base_s']:.3f} s, tipme {res['tipme_s']:.3f} s, ftrace {res['ftrace_s']:.3f} s
     overhead ratio tipme/ftrace: {res['overhead_ratio_tipme_over_ftrace']}
  reading a full {BUF_MB} MiB buffer to a file:
     tipme dump   {res['tipme_dump_bytes']/2**20:.1f} MiB in {res['tipme_dump_s']:.3f} s ({res['tipme_dump_mib_s']} MiB/s, CLI incl. symbols)
     ftrace raw   {fb/2**20:.1f} MiB in {fs:.3f} s ({res['ftrace_read_mib_s']} MiB/s)
""")
print("RESULT " + json.dumps(res))
