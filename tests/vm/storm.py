#!/usr/bin/env python3
"""A storm of N triggers, each announced on its own.

    storm.py N

Sends N netlink TRIGGER requests; after each, waits until the module has
announced that very trigger on the family's multicast group, so that the
announcements are not merged (the module announces only the newest of
the triggers that came while an announcement was pending).  Prints the
first and last sequence number: "first=A last=B".  Runs inside the VM as
root with tipme.ko loaded (tests/vm/t-thaw.sh).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genl  # noqa: E402
from genl import T, attr, parse_attrs  # noqa: E402

CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NETLINK_ADD_MEMBERSHIP = 1


def group_id(g, name):
    err, msgs = g.request(CTRL_CMD_GETFAMILY,
                          attr(CTRL_ATTR_FAMILY_NAME, b"tipme\0"))
    del err
    for m in msgs:
        a = parse_attrs(m[4:])
        if CTRL_ATTR_MCAST_GROUPS not in a:
            continue
        for grp in parse_attrs(a[CTRL_ATTR_MCAST_GROUPS]).values():
            ga = parse_attrs(grp)
            if ga.get(CTRL_ATTR_MCAST_GRP_NAME, b"").rstrip(b"\0") == name:
                return struct.unpack("=I", ga[CTRL_ATTR_MCAST_GRP_ID])[0]
    raise SystemExit("storm.py: no multicast group %s" % name.decode())


def main():
    n = int(sys.argv[1])
    ctrl = genl.Genl()
    ctrl.family = genl.GENL_ID_CTRL
    events = genl.Genl()
    events.sock.setsockopt(genl.SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                           group_id(ctrl, b"events"))
    g = genl.Genl()
    first = last = None
    for _ in range(n):
        err, msgs = g.request(T["TIPME_CMD_TRIGGER"])
        if err != 0 or not msgs:
            raise SystemExit("storm.py: TRIGGER failed: %s" % err)
        seq = struct.unpack("=I", parse_attrs(msgs[0][4:])
                            [T["TIPME_ATTR_TRIGGER_SEQ"]])[0]
        first = seq if first is None else first
        last = seq
        while True:
            got = events.recv_msgs(10)
            if got is None:
                raise SystemExit("storm.py: trigger %d never announced" % seq)
            done = False
            for _mtype, _flags, _mseq, payload in got:
                if payload[0] != T["TIPME_CMD_TRIGGER_EVENT"]:
                    continue
                a = parse_attrs(payload[4:])
                ev = struct.unpack("=I", a[T["TIPME_ATTR_TRIGGER_SEQ"]])[0]
                done = done or ev >= seq
            if done:
                break
    print("first=%d last=%d" % (first, last))


if __name__ == "__main__":
    main()
