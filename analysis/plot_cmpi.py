"""analysis/plot_cmpi.py - the cMPI seed (001, Wang et al., SC '25): MPI one-
and two-sided communication through a shared CXL pool, with
configs/cmpi-pool.cfg (four hosts, each on its own PCIe 4.0 x8 link to one
multi-headed device, idle read 790 ns) and the cmpi generator
(models/host/README.md, "MPI over the pool").  The seed's numbers are those
of /work/shared/seeds-digest.md §001.3 (M1-M8), cited where they are used.

Two pairs: peers = pairs makes host0 -> host1 and host2 -> host3, and both
run (`workload[host[2-3]].requests=0` does not apply to host programs, and
the generator counts every requester as a program host), so cmpi_all.md
gives every value for pair 0 and pair 1 (the marks of host0 and host2) and
the figures draw pair 0.  "One pair alone" cuts the pool to host0 and host1
(topology.custom.hosts / links) to show what the second pair costs.

Measures: a pair's bandwidth at a size = procs x mark bytes / mark sum_ps
(one mark per window and process, bytes = window x size; the processes run
at once, so this adds up their rates: where they drift apart, the last
ones alone on the link, it can read a few % above the link's ceiling,
hence the cool-down below); latency = the mark's mean, halved for sendrecv
(its mark is the round trip).

fig_cmpi_put_bw     put bandwidth vs size for 1, 4, 16 processes, software
                    coherence without a host cache and with 1 MiB (M3)
fig_cmpi_sendrecv   sendrecv vs put bandwidth and their ratio (M5)
fig_cmpi_latency    put latency and sendrecv one-way latency vs size (M4, M6)
fig_cmpi_coherence  software coherence vs HDM-DB at 64 B: put, get, sendrecv
                    one way (Table 1, M1, M2)
fig_cmpi_uc         uncacheable vs software put, MPS 128 B - 4 KiB (M8)
cmpi_device         the pool device in the 16-process bandwidth runs
cmpi_paper          paper vs cxlfab;  cmpi_all  every run, size and pair

Cost (the target: <= 3 min of simulation at JOBS=2 on the shared 2 cores):
bandwidth sizes 64 B - 32 KiB (below 64 B a message still moves a whole
line), then one unreported 64 KiB window as a cool-down: a process goes on
to the next size as soon as it is done, so every size but the last shares
the link with the next one, and the last one's laggards alone on the link
would read up to 6% above its ceiling; window 8 messages instead of OSU's
64 (put: within 2%, every put has its own fence; sendrecv: within 5% at 16
processes, 10-20% lower at 1, where the sender's wait for the receiver's
ack is spread over 8 messages instead of 64); 2 measured + 1 warm-up
windows per size.  Latency: one process, 1 B - 512 KiB, 10 + 2 iterations
up to 8 KiB, 4 + 1 above.  31 runs: 51 s wall at JOBS=2 (61 s of CPU) at a
load average of ~4 from other work, 128 s at 5-6.6.
"""
import math

import figlib as fl

CFG = fl.cfg("cmpi-pool.cfg")
CACHE = ["host.cache.size=1MiB"]
# HDM-DB: a DCOH whose inclusive filter holds the four 1 MiB caches' lines
HDMDB = CACHE + ["memory.dcoh.entries=65536", "workload.cmpi.coherence=hdmdb"]
MODES = {"nocache": [], "cache": CACHE, "hdmdb": HDMDB}  # the latency runs' coherence set-ups
ONE_PAIR = ["topology.custom.hosts=host0,host1", "topology.custom.links=host0 pool,host1 pool"]
PROCS = [1, 4, 16]
BW_SIZES = fl.pow2(64, 32 << 10)  # reported; the runs add a 64 KiB cool-down
LAT_SIZES = fl.pow2(1, 512 << 10)
MPS = [128, 256, 1024, 4096]
CELL = 64 << 10
PAIRS = ["host0", "host2"]  # the origins / senders / pingers: they mark
HDR = 20  # bytes of TLP header and framing per packet (bus.header_bytes, the config's default)
RAW = fl.port_bw(4, 8, 0)  # PCIe 4.0 x8, one direction, after 128b/130b: 15.75 GB/s
CEIL = fl.port_bw(4, 8, HDR)  # a line's 64 B in a 64 + 20 B packet: 12.00 GB/s
CEIL_RFO = fl.port_bw(4, 8, 2 * HDR)  # with a cache, per line up: read for ownership + write-back
SEED_PUT, SEED_SR = 8.6, 6.05  # GB/s: M3 (16 processes, >= 16 KB), M5 ("~30% lower")
SEED_LAT = 12.0  # us: M4 (one-sided, 1 B - 16 KB), M6 (two-sided, below 64 KB)
SEED_FLUSH, SEED_CACHED = 2.2, 0.79  # us: Table 1 / M1 (with, without flushing), M2 2.8x
SEED_UC = 256  # M8: uncacheable latency 256x cflush's above 2 KB


def run(key, op, measure, sizes, sets=(), procs=1):
    s = ["workload.pattern=cmpi", "simulation.end=1s", "workload.cmpi.op=" + op,
         "workload.cmpi.measure=" + measure, "host.cores=%d" % procs,
         "workload.cmpi.min_size=%dB" % sizes[0], "workload.cmpi.max_size=%dB" % sizes[-1]]
    if measure == "bw":
        s[-1] = "workload.cmpi.max_size=%dB" % (2 * sizes[-1])  # the cool-down
        s += ["workload.cmpi.window=8", "workload.cmpi.iterations=2", "workload.cmpi.warmup=1",
              "workload.cmpi.large_size=%dB" % sizes[-1], "workload.cmpi.iterations_large=1",
              "workload.cmpi.warmup_large=0"]
    else:
        s += ["workload.cmpi.iterations=10", "workload.cmpi.warmup=2",
              "workload.cmpi.iterations_large=4", "workload.cmpi.warmup_large=1"]
    r = fl.Run("cmpi/" + key, CFG, s + list(sets))
    r.op, r.measure, r.sizes, r.procs = op, measure, sizes, procs
    return r


def value(r, host, size):
    """GB/s (bw) or us (latency, one way for sendrecv) of HOST's marks at SIZE."""
    m = r.mark(host, fl.size_name(size))
    if not m["count"]:
        return math.nan
    if r.measure == "bw":
        return r.procs * m["bytes"] / m["sum_ps"] * 1e3
    return m["mean_ps"] / 1e6 / (2 if r.op == "sendrecv" else 1)


def curve(r, sizes=None, host="host0"):
    return [value(r, host, s) for s in sizes or r.sizes]


def check(r):
    """Every program host finished before simulation.end."""
    for h in r.of_type("host"):
        if r.num(h, "cut_by_end") or not r.num(h, "prog_done_ps"):
            raise SystemExit("figures: run %s: %s did not finish" % (r.key, h))


def r3(v, d=3):
    return round(v, d) if v == v else "-"


def main():
    bw = {(op, c, p): run("bw-%s-%s-%dp" % (op, c, p), op, "bw", BW_SIZES,
                          CACHE if c == "cache" else (), p)
          for p in reversed(PROCS) for op in ("sendrecv", "put") for c in ("cache", "nocache")}
    alone = {op: run("bw-%s-nocache-16p-onepair" % op, op, "bw", BW_SIZES, ONE_PAIR, 16)
             for op in ("sendrecv", "put")}
    lat = {(op, m): run("lat-%s-%s" % (op, m), op, "latency", LAT_SIZES, MODES[m])
           for op in ("sendrecv", "put") for m in MODES}
    uc = {mps: run("lat-put-uc-mps%d" % mps, "put", "latency", LAT_SIZES,
                   ["workload.cmpi.coherence=uc", "bus.max_payload=%dB" % mps]) for mps in MPS}
    get = {m: run("lat-get-%s" % m, "get", "latency", [64],  # 100: a window of 10 latencies
                  MODES[m] + ["workload.cmpi.iterations=100"]) for m in MODES}
    runs = list(bw.values()) + list(alone.values()) + list(lat.values()) + list(uc.values()) + \
        list(get.values())
    fl.run_all(runs)  # the 16-process runs first: the longest start first
    for r in runs:
        check(r)
    all_table(runs)
    fig_put_bw(bw)
    fig_sendrecv(bw, alone)
    device(bw, alone)
    fig_latency(lat)
    fig_coherence(lat, get)
    fig_uc(uc, lat)
    paper(bw, alone, lat, uc, get)


def all_table(runs):
    rows = []
    for r in runs:
        unit = "GB/s" if r.measure == "bw" else "us" + (" one way" if r.op == "sendrecv" else "")
        for s in r.sizes:
            a, b = value(r, PAIRS[0], s), value(r, PAIRS[1], s)
            if "onepair" in r.key:
                b = math.nan
            rows.append([r.key[5:], fl.size_name(s), unit, r3(a, 4), r3(b, 4),
                         r3(b / a, 4) if a == a and b == b else "-"])
    fl.table("cmpi_all", ["run", "size", "unit", "pair 0 (host0)", "pair 1 (host2)", "pair 1 / 0"],
             rows, "cMPI study: every run and size, per pair (pair 0 host0 -> host1, pair 1 "
             "host2 -> host3; one pair alone: the pool cut to host0 and host1)")


def spread(runs, sizes):
    """Largest |pair 1 / pair 0 - 1| over RUNS and SIZES, %."""
    d = [abs(value(r, PAIRS[1], s) / value(r, PAIRS[0], s) - 1) for r in runs for s in sizes]
    return 100 * max(x for x in d if x == x)


def fig_put_bw(bw):
    cols = [(c, p) for c in ("nocache", "cache") for p in PROCS]
    runs = [bw[("put", c, p)] for c, p in cols]
    fl.table("fig_cmpi_put_bw", ["size"] + ["%s %d p" % (c, p) for c, p in cols],
             [[fl.size_name(s)] + [r3(value(r, "host0", s), 2) for r in runs] for s in BW_SIZES],
             "cMPI one-sided put bandwidth, GB/s (pair 0; software coherence, no host cache / "
             "1 MiB cache; p = processes per host)",
             ["Ceilings: %.2f GB/s without a cache (PCIe 4.0 x8 = %.2f GB/s x 64/(64 + %d)), "
              "%.2f with one (x 64/(64 + 2 x %d): a line's read for ownership and write-back "
              "both go upstream). "
              "Seed (M3): ~8.6 GB/s with 16 processes from 16 KB. Pair 1 within %.1f%%."
              % (CEIL, RAW, HDR, CEIL_RFO, HDR, spread(runs, BW_SIZES))])
    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, c, title, ceil in ((axes[0], "nocache", "no host cache", CEIL),
                               (axes[1], "cache", "1 MiB host cache", CEIL_RFO)):
        for i, p in enumerate(PROCS):
            ax.plot(BW_SIZES, curve(bw[("put", c, p)]), "o-", ms=3, color="C%d" % i,
                    label="%d process%s" % (p, "es" if p > 1 else ""))
        ax.axhline(ceil, color="C3", ls="--", lw=1, label="link ceiling %.2f GB/s" % ceil)
        ax.plot([16 << 10, BW_SIZES[-1]], [SEED_PUT] * 2, "k-", lw=2.5,
                label="seed, 16 processes (M3)")
        fl.log_y(ax)
        fl.size_axis(ax, BW_SIZES)
        ax.set_title("put bandwidth, software coherence, " + title)
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("bandwidth per pair (GB/s)")
    fig.tight_layout()
    fl.save(fig, "fig_cmpi_put_bw")


def saturation(r):
    return max(v for v in curve(r) if v == v)


def fig_sendrecv(bw, alone):
    keys = [(c, p) for c in ("nocache", "cache") for p in PROCS]
    rows = []
    for s in BW_SIZES:
        row = [fl.size_name(s)]
        for c in ("nocache", "cache"):
            put, sr = (value(bw[(op, c, 16)], "host0", s) for op in ("put", "sendrecv"))
            row += [r3(put, 2), r3(sr, 2), r3(sr / put, 3)]
        put, sr = value(alone["put"], "host0", s), value(alone["sendrecv"], "host0", s)
        rows.append(row + [r3(put, 2), r3(sr, 2), r3(sr / put, 3)])
    sat = {k: saturation(bw[("sendrecv",) + k]) / saturation(bw[("put",) + k]) for k in keys}
    sat1 = saturation(alone["sendrecv"]) / saturation(alone["put"])
    fl.table("fig_cmpi_sendrecv",
             ["size", "put", "sendrecv", "ratio", "put (cache)", "sendrecv (cache)",
              "ratio (cache)", "put (one pair)", "sendrecv (one pair)", "ratio (one pair)"], rows,
             "cMPI two-sided sendrecv vs one-sided put bandwidth, GB/s, 16 processes (pair 0; "
             "no host cache unless marked; one pair: the pool cut to host0 and host1)",
             ["Ratio at saturation (largest sendrecv / largest put over the sizes): " +
              ", ".join("%s %d p %.3f" % (c, p, sat[(c, p)]) for c, p in keys) +
              "; one pair alone (16 p, no cache) %.3f. Seed (M5): %.2f / %.1f = %.2f."
              % (sat1, SEED_SR, SEED_PUT, SEED_SR / SEED_PUT)])
    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.8))
    ax = axes[0]
    for c, ls in (("nocache", "-"), ("cache", "--")):
        for op, col in (("put", "C0"), ("sendrecv", "C1")):
            ax.plot(BW_SIZES, curve(bw[(op, c, 16)]), "o" + ls, ms=3, color=col,
                    label="%s, %s" % (op, "1 MiB cache" if c == "cache" else "no cache"))
    for op, col in (("put", "C0"), ("sendrecv", "C1")):
        ax.plot(BW_SIZES, curve(alone[op]), ":", color=col, lw=1.5, label="%s, one pair alone" % op)
    ax.plot([16 << 10, BW_SIZES[-1]], [SEED_PUT] * 2, "k-", lw=2.5, label="seed put (M3)")
    ax.plot([16 << 10, BW_SIZES[-1]], [SEED_SR] * 2, "k--", lw=2.5, label="seed sendrecv (M5)")
    fl.log_y(ax)
    ax.set_ylabel("bandwidth per pair (GB/s)")
    ax.set_title("16 processes per host")
    ax.legend(fontsize=6.5, loc="lower right")
    ax = axes[1]
    for c, ls in (("nocache", "-"), ("cache", "--")):
        for i, p in enumerate(PROCS):
            ax.plot(BW_SIZES, [a / b for a, b in zip(curve(bw[("sendrecv", c, p)]),
                                                     curve(bw[("put", c, p)]))],
                    "o" + ls, ms=3, color="C%d" % i,
                    label="%d p, %s" % (p, "1 MiB cache" if c == "cache" else "no cache"))
    ax.plot(BW_SIZES, [a / b for a, b in zip(curve(alone["sendrecv"]), curve(alone["put"]))], ":",
            color="C2", lw=1.5, label="16 p, one pair alone")
    ax.axhline(SEED_SR / SEED_PUT, color="k", ls="--", lw=1.5,
               label="seed %.2f (M5)" % (SEED_SR / SEED_PUT))
    ax.set_ylabel("sendrecv / put bandwidth")
    ax.set_title("two-sided / one-sided")
    ax.legend(fontsize=6.5, loc="upper left", ncol=2)
    for ax in axes:
        fl.size_axis(ax, BW_SIZES)
    fig.tight_layout()
    fl.save(fig, "fig_cmpi_sendrecv")


def device(bw, alone):
    """What the pool's DRAM sees in the 16-process runs, over the whole run."""
    runs = [bw[(op, c, 16)] for op in ("put", "sendrecv") for c in ("nocache", "cache")]
    rows = []
    for r in runs + [alone["put"], alone["sendrecv"]]:
        win, acc = r.window_ns() * 1e3, r.num("pool", "reads") + r.num("pool", "writes")
        busy = sum(r.num("pool", "ch%d_busy_ps" % i) for i in range(4)) / 4
        rows.append([r.key[8:], r3(r.summary["bandwidth_GBps"], 2),
                     r3(r.summary["latency_breakdown_ns"]["memory"], 0),
                     r3(100 * r.num("pool", "row_conflicts") / acc, 1), r3(100 * busy / win, 1)])
    fl.table("cmpi_device", ["run", "pool GB/s", "device ns per access", "row conflicts %",
                             "DRAM data bus busy %"], rows,
             "cMPI bandwidth runs, 16 processes: the pool device over the whole run (every size; "
             "summary.bandwidth_GBps, summary.latency_breakdown_ns.memory, the pool's counters)",
             ["Idle, the device takes memory.latency + one DRAM access (configs/cmpi-pool.cfg's "
              "header)."])


def fig_latency(lat):
    modes = tuple(MODES)
    cols = [(op, m) for op in ("put", "sendrecv") for m in modes]
    runs = [lat[k] for k in cols]
    fl.table("fig_cmpi_latency", ["size"] + ["%s %s" % k for k in cols],
             [[fl.size_name(s)] + [r3(value(r, "host0", s), 3) for r in runs] for s in LAT_SIZES],
             "cMPI latency, us (pair 0, one process): put (store + fence), sendrecv one way "
             "(half the ping-pong's round trip); software coherence without and with a 1 MiB "
             "host cache, HDM-DB (1 MiB cache)",
             ["Seed: ~%g us from 1 B to 16 KB one-sided (M4), two-sided below 64 KB (M6), then "
              "linear in size (the 64 KiB cell holds 64 KiB - 64 B). Pair 1 within %.1f%%."
              % (SEED_LAT, spread(runs, LAT_SIZES))])
    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    names = {"nocache": "software, no cache", "cache": "software, 1 MiB cache",
             "hdmdb": "HDM-DB, 1 MiB cache"}
    for ax, op, upto, title in (
            (axes[0], "put", 16 << 10, "put latency (osu_put_latency)"),
            (axes[1], "sendrecv", 32 << 10, "sendrecv one-way latency (osu_latency)")):
        for i, m in enumerate(modes):
            ax.plot(LAT_SIZES, curve(lat[(op, m)]), "o-", ms=3, color="C%d" % i, label=names[m])
        ax.plot([1, upto], [SEED_LAT] * 2, "k-", lw=2.5, label="seed ~12 us (%s)" %
                ("M4" if op == "put" else "M6"))
        ax.axvline(CELL, color="gray", ls=":", lw=1, label="64 KiB cell")
        fl.log_y(ax)
        fl.size_axis(ax, LAT_SIZES)
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("latency (us)")
    fig.tight_layout()
    fl.save(fig, "fig_cmpi_latency")


def fig_coherence(lat, get):
    modes = tuple(MODES)
    names = ["software, no cache", "software, 1 MiB cache", "HDM-DB, 1 MiB cache"]
    ops = [("put 64 B", [value(lat[("put", m)], "host0", 64) for m in modes]),
           ("get 64 B", [value(get[m], "host0", 64) for m in modes]),
           ("sendrecv 64 B, one way", [value(lat[("sendrecv", m)], "host0", 64) for m in modes])]
    fl.table("fig_cmpi_coherence", ["benchmark"] + names + ["software (cache) / HDM-DB"],
             [[o] + [r3(v, 4) for v in vals] + [r3(vals[1] / vals[2], 2)] for o, vals in ops],
             "cMPI coherence modes at 64 B, us (pair 0, one process)",
             ["Seed (Table 1, M1, M2): %.2f us with flushing (memset + flush) vs %.2f us with "
              "caching (MLC: a load that misses), %.1fx. cxlfab: put with a cache (store = read "
              "for ownership, flushopt = write-back, fence) / get with a cache (flushopt drops "
              "the line, the load misses) = %.2fx."
              % (SEED_FLUSH, SEED_CACHED, SEED_FLUSH / SEED_CACHED, ops[0][1][1] / ops[1][1][1])])
    fig, ax = fl.plt.subplots(figsize=(7.5, 3.8))
    w = 0.26
    for i, name in enumerate(names):
        bars = ax.bar([x + (i - 1) * w for x in range(len(ops))], [v[i] for _, v in ops], w,
                      color="C%d" % i, label=name)
        fl.bar_labels(ax, bars, "%.3g", 7)
    ax.axhline(SEED_FLUSH, color="k", ls="--", lw=1, label="seed, with flushing 2.2 us")
    ax.axhline(SEED_CACHED, color="k", ls=":", lw=1, label="seed, with caching 0.79 us")
    ax.set_xticks(range(len(ops)), [o for o, _ in ops])
    fl.log_y(ax)
    ax.set_ylim(0.005, 30)
    ax.set_ylabel("latency (us)")
    ax.set_title("software coherence vs HDM-DB (back-invalidation), 64 B")
    ax.legend(fontsize=7, loc="upper left", ncol=2)
    fig.tight_layout()
    fl.save(fig, "fig_cmpi_coherence")


def fig_uc(uc, lat):
    sw = curve(lat[("put", "cache")])
    fl.table("fig_cmpi_uc", ["size", "software (cache)", "software (no cache)"] +
             ["uc MPS %d" % m for m in MPS] + ["uc %d / software" % m for m in MPS],
             [[fl.size_name(s), r3(sw[i], 3), r3(value(lat[("put", "nocache")], "host0", s), 3)] +
              [r3(value(uc[m], "host0", s), 3) for m in MPS] +
              [r3(value(uc[m], "host0", s) / sw[i], 2) for m in MPS]
              for i, s in enumerate(LAT_SIZES)],
             "cMPI put latency, us: uncacheable (coherence = uc, TLPs of at most bus.max_payload, "
             "one at a time) vs software coherence (pair 0, one process)",
             ["Seed (M8): uncacheable 256x cflush above 2 KB, spikes beyond 4096 us, "
              "attributed to the MPS split."])
    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.8))
    for i, m in enumerate(MPS):
        u = curve(uc[m])
        axes[0].plot(LAT_SIZES, u, "o-", ms=3, color="C%d" % (i + 2),
                     label="uc, MPS %s%s" % (fl.size_name(m), " (default)" if m == 256 else ""))
        axes[1].plot(LAT_SIZES, [a / b for a, b in zip(u, sw)], "o-", ms=3, color="C%d" % (i + 2),
                     label="MPS " + fl.size_name(m))
    axes[0].plot(LAT_SIZES, sw, "k-", lw=1.5, label="software, 1 MiB cache (flushopt)")
    axes[0].plot(LAT_SIZES, curve(lat[("put", "nocache")]), "k:", lw=1.5,
                 label="software, no cache")
    axes[0].set_ylabel("put latency (us)")
    axes[0].set_title("put latency")
    axes[1].plot([2 << 10, 128 << 10], [SEED_UC] * 2, "k-", lw=2.5,
                 label="seed 256x above 2 KB (M8)")
    axes[1].set_ylabel("uc / software (1 MiB cache)")
    axes[1].set_title("uncacheable vs software coherence")
    for ax in axes:
        fl.log_y(ax)
        ax.axvline(2 << 10, color="gray", ls=":", lw=1, label="2 KiB")
        fl.size_axis(ax, LAT_SIZES)
        ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fl.save(fig, "fig_cmpi_uc")


def paper(bw, alone, lat, uc, get):
    """The seed's numbers beside ours (cmpi_paper.md; README's table)."""
    put16 = {c: saturation(bw[("put", c, 16)]) for c in ("nocache", "cache")}
    sr16 = {c: saturation(bw[("sendrecv", c, 16)]) for c in ("nocache", "cache")}
    knee = {c: next(s for s, v in zip(BW_SIZES, curve(bw[("put", c, 16)])) if v >= 0.95 * put16[c])
            for c in put16}
    small = [s for s in LAT_SIZES if s <= 16 << 10]
    lp = {m: curve(lat[("put", m)], small) for m in ("nocache", "cache")}
    ls = {m: curve(lat[("sendrecv", m)], [s for s in LAT_SIZES if s < CELL])
          for m in ("nocache", "cache")}
    sr = lat[("sendrecv", "nocache")]
    top = LAT_SIZES[-1]
    v32, v64, vtop = (value(sr, "host0", s) for s in (32 << 10, CELL, top))
    flush, cached = value(lat[("put", "cache")], "host0", 64), value(get["cache"], "host0", 64)

    def ratio(r, size):
        return value(r, "host0", size) / value(lat[("put", "cache")], "host0", size)
    uc2, uc128 = ratio(uc[256], 2 << 10), ratio(uc[256], 128 << 10)

    rows = [
        ["put bandwidth, 16 processes, saturated (M3)", "~8.6 GB/s from 16 KB",
         "%.2f GB/s no cache, %.2f with a 1 MiB cache (ceilings %.2f, %.2f); 95%% of it from %s, %s"
         % (put16["nocache"], put16["cache"], CEIL, CEIL_RFO, fl.size_name(knee["nocache"]),
            fl.size_name(knee["cache"]))],
        ["sendrecv bandwidth, 16 processes, saturated (M5)", "~6.05 GB/s",
         "%.2f GB/s no cache, %.2f with a cache" % (sr16["nocache"], sr16["cache"])],
        ["sendrecv / put at saturation (M5)", "%.2f (\"~30%% lower\")" % (SEED_SR / SEED_PUT),
         "%.2f no cache, %.2f with a cache; %.2f one pair alone"
         % (sr16["nocache"] / put16["nocache"], sr16["cache"] / put16["cache"],
            saturation(alone["sendrecv"]) / saturation(alone["put"]))],
        ["put latency, 1 B - 16 KB (M4)", "~12 us, flat",
         "%.2f - %.2f us no cache, %.2f - %.2f with a cache"
         % (min(lp["nocache"]), max(lp["nocache"]), min(lp["cache"]), max(lp["cache"]))],
        ["sendrecv one-way latency below 64 KB (M6)", "~12 us, flat",
         "%.2f - %.2f us no cache, %.2f - %.2f with a cache"
         % (min(ls["nocache"]), max(ls["nocache"]), min(ls["cache"]), max(ls["cache"]))],
        ["sendrecv latency from 64 KB (M6)", "rises linearly (64 KB + header needs 2 cells)",
         "%.1f us at 32 KiB, %.1f at 64 KiB, %.0f at %s (%.1f us per 64 KiB above)"
         % (v32, v64, vtop, fl.size_name(top), (vtop - v64) / (top // CELL - 1))],
        ["with flushing vs with caching (Table 1, M1, M2)", "2.2 us vs 0.79 us, 2.8x",
         "%.2f us (put 64 B: read for ownership, flushopt, fence) vs %.2f us (get 64 B: a miss), "
         "%.2fx" % (flush, cached, flush / cached)],
        ["uncacheable vs cflush above 2 KB (M8)", "256x; > 4096 us",
         "%.1fx at 2 KiB, %.1fx at 128 KiB (MPS 256 B; %.1fx, %.1fx at MPS 128 B); %.0f us at "
         "128 KiB, %.0f at %s" % (uc2, uc128, ratio(uc[128], 2 << 10), ratio(uc[128], 128 << 10),
                                  value(uc[256], "host0", 128 << 10), value(uc[256], "host0", top),
                                  fl.size_name(top))],
    ]
    fl.table("cmpi_paper", ["result", "seed 001 (§001.3)", "cxlfab (pair 0)"], rows,
             "cMPI: paper vs cxlfab")


if __name__ == "__main__":
    main()
