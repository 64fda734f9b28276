#!/usr/bin/env python3
"""Combine the guest's and the native figures of `make bench` into the
result (stdout, JSON) and, with --doc FILE, rewrite the generated part of
Documentation/performance.md (between its bench:begin and bench:end
comment lines; the rest of the file is prose and stays as written).

Usage: report.py [--doc FILE] GUEST_JSON NATIVE_JSON [ANALYSIS_JSON]
       report.py --analysis-doc FILE ANALYSIS_JSON
The second form rewrites only the analyses' table of the same dump
source (QEMU's full dump, or the synthetic one) in FILE's generated part
(bench/analysis-speed.sh's RESULT, without a run of the tracers), or
adds it at the end of that part.
"""
import json, sys


def synthetic(analysis):
    return analysis.get("dump_source", "").startswith("synthetic")


def analysis_intro(analysis):
    """The start of an analyses' paragraph: which dump it measured."""
    return ("The analyses natively on this machine over a synthetic dump "
            if synthetic(analysis) else
            "The analyses natively on this machine over a full dump ")


def analysis_lines(analysis):
    """The analyses' paragraph and table, from analysis-speed.sh's RESULT."""
    cpu = any(k.endswith("_cpu_s") for k in analysis)
    rss = any(k.endswith("_rss_mb") for k in analysis)
    head = "| command | seconds |" + (" CPU seconds |" if cpu else "") + \
        (" peak RSS (MB) |" if rss else "")
    lines = [analysis_intro(analysis) +
             f"({analysis['dump_bytes'] / 2**20:.1f} MiB, in the page cache; median of 5, "
             f"CPU time user + system, peak RSS the largest of the 5; "
             f"bench/analysis-speed.sh{' --synthetic' if synthetic(analysis) else ''}; "
             f"dump from {analysis.get('dump_source', 'QEMU')}):", "", head,
             "|---|---:|" + ("---:|" if cpu else "") + ("---:|" if rss else "")]
    for k in ("info", "why", "report", "report_pid", "timeline", "timeline_whole", "legs_sched",
              "records_json", "export_perfetto"):
        if f"{k}_s" in analysis:
            row = f"| {k.replace('_', ' ')} | {analysis[k + '_s']:.3f} |"
            if cpu:
                row += f" {analysis.get(k + '_cpu_s', 0):.3f} |"
            if rss:
                row += f" {analysis.get(k + '_rss_mb', 0):.1f} |"
            lines.append(row)
    if analysis.get("export_bytes"):
        lines += ["", f"The Perfetto export: {analysis['export_bytes'] / 2**20:.1f} MiB, "
                  f"{analysis['export_bytes'] / analysis['dump_bytes']:.1f}x the dump."]
    return lines


args = sys.argv[1:]
doc = None
if args[:1] == ["--analysis-doc"]:
    doc, analysis = args[1], json.load(open(args[2]))
    text = open(doc).read()
    a = text.index("<!-- bench:begin")
    b = text.index("<!-- bench:end -->")
    i = text.find(analysis_intro(analysis), a, b)
    if i < 0:   # not there yet: a paragraph of its own at the end
        i = j = b
        new = "\n".join(analysis_lines(analysis)) + "\n\n"
    else:
        j = text.index("\n\n", text.index("\n|", i))      # the end of the table
        if text[j + 2:].startswith("The Perfetto export:"):
            j = text.index("\n\n", j + 2)
        new = "\n".join(analysis_lines(analysis))
    open(doc, "w").write(text[:i] + new + text[j:])
    sys.exit(0)
if args[:1] == ["--doc"]:
    doc, args = args[1], args[2:]
guest = json.load(open(args[0]))
native = json.load(open(args[1]))
analysis = json.load(open(args[2])) if len(args) > 2 else None
MIB64 = 64 * 1024 * 1024
rate = native["desktop_load_switches_per_s"]

tracers = {}
for name, t in guest["tracers"].items():
    d = guest["desktop"].get(name, {})
    bps = d.get("bytes_per_load_switch")
    tracers[name] = {
        "insn_per_event": t.get("insn_per_event"),
        "bytes_per_switch": t["bytes_per_switch"],
        "history_s_64mib": (round(MIB64 / (bps * rate), 1) if bps and rate else None),
        "desktop_bytes_per_switch": bps,
        "workloads": t["workloads"],
    }
    if name == "none":
        tracers[name]["history_s_64mib"] = None

# The sampler with 2,000 sleeping threads: instructions per round in the
# guest; into time with smpbench (the sampler's full round as user-space
# code): its instructions per thread in the guest over its ns per thread
# natively, caches warm (fast) and evicted (slow); at 50 rounds a second.
sampler = dict(guest.get("sampler") or {})
smp_ns = native.get("smpbench_ns_per_thread") or {}
if sampler.get("smpbench_insn_per_thread") and smp_ns.get("warm") and smp_ns.get("cold"):
    for mode in ("warm", "cold"):
        ips = sampler["smpbench_insn_per_thread"] / smp_ns[mode] * 1e9
        sampler[f"native_insn_per_s_{mode}"] = round(ips)
        sampler[f"cpu_share_pct_{mode}"] = round(100 * sampler["insn_per_round"] * 50 / ips, 4)

res = {
    "tracers": tracers,
    "sampler": sampler,
    "smpbench_ns_per_thread": smp_ns,
    "native_ns_per_record": native["native_ns_per_record"],
    "dump": guest.get("dump", {}),
    # From the trigger's first instruction to every ring frozen, in the
    # guest (emulated time).
    "trigger_to_frozen_us": guest.get("dump", {}).get("trigger_to_frozen_us"),
    "events_per_workload": guest["events_per_workload"],
    "workloads": guest["workloads"],
    "kernel": guest["kernel"],
    "cpus": guest["cpus"],
    "reps": guest["reps"],
    "desktop_load_switches_per_s_native": rate,
    "lttng_missing_events": guest.get("lttng_missing_events"),
    "postmortem_s": analysis,
}
print(json.dumps(res))

if doc:
    def f(v, fmt="{:.1f}"):
        return "–" if v is None else fmt.format(v)

    ft = tracers.get("ftrace", {})
    lines = [
        "<!-- bench:begin (generated by `make bench`; edit bench/tracers/report.py) -->",
        "",
        f"Kernel {res['kernel']}, {res['cpus']} vCPUs under QEMU TCG (one TCG thread), "
        f"median of {res['reps']} runs per tracer and workload; workloads: "
        + ", ".join(f"`{k}` ({v})" for k, v in res["workloads"].items()) + ".",
        "",
        "| tracer | instructions added per event | vs ftrace | bytes per switch (ping-pong) "
        "| bytes per load task switch (desktop) | history in 64 MiB (desktop) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, t in tracers.items():
        if name == "none":
            continue
        ratio = (t["insn_per_event"] / ft["insn_per_event"]
                 if ft.get("insn_per_event") and t["insn_per_event"] is not None else None)
        lines.append(f"| {name} | {f(t['insn_per_event'])} | {f(ratio, '{:.2f}x')} | "
                     f"{f(t['bytes_per_switch'])} | {f(t['desktop_bytes_per_switch'])} | "
                     f"{f(t['history_s_64mib'], '{:.0f} s')} |")
    lines += ["", "Per workload, instructions added per event (in brackets: the spread of "
              "the runs with that tracer, max - min, per event; the runs without a "
              "tracer spread too):", "",
              "| tracer | " + " | ".join(res["workloads"]) + " |",
              "|---|" + "---:|" * len(res["workloads"])]
    for name, t in tracers.items():
        lines.append(f"| {name} | " + " | ".join(
            f(t["workloads"][w]["insn_per_event"]) + " (" +
            f(t["workloads"][w]["spread_insn"] / res["events_per_workload"][w]) + ")"
            for w in res["workloads"]) + " |")
    lines.append("")
    lines.append("Events per run (ftrace's count): " + ", ".join(
        f"{w} {v:.0f}" for w, v in res["events_per_workload"].items())
        + f". Desktop load natively on this machine: its tasks switch {rate} times a second.")
    n = res["native_ns_per_record"]
    lines += ["", "Fast path natively (UML on this machine, 16-byte records, "
              "median of the KUnit runs):", "",
              "| writer | ns per record |", "|---|---:|"]
    for k in ("clock", "plain_store", "tipme", "kernel_ring_buffer"):
        if k in n:
            lines.append(f"| {k} | {n[k]:.2f} |")
    d = res["dump"]
    if d:
        lines += ["", f"Reading a full buffer out ({d['bytes'] / 2**20:.1f} MiB tipme dump, "
                  f"{d['ftrace_raw_read_bytes'] / 2**20:.1f} MiB of ftrace's trace_pipe_raw): "
                  f"tipme {d['tipme_s']} s, ftrace {d['ftrace_raw_read_s']} s emulated; "
                  f"instructions per byte, tipme over ftrace: {d['insn_ratio_tipme_over_ftrace']}x"
                  + (f" (rings read {d['tipme_read']})" if d.get("tipme_read") else "") + "."]
        if d.get("first_dump_empty_insn"):
            lines += ["", f"The first dump of a boot (or after a module came or went) also reads "
                      f"/proc/kallsyms for its symbol table: on nearly empty rings it took "
                      f"{d['first_dump_empty_insn'] / 1e6:.0f} M instructions; later dumps take the "
                      f"table from /run/tipme/symbols.cache."]
    if analysis:
        lines += [""] + analysis_lines(analysis)
    sm, smp = res["sampler"], res["smpbench_ns_per_thread"]
    if sm.get("cpu_share_pct_cold") is not None:
        lines += ["", f"The sampler with {sm['threads']} sleeping threads and nothing else "
                  f"running: {sm['insn_per_round']} instructions per round, tipme loaded "
                  f"against not ({sm['threads_per_full_round']} threads in its full rounds, "
                  f"{sm['threads_per_round_between']} between them; rounds counted from the "
                  f"dump, {sm['rounds']} in {sm['seconds']} s per run). Into time with "
                  f"smpbench, the sampler's full round as user-space code: "
                  f"{sm['smpbench_insn_per_thread']} instructions per thread in the guest, "
                  f"{smp['warm']:.1f} ns (caches warm) to {smp['cold']:.1f} ns (evicted) "
                  f"natively, so {sm['native_insn_per_s_cold'] / 1e9:.2f} to "
                  f"{sm['native_insn_per_s_warm'] / 1e9:.2f} G instructions a second. At 50 "
                  f"rounds a second: {sm['cpu_share_pct_warm']:.3f}% to "
                  f"{sm['cpu_share_pct_cold']:.3f}% of a CPU."]
    tf = res["trigger_to_frozen_us"]
    lines += ["", (f"Trigger to frozen rings (every CPU's history protected until the dump "
                   f"has read it): {tf} µs, emulated, {res['cpus']} vCPUs." if tf is not None
                   else "Trigger to frozen rings: not measured in this run."),
              "", "<!-- bench:end -->"]
    text = open(doc).read()
    a = text.index("<!-- bench:begin")
    b = text.index("<!-- bench:end -->") + len("<!-- bench:end -->")
    open(doc, "w").write(text[:a] + "\n".join(lines) + text[b:])
