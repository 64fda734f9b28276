#!/usr/bin/env python3
"""Hostile generic netlink clients against tipme.ko; prints TAP.

    nlfuzz.py probe            named malformed requests, each with the answer
                               the kernel must give
    nlfuzz.py fuzz SEED N      N random malformed requests from SEED; every
                               reply must be a well-formed ack or error for
                               the request, within a second
    nlfuzz.py unpriv SEED N    the same as nobody: every known command is
                               refused with EPERM and nothing changes
    nlfuzz.py hold [close]     start a dump, read its first message, print
                               "holding", wait for a line on stdin, then
                               read the rest ("done N messages") or, with
                               close, close the socket mid-dump ("closed")

Runs inside the VM (tests/vm/t-netlink.sh) as root with tipme.ko loaded.
"""
import errno
import os
import random
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import genl  # noqa: E402
from genl import T, attr, errname  # noqa: E402
from tap import check, plan, failed  # noqa: E402

REQ_ACK = genl.NLM_F_REQUEST | genl.NLM_F_ACK
KNOWN = [T["TIPME_CMD_STATUS"], T["TIPME_CMD_START"], T["TIPME_CMD_STOP"],
         T["TIPME_CMD_DUMP"], T["TIPME_CMD_TRIGGER"], T["TIPME_CMD_RELEASE"]]


def u32(v):
    return struct.pack("=I", v)


def triggers(g):
    err, msgs = g.request(T["TIPME_CMD_STATUS"])
    if err != 0 or not msgs:
        return None
    a = genl.parse_attrs(msgs[0][4:])
    return struct.unpack("=I", a[T["TIPME_ATTR_TRIGGERS"]])[0]


def probe():
    g = genl.Genl()
    src = T["TIPME_ATTR_TRIGGER_SOURCE"]
    seq = T["TIPME_ATTR_TRIGGER_SEQ"]
    cases = [
        # (name, cmd, payload, flags, reserved, errors accepted)
        ("STATUS without attributes is answered", T["TIPME_CMD_STATUS"],
         b"", REQ_ACK, 0, {0}),
        ("an unknown command is EOPNOTSUPP", 200, b"", REQ_ACK, 0,
         {errno.EOPNOTSUPP}),
        ("command 0 is EOPNOTSUPP", 0, b"", REQ_ACK, 0, {errno.EOPNOTSUPP}),
        ("TRIGGER_EVENT (a notification) is not a request",
         T["TIPME_CMD_TRIGGER_EVENT"], b"", REQ_ACK, 0, {errno.EOPNOTSUPP}),
        ("STATUS with an attribute it does not take is EINVAL",
         T["TIPME_CMD_STATUS"], attr(src, u32(3)), REQ_ACK, 0,
         {errno.EINVAL}),
        ("an attribute type beyond the family's maximum is EINVAL",
         T["TIPME_CMD_TRIGGER"], attr(T["TIPME_ATTR_MAX"] + 7, u32(1)),
         REQ_ACK, 0, {errno.EINVAL}),
        ("TRIGGER with a source out of range is refused",
         T["TIPME_CMD_TRIGGER"], attr(src, u32(99)), REQ_ACK, 0,
         {errno.ERANGE, errno.EINVAL}),
        ("TRIGGER with a source that only the kernel may claim (hotkey)",
         T["TIPME_CMD_TRIGGER"], attr(src, u32(T["TIPME_TRIG_HOTKEY"])),
         REQ_ACK, 0, {errno.ERANGE, errno.EINVAL}),
        ("TRIGGER with a 2-byte source is EINVAL", T["TIPME_CMD_TRIGGER"],
         attr(src, b"\x03\x00"), REQ_ACK, 0, {errno.EINVAL}),
        ("an attribute longer than the message is EINVAL",
         T["TIPME_CMD_TRIGGER"], struct.pack("=HH", 4000, src) + u32(3),
         REQ_ACK, 0, {errno.EINVAL}),
        ("an attribute shorter than its header is EINVAL",
         T["TIPME_CMD_TRIGGER"], struct.pack("=HH", 2, src) + u32(3),
         REQ_ACK, 0, {errno.EINVAL}),
        ("a non-zero reserved header byte is EINVAL", T["TIPME_CMD_STATUS"],
         b"", REQ_ACK, 7, {errno.EINVAL}),
        ("NLM_F_REPLACE (half of NLM_F_DUMP) is EINVAL",
         T["TIPME_CMD_STATUS"], b"", REQ_ACK | 0x100, 0, {errno.EINVAL}),
        ("DUMP as a do-request (no NLM_F_DUMP) is EOPNOTSUPP",
         T["TIPME_CMD_DUMP"], b"", REQ_ACK, 0, {errno.EOPNOTSUPP}),
        ("STATUS as a dump request is answered", T["TIPME_CMD_STATUS"],
         b"", REQ_ACK | genl.NLM_F_DUMP, 0, {0}),
        ("STATUS as a dump with an attribute it does not take is EINVAL",
         T["TIPME_CMD_STATUS"], attr(src, u32(3)), REQ_ACK | genl.NLM_F_DUMP,
         0, {errno.EINVAL}),
        ("DUMP with an attribute it does not take is EINVAL", T["TIPME_CMD_DUMP"],
         attr(src, u32(3)), REQ_ACK | genl.NLM_F_DUMP, 0, {errno.EINVAL}),
        ("RELEASE without TRIGGER_SEQ is EINVAL", T["TIPME_CMD_RELEASE"],
         b"", REQ_ACK, 0, {errno.EINVAL}),
        ("RELEASE of trigger 0 is refused", T["TIPME_CMD_RELEASE"],
         attr(seq, u32(0)), REQ_ACK, 0, {errno.ERANGE, errno.EINVAL}),
        ("RELEASE with a 2-byte TRIGGER_SEQ is EINVAL", T["TIPME_CMD_RELEASE"],
         attr(seq, b"\x03\x00"), REQ_ACK, 0, {errno.EINVAL}),
        ("RELEASE with an attribute it does not take is EINVAL",
         T["TIPME_CMD_RELEASE"], attr(seq, u32(1)) + attr(src, u32(3)),
         REQ_ACK, 0, {errno.EINVAL}),
        ("RELEASE with a valid TRIGGER_SEQ is acked",
         T["TIPME_CMD_RELEASE"], attr(seq, u32(0xFFFFFFFF)), REQ_ACK, 0, {0}),
        ("DUMP with a DUMP_MAPPED flag that carries bytes is refused (ERANGE)",
         T["TIPME_CMD_DUMP"], attr(T["TIPME_ATTR_DUMP_MAPPED"], u32(1)),
         REQ_ACK | genl.NLM_F_DUMP, 0, {errno.ERANGE}),
    ]
    before = triggers(g)
    for name, cmd, payload, flags, reserved, want in cases:
        err, _ = g.request(cmd, payload, flags=flags, reserved=reserved,
                           timeout=5)
        check(err in want, name, "got %s, want %s" % (
            errname(err), " or ".join(errname(w) for w in sorted(want))))
    after = triggers(g)
    check(before is not None and after == before,
          "no refused TRIGGER counted a trigger (%s -> %s)" % (before, after))
    # Lengths the netlink core itself refuses: no reply, and nothing else
    # breaks (the next request is answered).
    fam = g.family_id()
    body = struct.pack("=BBH", T["TIPME_CMD_STATUS"], 1, 0)
    for name, hdr_len in (("shorter than its header", 8),
                          ("longer than the datagram", 4096)):
        g.send_raw(struct.pack("=IHHII", hdr_len, fam, REQ_ACK, 77, 0) +
                   body)
        err, _ = g.request(T["TIPME_CMD_STATUS"], timeout=5)
        check(err == 0, "a message %s is dropped and the socket still works"
              % name, "next STATUS: %s" % errname(err))
    g.close()


def random_attr(rng):
    t = rng.choice([rng.randrange(0, 64), T["TIPME_ATTR_TRIGGER_SOURCE"],
                    T["TIPME_ATTR_TRIGGER_SEQ"],
                    T["TIPME_ATTR_TRIGGER_SOURCE"] | 0x8000,
                    rng.randrange(0, 1 << 16)])
    n = rng.choice([0, 1, 2, 4, 8, rng.randrange(0, 64)])
    payload = bytes(rng.randrange(256) for _ in range(n))
    if rng.random() < 0.15:
        # The declared length disagrees with what follows.
        return struct.pack("=HH", rng.choice([0, 1, 3, 5, 0xFFFF,
                                              rng.randrange(1 << 16)]),
                           t) + payload
    return attr(t & 0xFFFF, payload)


def random_request(rng, g):
    cmd = rng.choice(KNOWN + [0, T["TIPME_CMD_TRIGGER_EVENT"],
                              rng.randrange(256)])
    # Whole dumps take long under TCG and are not what is tested here.
    flags = REQ_ACK
    r = rng.random()
    if r < 0.1:
        flags |= rng.choice([0x10, 0x20, 0x100, 0x200, 0x400, 0x800,
                             rng.randrange(1 << 16)])
    elif r < 0.2:
        flags |= genl.NLM_F_DUMP
    reserved = rng.randrange(1 << 16) if rng.random() < 0.1 else 0
    version = rng.randrange(256) if rng.random() < 0.1 else 1
    payload = b"".join(random_attr(rng) for _ in range(rng.randrange(0, 5)))
    if rng.random() < 0.05:
        payload += bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
    return cmd, flags, reserved, version, payload


def fuzz(seed, count, unpriv):
    rng = random.Random(seed)
    g = genl.Genl(timeout=10)
    fam = g.family_id()
    start = triggers(g) if not unpriv else None
    if unpriv:
        genl.drop_privileges()
    seen = {}
    bad = []
    dumps = 0
    for i in range(count):
        cmd, flags, reserved, version, payload = random_request(rng, g)
        if (cmd == T["TIPME_CMD_DUMP"] and flags & genl.NLM_F_DUMP and
                not payload and not reserved):
            flags &= ~genl.NLM_F_DUMP       # keep whole dumps out
        data, seq = g.message(fam, flags, cmd, version, reserved, payload)
        g.send_raw(data)
        err, msgs = g.wait_reply(seq)
        if err is None:
            bad.append("request %d (cmd %d flags %#x): no reply" %
                       (i, cmd, flags))
            continue
        if err == 0 and msgs and flags & genl.NLM_F_DUMP:
            dumps += 1
        key = "cmd%d:%s" % (cmd if cmd in KNOWN else -1, errname(err))
        seen[key] = seen.get(key, 0) + 1
        # A header the core accepts (no reserved byte, no flag beyond
        # request, ack, echo and the whole of dump) for a command the
        # family has: refused for want of CAP_NET_ADMIN.
        header_ok = not reserved and \
            not (flags & ~(REQ_ACK | genl.NLM_F_DUMP | genl.NLM_F_ECHO)) \
            and (flags & genl.NLM_F_DUMP) in (0, genl.NLM_F_DUMP)
        if unpriv and cmd in KNOWN and header_ok and err != errno.EPERM:
            bad.append("request %d (cmd %d) as nobody: %s, want EPERM" %
                       (i, cmd, errname(err)))
        if err not in (0, errno.EINVAL, errno.EOPNOTSUPP, errno.ERANGE,
                       errno.EPERM, errno.EMSGSIZE):
            bad.append("request %d (cmd %d flags %#x): unexpected %s" %
                       (i, cmd, flags, errname(err)))
    who = "nobody" if unpriv else "root"
    print("# replies by command and answer:", " ".join(
        "%s=%d" % kv for kv in sorted(seen.items())))
    check(not bad, "%d random malformed requests as %s, seed %d: each one "
          "answered with an ack or a clear error" % (count, who, seed),
          "\n".join(bad[:20]))
    g.close()
    if not unpriv:
        g = genl.Genl()
        end = triggers(g)
        check(end is not None and end >= start,
              "STATUS still answers after the fuzzing (triggers %s -> %s)"
              % (start, end))
        g.close()


def hold(close):
    g = genl.Genl(timeout=30)
    # A small receive buffer: the kernel queues a message or two ahead of
    # the reader and keeps the rest of the dump in flight.
    g.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    data, seq = g.message(g.family_id(), REQ_ACK | genl.NLM_F_DUMP,
                          T["TIPME_CMD_DUMP"])
    g.send_raw(data)
    first = g.recv_msgs()
    print("holding", len(first or []), flush=True)
    sys.stdin.readline()
    if close:
        g.close()
        print("closed", flush=True)
        return
    n = len(first or [])
    done = False
    while not done:
        got = g.recv_msgs()
        if got is None:
            break
        for mtype, _, mseq, _ in got:
            if mseq != seq:
                continue
            if mtype in (genl.NLMSG_DONE, genl.NLMSG_ERROR):
                done = True
            else:
                n += 1
    print("done %d messages" % n if done else "stalled after %d" % n,
          flush=True)
    g.close()


def main():
    what = sys.argv[1]
    if what == "hold":
        hold(len(sys.argv) > 2 and sys.argv[2] == "close")
        return
    if what == "probe":
        probe()
    elif what in ("fuzz", "unpriv"):
        fuzz(int(sys.argv[2]), int(sys.argv[3]), what == "unpriv")
    else:
        sys.exit(__doc__)
    plan()
    sys.exit(1 if failed() else 0)


if __name__ == "__main__":
    main()
