"""analysis/plot_topology.py - ESF Figs. 10, 11 and 12 from real runs.

fig10_topology_bandwidth: aggregate read bandwidth of chain, ring, tree,
  spine-leaf and fully-connected at system scales 8, 16, 32 (N/2 hosts and
  N/2 memories, one of each per edge switch; spine-leaf with one spine as in
  ESF's artifact), in port bandwidths, with ESF's stated levels as markers.
fig11_latency_by_hops: mean latency by hop count (summary.latency_by_hops:
  buses crossed, both ways) at scale 16, from the same runs.
fig12_iso_bisection: the same at scale 16 with topology.iso_bisection.
Setup as analysis/topology-study: Gen 3 x1 links, uniform random reads,
queue 64 per host, 2000 requests per host.  The first 500 per host are left
out of latency (workload.warmup); throughput is summary.bandwidth_GBps, the
data delivered from 0 to the last answer over that time (no time warm-up:
the start-up is a few µs of a window of hundreds, and a time warm-up would
weigh the tail, when some hosts are done, more; analysis/README.md).
"""
import figlib as fl

KINDS = ["chain", "ring", "tree", "spine_leaf", "fully_connected"]
LABEL = {"chain": "chain", "ring": "ring", "tree": "tree", "spine_leaf": "spine-leaf",
         "fully_connected": "fully conn."}
SCALES = [8, 16, 32]
COMMON = ["workload.queue=64", "workload.requests=2000", "workload.warmup=500",
          "bus.gen=3", "bus.lanes=1"]
PBW = fl.port_bw(3, 1)


def paper_level(kind, n):
    """ESF Fig. 10's stated level, port bandwidths, at system scale n (n/2 requesters)."""
    return {"chain": 1, "tree": 1, "ring": 2, "spine_leaf": n / 4, "fully_connected": n / 2}[kind]


def size(kind, n):
    h = n // 2
    if kind == "spine_leaf":
        return ["topology.leaves=%d" % h, "topology.spines=1"]
    return ["topology.switches=%d" % h, "topology.hosts=%d" % h, "topology.memories=%d" % h]


def hops(run):
    """[(hop count, requests, mean latency ns)] of a run."""
    by = run.summary["latency_by_hops"]
    return sorted((int(k), v["requests"], v["latency_ns"]["mean"]) for k, v in by.items())


def plot_hops(runs, name, title):
    fig, axes = fl.plt.subplots(1, 5, figsize=(13, 3.2), sharey=True)
    rows = []
    for ax, k in zip(axes, KINDS):
        h = hops(runs[k])
        bars = ax.bar([str(x[0]) for x in h], [x[2] / 1e3 for x in h],
                      color="C%d" % KINDS.index(k))
        fl.bar_labels(ax, bars, "%.1f", 7)
        ax.set_title(LABEL[k])
        ax.set_xlabel("buses crossed (round trip)")
        rows += [[k, x[0], x[1], round(x[2], 1)] for x in h]
    axes[0].set_ylabel("mean latency (µs)")
    fig.suptitle(title, y=1.03)
    fl.save(fig, name)
    return rows


def main():
    runs = {}
    for n in SCALES:
        for k in KINDS:
            runs[(k, n)] = fl.Run("topology/%s-%d" % (k, n), fl.cfg(k + ".cfg"), COMMON + size(k, n))
    for k in KINDS:
        runs[(k, "iso")] = fl.Run("topology/%s-16-iso" % k, fl.cfg(k + ".cfg"),
                                  COMMON + size(k, 16) + ["topology.iso_bisection=true"])
    fl.run_all(list(runs.values()))

    # Fig. 10
    rows = []
    for n in SCALES:
        for k in KINDS:
            bw = runs[(k, n)].summary["bandwidth_GBps"]
            rows.append([n, k, round(bw, 3), round(bw / PBW, 2), paper_level(k, n)])
    fl.table("fig10_topology_bandwidth", ["scale", "topology", "GB/s", "x port bw", "ESF level"],
             rows, "ESF Fig. 10: aggregate read bandwidth (port bandwidth %.4f GB/s, Gen 3 x1)" % PBW)
    fig, ax = fl.plt.subplots(figsize=(7.5, 3.8))
    w = 0.16
    for i, k in enumerate(KINDS):
        xs = [j + (i - 2) * w for j in range(len(SCALES))]
        ys = [runs[(k, n)].summary["bandwidth_GBps"] / PBW for n in SCALES]
        bars = ax.bar(xs, ys, w, label=LABEL[k], color="C%d" % i)
        fl.bar_labels(ax, bars, "%.1f", 6)
        ax.plot(xs, [paper_level(k, n) for n in SCALES], "k_", ms=9, mew=2,
                label="ESF's stated level" if i == 0 else None)
    ax.set_xticks(range(len(SCALES)), ["scale %d" % n for n in SCALES])
    ax.set_ylabel("aggregate bandwidth / port bandwidth")
    ax.set_title("ESF Fig. 10: bandwidth vs topology and system scale (cxlfab)")
    ax.legend(fontsize=7, ncol=3)
    fl.save(fig, "fig10_topology_bandwidth")

    # Figs. 11 and 12
    rows = plot_hops({k: runs[(k, 16)] for k in KINDS}, "fig11_latency_by_hops",
                     "ESF Fig. 11: mean latency by hop count, scale 16 (cxlfab)")
    fl.table("fig11_latency_by_hops", ["topology", "buses crossed", "requests", "mean ns"], rows,
             "ESF Fig. 11: latency by hop count at scale 16")
    rows = plot_hops({k: runs[(k, "iso")] for k in KINDS}, "fig12_iso_bisection",
                     "ESF Fig. 12: iso-bisection, mean latency by hop count, scale 16 (cxlfab)")
    fl.table("fig12_iso_bisection", ["topology", "buses crossed", "requests", "mean ns"], rows,
             "ESF Fig. 12: iso-bisection latency by hop count at scale 16")


if __name__ == "__main__":
    main()
