#!/usr/bin/env python3
"""Check user-space call chains against the ground truth ustackprog created.

usage: check_ustack.py on TRUTH RECORDS_JSONL BINARY REPORT_JSON
       check_ustack.py off TRUTH RECORDS_JSONL

TRUTH is "pid=P read_start_ns=T woke_ns=T sleep=PID" (ustackprog's line
and the pid of a Debian sleep).  "on": the ustack record of ustackprog's
sleep in [read_start, woke] has its leaf in libc.so.6, then return
addresses inside wait_for_peer and main of BINARY (the file offsets turned
into addresses with BINARY's program headers, the functions' bounds from
its symbol table: nm and readelf, the binary's own truth), with BINARY's
build-id; the report's blocked step of that pid carries the same frames;
of the sleep's chains (after its exec), the nanosleep it was in at the
dump is its leaf alone, after a syscall in libc, marked truncated, and
every return address kept in any of them follows a call instruction in
its file (the files are the host's: the guest runs on them).  "off":
no ustack record of the pid.  Prints TAP lines (no plan).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402
from elfsyms import functions, loads, vaddr  # noqa: E402  (beside this file)


def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def addresses(frames):
    """A chain's addresses: an address named with functions inlined there
    has an entry for each, all but the last marked "inlined"."""
    return [f for f in frames if not f.get("inlined")]


def truth_of(s):
    return {k: int(v) for k, v in (kv.split("=", 1) for kv in s.split())}


def build_id(binary):
    out = subprocess.run(["readelf", "-n", binary], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"Build ID:\s*([0-9a-f]+)", out)
    return m.group(1) if m else None


def inside(funcs, name, addr):
    """A return address lies after its call: in (start, start + size]."""
    start, size = funcs[name]
    return addr is not None and start < addr <= start + size


def frames_text(frames):
    return " <- ".join(f"{f.get('module')}+{f.get('offset', f.get('address'))}"
                       for f in frames)


def check_prog(t, ev, binary, report):
    pid = t["pid"]
    us = [e for e in ev if e["type"] == "ustack" and e["pid"] == pid
          and t["read_start_ns"] <= e["mono_ns"] <= t["woke_ns"]]
    if not check(us, "a ustack record of ustackprog's sleep on the pipe",
                 f"pid {pid}: {len([e for e in ev if e['type'] == 'ustack' and e['pid'] == pid])} "
                 "ustack records in all"):
        return None
    fr = addresses(us[0]["user_stack"])
    name = os.path.basename(binary)
    funcs, segs, bid = functions(binary), loads(binary), build_id(binary)
    check(len(fr) >= 3, "the chain has the leaf and at least two return addresses",
          frames_text(fr))
    if len(fr) < 3:
        return None
    check(fr[0]["module"] == "libc.so.6", "the leaf is in libc.so.6 (read)", frames_text(fr))
    mine = [f for f in fr[1:3] if f["module"] == name]
    check(len(mine) == 2, f"the next two frames are in {name}", frames_text(fr))
    if len(mine) == 2:
        a1, a2 = vaddr(segs, fr[1]["offset"]), vaddr(segs, fr[2]["offset"])
        check(inside(funcs, "wait_for_peer", a1),
              "the first return address is inside wait_for_peer (nm)",
              f"{a1:#x} vs wait_for_peer {funcs['wait_for_peer'][0]:#x}+"
              f"{funcs['wait_for_peer'][1]:#x}" if a1 is not None else fr[1])
        check(inside(funcs, "main", a2), "the second is inside main (nm)",
              f"{a2:#x} vs main {funcs['main'][0]:#x}+{funcs['main'][1]:#x}"
              if a2 is not None else fr[2])
        check(fr[1]["build_id"] == bid, f"{name}'s build-id is the file's",
              f"{fr[1]['build_id']} vs {bid}")
    check(not any(f["module"] is None for f in fr),
          "every frame kept lies in a mapping the dump has", frames_text(fr))
    check(all(after_call(f) for f in fr[1:] if f["module"] is not None),
          "every return address kept follows a call instruction in its file", frames_text(fr))
    steps = []

    def walk(chain):
        for s in chain:
            steps.append(s)
            walk(s.get("waited_for", []))
    walk(report.get("chain", []))
    st = [s for s in steps if s["pid"] == pid and s["state"] == "blocked"]
    check(st and "user_stack" in st[0], "report: the blocked step has a user_stack",
          json.dumps(st[:1]))
    if st and "user_stack" in st[0]:
        got = [(f["module"], f["offset"]) for f in addresses(st[0]["user_stack"])]
        want = [(f["module"], f["offset"]) for f in fr]
        check(got == want, "report: the same frames as the record", f"{got} vs {want}")
    return fr


def check_sleep(t, ev):
    # the forked shell's sleeps before the exec are the shell's
    ex = [e["mono_ns"] for e in ev if e["type"] == "exec" and e["pid"] == t["sleep"]]
    if not check(ex, "sleep's exec is in the dump", f"pid {t['sleep']}"):
        return
    us = [e for e in ev if e["type"] == "ustack" and e["pid"] == t["sleep"]
          and e["mono_ns"] > ex[-1]]
    if not check(us, "a ustack record of Debian's sleep (no frame pointers) after its exec",
                 f"pid {t['sleep']}"):
        return
    # the last one is the sleep it was in when the dump was made:
    # clock_nanosleep's system call, the leaf alone, marked truncated
    last = us[-1]
    fr = addresses(last["user_stack"])
    check(last["user_stack_truncated"] and len(fr) == 1 and fr[0]["module"] == "libc.so.6"
          and after_syscall(fr[0]),
          "sleep's nanosleep: the leaf, right after a syscall in libc.so.6, alone, truncated",
          frames_text(fr) + f" truncated={last['user_stack_truncated']}")
    # never a frame invented: every return address kept follows a call
    bad = [(e["mono_ns"], f) for e in us for f in addresses(e["user_stack"])[1:]
           if f["module"] is None or not after_call(f)]
    check(not bad, "every return address of sleep's chains follows a call instruction in its file",
          "\n".join(f"{t}: {f}" for t, f in bad[:5]))


def code(f, back):
    with open(f["path"], "rb") as fh:
        fh.seek(f["offset"] - back)
        return fh.read(back)


def after_syscall(f):
    return code(f, 2) == b"\x0f\x05"


def after_call(f):
    """A call ends at f's offset: e8 rel32, or ff /2 (register or memory
    operand, with a REX prefix or none)."""
    b = code(f, 8)
    if b[-5] == 0xe8:
        return True
    for n in (2, 3, 4, 6, 7, 8):    # ff, modrm[, sib][, disp]
        if b[-n] == 0xff and (b[-n + 1] >> 3) & 7 == 2:
            return True
    return False


def main():
    mode, t, ev = sys.argv[1], truth_of(sys.argv[2]), load(sys.argv[3])
    if mode == "off":
        n = [e for e in ev if e["type"] == "ustack" and e["pid"] in (t["pid"], t["sleep"])]
        check(not n, "user_stacks=0: no ustack record of ustackprog or sleep",
              f"{len(n)} records")
        return
    check_prog(t, ev, sys.argv[4], json.load(open(sys.argv[5])))
    check_sleep(t, ev)


main()
