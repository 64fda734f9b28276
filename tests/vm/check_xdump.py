#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check tipme-xhook's dump of an incident against the incident (t-xhook).

usage: check_xdump.py XRECORDS_JSON META_JSON CAUSES PID
XRECORDS_JSON is tipme xrecords --json of xhook.dump.  Exit status 0 if
its cause is one of CAUSES (a,b), its time is the kernel trigger's in
META_JSON, and it has the X client PID (or a client of unknown PID); one
"# xhook.dump: ..." line says what it holds.
"""
import json
import sys

x = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))["trigger"]
pids = {c["pid"] for c in x["clients"]}
# a short-lived client's PID may stay unknown (never wrong): then any
# client of unknown PID stands for it
seen = int(sys.argv[4]) in pids or any(c["pid_unknown"] for c in x["clients"])
print("# xhook.dump: trigger %s at %d (incident %d), %d records, %d clients, pid %s %s" % (
    x["trigger"], x["trigger_mono_ns"], m["mono_ns"], len(x["records"]), len(x["clients"]),
    sys.argv[4], "in it" if int(sys.argv[4]) in pids else "unknown" if seen else "MISSING"))
ok = x["trigger"] in sys.argv[3].split(",") and x["trigger_mono_ns"] == m["mono_ns"] and seen
sys.exit(0 if ok else 1)
