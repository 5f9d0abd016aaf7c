"""analysis/plot_traces.py - ESF Figs. 18/19: the ESF workload traces replayed
on the five topologies at system scale 16, as analysis/trace-study does:
each trace (ESF text) converted to .cxt and split round-robin over 8 hosts
(cxlfab-trace), replayed closed-loop with queue 64 on Gen 3 x1 links;
spine-leaf with one spine.

fig18_19_traces: throughput and mean latency normalised to chain, per
  trace, with ESF's stated averages as marks.  The traces are read from
  $ESF_TRACES (default ../shared/traces/esf); without them the figure is
  skipped with a message (exit 0).
"""
import glob
import os
import subprocess
import sys

import figlib as fl

KINDS = ["chain", "ring", "tree", "spine_leaf", "fully_connected"]
LABEL = ["chain", "ring", "tree", "spine-leaf", "fully conn."]
ESF = {"chain": (1, 1), "ring": (1.72, 0.57), "tree": (1, 1), "spine_leaf": (2.27, 0.44),
       "fully_connected": (3.63, 0.28)}  # (throughput, latency) vs chain; tree "like chain"
H = 8
TRACES = os.environ.get("ESF_TRACES", os.path.join(fl.ROOT, "..", "shared", "traces", "esf"))


def prepare(trace):
    """Convert and split one ESF trace; returns the per-host .cxt pattern."""
    name = os.path.basename(trace)[:-len(".trace")]
    d = os.path.join(fl.RUNS, "traces")
    os.makedirs(d, exist_ok=True)
    cxt, per_host = os.path.join(d, name + ".cxt"), os.path.join(d, name + ".%d.cxt")
    for cmd in ([fl.CXLFAB_TRACE, "convert", trace, cxt],
                [fl.CXLFAB_TRACE, "split", cxt, per_host, "--hosts", str(H), "--by", "roundrobin"]):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return name, per_host


def main():
    traces = sorted(glob.glob(os.path.join(TRACES, "*.trace")))
    if not traces:
        print("figures: no ESF traces in %s (set ESF_TRACES): Figs. 18/19 skipped" % TRACES)
        return
    runs = {}
    names = []
    for t in traces:
        name, per_host = prepare(t)
        names.append(name)
        for k in KINDS:
            size = (["topology.leaves=%d" % H, "topology.spines=1"] if k == "spine_leaf" else
                    ["topology.switches=%d" % H, "topology.hosts=%d" % H, "topology.memories=%d" % H])
            runs[(name, k)] = fl.Run("traces/%s-%s" % (name, k), fl.cfg(k + ".cfg"), size + [
                "workload.pattern=trace", "workload.trace=" + per_host, "workload.requests=0",
                "workload.queue=64", "bus.gen=3", "bus.lanes=1", "simulation.end=1s"])
    fl.run_all(list(runs.values()))

    def bw(n, k):
        return runs[(n, k)].summary["bandwidth_GBps"]

    def lat(n, k):
        return runs[(n, k)].summary["latency_ns"]["mean"]

    rows = [[n, k, round(bw(n, k), 3), round(lat(n, k), 0), round(bw(n, k) / bw(n, "chain"), 2),
             round(lat(n, k) / lat(n, "chain"), 2), ESF[k][0], ESF[k][1]] for n in names for k in KINDS]
    fl.table("fig18_19_traces", ["trace", "topology", "GB/s", "mean ns", "throughput / chain",
                                 "latency / chain", "ESF throughput", "ESF latency"], rows,
             "ESF Figs. 18/19: trace replay at scale 16 (%d requests per trace)"
             % runs[(names[0], "chain")].summary["requests"],
             ["ESF (averages over BTree, liblinear, redis, silo, XSBench; 1M accesses each): "
              "ring 1.72x / 0.57x, spine-leaf 2.27x / 0.44x, fully connected 3.63x / 0.28x; "
              "tree like chain."])

    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.6))
    w = 0.8 / len(names)
    for m, (ax, f, title) in enumerate(zip(axes, [bw, lat], ["Fig. 18: throughput",
                                                            "Fig. 19: mean latency"])):
        for i, n in enumerate(names):
            xs = [j + (i - (len(names) - 1) / 2) * w for j in range(len(KINDS))]
            bars = ax.bar(xs, [f(n, k) / f(n, "chain") for k in KINDS], w, label=n, color="C%d" % i)
            fl.bar_labels(ax, bars, "%.2f", 6)
        ax.plot(range(len(KINDS)), [ESF[k][m] for k in KINDS], "k_", ms=22, mew=2, ls="none",
                label="ESF (stated average)")
        ax.set_xticks(range(len(KINDS)), LABEL)
        ax.set_title(title + ", normalised to chain")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("relative to chain")
    fig.suptitle("ESF Figs. 18/19: ESF traces on five topologies, scale 16 (cxlfab)", y=1.02)
    fl.save(fig, "fig18_19_traces")


if __name__ == "__main__":
    sys.exit(main())
