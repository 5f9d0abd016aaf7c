"""analysis/plot_rpc.py - seed 004 (Enzian/ECI, "Rethinking programmed I/O
for fast devices, cheap cores and coherent interconnects"): a host calls a
device over PIO on PCIe, descriptor DMA on PCIe, or PIO over a coherent link
with device-homed lines, with configs/coherent-rpc.cfg and the rpc
generator (models/host/rpc.c, models/device/README.md).  The seed's numbers
are those of /work/shared/seeds-digest.md §004.3 (R3, R4, R7), cited where
used.

Runs (one host, one process, one call at a time; payload 8 B - 8 KiB each
way, 20 measured calls per size after 2 unmeasured):
  pio            PCIe BAR writes (posted, 64 B write-combined) and 16-byte
                 non-posted reads
  dma            descriptor DMA with the preset's workload.rpc.dma_setup
                 (45 us of driver time per call, calibrated: the seed gives
                 no XDMA latency)
  dma-nosetup    the same without driver time: what the fabric costs
  coherent-excl  device-homed lines granted Exclusive (the preset)
  coherent-shr   granted Shared: the next call's store asks for ownership

fig_rpc_latency    median latency per call vs payload, the five curves, and
                   the seed's null RPC points (R3)
rpc_latency        mean, p50, p99 per transport and size
rpc_crossover      the crossover sizes (the largest size up to which a PIO
                   transport is faster than DMA) against the seed's (R7:
                   512 B for PCIe PIO, 4 KiB for ECI)

Cost: 5 runs, a few seconds each.
"""
import figlib as fl

CFG = fl.cfg("coherent-rpc.cfg")
SIZES = fl.pow2(8, 8 << 10)
COMMON = ["workload.rpc.count=20", "workload.rpc.warmup=2",
          "workload.rpc.sizes=" + ",".join(fl.size_name(s) for s in SIZES)]
RUNS = {
    "pio": ("PCIe PIO", ["workload.rpc.transport=pio"]),
    "dma": ("PCIe DMA (driver 45 us)", ["workload.rpc.transport=dma"]),
    "dma-nosetup": ("PCIe DMA (no driver time)", ["workload.rpc.transport=dma",
                                                  "workload.rpc.dma_setup=0ps"]),
    "coherent-excl": ("coherent, Exclusive", ["workload.rpc.transport=coherent",
                                              "workload.rpc.device=1"]),
    "coherent-shr": ("coherent, Shared", ["workload.rpc.transport=coherent",
                                          "workload.rpc.device=1",
                                          "device.coherent.grant=shared"]),
}
SEED_NULL = {"coherent-excl": 900, "coherent-shr": 1600}  # ns, R3 ("around")
SEED_CROSS = {"pio": 512, "coherent-excl": 4096}  # bytes, R7: PIO beats DMA below


def stat(r, size, field):
    """Host0's latency of calls of SIZE, field mean/p50/p99, in us."""
    return r.num("host0", "mark_rpc_%s_ps.%s" % (fl.size_name(size), field)) / 1e6


def crossover(r, dma):
    """The largest size up to which R's median is below DMA's at every size
    (None: not even at the smallest)."""
    last = None
    for s in SIZES:
        if stat(r, s, "p50") >= stat(dma, s, "p50"):
            break
        last = s
    return last


def main():
    runs = {k: fl.Run("rpc/" + k, CFG, COMMON + sets) for k, (_, sets) in RUNS.items()}
    fl.run_all(list(runs.values()))
    for k, r in runs.items():
        if r.num("host0", "cut_by_end") or not r.num("host0", "prog_done_ps"):
            raise SystemExit("figures: run rpc/%s did not finish" % k)
        for s in SIZES:
            if r.num("host0", "mark_rpc_%s_ps.count" % fl.size_name(s)) != 20:
                raise SystemExit("figures: run rpc/%s: not 20 calls of %s" % (k, fl.size_name(s)))
    rows = [[fl.size_name(s)] + ["%.3f / %.3f / %.3f" % tuple(stat(r, s, f) for f in
                                                                ("mean", "p50", "p99"))
                                 for r in runs.values()] for s in SIZES]
    fl.table("rpc_latency", ["payload"] + [RUNS[k][0] + " mean / p50 / p99 (us)" for k in runs],
             rows, "RPC latency per call, configs/coherent-rpc.cfg (one process, 20 calls "
             "per size)")
    cross = []
    for k in ("pio", "coherent-excl", "coherent-shr"):
        for dk in ("dma", "dma-nosetup"):
            c = crossover(runs[k], runs[dk])
            cross.append([RUNS[k][0], RUNS[dk][0], fl.size_name(c) if c else "never",
                          fl.size_name(SEED_CROSS[k]) if k in SEED_CROSS and dk == "dma"
                          else "-"])
    fl.table("rpc_crossover", ["transport", "against", "faster than DMA up to", "seed (R7)"],
             cross, "Crossover sizes: the largest payload (powers of two) up to which the "
             "transport's median call is faster than DMA's",
             ["DMA's driver time (45 us) is calibrated so that DMA sits where the seed's "
              "crossovers put it: with it the crossovers are an input, not a prediction; "
              "the no-driver rows show what the fabric alone gives."])
    fig, ax = fl.plt.subplots(figsize=(7, 4.2))
    for i, (k, r) in enumerate(runs.items()):
        ax.plot(SIZES, [stat(r, s, "p50") for s in SIZES], marker="o", ms=3, color="C%d" % i,
                ls="--" if k == "dma-nosetup" else "-", label=RUNS[k][0])
    for k, ns in SEED_NULL.items():
        ax.plot([SIZES[0]], [ns / 1e3], "x", ms=9, mew=2,
                color="C%d" % list(runs).index(k), label="seed null RPC, %s (R3)" % RUNS[k][0])
    fl.log_y(ax)
    fl.size_axis(ax, SIZES, "payload (bytes each way)")
    ax.set_ylabel("median latency per call (us)")
    ax.set_title("RPC to a device: PIO vs DMA vs coherent (seed 004)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fl.save(fig, "fig_rpc_latency")


if __name__ == "__main__":
    main()
