# SPDX-License-Identifier: GPL-2.0
"""Many possible CPUs: STATUS, asked the way every reader asks it.

    manycpus.py netlink POSSIBLE       raw netlink, in the guest
    manycpus.py status JSON POSSIBLE   `tipme status --json`'s output
    manycpus.py info JSON POSSIBLE     `tipme info --json` of a dump

POSSIBLE is the kernel's own list, /sys/devices/system/cpu/possible
("0-4095"): the ground truth every answer must name, each CPU once, in
order.  Prints TAP.
"""
import errno
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import genl  # noqa: E402
from genl import T, errname  # noqa: E402
from tap import check, plan, failed  # noqa: E402


def cpu_list(text):
    """The CPUs of a kernel CPU list ("0-3,8")."""
    out = []
    for part in text.strip().split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def nested(data):
    """(type, payload, declared length) of each attribute in @data."""
    out = []
    off = 0
    while off + 4 <= len(data):
        n, t = struct.unpack_from("=HH", data, off)
        if n < 4:
            break
        out.append((t & 0x3FFF, data[off + 4:off + n], n))
        off += (n + 3) & ~3
    return out


def netlink(possible):
    g = genl.Genl(timeout=30)
    err, msgs = g.request(T["TIPME_CMD_STATUS"])
    if len(possible) > 600:
        check(err == errno.EMSGSIZE,
              "STATUS in one message with %d possible CPUs is refused "
              "(EMSGSIZE), not sent with a wrapped length" % len(possible),
              "got %s" % errname(err))
    else:
        check(err == 0, "STATUS in one message", "got %s" % errname(err))
    err, msgs = g.request(T["TIPME_CMD_STATUS"],
                          flags=genl.NLM_F_REQUEST | genl.NLM_F_DUMP)
    check(err == 0 and msgs, "STATUS as a dump is answered",
          "got %s, %d messages" % (errname(err), len(msgs)))
    cpus, heads, count, longest, bad = [], 0, None, 0, []
    for i, m in enumerate(msgs):
        attrs = nested(m[4:])
        for t, payload, n in attrs:
            if t == T["TIPME_ATTR_VERSION"]:
                heads += 1
            if t == T["TIPME_ATTR_CPU_COUNT"]:
                count = struct.unpack("=I", payload)[0]
            if t != T["TIPME_ATTR_CPU_STATS"]:
                continue
            longest = max(longest, n)
            for et, ent, _ in nested(payload):
                if et != T["TIPME_ATTR_CPU_ENTRY"]:
                    bad.append("message %d: attribute %d in the nest" % (i, et))
                    continue
                for at, ap, _ in nested(ent):
                    if at == T["TIPME_ATTR_CPU"]:
                        cpus.append(struct.unpack("=I", ap)[0])
    check(heads == 1, "one message carries the status head (%d)" % heads)
    check(count == len(possible), "CPU_COUNT is the possible CPUs (%s, %d)"
          % (count, len(possible)))
    check(not bad and cpus == possible,
          "the messages' nests name every possible CPU once, in order "
          "(%d messages, %d entries)" % (len(msgs), len(cpus)),
          "\n".join(bad[:5]) + "\nfirst names: %s" % cpus[:8])
    check(0 < longest <= 0xFFFF, "no nest is longer than an attribute "
          "may be (longest %d bytes)" % longest)
    g.close()


def status(path, possible):
    with open(path) as f:
        st = json.load(f)
    got = [c["cpu"] for c in st["cpus"]]
    check(got == possible, "tipme status --json lists every possible CPU "
          "once, in order (%d of %d)" % (len(got), len(possible)),
          "first: %s, last: %s" % (got[:4], got[-4:]))
    written = sum(c["written"] for c in st["cpus"])
    check(written > 0, "its counters are the rings' (%d records written)"
          % written)


def info(path, possible):
    with open(path) as f:
        inf = json.load(f)
    check(inf["nr_cpus"] == possible[-1] + 1,
          "the dump's nr_cpus is nr_cpu_ids (%d)" % inf["nr_cpus"])
    with_stats = [c["cpu"] for c in inf["cpus"] if c["stats"] is not None]
    check(with_stats == possible, "the dump has every possible CPU's "
          "counters (%d of %d)" % (len(with_stats), len(possible)))
    streams = [c["cpu"] for c in inf["cpus"] if c["stream"]]
    check(len(streams) >= 1, "... and the streams of the CPUs that wrote "
          "(%s)" % streams[:8])


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "netlink":
        netlink(cpu_list(args[0]))
    elif what == "status":
        status(args[0], cpu_list(args[1]))
    elif what == "info":
        info(args[0], cpu_list(args[1]))
    else:
        sys.exit("manycpus.py: netlink, status or info, not %s" % what)
    plan()
    sys.exit(1 if failed() else 0)


main()
