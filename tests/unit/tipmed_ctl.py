#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tipmed's control socket against a client that is not the X hook: PUT
writes an incident's file once and only the files a client may hand in;
NOTE may replace the description.  Runs the real tipmed (no tipme.ko is
needed for these requests) on a scratch incident root.  Prints TAP.

  python3 tests/unit/tipmed_ctl.py BUILD_DIR
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, failed, plan  # noqa: E402


PUT_AS = r"""
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(20)
s.connect(sys.argv[1])
data = sys.argv[3].encode()
s.sendall(b"PUT %s xhook.dump %d\n" % (sys.argv[2].encode(), len(data)) + data)
print(os.getpid(), s.recv(4096).decode().strip())
"""


def wait_ready(log_path, tipmed):
    """Until tipmed says its socket is there: the socket's group and mode
    are set just before that line, so other users can connect after it
    (the file alone exists a moment earlier, root's only)."""
    end = time.monotonic() + 15
    while tipmed.poll() is None and time.monotonic() < end:
        with open(log_path) as f:
            if "control socket" in f.read():
                return
        time.sleep(0.01)


def handins(root, inc):
    with open(os.path.join(root, inc, "meta.json")) as f:
        return json.load(f).get("hand_ins")


def request(sock, line, data=b""):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(sock)
    s.sendall(line.encode() + b"\n" + data)
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        reply += chunk
    s.close()
    return reply.decode().strip()


def main():
    build = sys.argv[1]
    d = tempfile.mkdtemp(prefix="tipmed-ctl-")
    root, sock = os.path.join(d, "incidents"), os.path.join(d, "tipmed.sock")
    grp = subprocess.run(["id", "-gn"], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout.strip()
    log = open(os.path.join(d, "tipmed.log"), "w")
    tipmed = subprocess.Popen([os.path.join(build, "tipmed"), "-d", root, "-s", sock, "-g", grp],
                              stdout=log, stderr=log)
    try:
        # the file exists from bind(), a moment before listen(): a
        # connect() in between is refused (seen on a loaded machine)
        wait_ready(os.path.join(d, "tipmed.log"), tipmed)
        check(os.path.exists(sock), "tipmed listens on its socket")
        inc = "20261124T000000Z-1"
        os.mkdir(os.path.join(root, inc), 0o700)
        open(os.path.join(root, inc, "meta.json"), "w").write(meta(1))
        xd = os.path.join(root, inc, "xhook-0.dump")

        r = request(sock, "PUT %s xhook.dump 5" % inc, b"first")
        check(r == "OK", "PUT xhook.dump into an incident: OK", r)
        check(open(xd, "rb").read() == b"first", "root's X dump is kept as xhook-0.dump")
        hand = handins(root, inc)
        check(hand == [{"file": "xhook-0.dump", "uid": 0, "pid": os.getpid(),
                        "exe": os.path.realpath(sys.executable), "bytes": 5}],
              "meta.json names the uploader: uid, pid and executable (SO_PEERCRED, "
              "/proc/PID/exe)", hand)
        r = request(sock, "PUT %s xhook.dump 6" % inc, b"second")
        check(r.startswith("ERR EEXIST") and "written once" in r,
              "a second PUT of the same user's file is refused (EEXIST)", r)
        check(open(xd, "rb").read() == b"first", "and the first file is intact")
        check(not [f for f in os.listdir(os.path.join(root, inc)) if f.startswith(".tmp-")],
              "no temporary file is left behind")

        # another member of the socket's group (nobody, in root's group
        # here) hands in their own X dump: it takes nobody's place
        os.chmod(d, 0o755)
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=0", "--clear-groups",
                            sys.executable, "-c", PUT_AS, sock, inc, "member"],
                           stdout=subprocess.PIPE, universal_newlines=True, timeout=60).stdout.split()
        check(r[1:] == ["OK"], "a member's PUT of xhook.dump into the same incident: OK", r)
        check(open(os.path.join(root, inc, "xhook-65534.dump"), "rb").read() == b"member" and
              open(xd, "rb").read() == b"first",
              "kept as xhook-65534.dump, beside root's, which is intact")
        hand = handins(root, inc)
        check(len(hand) == 2 and hand[1] == {"file": "xhook-65534.dump", "uid": 65534,
                                             "pid": int(r[0]),
                                             "exe": os.path.realpath(sys.executable),
                                             "bytes": 6},
              "meta.json names both uploaders, the member's with its own uid and pid", hand)
        out = subprocess.run([os.path.join(build, "tipme"), "incidents", "--json",
                              "--incident-dir", root], stdout=subprocess.PIPE, check=True,
                             universal_newlines=True).stdout
        rows = [x for x in json.loads(out) if x["name"] == inc]
        check(rows and [(x["file"], x["uid"]) for x in rows[0]["x_dumps"]] ==
              [("xhook-0.dump", 0), ("xhook-65534.dump", 65534)],
              "tipme incidents --json lists the X dumps with their uploaders", out)
        out = subprocess.run([os.path.join(build, "tipme"), "incidents", "--incident-dir", root],
                             stdout=subprocess.PIPE, check=True, universal_newlines=True).stdout
        check("X dump from uid 65534 (pid %s, %s): xhook-65534.dump"
              % (r[0], os.path.realpath(sys.executable)) in out,
              "tipme incidents names each uploader", out)
        inc5 = "20261124T000000Z-5"
        os.mkdir(os.path.join(root, inc5), 0o700)
        r = request(sock, "PUT %s xhook.dump 1" % inc5, b"z")
        check(r.startswith("ERR ENOENT") and os.listdir(os.path.join(root, inc5)) == [],
              "PUT into a directory without tipmed's meta.json: refused, nothing written", r)

        for name in ("kernel.dump", "meta.json", "description.txt", "other.bin"):
            r = request(sock, "PUT %s %s 3" % (inc, name), b"bad")
            check(r.startswith("ERR EPERM"), "PUT %s is refused (EPERM): only xhook.dump is "
                  "handed in" % name, r)
        check(sorted(os.listdir(os.path.join(root, inc))) ==
              ["meta.json", "xhook-0.dump", "xhook-65534.dump"],
              "the incident holds only what was accepted", os.listdir(os.path.join(root, inc)))

        for bad in ("../x", ".hidden", "a/b"):
            r = request(sock, "PUT %s xhook.dump 1" % bad, b"z")
            check(r.startswith("ERR EINVAL"), "PUT into incident %r: EINVAL" % bad, r)
        r = request(sock, "PUT 20261124T000000Z-9 xhook.dump 1", b"z")
        check(r.startswith("ERR ENOENT"), "PUT into an incident that does not exist: ENOENT", r)
        os.symlink(d, os.path.join(root, "20261124T000000Z-2"))
        r = request(sock, "PUT 20261124T000000Z-2 xhook.dump 1", b"z")
        check(r.startswith("ERR ENOENT") and not os.path.exists(os.path.join(d, "xhook.dump")),
              "PUT through a symlink planted in the root: refused, nothing written", r)

        inc3 = "20261124T000000Z-3"
        os.mkdir(os.path.join(root, inc3), 0o700)
        open(os.path.join(root, inc3, "meta.json"), "w").write(meta(3))
        os.symlink(os.path.join(d, "planted.dump"), os.path.join(root, inc3, "xhook-0.dump"))
        r = request(sock, "PUT %s xhook.dump 1" % inc3, b"z")
        check(r.startswith("ERR EEXIST") and not os.path.exists(os.path.join(d, "planted.dump")),
              "PUT onto a dangling symlink planted in an incident: refused, nothing written "
              "through it", r)

        r1 = request(sock, "NOTE %s the first words" % inc)
        r2 = request(sock, "NOTE %s better words" % inc)
        desc = open(os.path.join(root, inc, "description.txt")).read()
        check(r1 == "OK" and r2 == "OK" and desc == "better words\n",
              "NOTE may replace the description", (r1, r2, desc))

        # the command: tipme note --socket, the words after INCIDENT all
        # text (even one that looks like an option)
        tipme = os.path.join(build, "tipme")
        r = subprocess.run([tipme, "note", "--socket", sock, inc, "typing", "-v", "lagged"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=30)
        desc = open(os.path.join(root, inc, "description.txt")).read()
        check(r.returncode == 0 and desc == "typing -v lagged\n",
              "tipme note --socket SOCK INCIDENT TEXT...: the description, '-v' in it as text",
              (r.returncode, r.stdout, desc))
        r = subprocess.run([tipme, "note", "--socket", sock, "20261124T000000Z-9", "slow"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=30)
        check(r.returncode == 1 and r.stderr.startswith("tipme note: ") and
              "20261124T000000Z-9" in r.stderr,
              "tipme note on an incident that does not exist: exit 1, tipmed's error", r.stderr)
        r = subprocess.run([tipme, "note", "--socket", sock + ".gone", inc, "slow"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=30)
        check(r.returncode == 1 and "tipmed is not running" in r.stderr and
              open(os.path.join(root, inc, "description.txt")).read() == desc,
              "tipme note --socket to no tipmed: exit 1, says so, nothing changed", r.stderr)

        # a description that would drive the terminal (set its title, turn
        # the screen red) reaches it only as visible text
        request(sock, "NOTE %s \x1b]0;owned\x07\x1b[41mred" % inc)
        out = subprocess.run([os.path.join(build, "tipme"), "incidents", "--incident-dir", root],
                             stdout=subprocess.PIPE, check=True).stdout
        check(b"\x1b" not in out and b"\x07" not in out and b"\\x1b]0;owned\\x07" in out,
              "tipme incidents prints a hostile description escaped", out)

        r = request(sock, "STATUS")
        check(r == "OK auto_made=0 auto_held=0 auto_today=0 auto_per_day=24 auto_spacing_s=60",
              "STATUS: tipmed's auto incident counts and limits", r)
        r = request(sock, 'TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3 comm=a"b')
        check(r.startswith("ERR EINVAL"), "TRIGGER auto with a broken press: EINVAL", r)
    finally:
        tipmed.terminate()
        tipmed.wait(15)
        log.close()
        shutil.rmtree(d, ignore_errors=True)
    bad_roots(build, grp)
    creation_order(build, grp)
    limits(build)
    fairness(build)
    plan()
    return 1 if failed() else 0


def bad_roots(build, grp):
    """tipmed refuses an incident root that others could plant files in"""
    d = tempfile.mkdtemp(prefix="tipmed-root-")
    try:
        for what, setup in (
                ("writable by everyone", lambda r: (os.mkdir(r), os.chmod(r, 0o777))),
                ("writable by its group", lambda r: (os.mkdir(r), os.chmod(r, 0o770))),
                ("a symlink", lambda r: (os.mkdir(r + ".real", 0o700), os.symlink(r + ".real", r)))):
            root = os.path.join(d, what.replace(" ", "-"))
            setup(root)
            r = subprocess.run([os.path.join(build, "tipmed"), "-d", root, "-s",
                                os.path.join(d, "s.sock"), "-g", grp],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=20)
            check(r.returncode != 0 and ("refusing" in r.stdout or "symlink" in r.stdout),
                  "tipmed refuses an incident root that is %s" % what, r.stdout)
    finally:
        shutil.rmtree(d, ignore_errors=True)



def meta(number, source="hotkey"):
    text = '{\n  "tipme_version": "0.1.0",\n'
    if number is not None:
        text += '  "number": %d,\n' % number
    return text + ('  "trigger": {\n    "seq": 1,\n    "source": "%s",\n'
                   '    "utc": "2026-11-24T12:00:00Z"\n  }\n}\n' % source)


def creation_order(build, grp):
    """Incidents are listed (and so pruned) in the order tipmed numbered
    them, not by their wall-clock names; symlinks and files planted in the
    root or in an incident are never followed"""
    d = tempfile.mkdtemp(prefix="tipmed-order-")
    root, sock = os.path.join(d, "incidents"), os.path.join(d, "s.sock")
    os.mkdir(root, 0o700)
    outside = os.path.join(d, "outside")
    os.mkdir(outside)
    open(os.path.join(outside, "meta.json"), "w").write(meta(99, "planted"))
    made = [("20261124T120000Z-1", 1), ("20261124T130000Z-2", 2),
            ("20200101T000000Z-1", 3),          # the clock stepped back
            ("20100101T000000Z-7", None)]       # an older tipmed's: no number
    for name, number in made:
        os.mkdir(os.path.join(root, name), 0o700)
        open(os.path.join(root, name, "meta.json"), "w").write(meta(number))
    os.mkdir(os.path.join(root, "20261124T150000Z-4"), 0o700)
    os.symlink(os.path.join(outside, "meta.json"),
               os.path.join(root, "20261124T150000Z-4", "meta.json"))
    os.symlink(outside, os.path.join(root, "20000101T000000Z-1"))
    open(os.path.join(root, "20261124T140000Z-5"), "w").write("a file")
    want = ["20100101T000000Z-7", "20261124T150000Z-4", "20261124T120000Z-1",
            "20261124T130000Z-2", "20200101T000000Z-1"]
    log = open(os.path.join(d, "tipmed.log"), "w")
    tipmed = subprocess.Popen([os.path.join(build, "tipmed"), "-d", root, "-s", sock, "-g", grp],
                              stdout=log, stderr=log)
    try:
        wait_ready(os.path.join(d, "tipmed.log"), tipmed)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(sock)
        s.sendall(b"LIST\n")
        got = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        s.close()
        lines = got.decode().split("\n")
        check(lines[0] == "OK n=%d" % len(want) and lines[1:1 + len(want)] == want,
              "LIST: incidents in creation order (numbers), a stepped-back clock's name "
              "after older ones; no symlink, no file", got.decode())
        r = subprocess.run([os.path.join(build, "tipme"), "incidents", "--json",
                            "--incident-dir", root], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        import json
        rows = json.loads(r.stdout) if r.returncode == 0 else []
        check([x["name"] for x in rows] == want,
              "tipme incidents lists the same order", r.stdout + r.stderr)
        planted = [x for x in rows if x["name"] == "20261124T150000Z-4"]
        check(planted and planted[0]["source"] == "" and "meta.json" in r.stderr,
              "a meta.json that is a symlink is not read through, and says so", r.stderr)
        r = request(sock, "NOTE 20000101T000000Z-1 through the link")
        check(r.startswith("ERR") and not os.path.exists(os.path.join(outside, "description.txt")),
              "NOTE through a symlink planted in the root: refused, nothing written", r)
    finally:
        tipmed.terminate()
        tipmed.wait(15)
        log.close()
        shutil.rmtree(d, ignore_errors=True)


NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
CLIENT = r"""
import socket, sys, time
path, mode = sys.argv[1], sys.argv[2]
def ask(line, data=b""):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(20)
    s.connect(path)
    s.sendall(line.encode() + b"\n" + data)
    r = s.recv(4096).decode().strip()
    s.close()
    return r
if mode == "hold":          # 9 connections held open: what does the 9th hear?
    held = []
    for i in range(9):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(path)
        held.append(s)
    time.sleep(0.2)
    held[-1].settimeout(5)
    try:
        print(held[-1].recv(4096).decode().strip() or "closed")
    except socket.timeout:
        print("kept")
elif mode == "idle":        # say nothing: when and how is it closed?
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(20)
    t0 = time.monotonic()
    s.connect(path)
    r = s.recv(4096).decode().strip()
    print("%.2f %s" % (time.monotonic() - t0, r))
elif mode == "triggers":    # 13 triggers in a row
    print("|".join(ask("TRIGGER user").split()[1] for _ in range(13)))
elif mode == "put":         # a file larger than the incident budget
    print(ask("PUT 20261124T000000Z-1 xhook.dump %d" % (2 << 20)))
"""


def limits(build):
    """A member of the socket's group (here: nobody in nogroup) cannot
    starve others: connections per user, idle connections, triggers per
    minute, PUT larger than the incident budget."""
    d = tempfile.mkdtemp(prefix="tipmed-limits-")
    os.chmod(d, 0o755)
    root, sock = os.path.join(d, "incidents"), os.path.join(d, "tipmed.sock")
    log = open(os.path.join(d, "tipmed.log"), "w")
    tipmed = subprocess.Popen([os.path.join(build, "tipmed"), "-d", root, "-s", sock,
                               "-g", "nogroup", "-i", "2", "-m", "1"],
                              stdout=log, stderr=log)
    try:
        wait_ready(os.path.join(d, "tipmed.log"), tipmed)
        os.mkdir(os.path.join(root, "20261124T000000Z-1"), 0o700)

        def client(mode):
            return subprocess.run(NOBODY + [sys.executable, "-c", CLIENT, sock, mode],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True, timeout=60).stdout.strip()
        r = client("hold")
        check(r.startswith("ERR EBUSY") and "this user" in r,
              "a user's 9th connection is refused (EBUSY, at most 8)", r)
        r = client("idle").split(" ", 1)
        check(len(r) == 2 and float(r[0]) >= 1.9 and r[1].startswith("ERR ETIMEDOUT"),
              "a connection that says nothing is closed after the idle timeout (2 s): %s"
              % " ".join(r), r)
        r = client("triggers").split("|")
        check(r[:12] == ["ENODEV"] * 12 and r[12] == "EBUSY",
              "a user's 13th trigger in a minute is refused (EBUSY); the 12 before reach "
              "the module (ENODEV here: not loaded)", r)
        r = client("put")
        check(r.startswith("ERR EFBIG"), "a PUT larger than the incident budget (1 MB) is "
              "refused before any byte is read (EFBIG)", r)
    finally:
        tipmed.terminate()
        tipmed.wait(15)
        log.close()
        shutil.rmtree(d, ignore_errors=True)


HOLD = r"""
import socket, sys
path, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
held = []
for i in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(20)
    s.connect(path)
    if mode == "subscribe":
        s.sendall(b"SUBSCRIBE\n")
        print(s.recv(4096).decode().strip() or "closed", flush=True)
    elif mode.startswith("put"):
        s.sendall(b"PUT %s xhook.dump %d\n" % (mode[4:].encode(), 200 << 20))
    held.append(s)
if mode.startswith("put"):      # the last PUT's answer, if one comes
    try:
        print(held[-1].recv(4096).decode().strip() or "closed", flush=True)
    except socket.timeout:
        print("no answer", flush=True)
print("ready", flush=True)
sys.stdin.read()                # hold them until the test is done
"""


def as_user(uid, *args):
    return subprocess.Popen(["setpriv", "--reuid=%d" % uid, "--regid=65534", "--clear-groups",
                             sys.executable, "-c", HOLD] + list(args),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            universal_newlines=True)


def lines_until_ready(p):
    out = []
    for line in p.stdout:
        line = line.strip()
        if line == "ready":
            break
        out.append(line)
    return out


def fairness(build):
    """One member cannot starve the others: subscribers per user, PUT bytes
    in flight per user, and the last connections are root's whatever the
    members hold"""
    d = tempfile.mkdtemp(prefix="tipmed-fair-")
    os.chmod(d, 0o755)
    root, sock = os.path.join(d, "incidents"), os.path.join(d, "tipmed.sock")
    log = open(os.path.join(d, "tipmed.log"), "w")
    tipmed = subprocess.Popen([os.path.join(build, "tipmed"), "-d", root, "-s", sock,
                               "-g", "nogroup", "-i", "60"], stdout=log, stderr=log)
    held = []
    try:
        wait_ready(os.path.join(d, "tipmed.log"), tipmed)
        inc = "20261124T000000Z-1"
        os.mkdir(os.path.join(root, inc), 0o700)
        open(os.path.join(root, inc, "meta.json"), "w").write(meta(1))

        p = as_user(65534, sock, "subscribe", "3")
        r = lines_until_ready(p)
        check(r[:2] == ["OK", "OK"] and r[2].startswith("ERR EBUSY") and "subscribers" in r[2],
              "a member's third subscriber is refused (EBUSY, at most 2: they are never "
              "closed for being idle)", r)
        p.communicate("")

        p = as_user(65534, sock, "put " + inc, "2")
        held.append(p)
        r = lines_until_ready(p)
        check(len(r) == 1 and r[0].startswith("ERR ENOMEM") and "this user" in r[0],
              "a member's second 200 MiB PUT in flight is refused at once (at most 256 MiB "
              "per user)", r)
        r = subprocess.run(["setpriv", "--reuid=65533", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", PUT_AS, sock, inc, "other"],
                           stdout=subprocess.PIPE, universal_newlines=True, timeout=60).stdout.split()
        check(r[1:] == ["OK"], "meanwhile another member's PUT is taken", r)
        p.communicate("")
        held.remove(p)

        # four members hold every connection they may: 4 x 8 = 32, the
        # whole table without the slots kept for root
        for uid in (65534, 65533, 65532, 65531):
            p = as_user(uid, sock, "hold", "8")
            held.append(p)
            lines_until_ready(p)
        r = request(sock, "STATUS")
        check(r.startswith("OK auto_made="),
              "root still gets a connection while members hold all they may", r)
    finally:
        for p in held:
            p.communicate("")
        tipmed.terminate()
        tipmed.wait(15)
        log.close()
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
