#!/usr/bin/env python3
"""Checks of tipme-bench's --json output for tests/vm/t-bench.sh (TAP).

  check_bench.py paging NOLIMIT.json PRESSURE.json INFO.json DESCRIPTION.txt
  check_bench.py forkstorm FORKSTORM.json

Only relations within one guest are asserted (TCG timings are emulated).
"""
import json
import sys

n = 0
failed = 0


def ok(cond, name, diag=None):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print(("ok" if cond else "not ok"), n, "-", name)
    if diag and not cond:
        print("#", diag)
    return cond


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("# cannot read", path, e)
        return None


def pct(sorted_v, p):
    """nearest rank, as tipme-bench computes it"""
    import math
    k = max(1, math.ceil(p / 100 * len(sorted_v)))
    return sorted_v[min(k, len(sorted_v)) - 1]


def consistent(s, what):
    """the summary agrees with the samples it was made from"""
    v = sorted(s["samples_columns"]["ns"])
    st = s["stats"]
    h = s["histogram"]["counts"]
    ok(len(v) == s["samples"] == st["n"], f"{what}: every sample is in the output")
    if not v:
        return
    m = len(v)
    med = v[m // 2] if m % 2 else v[m // 2 - 1] + (v[m // 2] - v[m // 2 - 1]) // 2
    ok(abs(st["median_ms"] - med / 1e6) < 1e-6 and abs(st["p99_ms"] - pct(v, 99) / 1e6) < 1e-6
       and abs(st["min_ms"] - v[0] / 1e6) < 1e-6 and abs(st["max_ms"] - v[-1] / 1e6) < 1e-6,
       f"{what}: min/median/p99/max agree with the samples",
       f"{st} vs median {med} p99 {pct(v, 99)}")
    ok(st["over_150ms"] == sum(1 for x in v if x > 150e6) and
       st["over_1s"] == sum(1 for x in v if x > 1e9),
       f"{what}: counts over 150 ms and 1 s agree with the samples")
    ok(s["histogram"]["bucket_ms"] == 10 and sum(h) == m and len(h) == v[-1] // 10**7 + 1
       and all(h[k] == sum(1 for x in v if x // 10**7 == k) for k in range(len(h))),
       f"{what}: the 10 ms histogram agrees with the samples")


def summary(s):
    st = s["stats"]
    return (f"{s['label']}: n={st['n']} min {st['min_ms']:.2f} median {st['median_ms']:.2f} "
            f"p99 {st['p99_ms']:.2f} max {st['max_ms']:.2f} mean {st['mean_ms']:.2f} ms, "
            f">150ms {st['over_150ms']}, >1s {st['over_1s']}")


def paging(nolimit_path, pressure_path, info_path, desc_path):
    a, b = load(nolimit_path), load(pressure_path)
    if not ok(a is not None and b is not None, "both paging runs wrote JSON"):
        return
    ok(a["benchmark"] == "paging" and a["kernel"]["release"] and a["parameters"]["short"],
       "the output names the benchmark, the kernel and the parameters")
    ok(a["parameters"]["memory_max_bytes"] is None and b["parameters"]["memory_max_bytes"] > 0,
       "the baseline has no memory limit, the pressure run has one")
    s0, s1 = a["series"][0], b["series"][0]
    for s, name in ((s0, "no limit"), (s1, "pressure")):
        print("#", name, summary(s))
        print("#   read alone: median %.3f max %.3f ms; pressure %s" % (
            s["read_stats"]["median_ms"], s["read_stats"]["max_ms"], s["pressure"]))
        consistent(s, name)
    ok(not s1["stopped_early"] and s1["samples"] == b["parameters"]["samples"],
       "the pressure run took all its samples")
    p0, p1 = s0["pressure"], s1["pressure"]
    ok(p1["pswpout"] > 0 and p1["pswpin"] > 0, "under pressure the machine swaps out and in",
       str(p1))
    ok(p1["cgroup_events_max"] > 0 and p1["cgroup_pgmajfault"] > 0,
       "the cgroup reaches memory.max and takes major faults", str(p1))
    ok(p1["timer_majflt"] > 0 and p1["samples_with_majflt"] > s1["samples"] // 2,
       "most of the timing process's reads are page-ins", str(p1))
    ok(p0["timer_majflt"] == 0 and p0.get("pswpout", 0) == 0,
       "without a limit nothing is paged", str(p0))
    # wider: the page-in comes on top of whatever the wake-up costs.  The
    # emulated machine's own stalls (hundreds of ms, whenever the host is
    # busy) hit both runs, so only robust statistics are compared: the tails
    # and the mean are reported, not asserted.
    st0, st1 = s0["stats"], s1["stats"]
    v0, v1 = sorted(s0["samples_columns"]["ns"]), sorted(s1["samples_columns"]["ns"])
    print("# p10/p90: no limit %.2f/%.2f ms, pressure %.2f/%.2f ms; mean %.2f vs %.2f ms" % (
        pct(v0, 10) / 1e6, pct(v0, 90) / 1e6, pct(v1, 10) / 1e6, pct(v1, 90) / 1e6,
        st0["mean_ms"], st1["mean_ms"]))
    ok(st1["median_ms"] > st0["median_ms"], "the median is higher under pressure",
       f"{st1['median_ms']} vs {st0['median_ms']}")
    ok(pct(v1, 10) > st0["median_ms"] * 1e6,
       "under pressure 90% of the samples are slower than the baseline's median",
       f"{pct(v1, 10)} vs {st0['median_ms']}")
    ok(sum(1 for x in v1 if x >= 20e6) > sum(1 for x in v0 if x >= 20e6),
       "more samples reach 20 ms under pressure")
    r0, r1 = s0["read_stats"], s1["read_stats"]
    ok(r1["median_ms"] > 10 * r0["median_ms"], "the read alone is >10x slower under pressure",
       f"{r1['median_ms']} vs {r0['median_ms']}")
    ok(b["parameters"]["vm_page_cluster"] == 0 and b["parameters"]["swap_read_delay_ms"] == 50,
       "the output records the swap delay and vm.page-cluster")

    # the trigger
    thr = b["parameters"]["trigger_above_ms"]
    trig = b["triggers"]
    ok(thr is not None and thr < st1["max_ms"], "the threshold is below the observed maximum",
       f"{thr} vs {st1['max_ms']}")
    if not ok(len(trig) == 1, "exactly one trigger (once per run)", str(trig)):
        return
    t = trig[0]
    print("# trigger:", t)
    ok(t["via"] == "socket" and t["error"] == "", "it went through tipmed's socket", str(t))
    ok(t["ms"] > thr, "the triggering sample is above the threshold")
    ok(t["end_mono_ns"] - t["start_mono_ns"] == round(t["ms"] * 1e6) and
       t["start_mono_ns"] >= s1["started_mono_ns"] and t["requested_mono_ns"] >= t["end_mono_ns"],
       "the trigger names its sample's CLOCK_MONOTONIC span, requested after it")
    first = [x for x in s1["samples_columns"]["ns"]]
    k = next((i for i, x in enumerate(first) if x > thr * 1e6), None)
    ok(k == t["index"], "the first sample above the threshold triggered", f"{k} vs {t['index']}")
    info = load(info_path)
    if not ok(info is not None and info.get("cpus"), "tipme info --json read the incident's dump"):
        return
    spans = [(c["first_mono_ns"], c["last_mono_ns"]) for c in info["cpus"] if "first_mono_ns" in c]
    for c, (f0, f1) in zip([c["cpu"] for c in info["cpus"] if "first_mono_ns" in c], spans):
        print(f"# cpu {c}: dump covers {f0 / 1e9:.6f}-{f1 / 1e9:.6f} s")
    print(f"# slow sample: {t['start_mono_ns'] / 1e9:.6f}-{t['end_mono_ns'] / 1e9:.6f} s")
    ok(spans and min(s[0] for s in spans) <= t["start_mono_ns"] and
       max(s[1] for s in spans) >= t["end_mono_ns"],
       "the dump's time span contains the slow sample")
    ok(spans and max(s[0] for s in spans) <= t["start_mono_ns"] and
       min(s[1] for s in spans) >= t["end_mono_ns"],
       "every CPU's records cover the slow sample")
    try:
        desc = open(desc_path).read()
    except OSError:
        desc = ""
    ok("tipme-bench N=" in desc and f"sample {t['index']} " in desc,
       "the incident's description names the benchmark and the sample", desc.strip())


def forkstorm(path):
    d = load(path)
    if not ok(d is not None, "the fork storm wrote JSON"):
        return
    ok(d["benchmark"] == "forkstorm" and d["parameters"]["cpu"] is not None,
       "every process was pinned to one CPU")
    c = d["calibration"]
    print("# calibration:", c)
    ok(c["loops"] > 0 and c["target_ms"] == 10, "the 10 ms loop was calibrated")
    labels = [s["label"] for s in d["series"]]
    ok(labels == ["load A", "load B"], "both loads ran, separately", str(labels))
    nominal = d["parameters"]["compute_ms"] + d["parameters"]["sleep_ms"]
    for s in d["series"]:
        print("#", summary(s))
        print("#   computation: median %.2f max %.2f ms" % (
            s["compute_stats"]["median_ms"], s["compute_stats"]["max_ms"]))
        consistent(s, s["label"])
        ok(not s["stopped_early"] and s["samples"] == d["parameters"]["samples"],
           f"{s['label']}: all intervals measured")
        ok(s["stats"]["min_ms"] >= d["parameters"]["sleep_ms"],
           f"{s['label']}: no interval is shorter than the sleep")
        ok(s["stats"]["median_ms"] >= 0.5 * nominal,
           f"{s['label']}: the median interval is near or above the nominal {nominal} ms")
    b = d["series"][-1]
    dur = (b["ended_mono_ns"] - b["started_mono_ns"]) / 1e9
    forks = b["forks_mono_ns"]
    print(f"# load B: {len(forks)} forks in {dur:.1f} s; {b['intervals_with_fork']}")
    ok(len(forks) >= max(1, int(dur / 2) - 1), "load B forked every 2 s",
       f"{len(forks)} forks in {dur:.1f} s")
    ok(b["intervals_with_fork"]["count"] >= 1, "some intervals contain a fork")


if __name__ == "__main__":
    if sys.argv[1] == "paging":
        paging(*sys.argv[2:6])
    else:
        forkstorm(sys.argv[2])
    print(f"1..{n}")
    sys.exit(1 if failed else 0)
