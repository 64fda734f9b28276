#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Integration tests of tipme-xhook under Xvfb and Xwayland.  Prints TAP.

Each test starts its own Xvfb (-displayfd picks a free display) and kills it
at the end.  Real clients: xterm, xprop, xdpyinfo and xhook-testclient; input
through XTEST (xdotool).  Every wait is for a condition, with a timeout.
The xwayland_* tests start sway's Xwayland instead (tests/lib/xwayland.py),
with keys through the compositor (wtype).

  python3 tests/xhook/x11_tests.py --build build [-v] [TEST...]
"""

import argparse
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402  (tests/lib/tap.py: the one TAP producer)
from xvfb import Xvfb, wait_for  # noqa: E402  (tests/lib/xvfb.py)
import xwayland  # noqa: E402  (tests/lib/xwayland.py)

ARGS = None
DRAW_OPS = {61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 74, 75, 76, 77}


def log(msg):
    for line in str(msg).splitlines():
        print("# " + line, flush=True)


class Hook:
    def __init__(self, x, *extra):
        self.x = x
        self.dir = tempfile.mkdtemp(prefix="xhook-test-")
        self.errpath = os.path.join(self.dir, "stderr")
        self.err = open(self.errpath, "w")
        # the auto trigger only where a test asks for it: its dumps would
        # join the ones other tests wait for
        if not any(a.startswith(("-a", "--auto-trigger-ms")) for a in extra):
            extra = ("--auto-trigger-ms", "0") + extra
        self.proc = subprocess.Popen(
            [os.path.join(ARGS.build, "tipme-xhook"), "-v", "-o", self.dir] + list(extra),
            env=x.env, stdout=subprocess.DEVNULL, stderr=self.err)
        wait_for(lambda: "recording" in self.log() or self.proc.poll() is not None,
                 15, "tipme-xhook to start")
        if self.proc.poll() is not None:
            raise RuntimeError("tipme-xhook exited: " + self.log())

    def log(self):
        with open(self.errpath) as f:
            return f.read()

    def dumps(self):
        return sorted(f for f in os.listdir(self.dir) if f.endswith(".xdump"))

    def wait_dump(self, before):
        new = wait_for(lambda: [f for f in self.dumps() if f not in before], 15,
                       "a dump file")
        return os.path.join(self.dir, new[0])

    def dump(self):
        before = self.dumps()
        self.proc.send_signal(signal.SIGUSR1)
        return self.wait_dump(before)

    def stop(self, expect=0):
        """SIGTERM (if still running); check the exit code and sanitizer reports"""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            rc = self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.err.close()
        text = self.log()
        if ARGS.verbose:
            log(text)
        shutil.rmtree(self.dir, ignore_errors=True)
        if "Sanitizer" in text or "runtime error" in text:
            raise AssertionError("sanitizer report from tipme-xhook:\n" + text)
        if expect is not None and rc != expect:
            raise AssertionError("tipme-xhook exit code %d, expected %d:\n%s" % (rc, expect, text))
        return rc


def load(path):
    out = subprocess.run([os.path.join(ARGS.build, "tipme-xhook"), "print", "--json", path],
                         stdout=subprocess.PIPE, check=True, universal_newlines=True).stdout
    return json.loads(out)


def pids_of(d, pid):
    return {c["id"] for c in d["clients"] if c["pid"] == pid}


def xterm(x):
    p = x.spawn(["xterm", "-geometry", "40x10+0+0", "-e", "cat"])
    wid = x.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(p.pid)],
                timeout=20).stdout.split()[0]
    x.run(["xdotool", "mousemove", "--window", wid, "20", "20"])
    x.run(["xdotool", "windowfocus", "--sync", wid])
    return p, wid


# ---- tests ------------------------------------------------------------------

def key_chain(d, xterm_pid):
    """(device KeyPress, its delivery to xterm, xterm's next drawing request) or None"""
    ids = pids_of(d, xterm_pid)
    recs = d["records"]
    dev = [i for i, r in enumerate(recs) if r["kind"] == "device" and r["major"] == 2]
    if not dev or not ids:
        return None
    i0 = dev[-1]
    ev = [i for i in range(i0, len(recs)) if recs[i]["kind"] == "event" and
          recs[i]["major"] == 2 and recs[i]["client"] in ids]
    if not ev:
        return None
    draw = [i for i in range(ev[0], len(recs)) if recs[i]["kind"] == "request" and
            recs[i]["client"] in ids and recs[i]["major"] in DRAW_OPS]
    if not draw:
        return None
    return recs[i0], recs[ev[0]], recs[draw[0]]


def typed_chain(x, h, p, server_comm):
    """dump until a key's chain into xterm (pid of @p) is in; check its PIDs,
    names and order: the device event from the X server, its delivery to
    xterm, xterm's drawing"""
    d = {}

    def chain():
        d["dump"] = load(h.dump())
        return key_chain(d["dump"], p.pid)
    a, b, c = wait_for(chain, 20, "device event -> xterm -> drawing in a dump")
    d = d["dump"]
    server = [cl for cl in d["clients"] if cl["id"] == 0][0]
    assert server["pid"] == x.server_pid and server["comm"] == server_comm, server
    assert a["time_ns"] <= b["time_ns"] <= c["time_ns"], "times out of order"
    assert a["pid"] == x.server_pid and b["pid"] == p.pid and c["pid"] == p.pid
    assert a["comm"] == server_comm and b["comm"] == "xterm"
    log("device %.3f ms -> delivered %.3f ms -> %s %.3f ms (pid %d)" % (
        0, (b["time_ns"] - a["time_ns"]) / 1e6, c["op"],
        (c["time_ns"] - a["time_ns"]) / 1e6, p.pid))


def t_keypress_chain(x):
    """a key typed into xterm: device event -> delivered to xterm -> xterm draws"""
    h = Hook(x)
    try:
        p, _ = xterm(x)
        x.run(["xdotool", "type", "--delay", "50", "q"])
        # xterm draws when the pty echoes the key: dump until it has
        typed_chain(x, h, p, "Xvfb")
    finally:
        h.stop()


def t_short_lived_sequential(x):
    """20 sequential clients, each dumped while connected, have their PIDs; short-lived ones never a wrong one"""
    # What tipme-xhook promises (Documentation/xhook.md): every client that is
    # still connected when a dump is taken has its PID and command name in
    # that dump (the dump fences the RECORD stream and resolves every client
    # first); a client that connects and leaves between two of tipme-xhook's
    # looks may stay unknown (pid 0), and is never given another's PID.
    h = Hook(x)
    hold = os.path.join(ARGS.build, "xhook-testclient")
    seen = []
    xprops = []
    try:
        for _ in range(20):
            p = x.spawn([hold, "hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        universal_newlines=True)
            lines = [p.stdout.readline().split(), p.stdout.readline().split()]
            assert lines[1][:2] == ["ready", "base"], "testclient said %s" % lines
            d = load(h.dump())
            p.stdin.close()
            p.wait(20)
            seen.append((p.pid, int(lines[1][2]), d))
        for _ in range(20):       # connect, ask, leave at once
            q = x.spawn(["xprop", "-root", "_NET_SUPPORTED"])
            q.wait(20)
            xprops.append(q.pid)
        d = load(h.dump())
    finally:
        h.stop()
    for pid, base, dd in seen:
        live = [c for c in dd["clients"] if c["xid_base"] == base and
                not c["flags"] & 8]   # 8: disconnected
        mine = [c for c in dd["clients"] if c["pid"] == pid]
        assert mine, "pid %d (base 0x%x) not in the dump taken while it was connected" % (pid, base)
        assert all(c["xid_base"] == base for c in mine), \
            "pid %d given to a client with another base: %s" % (pid, mine)
        assert all(c["comm"] == "xhook-testclien" for c in mine), \
            "command name of pid %d: %s" % (pid, [c["comm"] for c in mine])
        assert len(live) <= 1, "two live clients with base 0x%x" % base
    ours = {c["pid"] for c in d["clients"]}
    known = {0, x.proc.pid, h.proc.pid} | set(xprops) | {pid for pid, _, _ in seen}
    assert ours <= known, "clients with PIDs of no process of this test: %s" % (ours - known)
    got = [p for p in xprops if p in ours]
    # a PID learnt just before the client left may come without its name
    # (/proc/PID/comm read too late): empty, never another program's
    names = {c["comm"] for c in d["clients"] if c["pid"] in xprops}
    assert names <= {"xprop", ""}, "names of xprop clients: %s" % names
    log("20 of 20 held clients resolved while connected; %d of 20 short-lived xprop runs "
        "resolved, the rest unknown" % len(got))


def t_parallel_burst(x):
    """200 parallel clients (xdpyinfo and hello): none gets a wrong PID (unknown is allowed)"""
    h = Hook(x)
    hello = os.path.join(ARGS.build, "xhook-testclient")
    try:
        procs = []
        for i in range(200):
            if i % 2:
                procs.append(x.spawn(["xdpyinfo"]))
            else:
                procs.append(x.spawn([hello, "hello"], stdout=subprocess.PIPE,
                                     universal_newlines=True))
        said = {}
        for p in procs:
            if p.stdout:
                out = p.stdout.read()
                f = out.split()
                said[p.pid] = (int(f[f.index("base") + 1]), int(f[f.index("connect") + 1]),
                               int(f[f.index("connect") + 2]))
            p.wait(30)
        d = load(h.dump())
    finally:
        h.stop()
    burst = {p.pid for p in procs}
    cl = [c for c in d["clients"] if c["id"] != 0 and c["generation"] > 0]
    assert len(cl) >= 200, "only %d clients seen" % len(cl)
    known = [c for c in cl if c["pid"]]
    wrong = [c for c in known if c["pid"] not in burst]
    # a hello client knows its own base and when it connected: the client
    # the dump gives its PID must have that base and have started then.
    # "Then" is from before its connect() to after its first round trip:
    # the server writes the setup before it stamps the client's start
    # (RECORD's ClientStarted), so on a busy machine the stamp can come
    # after xcb_connect() returned, but always before the server runs the
    # client's first request.  X stamps in whole ms: 1 ms before the truth.
    for c in known:
        if c["pid"] in said:
            base, t0, t1 = said[c["pid"]]
            if c["xid_base"] != base or not t0 - 1e6 <= c["start_ns"] <= t1:
                wrong.append(c)
    seen = {}
    for c in known:
        seen.setdefault(c["pid"], []).append(c["id"])
    dup = {p: v for p, v in seen.items() if len(v) > 1}
    log("%d clients: %d PIDs resolved, %d unknown, %d wrong, %d duplicated" % (
        len(cl), len(known), len(cl) - len(known), len(wrong), len(dup)))
    # what a wrong one was, to tell a wrong PID from a wrong ground truth
    for c in wrong:
        log("wrong: %s; that PID said (base, connect, round trip done): %s" % (
            c, said.get(c["pid"])))
        for o in cl:
            if o["xid_base"] == c["xid_base"] and abs(o["generation"] - c["generation"]) == 1:
                log("  the base's client before or after: %s" % o)
    assert not wrong and not dup, (wrong, dup)
    # a PID learnt just before the client left may come without its name
    # (/proc/PID/comm read too late): empty, never another program's
    names = {c["comm"] for c in known}
    assert names <= {"xdpyinfo", "xhook-testclien", ""}, "command names: %s" % names
    unmarked = [c for c in cl if not c["pid"] and not c["pid_unknown"]]
    assert not unmarked, "clients without a PID not marked unknown: %s" % unmarked


def t_big_putimage(x):
    """a 400 KB PutImage (BIG-REQUESTS) does not desynchronise the parser"""
    h = Hook(x)
    try:
        out = x.run([os.path.join(ARGS.build, "xhook-testclient"), "putimage", "320", "320"]).stdout
        d = load(h.dump())
    finally:
        h.stop()
    pid = int(out.split()[1])
    seq = int(out.split("putimage seq ")[1].split()[0])
    ids = pids_of(d, pid)
    mine = [r for r in d["records"] if r["client"] in ids]
    put = [r for r in mine if r["kind"] == "request" and r["op"] == "PutImage"]
    assert len(put) == 1, "PutImage records: %d" % len(put)
    put = put[0]
    assert put["seq"] == seq, (put["seq"], seq)
    assert put["length"] == 409600 + 24 + 4 and put["flags"] & 0x04, put
    assert put["op_size"] == 320 * 320
    after = [r for r in mine if r["seq"] > seq]
    pp = [r for r in after if r["kind"] == "request" and r["op"] == "PolyPoint"]
    assert pp and pp[0]["seq"] == seq + 2 and pp[0]["op_size"] == 1, "PolyPoint after PutImage"
    rep = [r for r in after if r["kind"] == "reply" and r["op"] == "GetInputFocus"]
    assert len(rep) == 2, "GetInputFocus replies after PutImage: %d" % len(rep)
    assert d["stats"]["dropped"] == 0, d["stats"]


def died_in(d, pid):
    ids = pids_of(d, pid)
    if any(r["kind"] == "died" and r["client"] in ids for r in d["records"]):
        return d
    return None


def t_draw_lateness(x):
    """a client that only draws: every request recorded in order, stamped after the client sent it; lateness measured"""
    h = Hook(x)
    try:
        out = x.run([os.path.join(ARGS.build, "xhook-testclient"), "draw", "60", "15"]).stdout
        pid = int(out.split()[1])
        # the server may not have read the client's last requests yet: wait
        # for a dump that has the client's death, which comes after them
        d = wait_for(lambda: died_in(load(h.dump()), pid), 20, "the client's death in a dump")
    finally:
        h.stop()
    lines = out.splitlines()
    sent = {int(l.split()[1]): int(l.split()[2]) for l in lines if l.startswith("sent")}
    ids = pids_of(d, pid)
    got = {r["seq"]: r for r in d["records"] if r["client"] in ids and
           r["kind"] == "request" and r["op"] == "PolyFillRectangle"}
    assert set(sent) <= set(got), "missing requests: %s" % sorted(set(sent) - set(got))
    seqs = sorted(sent)
    stamps = [got[s]["time_ns"] for s in seqs]
    assert stamps == sorted(stamps), "server stamps out of order"
    # The client read its clock after flushing request a, slept 15 ms, then
    # sent b: the server ran b at least 15 ms after that reading.  Its stamp
    # (CLOCK_MONOTONIC in whole ms, unwrapped by tipme-xhook) may be up to
    # 1 ms early; 2 ms of slack.  A stamp shifted early fails here.
    for a, b in zip(seqs, seqs[1:]):
        assert got[b]["time_ns"] >= sent[a] + 13e6, \
            "request %d stamped %.3f ms after the client's clock read for %d" % (
                b, (got[b]["time_ns"] - sent[a]) / 1e6, a)
    # Lateness (server stamp -> in our ring) is what the 100 ms fence bounds;
    # on a shared 2-core machine any thread can miss its turn for tens of ms,
    # so it is measured and printed, not asserted (Documentation/xhook.md).
    delays = sorted((got[s]["time_ns"] + got[s]["late_us"] * 1000 - t) / 1e6
                    for s, t in sent.items())
    late = sorted(got[s]["late_us"] / 1e3 for s in sent)
    log("send->received: median %.2f ms, max %.2f ms; recorded lateness median %.2f ms, "
        "max %.2f ms; over 10 ms: %d recorded lateness, %d end to end, of %d" % (
            delays[len(delays) // 2], delays[-1], late[len(late) // 2], late[-1],
            sum(1 for v in late if v > 10.0), sum(1 for v in delays if v > 10.0), len(late)))


def t_hotkey_locks(x):
    """Ctrl-Alt-Minus with NumLock and CapsLock on writes a dump"""
    h = Hook(x)
    try:
        x.run(["xdotool", "key", "Num_Lock", "Caps_Lock"])
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        d = load(h.wait_dump(before))
        x.run(["xdotool", "key", "Num_Lock", "Caps_Lock"])
    finally:
        h.stop()
    assert d["trigger"] == "hotkey", d["trigger"]
    assert any(r["kind"] == "trigger" for r in d["records"])


def t_hotkey_mark(x):
    """Ctrl-Alt-Plus and Ctrl-Alt-= each write a mark record when pressed, and no dump"""
    h = Hook(x)
    try:
        t0 = time.monotonic_ns()
        x.run(["xdotool", "key", "ctrl+alt+equal"])
        t1 = time.monotonic_ns()
        x.run(["xdotool", "key", "ctrl+alt+plus"])  # Shift+equal on a US layout
        t2 = time.monotonic_ns()
        x.run(["xdotool", "key", "equal", "plus"])  # without Ctrl-Alt: no mark
        by_keys = h.dumps()
        d = load(h.dump())
    finally:
        h.stop()
    marks = [r["time_ns"] for r in d["records"] if r["kind"] == "mark"]
    log("marks at %s ms after the first press began" % [(m - t0) / 1e6 for m in marks])
    assert not by_keys, "a mark wrote a dump: %s" % by_keys
    assert not any(r["kind"] == "trigger" for r in d["records"]), "a mark is no trigger"
    # X stamps in whole ms: up to 1 ms before the truth
    assert len(marks) == 2 and t0 - 1e6 <= marks[0] <= t1 and t1 - 1e6 <= marks[1] <= t2, \
        (marks, t0, t1, t2)


def t_hotkey_grabbed_elsewhere(x):
    """Ctrl-Alt-Minus already grabbed by another client: seen in the stream"""
    g = x.spawn([os.path.join(ARGS.build, "xhook-testclient"), "grab"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, universal_newlines=True)
    line = ""
    while not line.startswith("grabbed"):
        line = g.stdout.readline()
        assert line, "the grabber exited"
    assert "failed 0" in line, line
    h = Hook(x)
    try:
        assert "held by another client" in h.log(), h.log()
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        d = load(h.wait_dump(before))
    finally:
        h.stop()
        g.stdin.close()
        g.wait(10)
    assert d["trigger"] == "hotkey"


SECRET = "swordfish"


def key_records(d):
    out = []
    for r in d["records"]:
        if r["kind"] in ("device", "event") and r["major"] in (2, 3):
            out.append(r)
        elif r["kind"] in ("device", "event") and r["major"] == 35 and r["minor"] in (2, 3, 13, 14):
            out.append(r)
    return out


def check_redacted(raw, d):
    """key logging off: the secret nowhere in the dump's bytes, every key
    record without detail or state"""
    for enc in (SECRET.encode(), SECRET.encode("utf-16-le"), SECRET.encode("utf-16-be")):
        assert enc not in raw, "the secret is in the dump"
    keys = key_records(d)
    assert len(keys) >= 2 * len(SECRET), "only %d key records" % len(keys)
    bad = [r for r in keys if r["detail"] or r["state"]]
    assert not bad, "key records with detail/state: %s" % bad[:3]
    return keys


def t_privacy_off(x):
    """key logging off: the typed word is nowhere in the dump, key details are zero"""
    h = Hook(x)
    try:
        xterm(x)
        x.run(["xdotool", "type", "--delay", "20", SECRET])
        path = h.dump()
        with open(path, "rb") as f:
            raw = f.read()
        d = load(path)
    finally:
        h.stop()
    keys = check_redacted(raw, d)
    assert not any(r["major"] == 11 for r in d["records"]), "KeymapNotify recorded"
    assert d["stats"]["redacted"] >= len(keys)
    log("%d key records, all redacted" % len(keys))


def t_privacy_on(x):
    """key logging switched on with Ctrl-Alt-1: key codes are recorded"""
    h = Hook(x)
    try:
        xterm(x)
        x.run(["xdotool", "key", "ctrl+alt+1"])
        x.run(["xdotool", "type", "--delay", "20", "abc"])
        x.run(["xdotool", "key", "ctrl+alt+0"])
        x.run(["xdotool", "type", "--delay", "20", "abc"])
        d = load(h.dump())
    finally:
        h.stop()
    recs = d["records"]
    kl = [i for i, r in enumerate(recs) if r["kind"] == "keylog"]
    assert len(kl) == 2 and recs[kl[0]]["detail"] == 1 and recs[kl[1]]["detail"] == 0, \
        [recs[i] for i in kl]
    on = [r for r in key_records(d) if recs.index(r) > kl[0] and recs.index(r) < kl[1]]
    off = [r for r in key_records(d) if recs.index(r) > kl[1]]
    assert any(r["detail"] for r in on if r["kind"] == "device"), "no key codes while on"
    assert any(r["detail"] for r in on if r["kind"] == "event"), "no delivered key codes while on"
    assert off and not any(r["detail"] or r["state"] for r in off), "key codes after off"
    assert d["flags"] & 1, "KEYLOG flag not set"


def t_privacy_qwertz(x):
    """German QWERTZ: Ctrl-Alt-0 (the key Shift turns into =) switches key logging off, no mark"""
    # The X server's own layout, before tipme-xhook starts and reads it.
    x.run(["setxkbmap", "de"])
    zero = [l.split("=", 1)[1].split() for l in x.run(["xmodmap", "-pke"]).stdout.splitlines()
            if "=" in l and l.split("=", 1)[1].split()[:1] == ["0"]]
    assert zero and zero[0][1] == "equal", "the layout is not QWERTZ's: 0 types %s" % zero
    h = Hook(x)
    try:
        x.run(["xdotool", "key", "ctrl+alt+1"])
        x.run(["xdotool", "type", "--delay", "20", "abc"])
        x.run(["xdotool", "key", "ctrl+alt+0"])
        x.run(["xdotool", "type", "--delay", "20", "abc"])
        d = load(h.dump())
    finally:
        h.stop()
    recs = d["records"]
    kl = [r["detail"] for r in recs if r["kind"] == "keylog"]
    marks = [r for r in recs if r["kind"] == "mark"]
    assert kl == [1, 0], "keylog records %s (marks %d)" % (kl, len(marks))
    assert not marks, "Ctrl-Alt-0 wrote %d mark(s)" % len(marks)
    off = [r for r in key_records(d) if recs.index(r) > max(
        i for i, r in enumerate(recs) if r["kind"] == "keylog")]
    assert off and not any(r["detail"] or r["state"] for r in off), "key codes after off"


# Xvfb resets (and forgets the layout) when its last client leaves: keep it.
t_privacy_qwertz.xvfb_args = ("-noreset",)


def t_server_killed(x):
    """the X server is killed: tipme-xhook exits with code 4 and says why"""
    h = Hook(x)
    x.proc.kill()
    x.proc.wait()
    rc = h.proc.wait(15)
    msg = h.log()
    h.stop(expect=4)
    assert rc == 4, "exit code %d" % rc
    assert "X server" in msg, msg


def t_missing_extensions(x):
    """RECORD or X-Resource missing: exit code 3 with a clear message"""
    for ext in ("RECORD", "X-Resource"):
        y = Xvfb("-extension", ext)
        try:
            r = subprocess.run([os.path.join(ARGS.build, "tipme-xhook"), "-o", tempfile.gettempdir()],
                               env=y.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=20)
        finally:
            y.stop()
        log("without %s: exit %d: %s" % (ext, r.returncode, r.stderr.strip()))
        assert r.returncode == 3, r.returncode
        assert ext in r.stderr, r.stderr
        assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr


def t_autostart_session(x):
    """autostart: the XDG entry records in an X11 session, exits at once in a Wayland one"""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "xhook", "tipme-xhook.desktop")) as f:
        exe = [l.split("=", 1)[1].split() for l in f.read().splitlines()
               if l.startswith("Exec=")][0]
    assert exe[0] == "tipme-xhook", exe
    args = exe[1:]
    r = subprocess.run([os.path.join(ARGS.build, "tipme-xhook")] + args + ["-o", tempfile.gettempdir()],
                       env=dict(x.env, XDG_SESSION_TYPE="wayland"), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=20)
    log("in a wayland session: exit %d: %s" % (r.returncode, r.stderr.strip()))
    assert r.returncode == 0 and "wayland session, not X11" in r.stderr, r.stderr

    class Session:
        env = dict(x.env, XDG_SESSION_TYPE="x11")
    h = Hook(Session(), *args)     # waits until it says it is recording
    h.stop()


def t_print_robust(x):
    """print: a dump with truncations and byte flips never crashes the reader"""
    h = Hook(x)
    try:
        x.run(["xprop", "-root", "_NET_SUPPORTED"])
        path = h.dump()
        with open(path, "rb") as f:
            raw = f.read()
        bad = os.path.join(h.dir, "bad.xdump")
        exe = os.path.join(ARGS.build, "tipme-xhook")
        cases = [raw[:n] for n in (0, 7, 8, 63, 64, 65, len(raw) // 2, len(raw) - 1)]
        for off in range(0, min(len(raw), 200), 3):
            cases.append(raw[:off] + bytes([raw[off] ^ 0xff]) + raw[off + 1:])
        for i, c in enumerate(cases):
            with open(bad, "wb") as f:
                f.write(c)
            r = subprocess.run([exe, "print", bad], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, universal_newlines=True)
            assert r.returncode in (0, 1), "case %d: exit %d %s" % (i, r.returncode, r.stderr)
            assert r.returncode == 0 or "malformed" in r.stderr or "short" in r.stderr, r.stderr
    finally:
        h.stop()


def find_window(x, name, timeout=20):
    return x.run(["xdotool", "search", "--sync", "--name", name], timeout=timeout).stdout.split()[0]


def description_of(path):
    out = subprocess.run([os.path.join(ARGS.build, "tipme-xhook"), "print", path],
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    for line in out.splitlines():
        if line.startswith("# description: "):
            return line[len("# description: "):]
    return None


def t_description_saved(x):
    """after a hotkey dump: the window keeps the focus where it was, Enter saves the text"""
    h = Hook(x)
    try:
        _, term = xterm(x)
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        path = h.wait_dump(before)
        win = find_window(x, "tipme: what felt slow")
        focus = x.run(["xdotool", "getwindowfocus"]).stdout.split()[0]
        assert focus == term, "focus moved from xterm %s to %s" % (term, focus)
        x.run(["xdotool", "mousemove", "--window", win, "30", "30", "click", "1"])
        wait_for(lambda: x.run(["xdotool", "getwindowfocus"]).stdout.split()[0] == win, 10,
                 "the window to get the focus on a click")
        x.run(["xdotool", "type", "--delay", "20", "scroll lagged"])
        x.run(["xdotool", "key", "Return"])
        wait_for(lambda: description_of(path), 15, "the description in the dump")
        assert description_of(path) == "scroll lagged", description_of(path)
        d = load(h.dump())
    finally:
        h.stop()
    recs = d["records"]
    trig = max(i for i, r in enumerate(recs) if r["kind"] == "trigger")
    keys_after = [r for r in recs[trig:] if r["kind"] == "device" and r["major"] in (2, 3)]
    log("typed into the window: %d device key events not recorded; %d key events "
        "recorded after the trigger" % (d["stats"]["ui_dropped"], len(keys_after)))
    assert d["stats"]["ui_dropped"] >= 2 * len("scroll lagged")
    assert len(keys_after) <= 8, len(keys_after)


def t_description_skipped(x):
    """Escape skips the description; an idle window closes by itself"""
    h = Hook(x, "--ask-timeout", "1")
    try:
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        path = h.wait_dump(before)
        win = find_window(x, "tipme: what felt slow")
        x.run(["xdotool", "mousemove", "--window", win, "30", "30", "click", "1"])
        x.run(["xdotool", "type", "abc"])
        x.run(["xdotool", "key", "Escape"])
        wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "tipme: what felt slow"],
                                        env=x.env, stdout=subprocess.DEVNULL).returncode != 0,
                 10, "the window to close on Escape")
        assert description_of(path) is None
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        h.wait_dump(before)
        find_window(x, "tipme: what felt slow")
        wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "tipme: what felt slow"],
                                        env=x.env, stdout=subprocess.DEVNULL).returncode != 0,
                 10, "the idle window to close")
    finally:
        h.stop()


# ---- with tipmed --------------------------------------------------------------

class FakeTipmed:
    """A tiny tipmed: lib/ctlproto.h's control protocol on a Unix socket, with
    no kernel module.  The test decides when triggers are announced
    (TRIGGERED) and when their incident directory exists (INCIDENT); every
    request a client makes is queued in self.events for expect()."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="fake-tipmed-")
        self.path = os.path.join(self.dir, "tipmed.sock")
        self.root = os.path.join(self.dir, "incidents")
        os.mkdir(self.root)
        self.events = queue.Queue()
        self.seen = []               # requests that expect() passed over
        self.subs = []
        self.stopped = threading.Event()
        self.lock = threading.Lock()
        self.trigger_seq = None      # the seq TRIGGER answers with
        self.hang = threading.Event()  # set: TRIGGER gets no answer until stop()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(16)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._client, args=(c,), daemon=True).start()

    def _client(self, c):
        f = c.makefile("rb")
        try:
            word, _, arg = f.readline().decode().rstrip("\n").partition(" ")
            # every request is queued before it is answered: the client's
            # next request cannot overtake it in self.events
            if word == "SUBSCRIBE":
                self.events.put(("SUBSCRIBE",))
                with self.lock:
                    c.sendall(b"OK\n")
                    self.subs.append(c)
                return                  # stays open
            if word == "TRIGGER":
                self.events.put(("TRIGGER", arg))
                if self.hang.is_set():
                    self.stopped.wait()
                elif self.trigger_seq is None:
                    c.sendall(b"ERR ENODEV tipme.ko is not loaded\n")
                else:
                    c.sendall(b"OK seq=%d coalesced=0\n" % self.trigger_seq)
            elif word == "PUT":
                inc, name, n = arg.split()
                data = f.read(int(n))
                d = os.path.join(self.root, inc)
                if len(data) != int(n) or not os.path.isdir(d):
                    self.events.put(("PUT", inc, name, len(data)))
                    c.sendall(b"ERR ENOENT no incident\n")
                else:
                    with open(os.path.join(d, name), "wb") as out:
                        out.write(data)
                    self.events.put(("PUT", inc, name, len(data)))
                    c.sendall(b"OK\n")
            elif word == "NOTE":
                inc, _, text = arg.partition(" ")
                with open(os.path.join(self.root, inc, "description.txt"), "w") as out:
                    out.write(text + "\n")
                self.events.put(("NOTE", inc, text))
                c.sendall(b"OK\n")
            else:
                self.events.put(("?", word))
                c.sendall(b"ERR EINVAL unknown request\n")
        except OSError:
            pass
        f.close()
        c.close()

    def announce(self, line):
        with self.lock:
            for c in self.subs:
                c.sendall(line.encode() + b"\n")

    def incident(self, seq):
        """make the incident directory, then say so (as tipmed does)"""
        name = "20261122T101500Z-%d" % seq
        os.mkdir(os.path.join(self.root, name))
        self.announce("INCIDENT seq=%d name=%s" % (seq, name))
        return name

    def drop_subscribers(self):
        with self.lock:
            for c in self.subs:
                c.shutdown(socket.SHUT_RDWR)
                c.close()
            self.subs = []

    def expect(self, kind, timeout=15):
        """the oldest request of that kind not expected yet (in arrival order)"""
        for ev in self.seen:
            if ev[0] == kind:
                self.seen.remove(ev)
                return ev
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            try:
                ev = self.events.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise TimeoutError("no %s request to the fake tipmed in %.0f s" % (kind, timeout))
            if ev[0] == kind:
                return ev
            self.seen.append(ev)

    def stop(self):
        self.stopped.set()
        if self.sock.fileno() >= 0:
            self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()
        self.drop_subscribers()
        shutil.rmtree(self.dir, ignore_errors=True)


def xrecords(path):
    """the dump through `tipme xrecords` (text and JSON)"""
    exe = os.path.join(ARGS.build, "tipme")
    text = subprocess.run([exe, "xrecords", path], stdout=subprocess.PIPE, check=True,
                          universal_newlines=True).stdout
    assert "request" in text or "event" in text, text[:500]
    return json.loads(subprocess.run([exe, "xrecords", "--json", path], stdout=subprocess.PIPE,
                                     check=True, universal_newlines=True).stdout)


def t_tipmed_incident(x):
    """tipmed announces a trigger: snapshot at TRIGGERED, xhook.dump PUT into the INCIDENT; reconnects"""
    t = FakeTipmed()
    h = None
    try:
        h = Hook(x, "-n", "--tipmed", t.path)
        t.expect("SUBSCRIBE")
        wait_for(lambda: "subscribed to tipmed" in h.log(), 15, "tipme-xhook to subscribe")
        before = x.spawn(["xprop", "-root", "_NET_SUPPORTED"])
        before.wait(20)
        mono = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        t.announce("TRIGGERED seq=7 mono_ns=%d" % mono)
        wait_for(lambda: "trigger 7: snapshot" in h.log(), 15, "the snapshot of trigger 7")
        # a client after the snapshot must not be in the dump, even though
        # the incident directory appears only later
        after = x.spawn(["xprop", "-root", "_NET_SUPPORTED"])
        after.wait(20)
        name = t.incident(7)
        ev = t.expect("PUT")
        assert ev[1:3] == (name, "xhook.dump"), ev
        path = os.path.join(t.root, name, "xhook.dump")
        d = xrecords(path)
        assert d["trigger"] == "request", d["trigger"]
        assert d["trigger_mono_ns"] == mono, (d["trigger_mono_ns"], mono)
        # the X server and the xprop before the trigger, not the one after
        # (a loaded machine may leave a short-lived client's PID unknown)
        cl = [c for c in d["clients"] if c["id"] != 0]
        assert len(cl) == 1 and cl[0]["pid"] in (before.pid, 0), (before.pid, after.pid, cl)
        # tipmed restarts: tipme-xhook subscribes again
        t.drop_subscribers()
        t.expect("SUBSCRIBE")
        wait_for(lambda: "lost tipmed" in h.log(), 15, "tipme-xhook to notice")
        t.announce("TRIGGERED seq=8 mono_ns=%d" % time.clock_gettime_ns(time.CLOCK_MONOTONIC))
        wait_for(lambda: "trigger 8: snapshot" in h.log(), 15, "the snapshot of trigger 8")
        name8 = t.incident(8)
        assert t.expect("PUT")[1] == name8
        xrecords(os.path.join(t.root, name8, "xhook.dump"))
        assert not h.dumps(), "dumps in --output-dir: %s" % h.dumps()
        log("incident %s: %d records, %d clients" % (name, len(d["records"]), len(d["clients"])))
    finally:
        if h:
            h.stop()
        t.stop()


def t_tipmed_hotkey(x):
    """with tipmed, Ctrl-Alt-Minus sends TRIGGER xhook; the dump and the description go into the incident"""
    t = FakeTipmed()
    t.trigger_seq = 3
    h = None
    try:
        h = Hook(x, "--tipmed", t.path)
        t.expect("SUBSCRIBE")
        wait_for(lambda: "subscribed to tipmed" in h.log(), 15, "tipme-xhook to subscribe")
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        assert t.expect("TRIGGER")[1] == "xhook"
        mono = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        t.announce("TRIGGERED seq=3 mono_ns=%d" % mono)
        # the window opens once tipmed said which trigger is ours
        win = find_window(x, "tipme: what felt slow")
        x.run(["xdotool", "mousemove", "--window", win, "30", "30", "click", "1"])
        wait_for(lambda: x.run(["xdotool", "getwindowfocus"]).stdout.split()[0] == win, 10,
                 "the window to get the focus on a click")
        x.run(["xdotool", "type", "--delay", "20", "menu froze"])
        x.run(["xdotool", "key", "Return"])
        # Enter before the incident exists: the text waits for its name
        wait_for(lambda: "description waits for its incident" in h.log(), 15,
                 "the description to be kept")
        name = t.incident(3)
        assert t.expect("PUT")[1] == name
        ev = t.expect("NOTE")
        assert ev[1:] == (name, "menu froze"), ev
        d = xrecords(os.path.join(t.root, name, "xhook.dump"))
        assert d["trigger"] == "hotkey", d["trigger"]
        assert any(r["kind"] == "trigger" for r in d["records"])
        with open(os.path.join(t.root, name, "description.txt")) as f:
            assert f.read() == "menu froze\n"
        assert not h.dumps(), "dumps in --output-dir: %s" % h.dumps()
    finally:
        if h:
            h.stop()
        t.stop()


def t_tipmed_refused(x):
    """tipmed absent or without the module: the hotkey and SIGUSR1 still write dumps to --output-dir"""
    t = FakeTipmed()          # answers TRIGGER with ENODEV
    h = None
    try:
        h = Hook(x, "-n", "--tipmed", t.path)
        t.expect("SUBSCRIBE")
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        t.expect("TRIGGER")
        d = load(h.wait_dump(before))
        assert d["trigger"] == "hotkey", d["trigger"]
        assert "not loaded" in h.log(), h.log()
        t.stop()              # no tipmed at all now
        wait_for(lambda: "lost tipmed" in h.log(), 15, "tipme-xhook to notice")
        assert load(h.dump())["trigger"] == "signal"
    finally:
        if h:
            h.stop()
        t.stop()


def t_tipmed_hung(x):
    """tipmed takes TRIGGER and never answers: later dumps go to --output-dir, SIGTERM still exits"""
    t = FakeTipmed()
    t.hang.set()
    h = None
    try:
        h = Hook(x, "-n", "--tipmed", t.path)
        t.expect("SUBSCRIBE")
        wait_for(lambda: "subscribed to tipmed" in h.log(), 15, "tipme-xhook to subscribe")
        before = h.dumps()
        for i in range(5):      # one at a time: signals of one kind merge
            h.proc.send_signal(signal.SIGUSR1)
            if i == 0:
                t.expect("TRIGGER")     # the worker now waits for the answer
            wait_for(lambda: h.log().count("asking tipmed") == i + 1 or
                     "slow to answer" in h.log(), 15, "SIGUSR1 %d to be handled" % (i + 1))
        d = load(h.wait_dump(before))
        assert d["trigger"] == "signal", d["trigger"]
        assert "tipmed is slow to answer" in h.log(), h.log()
        t0 = time.monotonic()
        h.stop()                # waits 5 s for tipmed, then gives up
        log("stopped in %.1f s with requests to a hung tipmed" % (time.monotonic() - t0))
        h = None
    finally:
        if h:
            h.stop()
        t.stop()


def t_tipmed_real(x):
    """the real tipmed without tipme.ko: subscribe, TRIGGER refused (ENODEV) -> local dump, tipmed restart"""
    d = tempfile.mkdtemp(prefix="tipmed-test-")
    sock = os.path.join(d, "tipmed.sock")
    grp = subprocess.run(["id", "-gn"], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout.strip()
    argv = [os.path.join(ARGS.build, "tipmed"), "-d", os.path.join(d, "incidents"), "-s", sock,
            "-g", grp]
    tlog = open(os.path.join(d, "tipmed.log"), "w")
    tipmed = subprocess.Popen(argv, stdout=tlog, stderr=tlog)
    h = None
    try:
        wait_for(lambda: os.path.exists(sock) or tipmed.poll() is not None, 15, "tipmed's socket")
        h = Hook(x, "-n", "--tipmed", sock)
        wait_for(lambda: "subscribed to tipmed" in h.log(), 15, "tipme-xhook to subscribe")
        r = subprocess.run([os.path.join(ARGS.build, "tipme"), "trigger", "--socket", sock],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=20)
        assert r.returncode == 1 and "not loaded" in r.stderr, (r.returncode, r.stderr)
        before = h.dumps()
        x.run(["xdotool", "key", "ctrl+alt+minus"])
        dump = load(h.wait_dump(before))
        assert dump["trigger"] == "hotkey"
        assert "tipme.ko is not loaded" in h.log(), h.log()
        tipmed.terminate()
        tipmed.wait(15)
        wait_for(lambda: "lost tipmed" in h.log(), 15, "tipme-xhook to notice tipmed is gone")
        tipmed = subprocess.Popen(argv, stdout=tlog, stderr=tlog)
        wait_for(lambda: h.log().count("subscribed to tipmed") == 2, 15,
                 "tipme-xhook to subscribe to the new tipmed")
    finally:
        if h:
            h.stop()
        if tipmed.poll() is None:
            tipmed.terminate()
            tipmed.wait(15)
        tlog.close()
        shutil.rmtree(d, ignore_errors=True)


def bench_once(x, mode, n):
    try:
        out = x.run([os.path.join(ARGS.build, "xhook-testclient"), mode, str(n)],
                    timeout=120, stderr=subprocess.PIPE).stdout
    except subprocess.CalledProcessError as e:
        # say why (CI saw one exit 1 without a word), and whether the
        # X server still takes a connection
        again = subprocess.run(["xdpyinfo"], env=x.env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, universal_newlines=True)
        raise AssertionError("xhook-testclient %s: exit %d: %s; xdpyinfo then: exit %d %s" % (
            mode, e.returncode, (e.stderr or "").strip(), again.returncode,
            again.stderr.strip())) from None
    return int(out.split("ns ")[1].split()[0])


def t_cost(x):
    """cost: requests cost < 20x and round trips < 6x with tipme-xhook than without"""
    res = {}
    for mode, n in (("bench", 100000), ("rtt", 20000)):
        without, with_ = [], []
        for _ in range(3):     # alternate, keep the best of each: the machine is shared
            without.append(bench_once(x, mode, n))
            h = Hook(x)
            try:
                with_.append(bench_once(x, mode, n))
            finally:
                h.stop()
        res[mode] = (min(without), min(with_))
    a, b = res["bench"]
    log("request-heavy client (100k PolyPoint+NoOperation, a round trip every 1000): "
        "%.1f ms without tipme-xhook, %.1f ms with: ratio %.2f" % (a / 1e6, b / 1e6, b / a))
    log("  per request: %.2f us without, %.2f us with" % (a / 2e5 / 1e3, b / 2e5 / 1e3))
    a, b = res["rtt"]
    log("round trips (20k GetInputFocus): %.1f us without, %.1f us with: ratio %.2f" % (
        a / 2e4 / 1e3, b / 2e4 / 1e3, b / a))
    # The bounds catch what would change the design, not noise: on this
    # shared 2-core machine the ratios scattered over 0.8-9.2x
    # (Documentation/xhook.md, "Cost"); a recorder that asked the server
    # for a round trip per request, or parsed the stream in the server's
    # path, would cost tens of times the request's time.
    ra, rr = res["bench"][1] / res["bench"][0], res["rtt"][1] / res["rtt"][0]
    assert ra < COST_MAX_REQUESTS, "requests cost %.1fx with tipme-xhook, bound %dx" % (
        ra, COST_MAX_REQUESTS)
    assert rr < COST_MAX_ROUND_TRIPS, "round trips cost %.1fx with tipme-xhook, bound %dx" % (
        rr, COST_MAX_ROUND_TRIPS)


# the cost test's bounds (with/without, best of 3 each)
COST_MAX_REQUESTS = 20
COST_MAX_ROUND_TRIPS = 6


# ---- the auto trigger ---------------------------------------------------------

class Victim:
    """xhook-testclient victim ACTION...: its window focused, its lines collected"""
    def __init__(self, x, *acts):
        self.proc = x.spawn([os.path.join(ARGS.build, "xhook-testclient"), "victim"] +
                            list(acts), stdout=subprocess.PIPE, universal_newlines=True)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()
        self.wid = wait_for(lambda: [l.split()[1] for l in self.lines
                                     if l.startswith("window ")], 20, "the victim's window")[0]
        x.run(["xdotool", "mousemove", "--window", self.wid, "20", "20"])
        x.run(["xdotool", "windowfocus", "--sync", self.wid])

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def times(self, word):
        return [int(l.split()[1]) for l in list(self.lines) if l.startswith(word + " ")]


def auto_lines(h):
    """what tipme-xhook said of each press measured, and of each auto trigger"""
    text = h.log()
    measured = [float(l.split(" answered in ")[1].split()[0]) for l in text.splitlines()
                if " answered in " in l]
    fired = [l for l in text.splitlines() if "tipme-xhook: auto: a " in l and " took " in l and
             "no incident" not in l]
    held = [l for l in text.splitlines() if "no incident" in l]
    return measured, fired, held


def t_auto_fast(x):
    """auto trigger: five presses a client answers in 20 ms are measured, and none fires"""
    h = Hook(x, "--auto-trigger-ms", "300")
    try:
        v = Victim(x, *(["sleep:20"] * 5))
        x.run(["xdotool", "key", "--delay", "150", "a", "s", "d", "f", "g"])
        wait_for(lambda: len(v.times("done")) == 5, 20, "the victim to answer five presses")
        # synchronise on tipme-xhook's own verdict on every press
        measured = wait_for(lambda: len(auto_lines(h)[0]) >= 5 and auto_lines(h)[0], 20,
                            "tipme-xhook to measure five presses")
        _, fired, held = auto_lines(h)
        dumps = h.dumps()
    finally:
        h.stop()
    log("measured: %s ms" % ", ".join("%.1f" % m for m in measured))
    assert len(measured) == 5, measured
    assert all(20 <= m < 300 for m in measured), measured
    assert not fired and not held and not dumps, (fired, held, dumps)


def t_auto_stopped(x):
    """auto trigger: a client stopped for 600 ms while a key is typed fires one incident naming it, latency within 10%"""
    h = Hook(x, "--auto-trigger-ms", "300")
    try:
        v = Victim(x, "plain")
        os.kill(v.proc.pid, signal.SIGSTOP)
        t0 = time.monotonic_ns()
        x.run(["xdotool", "key", "a"])
        t1 = time.monotonic_ns()
        # the stimulus: the client stays stopped 600 ms after the key
        time.sleep(max(0.0, 0.6 - (time.monotonic_ns() - t0) / 1e9))
        os.kill(v.proc.pid, signal.SIGCONT)
        done = wait_for(lambda: v.times("done"), 20, "the victim to answer")[0]
        path = h.wait_dump([])
        measured = wait_for(lambda: auto_lines(h)[0], 20, "tipme-xhook's measurement")
        _, fired, held = auto_lines(h)
        d = load(path)
        dumps = h.dumps()
    finally:
        h.stop()
    lo, hi = (done - t1) / 1e6, (done - t0) / 1e6
    log("measured %.1f ms; the truth: %.1f .. %.1f ms (key sent .. client done)" % (
        measured[0], lo, hi))
    assert len(measured) == 1 and len(fired) == 1 and not held, (measured, fired, held)
    assert len(dumps) == 1, dumps
    assert d["trigger"] == "auto", d["trigger"]
    assert "pid %d (xhook-testclien)" % v.proc.pid in d["description"], d["description"]
    assert 0.9 * lo <= measured[0] <= 1.1 * hi, (measured[0], lo, hi)


def t_auto_spacing(x):
    """auto trigger: three slow presses within the spacing fire once; the other two are counted, not dumped"""
    h = Hook(x, "--auto-trigger-ms", "100", "--auto-spacing", "3600")
    try:
        v = Victim(x, *(["sleep:250"] * 3))
        x.run(["xdotool", "key", "--delay", "400", "a", "s", "d"])
        wait_for(lambda: len(v.times("done")) == 3, 20, "the victim to answer three presses")
        wait_for(lambda: len(auto_lines(h)[0]) >= 3, 20, "tipme-xhook to measure three presses")
        wait_for(lambda: len(auto_lines(h)[1]) + len(auto_lines(h)[2]) >= 3, 20,
                 "tipme-xhook's decision on each")
        h.wait_dump([])
        measured, fired, held = auto_lines(h)
        dumps = h.dumps()
    finally:
        h.stop()
    log("measured: %s ms" % ", ".join("%.1f" % m for m in measured))
    assert all(m >= 250 for m in measured), measured
    assert len(fired) == 1 and len(held) == 2, (fired, held)
    assert all("too soon" in l for l in held), held
    assert len(dumps) == 1, dumps


# ---- under Xwayland ----------------------------------------------------------
# The X server of a Wayland desktop (tests/lib/xwayland.py: sway's headless
# backend).  Keys come through the compositor (wtype's virtual keyboard ->
# sway -> wl_keyboard -> Xwayland), as a Wayland desktop's keyboard does.

def xwl_xterm(x):
    """an xterm running cat, with the compositor's keyboard focus"""
    p = x.spawn(["xterm", "-geometry", "40x10+0+0", "-e", "cat"])
    wait_for(lambda: x.focused_pid() == p.pid, 20, "xterm to get the keyboard focus")
    return p


def t_xwayland_keys(x):
    """Xwayland: a key from the compositor: device event -> delivered to xterm -> xterm draws"""
    h = Hook(x)
    try:
        p = xwl_xterm(x)
        x.wtype("qq")
        typed_chain(x, h, p, "Xwayland")
    finally:
        h.stop()


def t_xwayland_clients(x):
    """Xwayland: every connected client has its PID: the compositor's window manager, xterm, 5 held clients"""
    h = Hook(x)
    hold = os.path.join(ARGS.build, "xhook-testclient")
    seen = []
    try:
        p = xwl_xterm(x)
        for _ in range(5):
            q = x.spawn([hold, "hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        universal_newlines=True)
            lines = [q.stdout.readline().split(), q.stdout.readline().split()]
            assert lines[1][:2] == ["ready", "base"], "testclient said %s" % lines
            d = load(h.dump())
            q.stdin.close()
            q.wait(20)
            seen.append((q.pid, int(lines[1][2]), d))
    finally:
        h.stop()
    for pid, base, dd in seen:
        mine = [c for c in dd["clients"] if c["pid"] == pid]
        assert mine and all(c["xid_base"] == base and c["comm"] == "xhook-testclien"
                            for c in mine), "pid %d (base 0x%x): %s" % (pid, base, mine)
    d = seen[-1][2]
    by_pid = {c["pid"]: c["comm"] for c in d["clients"]}
    assert by_pid.get(x.server_pid) == "Xwayland", by_pid
    assert by_pid.get(x.proc.pid) == "sway", "sway's own X connection: %s" % by_pid
    assert by_pid.get(p.pid) == "xterm", by_pid
    known = {0, x.server_pid, x.proc.pid, p.pid, h.proc.pid} | {q for q, _, _ in seen}
    assert set(by_pid) <= known, "PIDs of no process of this test: %s" % (set(by_pid) - known)
    log("clients: %s" % sorted(set(by_pid.values())))


def mappings(h):
    """how many keyboard mappings tipme-xhook has read and then grabbed (or kept) for"""
    n = 0
    read = False
    for line in h.log().splitlines():
        if "tipme-xhook: hotkeys:" in line:
            read = True
        elif read and ("hotkey combinations" in line or "hotkeys unchanged" in line):
            read = False
            n += 1
    return n


def t_xwayland_hotkey(x):
    """Xwayland: Ctrl-Alt-Minus from the compositor's keyboard writes a dump; xterm does not get it"""
    h = Hook(x)
    try:
        p = xwl_xterm(x)
        # wtype sends a keymap of its own with each run, and tipme-xhook
        # reads it and grabs again: a first run with the same keys installs
        # that keymap, so the hotkey's run finds its grab in place
        n = mappings(h)
        x.wtype("-k", "minus")
        wait_for(lambda: mappings(h) > n, 15, "tipme-xhook to read wtype's keymap")
        before = h.dumps()
        x.wtype("-M", "ctrl", "-M", "alt", "-k", "minus", "-m", "alt", "-m", "ctrl")
        d = load(h.wait_dump(before))
        text = h.log()
    finally:
        h.stop()
    assert d["trigger"] == "hotkey", d["trigger"]
    recs = d["records"]
    trig = [i for i, r in enumerate(recs) if r["kind"] == "trigger"]
    assert len(trig) == 1, "%d trigger records" % len(trig)
    # the hotkey is the last key the test pressed
    presses = [i for i, r in enumerate(recs) if r["kind"] == "device" and r["major"] == 2]
    assert presses, "no key press recorded"
    hot = recs[presses[-1]]
    assert hot["pid"] == x.server_pid and hot["comm"] == "Xwayland", hot
    assert abs(recs[trig[0]]["time_ns"] - hot["time_ns"]) < 1e9, \
        "the trigger is not the hotkey's press"
    to_xterm = [r for r in recs[presses[-1]:] if r["kind"] == "event" and r["major"] == 2 and
                r["pid"] == p.pid]
    assert not to_xterm, "the hotkey reached xterm: %s" % to_xterm
    primed = [r for r in recs[:presses[-1]] if r["kind"] == "event" and r["major"] == 2 and
              r["pid"] == p.pid]
    assert primed, "the minus alone did not reach xterm"
    assert "unchanged" in text, "the second keymap was grabbed again"


def t_xwayland_privacy(x):
    """Xwayland: key logging off: the word typed through the compositor is nowhere in the dump"""
    h = Hook(x)
    try:
        xwl_xterm(x)
        x.wtype(SECRET)
        # wtype is done when sway has the keys, not when Xwayland has:
        # dump until every press and release is in
        got = {}

        def all_keys():
            got["path"] = h.dump()
            got["d"] = load(got["path"])
            return len([r for r in key_records(got["d"]) if r["kind"] == "device"]) >= \
                2 * len(SECRET)
        wait_for(all_keys, 20, "the %d key presses and releases in a dump" % len(SECRET))
        with open(got["path"], "rb") as f:
            raw = f.read()
        d = got["d"]
    finally:
        h.stop()
    keys = check_redacted(raw, d)
    log("%d key records, all redacted" % len(keys))


XWAYLAND_TESTS = [t_xwayland_keys, t_xwayland_clients, t_xwayland_hotkey, t_xwayland_privacy]

TESTS = [t_keypress_chain, t_short_lived_sequential, t_parallel_burst, t_big_putimage,
         t_draw_lateness, t_hotkey_locks, t_hotkey_mark, t_hotkey_grabbed_elsewhere, t_privacy_off,
         t_privacy_on, t_privacy_qwertz, t_description_saved, t_description_skipped, t_server_killed, t_missing_extensions, t_autostart_session,
         t_print_robust,
         t_tipmed_incident, t_tipmed_hotkey, t_tipmed_refused, t_tipmed_hung, t_tipmed_real, t_auto_fast, t_auto_stopped,
         t_auto_spacing, t_cost] + XWAYLAND_TESTS

# Tests that measure time (printed, not asserted): skipped under sanitizers,
# where the figures mean nothing.
TIMING_TESTS = [t_cost]


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("tests", nargs="*")
    ARGS = ap.parse_args()
    tests = [t for t in TESTS if not ARGS.tests or t.__name__ in ARGS.tests or
             t.__name__[2:] in ARGS.tests]
    missing = [b for b in ("Xvfb", "xdotool", "xterm", "xprop", "xdpyinfo") if not shutil.which(b)]
    missing_wl = [b for b in xwayland.NEEDS if not shutil.which(b)]
    sanitized = "sanitize" in os.environ.get("SAN", "") or "/asan" in ARGS.build
    for t in tests:
        name = "%s: %s" % (t.__name__[2:], t.__doc__)
        wl = t in XWAYLAND_TESTS
        if missing or (wl and missing_wl):
            tap.skip(name, "missing " + " ".join(missing + (missing_wl if wl else [])))
            continue
        if sanitized and t in TIMING_TESTS:
            # ASan/UBSan slow the recorder several-fold: its figures are
            # measured by the plain build; here only memory errors count.
            tap.skip(name, "figures not meaningful under sanitizers")
            continue
        try:
            x = xwayland.Xwayland() if wl else Xvfb(*getattr(t, "xvfb_args", ()))
        except Exception as e:
            log("%s: %s" % (type(e).__name__, e))
            tap.check(False, name)
            continue
        try:
            t(x)
            tap.check(True, name)
        except Exception as e:  # report and go on with the next test
            log("%s: %s" % (type(e).__name__, e))
            # an error in the test's finally (tipme-xhook's exit code) hides
            # the one that ended its body; and was the X server still there?
            if e.__context__ is not None:
                log("while handling %s: %s" % (type(e.__context__).__name__, e.__context__))
            if x.proc.poll() is not None:
                log("%s had exited with status %s" % ("sway" if wl else "Xvfb",
                                                      x.proc.returncode))
            tap.check(False, name)
        finally:
            x.stop()
    tap.plan()
    return 1 if tap.failed() else 0

if __name__ == "__main__":
    sys.exit(main())
