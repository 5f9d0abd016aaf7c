"""analysis/plot_duplex.py - ESF Figs. 16 and 17: full vs half duplex.

One host - switch - one memory device (configs/esf-validation.cfg cut to
mem0, as analysis/topology-study duplex), Gen 3 x1, uniform random
requests, queue 64, 8000 per run (simulation.end 10 ms: every run ends when
its requests are answered) of which the first 2000 are left out of
latency (workload.warmup; throughput counts the whole run: the window
opens at 0 and closes at the last answer); read share 1.0 (R:W
1:0) down to 0.5 (1:1); bus.header_bytes 0, 16, 32, 64 (0 to = the 64-byte
payload); bus.duplex full and half.
fig16_duplex_bandwidth: bandwidth normalised to read-only per header.
fig17_duplex_utility: ESF's bus utility (busy time / elapsed, averaged over
  every transmission direction of every bus, idle directions included; half
  duplex has one transmitter per bus) and transmission efficiency (payload /
  wire bytes, summary.buses.efficiency).
"""
import figlib as fl

READS = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5]
MIX = ["1:0", "9:1", "4:1", "7:3", "3:2", "1:1"]
HEADERS = [0, 16, 32, 64]
DUPLEX = ["full", "half"]
COMMON = ["workload.queue=64", "workload.requests=8000", "workload.warmup=2000", "bus.gen=3",
          "bus.lanes=1", "topology.custom.memories=mem0", "topology.custom.links=host0 sw0,sw0 mem0",
          "simulation.end=10ms"]  # the config's 1 ms cut the slow points (half duplex, 64 B header) short


def utility(run, half):
    """ESF's bus utility: mean over every transmitter of busy / elapsed.  The
    busy counters cover the whole run and the window opens at 0 here (no
    simulation.warmup), so elapsed = the window: 0 .. the last answer."""
    w = run.summary["window"]
    assert w["start_ns"] == 0 and w["bounded_by"] == "requests", \
        "utility needs a window from 0 to the last answer (no simulation.warmup, no end cut)"
    span = w["end_ns"] * 1e3
    u = []
    for b in run.of_type("bus"):
        busy = [run.num(b, "busy_ps_d0"), run.num(b, "busy_ps_d1")]
        u += [sum(busy) / span] if half else [x / span for x in busy]
    return sum(u) / len(u)


def main():
    runs = {}
    for d in DUPLEX:
        for h in HEADERS:
            for r in READS:
                runs[(d, h, r)] = fl.Run("duplex/%s-h%d-r%.1f" % (d, h, r), fl.cfg("esf-validation.cfg"),
                                         COMMON + ["bus.duplex=" + d, "bus.header_bytes=%d" % h,
                                                   "workload.read_ratio=%.1f" % r])
    fl.run_all(list(runs.values()))

    def bw(k):
        return runs[k].summary["bandwidth_GBps"]

    rows = []
    for (d, h, r), x in runs.items():
        rows.append([d, h, MIX[READS.index(r)], round(bw((d, h, r)), 4),
                     round(bw((d, h, r)) / bw((d, h, 1.0)), 3), round(utility(x, d == "half"), 3),
                     round(x.summary["buses"]["efficiency"], 3)])
    fl.table("fig16_17_duplex", ["duplex", "header B", "R:W", "GB/s", "bw / read-only",
                                 "bus utility (ESF)", "transmission efficiency"], rows,
             "ESF Figs. 16/17: full vs half duplex, Gen 3 x1, one host - switch - memory",
             ["Additive header accounting predicts 1:1 / read-only = 2(1+h)/(1+2h) for header h "
              "(in payloads): 2.0 at h = 0, 1.33 at h = 1 (seeds digest, caveat C-1)."])

    # Fig. 16
    fig, axes = fl.plt.subplots(1, 2, figsize=(9.5, 3.4), sharey=True)
    for ax, d in zip(axes, DUPLEX):
        for i, h in enumerate(HEADERS):
            ax.plot(MIX, [bw((d, h, r)) / bw((d, h, 1.0)) for r in READS], "o-", color="C%d" % i,
                    label="header %d B (%.2g x payload)" % (h, h / 64))
        ax.set_title("%s duplex" % d)
        ax.set_xlabel("R:W mix")
    axes[0].plot([5, 5], [2.0, 1.0], "k_", ms=16, mew=2, ls="none",
                 label="ESF at 1:1: ~2x (header 0), ~1x (header = payload)")
    axes[1].axhline(1.0, color="k", ls=":", lw=1, label="ESF: almost constant")
    axes[0].set_ylabel("bandwidth / read-only bandwidth")
    axes[0].legend(fontsize=7)
    axes[1].legend(fontsize=7)
    fig.suptitle("ESF Fig. 16: bandwidth vs R:W mix and header overhead (cxlfab)", y=1.02)
    fl.save(fig, "fig16_duplex_bandwidth")

    # Fig. 17
    fig, axes = fl.plt.subplots(1, 3, figsize=(13, 3.4))
    for ax, d in zip(axes, DUPLEX):
        for i, h in enumerate(HEADERS):
            ax.plot(MIX, [utility(runs[(d, h, r)], d == "half") for r in READS], "o-",
                    color="C%d" % i, label="header %d B" % h)
        ax.set_title("bus utility, %s duplex" % d)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("R:W mix")
    axes[0].plot([0], [0.5], "k_", ms=16, mew=2, ls="none", label="ESF: 1:0, header 0 -> 0.5")
    axes[1].axhline(1.0, color="k", ls=":", lw=1, label="ESF: almost fully utilised")
    for i, h in enumerate(HEADERS):
        axes[2].plot(MIX, [runs[("full", h, r)].summary["buses"]["efficiency"] for r in READS],
                     "o-", color="C%d" % i, label="header %d B" % h)
    axes[2].set_title("transmission efficiency (payload / wire bytes)")
    axes[2].set_ylim(0, 1.05)
    axes[2].set_xlabel("R:W mix")
    for ax in axes:
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle("ESF Fig. 17: bus utility and transmission efficiency (cxlfab)", y=1.02)
    fl.save(fig, "fig17_duplex_utility")


if __name__ == "__main__":
    main()
