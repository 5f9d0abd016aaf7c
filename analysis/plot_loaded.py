"""analysis/plot_loaded.py - a loaded-latency curve (ESF Fig. 8's kind, Intel
MLC's loaded-latency mode) from configs/loaded-latency.cfg: ESF's validation
system (one host, one switch, four DDR5-4800 devices, PCIe 5.0 x16, Table III
latencies) with random reads.

fig8_loaded_latency: mean and p99 latency against achieved bandwidth as
  workload.issue_interval shrinks from 10 ns to 0, for 64, 256 and 1024
  reads outstanding, and for 1024 with the default credits (32 per port and
  VC), where requests wait for a credit before they issue.
Request-bounded (48000 reads): bandwidth is summary.bandwidth_GBps, the data
delivered from 0 to the last answer over that time; latency leaves out each
requester's first 8000 (the config's workload.warmup).
"""
import figlib as fl

CFG = fl.cfg("loaded-latency.cfg")
INTERVALS = [10000, 5000, 3000, 2000, 1600, 1500, 1450, 1400, 1350, 1300, 1250, 1200, 0]  # ps
CURVES = [("64 outstanding", ["workload.queue=64"]),
          ("256 outstanding", ["workload.queue=256"]),
          ("1024 outstanding", ["workload.queue=1024"]),
          ("1024, default credits (32)",
           ["workload.queue=1024", "memory.buffer=32", "switch.buffer=32", "bus.buffer=32"])]
LINK = fl.port_bw(5, 16)  # the host link's read-data ceiling, GB/s


def main():
    runs = {}
    for c, (name, sets) in enumerate(CURVES):
        for iv in INTERVALS:
            runs[(c, iv)] = fl.Run("loaded/c%d-%dps" % (c, iv), CFG,
                                   sets + ["workload.issue_interval=%dps" % iv])
    fl.run_all(list(runs.values()))

    rows = []
    for (c, iv), r in runs.items():
        lat = r.summary["latency_ns"]
        rows.append([CURVES[c][0], iv / 1000, round(64 / iv * 1000, 2) if iv else "max",
                     round(r.summary["bandwidth_GBps"], 2), round(lat["mean"], 1),
                     round(lat["p50"], 1), round(lat["p99"], 1)])
    fl.table("fig8_loaded_latency", ["curve", "issue interval ns", "offered GB/s", "GB/s",
                                     "mean ns", "p50 ns", "p99 ns"], rows,
             "Loaded latency: configs/loaded-latency.cfg (host link read ceiling %.1f GB/s)" % LINK)

    fig, axes = fl.plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, stat in zip(axes, ["mean", "p99"]):
        for c, (name, _) in enumerate(CURVES):
            pts = [(runs[(c, iv)].summary["bandwidth_GBps"],
                    runs[(c, iv)].summary["latency_ns"][stat]) for iv in INTERVALS]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-" if c < 3 else "s--",
                    color="C%d" % c, ms=4, label=name)
        ax.axvline(LINK, color="k", ls=":", lw=1, label="PCIe 5.0 x16 read ceiling")
        ax.set_xlabel("achieved read bandwidth (GB/s)")
        ax.set_title("%s latency" % stat)
    axes[0].set_ylabel("latency (ns)")
    axes[0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Loaded latency: 1 host, 1 switch, 4 DDR5-4800 devices, issue interval 10 ns .. 0 "
                 "(cxlfab)", y=1.02)
    fl.save(fig, "fig8_loaded_latency")


if __name__ == "__main__":
    main()
