#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One request line to tipmed's control socket, its reply line printed.

    ctlreq.py SOCKET 'TRIGGER auto input=key pid=1 press_ns=1 latency_ns=9 comm=x'

For the VM tests' requests that `tipme` does not send (a client's own
TRIGGER auto, as any member of the socket's group could).
"""
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(30)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
reply = b""
while not reply.endswith(b"\n"):
    chunk = s.recv(4096)
    if not chunk:
        break
    reply += chunk
print(reply.decode().strip())
