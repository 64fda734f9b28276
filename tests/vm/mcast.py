#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Who hears tipme.ko's trigger announcements (its "events" group).

    mcast.py

Root in the initial namespace joins the group and asks for a trigger: the
announcement that reaches it is the ground truth that one was sent.  An
unprivileged user may not join (the group needs CAP_NET_ADMIN, where the
kernel checks a group's flags), and a listener in another network
namespace may join there but hears nothing: announcements are sent in the
initial namespace alone.  (Root of an unprivileged container has
CAP_NET_ADMIN over its own network namespace and passes the group's
check there, so what keeps it out is the namespace; the guest runs in a
chroot, where no user namespace can be made, so the listener here is
root in a new network namespace.)  Runs in the VM as root with tipme.ko
loaded (tests/vm/t-netlink.sh); prints TAP.
"""
import ctypes
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import genl  # noqa: E402
from genl import T, attr, parse_attrs  # noqa: E402
from tap import check, failed, plan  # noqa: E402

CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NETLINK_ADD_MEMBERSHIP = 1
CLONE_NEWNET = 0x40000000


def group_id():
    ctrl = genl.Genl()
    ctrl.family = genl.GENL_ID_CTRL
    _err, msgs = ctrl.request(genl.CTRL_CMD_GETFAMILY,
                              attr(genl.CTRL_ATTR_FAMILY_NAME, b"tipme\0"))
    for m in msgs:
        a = parse_attrs(m[4:])
        for grp in parse_attrs(a.get(CTRL_ATTR_MCAST_GROUPS, b"")).values():
            ga = parse_attrs(grp)
            if ga.get(CTRL_ATTR_MCAST_GRP_NAME, b"").rstrip(b"\0") == b"events":
                return struct.unpack("=I", ga[CTRL_ATTR_MCAST_GRP_ID])[0]
    raise SystemExit("mcast.py: no multicast group events")


def join(grp):
    """A socket in the caller's network namespace that joined @grp."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, genl.NETLINK_GENERIC)
    s.bind((0, 0))
    s.setsockopt(genl.SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp)
    return s


def child(fn):
    """Run fn() in a child; its one-line answer, through a pipe."""
    r, w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.close(go_w)
        try:
            out = fn(lambda: os.read(go_r, 1))
        except OSError as e:
            out = genl.errname(e.errno)
        os.write(w, (out + "\n").encode())
        os._exit(0)
    os.close(w)
    os.close(go_r)
    return pid, os.fdopen(r), go_w


def main():
    grp = group_id()

    def unprivileged(_wait):
        genl.drop_privileges()
        join(grp)
        return "joined"
    pid, f, go = child(unprivileged)
    got = f.readline().strip()
    os.waitpid(pid, 0)
    check(got == "EPERM", "nobody may not join the announcements' group (EPERM)", got)

    def container(wait):
        if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWNET):
            return "unshare: " + genl.errname(ctypes.get_errno())
        s = join(grp)
        os.write(ready_w, b"j")
        wait()
        try:
            return "heard %d bytes" % len(s.recv(1 << 16, socket.MSG_DONTWAIT))
        except BlockingIOError:
            return "silent"
    ready_r, ready_w = os.pipe()
    pid, f, go = child(container)
    os.close(ready_w)
    joined = os.read(ready_r, 1) == b"j"

    events = genl.Genl()
    events.sock.setsockopt(genl.SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp)
    g = genl.Genl()
    err, msgs = g.request(T["TIPME_CMD_TRIGGER"])
    seq = struct.unpack("=I", parse_attrs(msgs[0][4:])[T["TIPME_ATTR_TRIGGER_SEQ"]])[0] \
        if err == 0 and msgs else None
    heard = None
    while seq is not None and heard is None:
        got = events.recv_msgs(10)
        if got is None:
            break
        for _t, _f, _s, payload in got:
            if payload[0] == T["TIPME_CMD_TRIGGER_EVENT"]:
                a = parse_attrs(payload[4:])
                if struct.unpack("=I", a[T["TIPME_ATTR_TRIGGER_SEQ"]])[0] >= seq:
                    heard = seq
    check(heard is not None, "root in the initial namespace hears trigger %s" % seq)
    try:
        os.write(go, b"x")
    except BrokenPipeError:
        pass                    # the child gave up before joining: its line says why
    got = f.readline().strip()
    os.waitpid(pid, 0)
    check(joined and got == "silent",
          "a listener in another network namespace joins there, and hears nothing", got)
    if seq is not None:
        g.request(T["TIPME_CMD_RELEASE"], attr(T["TIPME_ATTR_TRIGGER_SEQ"],
                                               struct.pack("=I", seq)))
    plan()
    return 1 if failed() else 0


if __name__ == "__main__":
    sys.exit(main())
