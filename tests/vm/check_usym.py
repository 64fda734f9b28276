#!/usr/bin/env python3
"""Check t-usym's dumps: user-space frames named, with source lines.

usage: check_usym.py OUT BUILD

OUT holds files.dump/.truth (usymprog with its debug info), stripped.dump/
.truth (the stripped copies) and gone.dump/.truth (an editor that exited
before the dump); BUILD is the build folder (build/tests/vm/usym).  Each
truth is "pid=P fsync_start_ns=T fsync_end_ns=T" and "sleep=PID" (a
Debian sleep alive at the dump).  Runs `tipme report` and `records` here,
natively, and checks:

- files: the blocked step of the editor's fsync has the user frames
  fsync (libc) <- commit_range (inlined) <- doc_commit <- save_document
  <- main, each with the file and line its source marks ("usym: NAME");
  the text form shows "save_document (usymprog.c:N)".
- stripped: the same frames from the debug files, found by build-id in a
  .build-id tree laid out here (TIPME_DEBUG_DIRS); without the tree
  save_document has no name (nothing invented) and doc_commit only its
  exported one.
- the sleep's chain: its leaf named, marked truncated, nothing after it.
- gone: the editor exited 5 s before the dump: its frames get their
  files and offsets from the mappings the module kept (the dump's maps
  list them after "# PID: exited: captured by the module"), with the
  build-ids the module read from the mapped files (readelf -n's) and the
  paths as the editor saw them (the guest's switched root is not in
  them); so its blocked step is named as the live editor's is, file and
  line included.

Prints TAP lines (no plan).
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs", "usym")


def truth(path):
    t = {}
    for line in open(path):
        for kv in line.split():
            k, v = kv.split("=", 1)
            t[k] = int(v)
    return t


def marks():
    """NAME -> (file, line) of each "usym: NAME" comment of the sources."""
    m = {}
    for f in ("usymprog.c", "usymdoc.c"):
        for n, line in enumerate(open(os.path.join(SRC, f)), 1):
            g = re.search(r"/\* usym: (\w+) \*/", line)
            if g:
                m[g.group(1)] = (f, n)
    return m


def build_id(path):
    out = subprocess.run(["readelf", "-n", path], check=True, capture_output=True,
                         text=True).stdout
    g = re.search(r"Build ID:\s*([0-9a-f]+)", out)
    return g.group(1) if g else None


def tree(root, build):
    """A .build-id tree of the debug files under @root."""
    for f in ("usymprog", "libusymdoc.so"):
        b = build_id(os.path.join(build, f))
        d = os.path.join(root, ".build-id", b[:2])
        os.makedirs(d, exist_ok=True)
        os.symlink(os.path.join(build, f + ".debug"), os.path.join(d, b[2:] + ".debug"))


def tipme(args, dirs=None):
    env = dict(os.environ)
    env.pop("DEBUGINFOD_URLS", None)
    if dirs:
        env["TIPME_DEBUG_DIRS"] = dirs
    r = subprocess.run(["build/tipme"] + args, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def sec(ns):
    return "%d.%09d" % (ns // 1000000000, ns % 1000000000)


def report(dump, t, dirs=None, text=False):
    rc, out, err = tipme(["report"] + ([] if text else ["--json"]) +
                         ["--pid", str(t["pid"]), "--from", sec(t["fsync_start_ns"]),
                          "--to", sec(t["fsync_end_ns"]), dump], dirs)
    if rc:
        return None, err
    return (out if text else json.loads(out)), err


def blocked_steps(rep, pid):
    steps = []

    def walk(chain):
        for s in chain:
            steps.append(s)
            walk(s.get("waited_for", []))
    walk(rep.get("chain", []))
    return [s for s in steps if s["pid"] == pid and s["state"] == "blocked"
            and s.get("user_stack")]


def frames_text(fr):
    return " <- ".join("%s%s (%s %s:%s)" % ("[inl] " if f.get("inlined") else "", f.get("func"),
                                            f.get("module"), f.get("file"), f.get("line"))
                       for f in fr)


def check_named(name, dump, t, dirs=None):
    rep, err = report(dump, t, dirs)
    if not check(rep is not None, f"{name}: tipme report --json", err):
        return
    st = blocked_steps(rep, t["pid"])
    if not check(st, f"{name}: a blocked step of the editor with a user_stack",
                 json.dumps(rep.get("chain"))[:2000]):
        return
    # the longest: the fsync (the others are the writes' short waits)
    step = max(st, key=lambda s: s["to_mono_ns"] - s["from_mono_ns"])
    fr = step["user_stack"]
    m = marks()
    want = ["commit_range", "doc_commit", "save_document", "main"]
    names = [f["func"] for f in fr]
    at = names.index("commit_range") if "commit_range" in names else -1
    lead = fr[:at] if at > 0 else []
    check(lead and all(f["module"] == "libc.so.6" for f in lead) and
          any(f["func"] and "fsync" in f["func"] for f in lead),
          f"{name}: the leaf is fsync in libc.so.6", frames_text(fr))
    got = fr[at:at + 4] if at >= 0 else []
    ok = [f["func"] for f in got] == want
    for f in got if ok else []:
        src, line = m[f["func"]]
        ok = ok and f["file"] is not None and f["file"].endswith(src) and f["line"] == line
    check(ok, f"{name}: then {' <- '.join(want)}, each at its marked line", frames_text(fr))
    check(got and got[0]["inlined"] and not any(f["inlined"] for f in got[1:]),
          f"{name}: commit_range marked inlined, the others not", frames_text(fr))
    txt, err = report(dump, t, dirs, text=True)
    g = re.search(r"save_document \(usymprog\.c:(\d+)\)", txt or "")
    check(g and int(g.group(1)) == m["save_document"][1],
          f"{name}: the text's blocked step shows save_document (usymprog.c:"
          f"{m['save_document'][1]})",
          "\n".join(line for line in (txt or err).splitlines() if "blocked" in line))


def check_stripped_alone(dump, t):
    rep, err = report(dump, t, "/nonexistent/tipme-usym")
    st = blocked_steps(rep, t["pid"]) if rep else []
    if not check(st, "stripped, no tree: the blocked step", err):
        return
    fr = max(st, key=lambda s: s["to_mono_ns"] - s["from_mono_ns"])["user_stack"]
    prog = [f for f in fr if f["module"] == "usymprog"]
    lib = [f for f in fr if f["module"] == "libusymdoc.so"]
    check(prog and all(f["func"] is None for f in prog),
          "stripped, no tree: usymprog's frames unnamed (offsets)", frames_text(fr))
    check(lib and [f["func"] for f in lib] == ["doc_commit"] and lib[0]["file"] is None,
          "stripped, no tree: libusymdoc's frame by its exported name only", frames_text(fr))


def ustacks(dump, pid):
    rc, out, err = tipme(["records", "--json", "--type", "ustack", "--pid", str(pid), dump])
    return [json.loads(line) for line in out.splitlines() if line.strip()] if not rc else []


def check_sleep(dump, pid):
    us = ustacks(dump, pid)
    if not check(us, "sleep: a ustack record of Debian's sleep", f"pid {pid}"):
        return
    last = us[-1]
    fr = last["user_stack"]
    offs = {(f["module"], f["offset"]) for f in fr}
    check(fr and fr[0]["func"] and fr[0]["module"] == "libc.so.6",
          "sleep (no frame pointers): the leaf named, in libc.so.6", frames_text(fr))
    check(last["user_stack_truncated"] and len(offs) == 1,
          "sleep: the chain marked truncated, nothing after the leaf", frames_text(fr))


def check_gone(dump, t, build):
    us = [u for u in ustacks(dump, t["pid"])
          if t["fsync_start_ns"] <= u["mono_ns"] <= t["fsync_end_ns"]]
    if not check(us, "gone: a ustack record of the exited editor's fsync", f"pid {t['pid']}"):
        return
    fr = max(us, key=lambda u: len(u["user_stack"]))["user_stack"]
    mods = {f["module"] for f in fr}
    check({"libc.so.6", "usymprog", "libusymdoc.so"} <= mods,
          "gone: exited 5 s before the dump, its frames still get their files and offsets "
          "(libc.so.6, usymprog, libusymdoc.so) from the module's capture", json.dumps(fr)[:1500])
    want = {"usymprog": build_id(os.path.join(build, "usymprog")),
            "libusymdoc.so": build_id(os.path.join(build, "libusymdoc.so"))}
    mine = [f for f in fr if f["module"] in want]
    check(mine and all(f.get("build_id") == want[f["module"]] for f in mine),
          "gone: its frames in usymprog and libusymdoc.so carry their build-ids",
          json.dumps(fr)[:600])
    check_maps(dump, t["pid"], build)
    check_named("gone, exited 5 s before the dump", dump, t)
    rc, out, err = tipme(["info", "--json", dump])
    xm = json.loads(out).get("xmaps") if not rc else None
    check(xm and xm["count"] > 0 and xm["procs"] > 0 and xm["walks"] >= xm["procs"],
          "gone: tipme info --json counts the captured mappings and walks", str(xm) + err)


def maps_text(dump):
    """The text of DUMP's maps section (21), "" without one."""
    b = open(dump, "rb").read()
    nsec = struct.unpack_from("<I", b, 40)[0]
    off = struct.unpack_from("<I", b, 12)[0]
    for _ in range(nsec):
        typ, _cpu, size, _crc, _res = struct.unpack_from("<IIQII", b, off)
        if typ == 21:
            return b[off + 24:off + 24 + size].decode(errors="replace")
        off += 24 + size + (-size & 7)
    return ""


def check_maps(dump, pid, build):
    """The dump's maps list the exited editor's files by the paths it saw."""
    lines = maps_text(dump).splitlines()
    head = "# %d: exited: captured by the module" % pid
    at = lines.index(head) if head in lines else -1
    mine = []
    for line in lines[at + 1:] if at >= 0 else []:
        if line.startswith("#"):
            break
        mine.append(line.split(" ", 5))
    # the kernel's path has no symbolic link (the other kernels' trees link build/)
    prog = os.path.join(os.path.realpath(build), "usymprog")
    check(any(m[5] == prog and m[4] == build_id(prog) for m in mine if len(m) == 6),
          "gone: the maps name usymprog by the path the editor saw (%s), with its build-id" % prog,
          "\n".join(" ".join(m) for m in mine)[:1500])


def main():
    out, build = sys.argv[1], os.path.join(sys.argv[2], "tests", "vm", "usym")
    tf, ts, tg = (truth(os.path.join(out, n + ".truth")) for n in ("files", "stripped", "gone"))
    check_named("files", os.path.join(out, "files.dump"), tf)
    with tempfile.TemporaryDirectory() as root:
        tree(root, build)
        check_named("stripped, debug info by build-id", os.path.join(out, "stripped.dump"),
                    ts, root)
    check_stripped_alone(os.path.join(out, "stripped.dump"), ts)
    check_sleep(os.path.join(out, "files.dump"), tf["sleep"])
    check_gone(os.path.join(out, "gone.dump"), tg, build)


main()
