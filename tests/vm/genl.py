"""A minimal generic netlink client for the VM tests (no libnl, no pyroute2).

It speaks raw bytes on purpose: the tests that use it send messages that no
well-behaved library would build (wrong lengths, reserved bits, unknown
commands and attributes) and check how tipme.ko answers.
"""
import errno
import os
import select
import socket
import struct

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_CAP_ACK = 10

NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_MULTI = 0x2
NLM_F_ACK = 0x4
NLM_F_ECHO = 0x8
NLM_F_ROOT = 0x100
NLM_F_MATCH = 0x200
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH

GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2


def uapi_enums(header=None):
    """{name: value} of every enumerator in tipme's UAPI header."""
    import re
    if header is None:
        header = os.path.join(os.environ.get("TIPME_SRC", "."),
                              "include/uapi/linux/tipme.h")
    text = re.sub(r"/\*.*?\*/", "", open(header).read(), flags=re.S)
    # the record types' X-macro lists, expanded as the enum expands them
    for lst, body in re.findall(r"#define\s+(\w+)\(X\)((?:[^\n]*\\\n)*[^\n]*)", text):
        items = "".join("TIPME_REC_%s = %s," % (name, nr)
                        for nr, name in re.findall(r"X\(\s*(\d+)\s*,\s*(\w+)", body))
        text = re.sub(r"\b%s\(\w+\)" % lst, lambda m: items, text)
    out = {}
    for body in re.findall(r"enum\s+\w*\s*\{(.*?)\}", text, flags=re.S):
        value = -1
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, expr = item.partition("=")
            name = name.strip()
            expr = expr.strip()
            if expr:
                # NAME, NUMBER or NAME - 1 (the _MAX = __..._MAX - 1 idiom)
                m = re.fullmatch(r"(\w+)(?:\s*-\s*(\d+))?", expr)
                base = m.group(1)
                value = out[base] if base in out else int(base, 0)
                value -= int(m.group(2) or 0)
            else:
                value += 1
            out[name] = value
    return out


T = uapi_enums()


def attr(atype, payload):
    """One netlink attribute, padded to 4 bytes."""
    n = 4 + len(payload)
    return struct.pack("=HH", n, atype) + payload + b"\0" * ((4 - n % 4) % 4)


def parse_attrs(data):
    """{type: payload} of a flat attribute stream (the last one wins)."""
    out = {}
    off = 0
    while off + 4 <= len(data):
        n, t = struct.unpack_from("=HH", data, off)
        if n < 4 or off + n > len(data):
            raise ValueError("bad attribute length %d at %d" % (n, off))
        out[t & 0x3FFF] = data[off + 4:off + n]
        off += (n + 3) & ~3
    return out


class Genl:
    def __init__(self, timeout=5.0):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.seq = 1000
        self.timeout = timeout
        self.family = None

    def close(self):
        self.sock.close()

    def send_raw(self, data):
        self.sock.send(data)

    def message(self, mtype, flags, cmd, version=1, reserved=0, payload=b"",
                seq=None):
        """A whole netlink message; returns (bytes, seq)."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        body = struct.pack("=BBH", cmd, version, reserved) + payload
        return struct.pack("=IHHII", 16 + len(body), mtype, flags, seq,
                           0) + body, seq

    def recv_msgs(self, timeout=None):
        """The messages of one datagram: [(type, flags, seq, payload)]."""
        t = self.timeout if timeout is None else timeout
        r, _, _ = select.select([self.sock], [], [], t)
        if not r:
            return None
        data = self.sock.recv(1 << 20)
        out = []
        off = 0
        while off + 16 <= len(data):
            n, mtype, flags, seq, _ = struct.unpack_from("=IHHII", data, off)
            if n < 16 or off + n > len(data):
                raise ValueError("bad message length %d" % n)
            out.append((mtype, flags, seq, data[off + 16:off + n]))
            off += (n + 3) & ~3
        return out

    def wait_reply(self, seq, timeout=None):
        """Until the ack or error for @seq: (errno or 0, [genl payloads]).

        Returns (None, msgs) if nothing arrives within the timeout.  A dump's
        messages are collected until its DONE.
        """
        msgs = []
        while True:
            got = self.recv_msgs(timeout)
            if got is None:
                return None, msgs
            for mtype, flags, mseq, payload in got:
                if mseq != seq:
                    continue
                if mtype == NLMSG_ERROR:
                    err = struct.unpack_from("=i", payload)[0]
                    return -err, msgs
                if mtype == NLMSG_DONE:
                    return 0, msgs
                msgs.append(payload)

    def request(self, cmd, payload=b"", flags=NLM_F_REQUEST | NLM_F_ACK,
                reserved=0, version=1, timeout=None):
        data, seq = self.message(self.family_id(), flags, cmd, version,
                                 reserved, payload)
        self.send_raw(data)
        return self.wait_reply(seq, timeout)

    def family_id(self, name="tipme"):
        if self.family is not None:
            return self.family
        data, seq = self.message(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
                                 CTRL_CMD_GETFAMILY,
                                 payload=attr(CTRL_ATTR_FAMILY_NAME,
                                              name.encode() + b"\0"))
        self.send_raw(data)
        err, msgs = self.wait_reply(seq)
        for m in msgs:
            a = parse_attrs(m[4:])
            if CTRL_ATTR_FAMILY_ID in a:
                self.family = struct.unpack("=H", a[CTRL_ATTR_FAMILY_ID])[0]
                return self.family
        raise OSError(err or errno.ENOENT, "no generic netlink family %s"
                      % name)


def errname(e):
    if e is None:
        return "no reply"
    if e == 0:
        return "ok"
    return errno.errorcode.get(e, str(e))


def drop_privileges():
    """Become nobody, without any capability."""
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
