#!/usr/bin/env python3
"""Check instrumentation records against the ground truth a workload printed.

usage: check_instr.py CHECK TRUTH RECORDS_JSONL [EXTRA...]

CHECK is one of:
  block    blockpipe's output: the reader's switch-out to sleep has a
           pipe_read blocking site; the writer's write wakes it, at least MS
           ms after it blocked
  blkio    fsyncer's output, EXTRA = MAJOR:MINOR of the device: block I/O
           queued by the fsync-ing task, issued, completed, and its wakeup matched to
           a completion (the completion that ran last on the waker's CPU,
           with no context switch in between)
  exec     TRUTH = "pre=PID short=PID status=N t0=NS t1=NS", EXTRA = the
           output of `tipme ps --json` and the expected argv as JSON: the
           short-lived process is in the exec table with that argv, its exit
           status and an exit time within [t0, t1]; the one started before
           tipme.ko was loaded is there from the snapshot
  lock     contend's output: contention records with both threads, one
           waiting for the lock the other holds
  mem      memhog's output: memory cgroup reclaim by that task, begun from
           a page fault
  sampler  states' output: in the samples covering [from, to] the spinner
           is R, the sleeper S, the vfork parent D
  fullevery  TRUTH = "budget=B full_ms=F threads=N": N the threads /proc
           listed at the dump; EXTRA = `tipme info --json` of the dump: with
           more threads than B, full rounds come every F x ceil(threads / B)
           ms, never sooner, and the dump's sample_full_every_ms says so
  snapshot TRUTH = "tid=N": a thread that slept through the window; EXTRA
           = `tipme why --json --pid N` and `tipme info --json` of the
           dump: no record names the thread, the dump has the sampler's
           table, and the state says the thread slept, from that table
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402



def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def truth_of(s):
    return {k: float(v) if "." in v else int(v)
            for k, v in (kv.split("=", 1) for kv in s.split())}


def ms(ns):
    return f"{ns / 1e6:.3f} ms"


def check_block(t, ev):
    reader, writer = t["reader"], t["writer"]
    period = t.get("ms", 300) * 1e6
    outs = [e for e in ev if e["type"] == "sched_switch" and e["prev_pid"] == reader
            and e["prev_state"] == "S" and e["mono_ns"] <= t["blocked_seen_ns"]]
    if not check(outs, "the reader was switched out to sleep (S) before the writer saw it asleep",
                 f"reader {reader}"):
        return
    out = outs[-1]
    # The site is the next record of that CPU (cost batches aside): the
    # probe writes it right after the switch, with interrupts off.  Not a
    # bound on the time between them: without the site table the probe
    # walks the stack between the two records, over a millisecond in TCG.
    at = next(i for i, e in enumerate(ev) if e is out)
    after = [e for e in ev[at + 1:] if e["cpu"] == out["cpu"] and e["type"] != "cost"]
    site = after[0] if after and after[0]["type"] == "blocked" and after[0]["pid"] == reader \
        else None
    check(site is not None,
          "a blocking site is the next record on the switch's CPU" +
          (f" ({ms(site['mono_ns'] - out['mono_ns'])} later)" if site else ""),
          after[:1])
    if site:
        check(site["site"] and site["site"][0] == "pipe_read",
              f"the site is pipe_read first: {' <- '.join(site['site'])}", site["site"])
    wakes = [e for e in ev if e["type"] == "sched_waking" and e["pid"] == reader
             and e["mono_ns"] > out["mono_ns"]]
    if not check(wakes, "the reader is woken after it blocked"):
        return
    w = wakes[0]
    check(w["waker"] == writer, f"woken by the writer ({writer})", w)
    # Ground truth brackets, not the nominal sleep (TCG stretches nanosleep
    # and the writer's look at /proc by any amount): the reader switched
    # out before the writer saw it asleep (blocked_seen_ns), the writer then
    # slept MS ms and read the clock (write_ns) just before its write, and
    # the reader read the clock (woke_ns) once its read returned.  So the
    # waking lies in [write_ns, woke_ns] and the block lasted at least MS.
    # CLK: what the dump's clock conversion may be off by.
    CLK = 1e6
    check(t["write_ns"] - CLK <= w["mono_ns"] <= t["woke_ns"] + CLK,
          f"the waking lies between the writer's clock read before its write and the "
          f"reader's after its read: {ms(w['mono_ns'] - t['write_ns'])} after the first, "
          f"{ms(t['woke_ns'] - w['mono_ns'])} before the second")
    gap = w["mono_ns"] - out["mono_ns"]
    want = t["write_ns"] - out["mono_ns"]
    check(gap >= period - CLK and abs(gap - want) <= CLK + (t["woke_ns"] - t["write_ns"]),
          f"blocked {ms(gap)}: from its switch-out to the write {ms(want)}, "
          f"at least the writer's {ms(period)}")


def check_blkio(t, ev, dev):
    major, minor = (int(x) for x in dev.split(":"))
    pid, t0, t1 = t["pid"], t["fsync_start_ns"], t["fsync_end_ns"]
    on_dev = [e for e in ev if e["type"] in ("blk_insert", "blk_issue", "blk_complete")
              and e["major"] == major and e["minor"] == minor]
    # the device has an I/O scheduler (mq-deadline): the task queues its
    # writes, and they go to the driver from its context or kblockd's
    inserted = [e for e in on_dev if e["type"] == "blk_insert" and e["pid"] == pid
                and e["op"] == "write" and t0 <= e["mono_ns"] <= t1]
    check(inserted, f"the fsync-ing task {pid} queued writes to {dev} during fsync",
          f"{len(on_dev)} records on {dev}")
    out = [e for e in on_dev if e["type"] == "blk_issue" and t0 <= e["mono_ns"] <= t1]
    later = [i for i in inserted if any(o["sector"] == i["sector"] and
                                        o["mono_ns"] >= i["mono_ns"] for o in out)]
    check(inserted and len(later) == len(inserted),
          f"each queued write is issued after it was queued ({len(later)} of {len(inserted)})")
    issued = [e for e in out if e["op"] == "write" and
              any(i["sector"] == e["sector"] for i in inserted)]
    done = [e for e in on_dev if e["type"] == "blk_complete" and t0 <= e["mono_ns"] <= t1]
    check(done, f"completions on {dev} during fsync")
    if issued:
        keys = {(e["sector"], e["tag"]) for e in issued}
        check(any((e["sector"], e["tag"]) == k or e["sector"] == k[0]
                  for e in done for k in keys),
              "an issued request's completion (same sector) is recorded")
    # Wakeup matching: each sleep of the task in D during fsync, its waking,
    # and the last completion on the waking's CPU with no switch in between.
    by_cpu = {}
    for e in ev:
        by_cpu.setdefault(e["cpu"], []).append(e)
    matched = []
    sleeps = [e for e in ev if e["type"] == "sched_switch" and e["prev_pid"] == pid
              and e["prev_state"] == "D" and t0 <= e["mono_ns"] <= t1]
    check(sleeps, f"the task slept in D during fsync ({len(sleeps)} times)")
    for s in sleeps:
        wk = next((e for e in ev if e["type"] == "sched_waking" and e["pid"] == pid
                   and e["mono_ns"] > s["mono_ns"]), None)
        if not wk:
            continue
        before = [e for e in by_cpu[wk["cpu"]] if e["mono_ns"] <= wk["mono_ns"] and e is not wk]
        for e in reversed(before):
            if e["type"] == "sched_switch":
                break
            if e["type"] == "blk_complete" and e["major"] == major and e["minor"] == minor:
                matched.append((s, wk, e))
                break
    check(matched, f"a wakeup of the task is matched to a completion on {dev} "
          f"({len(matched)} of {len(sleeps)} sleeps)")
    for s, wk, c in matched[:3]:
        print(f"# slept {ms(s['mono_ns'] - t0)} into fsync, woken by a completion of sector "
              f"{c['sector']} ({c['bytes']} bytes) in {c['ctx']} on cpu {c['cpu']}, "
              f"{(wk['mono_ns'] - c['mono_ns']) / 1e3:.1f} us later")


def check_exec(t, ev, ps_path, argv_json):
    ps = json.load(open(ps_path))["exec_table"]
    want = json.loads(argv_json)
    ents = ps["entries"]
    short = [x for x in ents if x["pid"] == t["short"] and not x["flags"].count("thread")]
    exe = [x for x in short if x["argv"] == want]
    if not check(exe, f"the short-lived process {t['short']} is in the exec table with argv {want}",
                 json.dumps(short)):
        return
    x = exe[-1]
    check("execed" in x["flags"] and "exited" in x["flags"], f"it exec'd and exited: {x['flags']}")
    check(x["exit_code"] == t["status"] << 8, f"exit status {x['exit_code'] >> 8} (want {t['status']})")
    check(x["exit_mono_ns"] is not None and t["t0"] <= x["exit_mono_ns"] <= t["t1"],
          f"its exit time is inside the run [{t['t0']}, {t['t1']}]: {x['exit_mono_ns']}")
    check(t["t0"] <= x["start_mono_ns"] <= x["exit_mono_ns"], "it starts before it exits, inside the run")
    check(x["exe"].endswith("/argvprog"), f"executable path {x['exe']}")
    recs = [e for e in ev if e["type"] == "exec" and e["pid"] == t["short"]]
    check(recs and recs[-1].get("argv") == want,
          "the exec record names the same entry (exec_id) and argv", recs)
    ex = [e for e in ev if e["type"] == "exit" and e["pid"] == t["short"]]
    check(ex and ex[-1]["code"] == t["status"] << 8, "an exit record with the status", ex)
    pre = [x for x in ents if x["pid"] == t["pre"]]
    check(pre and "snapshot" in pre[0]["flags"] and pre[0]["argv"] == ["sleep", "1000"],
          f"the process started before the load ({t['pre']}) is there from the snapshot",
          json.dumps(pre))
    check(pre and "exited" not in pre[0]["flags"], "and is still alive")


def check_lock(t, ev):
    a, b = t["tid1"], t["tid2"]
    begins = [e for e in ev if e["type"] == "lock_begin" and e["pid"] in (a, b)]
    check(begins, f"contention records for the threads {a} and {b} ({len(begins)})")
    held = [e for e in begins if e["owner"] == ({a, b} - {e["pid"]}).pop()]
    check(held, f"one waits for a lock the other holds ({len(held)} records)",
          json.dumps(begins[:5]))
    if held:
        e = held[0]
        print(f"# {e['pid']} waited for lock {e['lock']:#x} ({e['kind']}) held by {e['owner']}")
        ends = [x for x in ev if x["type"] == "lock_end" and x["pid"] == e["pid"]
                and x["lock"] == e["lock"] and x["mono_ns"] >= e["mono_ns"]]
        check(ends and ends[0]["ret"] == 0, "and got it (contention_end, ret 0)")
    check(set(e["pid"] for e in begins) == {a, b} or len(held) > 0,
          "both threads appear in the records")


FAULT = {"handle_mm_fault", "__handle_mm_fault", "do_anonymous_page", "do_user_addr_fault",
         "exc_page_fault", "do_swap_page", "do_fault", "wp_page_copy", "do_wp_page"}


def check_mem(t, ev):
    pid = t["pid"]
    rb = [e for e in ev if e["type"] == "reclaim_begin" and e["pid"] == pid]
    check(rb, f"reclaim records for the faulting task {pid} ({len(rb)})")
    mc = [e for e in rb if e["kind"] == "memcg"]
    check(mc, "memory cgroup reclaim among them")
    fault = [e for e in rb if FAULT & set(e["stack"])]
    check(fault, "begun from a page fault (the call stack has the fault handler)",
          rb[0]["stack"] if rb else "")
    if fault:
        print("# " + " <- ".join(fault[0]["stack"]))
    re_ = [e for e in ev if e["type"] == "reclaim_end" and e["pid"] == pid]
    check(re_, f"reclaim end records ({len(re_)}), "
          f"{sum(e['nr_reclaimed'] for e in re_)} pages reclaimed")
    check(all(t["start_ns"] - 1e9 <= e["mono_ns"] <= t["end_ns"] + 1e9 for e in rb),
          "while it ran")
    # its cgroup has a memory.max, no memory.high: no reclaim names one
    named = [e for e in re_ if e.get("high_cgroup") is not None or e.get("high_kib") is not None]
    check(re_ and not named, "no reclaim end names a cgroup over memory.high (there is none: "
          "memory.max alone)", named[:3])


def check_sampler(t, ev):
    want = {t["spinner"]: "R", t["sleeper"]: "S", t["dwaiter"]: "D"}
    names = {t["spinner"]: "spinner", t["sleeper"]: "sleeper", t["dwaiter"]: "vfork parent"}
    seen = {p: [] for p in want}
    full = 0
    for e in ev:
        if e["type"] != "sample" or not t["from_ns"] <= e["mono_ns"] <= t["to_ns"]:
            continue
        full += e["full"]
        for x in e["threads"]:
            if x["pid"] in seen:
                seen[x["pid"]].append(x)
    check(full > 0, f"full samples inside the window ({full} records)")
    for p, st in want.items():
        got = [x["state"] for x in seen[p]]
        check(got and all(s == st for s in got),
              f"the {names[p]} ({p}) is {st} in all {len(got)} samples covering it",
              got)
    sp = seen[t["spinner"]]
    check(sum(x["runtime_ns"] for x in sp) > 0.3 * (t["to_ns"] - t["from_ns"]),
          "the spinner's CPU time deltas add up to a good part of the window",
          sum(x["runtime_ns"] for x in sp))
    # A sample's runtime is the thread's CPU time since the sample before
    # it: only when that one is inside the window too (the sleeper asleep
    # since before it) must it be 0.  The first in the window still holds
    # what the sleeper ran before it went to sleep.
    sl = sorted((e["mono_ns"], x) for e in ev if e["type"] == "sample"
                for x in e["threads"] if x["pid"] == t["sleeper"])
    pairs = [(a, b) for a, b in zip(sl, sl[1:])
             if a[0] >= t["from_ns"] and b[0] <= t["to_ns"]]
    check(pairs and all(b[1]["runtime_ns"] == 0 for _, b in pairs),
          f"the sleeper uses no CPU between samples in the window ({len(pairs)})",
          [b[1]["runtime_ns"] for _, b in pairs])


def check_fullevery(t, ev, info_path):
    b, f = t["budget"], t["full_ms"]
    t["every_ms"] = int(json.load(open(info_path))["params"].get("sample_full_every_ms", -1))
    every = lambda n: f * -(-n // b) if n > b else f
    ends = [e for e in ev if e["type"] == "sample_end" and e["full"]]
    check(len(ends) >= 3, f"full rounds went on ({len(ends)})")
    if not ends:
        return
    last = ends[-1]["threads"]
    check(abs(last - t["threads"]) <= 10,
          f"the last full round looked at {last} threads, /proc listed {t['threads']}")
    check(t["every_ms"] == every(last) and every(last) > f,
          f"the dump says full rounds every {t['every_ms']} ms: {f} x ceil({last} / {b})",
          every(last))
    gaps = [(b2["mono_ns"] - a["mono_ns"]) / 1e6 for a, b2 in zip(ends, ends[1:])
            if not (b2["overflow"] or b2["table_full"] or a["table_full"])]
    short = [(g, every(a["threads"])) for g, a in zip(gaps, ends)
             if g < every(a["threads"]) - f / 2]
    check(gaps and not short,
          f"no full round sooner than its budget allows ({len(gaps)} gaps, "
          f"{min(gaps) if gaps else 0:.0f} ms at least)", short)


def names_pid(x, pid):
    """Does a record's JSON give @pid under any key that ends in pid?"""
    if isinstance(x, dict):
        return any((k.endswith("pid") and v == pid) or names_pid(v, pid) for k, v in x.items())
    if isinstance(x, list):
        return any(names_pid(v, pid) for v in x)
    return False


def check_snapshot(t, ev, why_path, info_path):
    tid = t["tid"]
    hits = [e["type"] for e in ev if names_pid(e, tid)]
    check(ev and not hits, f"no record of the dump ({len(ev)}) names thread {tid}", hits[:10])
    snap = json.load(open(info_path)).get("sampler_snapshot")
    check(snap and snap["threads"] > 10, "the dump has the sampler's table", snap)
    w = json.load(open(why_path))["thread"]
    ms_ = w["ms"]
    busy = sum(v for k, v in ms_.items() if k not in ("sleeping", "unknown"))
    check(ms_["sleeping"] > 0 and busy == 0,
          f"thread {tid} sleeps {ms_['sleeping']:.1f} ms of the window, as the sampler last saw it",
          ms_)


def main():
    what, truth, records = sys.argv[1:4]
    ev = load(records)
    t = truth_of(truth)
    if what == "block":
        check_block(t, ev)
    elif what == "blkio":
        check_blkio(t, ev, sys.argv[4])
    elif what == "exec":
        check_exec(t, ev, sys.argv[4], sys.argv[5])
    elif what == "lock":
        check_lock(t, ev)
    elif what == "mem":
        check_mem(t, ev)
    elif what == "sampler":
        check_sampler(t, ev)
    elif what == "fullevery":
        check_fullevery(t, ev, sys.argv[4])
    elif what == "snapshot":
        check_snapshot(t, ev, sys.argv[4], sys.argv[5])
    else:
        check(False, f"unknown check {what}")


main()
