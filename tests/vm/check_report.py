#!/usr/bin/env python3
"""Check `tipme report --json` against the ground truth a workload printed.

usage: check_report.py CASE TRUTH REPORT_JSON [EXTRA...]

CASE is one of:
  cpu      stall's output: the victim's wait is charged to cpu_contention,
           culprit the real-time hog, within 10% of the stall it measured
  timer    blockpipe's output: the reader's wait is charged, through the
           writer that woke it, to the writer's own 300 ms nanosleep
  stopped  stopper's output: the parent's wait is charged to its stopped
           child, continued by the continuer, until the SIGCONT the
           continuer bracketed with two clock reads
  blkio    fsyncer's output, EXTRA = MAJOR:MINOR and the device's
           completion delay in ms: the fsync is charged to block I/O on
           that device, issued by the fsync-ing task, each request taking
           at least the delay the test gave the device
  mem      memhog's output, EXTRA = records --json of the dump: memory
           reclaim by memhog, its time equal to the reclaim stretches the
           records hold
  lock     contend's output: one thread's time includes waiting for the
           inode's rwsem held by the other
  auto     stall's output, no --pid: the report picks a stall and ends at
           the hog
  kinput   evreader's output, no --pid and no X dump: the report picks the
           key press the kernel recorded, its reader, until the reader
           polled again; the reader's wait is charged to the helper's sleep.
           With auto_press=NS (t-autokernel: the module's auto trigger),
           the interval is the press it named.
  quota    quota's output (spin), EXTRA = the cgroup's path and its
           cpu.max: the waiter's wait is charged, through the child that
           woke it, to cpu_throttled, culprit the child, resource the
           cgroup with its quota and period, within 10% of the throttled
           time the cgroup's cpu.stat counted over the wait
  quota-woken  quota's output (tick), EXTRA as for quota: the ticker's
           latest wakeup, from its deadline until it ran, is cpu_throttled
           (it was woken while the spinner had the group throttled),
           culprit the spinner (or, rarely, the ticker itself, when the
           quota ran out while it ran), the cgroup with its limit, within 10% of
           that wait and at least 20 ms of it
  quota-neg  quota's output (sleep), EXTRA as for quota: the child slept:
           timer, culprit the child, and cpu_throttled only as much as the
           kernel counted (none when it counted none; on a busy host the
           child's start can use more than the quota and be throttled
           once, 39 ms of a 365 ms wait)
  net-peer netpeer's output (sleep), EXTRA = the client's address and
           the server's MS: the client's TCP read is charged, through the
           server that answered it (the chain's step on the socket, its
           addresses), to the server's sleep (timer, culprit the server):
           at least 90% of MS, at most 110% of the time from the client's
           request to the server's answer (a busy host stretches the
           rest: the guest's own waits for a CPU), >= 95% accounted
  net-spin netpeer's output (spin), EXTRA as for net-peer: the same, to
           the server computing (running, culprit the server)
  net-link netpeer's output (now), EXTRA = the client's address and the
           link's netem delay in ms: network, no culprit, resource "tcp
           CLIENT:PORT -> SERVER:5000" and the same in "net", within 10%
           of the client's wait and at least the delay, >= 95% accounted
  xserver-rt  --pid over the client's round trip in t-xreport's x_server
           case: charged to the flooder, but for waits for a CPU (90%)
  xstopped, xserver, xdisk: t-xreport's key presses into an X client
           (no --pid, an X dump): the report picks the press and its
           client, and charges it to the client stopped until the test
           continued it (sigsend's bracket around kill(2), in TRUTH as
           sent_lo_ns and sent_hi_ns); to the X server busy with the
           flooder's drawing (the flooder's share at least half the
           client's round trip); to block I/O on the test's device, EXTRA
           = MAJOR:MINOR (a request per read or a few more, at least 20 ms
           each, at most the time the reads took).  With auto_press=NS in
           TRUTH (t-auto: an auto incident), the interval is chosen by
           that press, not as the slowest.  The client says it is done
           after a round trip that follows its drawing: the interval ends no
           later, but when the client itself is done later still.
Prints TAP lines (no plan).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check  # noqa: E402



def near(x, want, tol=0.10):
    return abs(x - want) <= tol * want


def items(rep, cause):
    return [c for c in rep["causes"] if c["cause"] == cause]


def main():
    case, truth, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    t = {k: float(v) for k, v in (kv.split("=", 1) for kv in truth.split())}
    v = rep["verdict"] or {}
    cul = (v.get("culprit") or {}).get("pid")
    span = (rep["interval"]["to_mono_ns"] - rep["interval"]["from_mono_ns"]) / 1e6
    total = sum(c["ms"] for c in rep["causes"])
    check(abs(total - span) < 0.01 + 1e-6 * span,
          f"the causes add up to the interval: {total:.3f} of {span:.3f} ms")
    unknown = sum(c["ms"] for c in items(rep, "unknown"))
    check(abs(rep["accounted_pct"] - 100 * (span - unknown) / span) < 0.01,
          f"accounted_pct counts only what is explained: {rep['accounted_pct']:.1f}%")
    print(f"# verdict: {v.get('text')} ({v.get('cause')}, {v.get('ms', 0):.1f} ms)")
    if case == "cpu" or case == "auto":
        check(v.get("cause") == "cpu_contention" and cul == int(t["hog"]),
              f"verdict: cpu_contention, culprit the hog {int(t['hog'])}", v)
        if case == "cpu":
            check(near(v.get("ms", 0), t["latency_ms"]),
                  f"{v.get('ms', 0):.1f} ms within 10% of the stall the victim measured "
                  f"({t['latency_ms']:.1f} ms)")
            check(v.get("culprit_kernel_prio", 999) < 100,
                  f"the culprit ran at a real-time priority (kernel prio {v.get('culprit_kernel_prio')})")
            check(v.get("culprit_policy") == "fifo",
                  f"under SCHED_FIFO, as the sampler saw it ({v.get('culprit_policy')})")
            ch = rep["chain"]
            check(any(s.get("woken_by") == int(t["server"]) and s.get("waited_for")
                      for s in ch), "the chain goes from the victim to the server")
        else:
            check(rep["interval"]["chosen_by"] == "ranked_stall",
                  "without --pid or input: chosen by the stall ranking")
    elif case == "timer":
        want = (t["write_ns"] - t["blocked_seen_ns"]) / 1e6
        check(v.get("cause") == "timer" and cul == int(t["writer"]),
              f"verdict: timer, culprit the writer {int(t['writer'])}", v)
        check("nanosleep" in (v.get("resource") or ""), "resource: its nanosleep", v)
        check(300 * 0.9 <= v.get("ms", 0) <= want * 1.1,
              f"{v.get('ms', 0):.1f} ms: the writer's 300 ms sleep, within the "
              f"{want:.1f} ms it took to write")
    elif case == "stopped":
        check(v.get("cause") == "stopped" and cul == int(t["child"]),
              f"verdict: stopped, culprit the child {int(t['child'])}", v)
        check(v.get("continued_by") == int(t["continuer"]),
              f"continued by the continuer {int(t['continuer'])}", v)
        # stopped from when the parent blocked on the pipe (the child was
        # stopped before the parent read its clock; the parent can run
        # for ms after that on a loaded machine before it blocks: the
        # chain's first step says when) until the continuer's SIGCONT,
        # sent between its two clock reads (its MS sleep can run long on
        # a loaded machine); 2 ms for the dump's TSC to CLOCK_MONOTONIC
        step = next((c for c in rep.get("chain") or []
                     if c.get("pid") == int(t["parent"]) and
                     c.get("state") == "blocked"), None)
        start = step["from_mono_ns"] if step else t["from_ns"]
        check(t["from_ns"] - 2e6 <= start <= t["to_ns"],
              "the parent's wait on the pipe starts after it read its clock "
              f"(+{(start - t['from_ns']) / 1e6:.1f} ms)")
        lo = (t["sent_lo_ns"] - start) / 1e6
        hi = (t["sent_hi_ns"] - start) / 1e6
        check(t["ms"] * 0.9 <= lo and lo - 2 <= v.get("ms", 0) <= hi + 2,
              f"{v.get('ms', 0):.1f} ms: until SIGCONT, sent {lo:.1f} to "
              f"{hi:.1f} ms into the parent's wait (the stop asked: "
              f"{t['ms']:.0f} ms)")
    elif case == "blkio":
        dev, delay = sys.argv[4], float(sys.argv[5])
        check(v.get("cause") == "block_io", "verdict: block_io", v)
        # nullb0 is the device the test made; tipme dump names it
        check(v.get("resource") == "block device nullb0 (%s)" % dev,
              f"on the test's device, by name and number: nullb0 ({dev})", v)
        check(cul == int(t["pid"]), f"issued by the fsync-ing task {int(t['pid'])}", v)
        mean = v.get("request_ms_mean", 0)
        check(delay <= mean <= delay * 2,
              f"each request took {mean:.1f} ms in the device: at least its {delay:.0f} ms")
        q = v.get("queue_ms_mean")
        check(v.get("queued_requests", 0) >= 1 and q is not None and 0 <= q < delay * 10,
              f"{v.get('queued_requests')} of {v.get('requests')} requests were queued "
              f"first (mq-deadline), {q} ms each on average")
    elif case == "mem":
        recs = [json.loads(l) for l in open(sys.argv[4]) if l.strip()]
        pid = int(t["pid"])
        f0, f1 = rep["interval"]["from_mono_ns"], rep["interval"]["to_mono_ns"]
        # the reclaim stretches, and inside them the time memhog waited
        # for a CPU (preempted, or woken and not yet on one): that time is
        # cpu_contention, the rest memory
        runnable, reclaim = [], []
        wait = begin = on_cpu = None
        for e in recs:
            ty, m = e["type"], e["mono_ns"]
            if ty == "sched_switch":
                if e["next_pid"] == pid:
                    if wait is not None:
                        runnable.append((wait, m))
                    wait, on_cpu = None, True
                elif e["prev_pid"] == pid:
                    wait, on_cpu = (m if e["prev_state"] == "R" else None), False
            elif e.get("pid") == pid:
                if ty == "sched_waking" and on_cpu is False and wait is None:
                    wait = m
                elif ty == "reclaim_begin":
                    begin = m
                elif ty == "reclaim_end" and begin is not None:
                    reclaim.append((begin, m))
                    begin = None

        def inside(a, b):
            return max(0, min(b, f1) - max(a, f0))
        tot = sum(inside(a, b) for a, b in reclaim) / 1e6
        rn = sum(inside(max(a, c), min(b, d)) for a, b in reclaim
                 for c, d in runnable if min(b, d) > max(a, c)) / 1e6
        m = [c for c in items(rep, "memory") if (c.get("culprit") or {}).get("pid") == pid]
        check(m and m[0]["pages_reclaimed"] > 0,
              f"memory reclaim by memhog {pid}, with pages reclaimed", rep["causes"][:4])
        if m:
            check(abs(m[0]["ms"] - (tot - rn)) <= 0.02 * tot + 0.01,
                  f"{m[0]['ms']:.1f} ms: the reclaim stretches of its records "
                  f"({tot:.1f} ms) less its waits for a CPU in them ({rn:.1f} ms)")
    elif case == "kinput":
        iv = rep["interval"]
        by = "auto_press" if t.get("auto_press") else "kernel_input"
        check(iv["chosen_by"] == by and iv["pid"] == int(t["reader"]),
              f"the interval: the key press the kernel saw ({by}), its reader {int(t['reader'])}",
              iv)
        if t.get("auto_press"):
            # stamped before evdev delivered it, recorded after (report.md)
            check(-2e6 <= iv["from_mono_ns"] - t["auto_press"] <= 50e6,
                  "it starts at the press the module's auto trigger named",
                  f"{iv['from_mono_ns']} vs {t['auto_press']:.0f}")
        # from the input record (just before the reader read the event)
        # until the reader polled again (just after back_ns)
        check(t["press_ns"] - 50e6 <= iv["from_mono_ns"] <= t["press_ns"] and
              t["back_ns"] <= iv["to_mono_ns"] <= t["back_ns"] + 50e6,
              "from the input record to the reader's next poll: "
              f"[{iv['from_mono_ns']}, {iv['to_mono_ns']}] around "
              f"[{t['press_ns']:.0f}, {t['back_ns']:.0f}]")
        check(v.get("cause") == "timer" and cul == int(t["helper"]),
              f"verdict: timer, culprit the helper {int(t['helper'])} it waited for", v)
        check(near(v.get("ms", 0), (t["back_ns"] - t["press_ns"]) / 1e6, 0.2),
              f"{v.get('ms', 0):.1f} ms of the {(t['back_ns'] - t['press_ns']) / 1e6:.1f} ms "
              "the reader measured")
    elif case == "quota-woken":
        path, quota, period = sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
        spinner = int(t["spinner"])
        check(t["nr_throttled"] >= 1, f"the kernel throttled the cgroup {int(t['nr_throttled'])} times")
        check(span >= 20, f"the ticker's latest wakeup came {span:.1f} ms after its deadline")
        # the thread running when the quota ran out: the spinner, or (at
        # about 1% of the time) the ticker itself just after a wakeup
        check(v.get("cause") == "cpu_throttled" and cul in (spinner, int(t["ticker"])),
              f"verdict: cpu_throttled, taken off the CPU from the spinner {spinner} "
              "(or the ticker)", v)
        check(v.get("resource") == "cgroup " + path and v.get("quota_us") == quota and
              v.get("period_us") == period, f"the cgroup {path} with its cpu.max", v)
        # The lateness is mostly the throttling; the rest is the timer's
        # own lateness (TCG raises it late on a busy host: the ticker still
        # asleep) and the spinner holding the CPU within the quota.
        rest = {c["cause"] for c in rep["causes"]} - {"cpu_throttled"}
        check(0.75 * span <= v.get("ms", 0) <= span and
              rest <= {"timer", "cpu_contention", "running"},
              f"{v.get('ms', 0):.1f} ms of the {span:.1f} ms the ticker was late throttled "
              f"(75% at least), the rest {sorted(rest)}",
              [(c["cause"], c["ms"]) for c in rep["causes"]])
    elif case in ("quota", "quota-neg"):
        path, quota, period = sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
        child = int(t["child"])
        thr = items(rep, "cpu_throttled")
        if case == "quota":
            want = t["throttled_us"] / 1e3
            check(t["nr_throttled"] >= 1, f"the kernel throttled the cgroup {int(t['nr_throttled'])} times")
            check(v.get("cause") == "cpu_throttled" and cul == child,
                  f"verdict: cpu_throttled, culprit the child {child}", v)
            check(v.get("resource") == "cgroup " + path and v.get("cgroup") == path,
                  f"resource: the cgroup {path}", v)
            check(v.get("cgroup_id") == int(t["cgroup_ino"]),
                  f"the cgroup's id is its folder's inode number {int(t['cgroup_ino'])}", v)
            check(v.get("quota_us") == quota and v.get("period_us") == period,
                  f"with its cpu.max: {quota} us every {period} us", v)
            check(near(v.get("ms", 0), want),
                  f"{v.get('ms', 0):.1f} ms within 10% of the {want:.1f} ms the cgroup's "
                  "cpu.stat counted throttled")
            check(rep["accounted_pct"] >= 95, f"{rep['accounted_pct']:.1f}% accounted")
            ch = rep["chain"]
            check(any(s.get("woken_by") == child and s.get("waited_for") for s in ch),
                  "the chain goes from the waiter to the child")
        else:
            want = t["throttled_us"] / 1e3
            got = sum(c["ms"] for c in thr)
            check(v.get("cause") == "timer" and cul == child,
                  f"verdict: timer, culprit the child {child}", v)
            check((not thr and not t["nr_throttled"]) or
                  (t["nr_throttled"] and near(got, want)),
                  f"cpu_throttled {got:.1f} ms, as the kernel counted: {int(t['nr_throttled'])} "
                  f"times, {want:.1f} ms", thr)
    elif case in ("net-peer", "net-spin", "net-link"):
        server, waited = int(t["server"]), (t["woke_ns"] - t["start_ns"]) / 1e6
        local = "%s:%d" % (sys.argv[4], int(t["lport"]))
        remote = rep_remote = None
        for c in rep["chain"]:
            if c.get("net"):
                rep_remote = c["net"]
                break
        if case == "net-link":
            remote = rep_remote and rep_remote["remote"]
            delay = float(sys.argv[5])
            check(v.get("cause") == "network" and cul is None,
                  "verdict: network, no culprit", v)
            check(v.get("resource") == "tcp %s -> %s" % (local, remote) and
                  (v.get("net") or {}).get("local") == local and
                  (v.get("net") or {}).get("proto") == "tcp" and
                  (remote or "").endswith(":5000"),
                  f"resource: the client's socket tcp {local} -> {remote}", v)
            check(near(v.get("ms", 0), waited) and v.get("ms", 0) >= delay * 0.95,
                  f"{v.get('ms', 0):.1f} ms within 10% of the {waited:.1f} ms the client "
                  f"waited, at least the link's {delay:.0f} ms")
        else:
            want = "timer" if case == "net-peer" else "running"
            asked, answered = float(sys.argv[5]), (t["sent_ns"] - t["start_ns"]) / 1e6
            check(v.get("cause") == want and cul == server,
                  f"verdict: {want}, culprit the server {server}", v)
            check(0.9 * asked <= v.get("ms", 0) <= 1.1 * answered,
                  f"{v.get('ms', 0):.1f} ms: the server's {asked:.0f} ms, within the "
                  f"{answered:.1f} ms it took to answer (the client waited {waited:.1f})")
            # followed to the server ("waited_for": its waits, none when
            # it only computed)
            step = next((c for c in rep["chain"] if c.get("net") and "waited_for" in c), None)
            check(step is not None and step.get("woken_by") == server and
                  step["net"]["local"] == local,
                  f"the chain: the client's read on tcp {local} waited for the server {server}",
                  step)
            net = items(rep, "network")
            check(sum(c["ms"] for c in net) < 0.05 * waited,
                  "little charged to the network itself", net)
        check(rep["accounted_pct"] >= 95, f"{rep['accounted_pct']:.1f}% accounted")
    elif case == "xserver-rt":
        # --pid over the client's round trip alone: the server busy with
        # the flooder's drawing, but for what the chain shows it waited
        # for a CPU itself (a busy machine); nothing else of size
        fl = int(t["flooder"])
        check(v.get("cause") == "x_server" and cul == fl,
              f"the round trip alone: x_server, culprit the flooder {fl}", v)
        got = sum(c["ms"] for c in rep["causes"]
                  if (c.get("culprit") or {}).get("pid") == fl)
        cpu = sum(c["ms"] for c in items(rep, "cpu_contention"))
        check(got + cpu >= 0.9 * span and got >= 0.5 * span,
              f"{got:.1f} ms charged to the flooder and {cpu:.1f} ms to waits for a CPU, "
              f"of the {span:.1f} ms round trip")
    elif case in ("xstopped", "xserver", "xdisk"):
        iv = rep["interval"]
        by = "auto_press" if t.get("auto_press") else "input"
        check(iv["chosen_by"] == by and iv["pid"] == int(t["victim"]),
              f"the interval: the key press ({by}), its client {int(t['victim'])}", iv)
        if t.get("auto_press"):
            check(abs(iv["from_mono_ns"] - t["auto_press"]) <= 2e6,
                  "... the press meta.json names (%.1f ms apart)" % (
                      (iv["from_mono_ns"] - t["auto_press"]) / 1e6))
        # The X server stamps a reply with a clock it reads once per round
        # of its loop, in whole ms: a reply can carry a stamp from before
        # the client began to wait for it, and the wait must still count
        # as a round trip (Documentation/recorder.md), not as the wait for
        # the next input; 2 ms for X's whole milliseconds.
        # After the round trip's reply the client may wait 0.4 ms more in
        # poll, which the X server ends with output the X dump does not
        # hold: part of the handling too (Documentation/recorder.md), not
        # the wait for the next input (the report ended 5-16 ms early in 4
        # of 6 runs before that rule).
        check(iv["to_mono_ns"] >= t["done_ns"] - 2e6,
              "it ends after the client said it was done (2 ms for X's ms "
              f"stamps): {(iv['to_mono_ns'] - t['done_ns']) / 1e6:.1f} ms later")
        # The client said so after a round trip that followed its drawing:
        # the server had drawn it by then.  An interval that ends after the
        # client was done ends with the server's drawing for it, so no later
        # (X's ms and the TSC's conversion: 2 ms), however long the server
        # then stays busy with other clients.
        if "client_done_mono_ns" in iv:
            check(iv["to_mono_ns"] <= t["done_ns"] + 2e6,
                  "the server's drawing for it was done before the client said so: "
                  f"it ends {(iv['to_mono_ns'] - t['done_ns']) / 1e6:.1f} ms after that "
                  f"(the client done at {(iv['client_done_mono_ns'] - t['done_ns']) / 1e6:.1f})")
        if case == "xstopped":
            # stopped from the press until SIGCONT woke it, and the test
            # read the clock just before and just after kill(2); 2 ms for
            # the dump's TSC to CLOCK_MONOTONIC, as for the press above
            lo = (t["sent_lo_ns"] - iv["from_mono_ns"]) / 1e6
            hi = (t["sent_hi_ns"] - iv["from_mono_ns"]) / 1e6
            check(v.get("cause") == "stopped" and cul == int(t["victim"]),
                  f"verdict: stopped, culprit the client {int(t['victim'])}", v)
            check(lo - 2 <= v.get("ms", 0) <= hi + 2,
                  f"{v.get('ms', 0):.1f} ms: from the press to SIGCONT, sent "
                  f"{lo:.1f} to {hi:.1f} ms after it")
        elif case == "xserver":
            fl = int(t["flooder"])
            want = t["round_trip_ns"] / 1e6
            check(v.get("cause") == "x_server" and cul == fl,
                  f"verdict: x_server, culprit the flooder {fl}", v)
            check(v.get("x_server_pid") == int(t["xserver"]),
                  f"the X server is {int(t['xserver'])}", v)
            got = sum(c["ms"] for c in rep["causes"]
                      if (c.get("culprit") or {}).get("pid") == fl)
            check(got >= want * 0.5,
                  f"{got:.1f} ms charged to the flooder: at least half the client's "
                  f"{want:.1f} ms round trip")
        else:
            want = t["read_ns"] / 1e6
            check(v.get("cause") == "block_io" and cul == int(t["victim"]),
                  f"verdict: block_io, issued by the client {int(t['victim'])}", v)
            check(v.get("resource") == "block device nullb0 (%s)" % sys.argv[4],
                  f"on the test's device nullb0 ({sys.argv[4]})", v)
            # the device takes 20 ms a request (null_blk), the client made
            # 10 reads; the reads also took its own CPU time and waits for a
            # CPU, which are not block I/O
            n = int(t["reads"])
            # (opening the device may read too: at least one request a read)
            check(n <= v.get("requests", 0) <= n + 3, f"its {n} reads: {v.get('requests')} requests")
            check(0.95 * n * 20 <= v.get("ms", 0) <= want,
                  f"{v.get('ms', 0):.1f} ms: at least the device's {n} x 20 ms, at most the "
                  f"{want:.1f} ms the reads took")
    elif case == "lock":
        me, other = int(sys.argv[4]), int(sys.argv[5])
        lk = [c for c in items(rep, "lock") if (c.get("resource") or "").startswith("rwsem")]
        check(lk and (lk[0].get("culprit") or {}).get("pid") == other,
              f"thread {me} waited for an rwsem held by the other thread {other}", lk[:2])


if __name__ == "__main__":
    main()
