#!/usr/bin/env python3
# vm: timeout=900
"""Where a dump's guest instructions go: fixed cost against cost per byte.

Runs in the guest (bench/tracers/dumpsplit.sh boots it with the counting
plugin).  For a 64 MiB and a 4 MiB ring, filled until every CPU's ring
wrapped, it counts `tipme dump` (twice) and, for scale, reading
/proc/kallsyms, which the first dump of a boot (or after a module came or
went) reads for its symbol table; later ones take it from
/run/tipme/symbols.cache.  The difference between the two ring sizes (of
the second dumps) is the cost per byte; the rest is fixed (exec, symbols,
netlink set-up, the tables); the first dump's extra is reading the symbols
from the kernel.  Prints one JSON line.
"""
import json
import os
import subprocess

SRC = os.environ["TIPME_SRC"]
OUT = os.environ["TIPME_OUT"]
B = f"{SRC}/build"
LOAD = f"{B}/bench/tipme-tracer-load"
MARKS = f"{OUT}/insn.log"


def sh(c):
    return subprocess.run(c, shell=True, check=True, capture_output=True, text=True).stdout


def run(args):
    return json.loads(sh(" ".join([LOAD, MARKS] + args)).strip().splitlines()[-1])


res = {}
sh("rm -rf /run/tipme")
for mib in (64, 4):
    sh(f"insmod {SRC}/module/tipme.ko buffer_size={mib}M clock=tsc")
    while True:
        run(["pingpong", "20000"])
        st = json.loads(sh(f"{B}/tipme status --json"))
        if all(c["overwritten"] > 0 for c in st["cpus"]):
            break
    sh(f"{B}/tipme stop")
    r = {"kallsyms": run(["exec", "/bin/sh", "-c", "'cat /proc/kallsyms > /dev/null'"])}
    for name in ("dump", "dump_again"):
        r[name] = run(["exec", f"{B}/tipme", "dump", "-o", "/tmp/split.dump"])
        r[name]["bytes"] = os.path.getsize("/tmp/split.dump")
        os.unlink("/tmp/split.dump")
    sh("rmmod tipme")
    res[mib] = r
    print(f"# {mib} MiB: " + " ".join(f"{k}={v['insn']}" for k, v in r.items()), flush=True)

big, small = res[64]["dump_again"], res[4]["dump_again"]
per_byte = (big["insn"] - small["insn"]) / (big["bytes"] - small["bytes"])
per_byte_k = (big["kernel_insn"] - small["kernel_insn"]) / (big["bytes"] - small["bytes"])
out = {
    "bytes_64": big["bytes"], "insn_64": big["insn"], "kernel_insn_64": big["kernel_insn"],
    "bytes_4": small["bytes"], "insn_4": small["insn"], "kernel_insn_4": small["kernel_insn"],
    "insn_per_byte": round(per_byte, 2), "kernel_insn_per_byte": round(per_byte_k, 2),
    "user_insn_per_byte": round(per_byte - per_byte_k, 2),
    "fixed_insn": round(big["insn"] - per_byte * big["bytes"]),
    "kallsyms_insn": res[64]["kallsyms"]["insn"],
    "first_dump_extra_insn": res[64]["dump"]["insn"] - big["insn"],
}
print("RESULT " + json.dumps(out), flush=True)
