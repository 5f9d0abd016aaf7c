"""analysis/plot_coherence.py - ESF Figs. 14 and 15: device-managed coherence.

fig14_sf_policy: configs/sf-policy.cfg for memory.dcoh.policy = fifo, lru,
  lfi, lifo, mru: bandwidth, mean latency and BISnps, normalised to FIFO,
  with the numbers ESF states (LIFO +5% / -15% / -16%, LFI -15% BISnps).
fig15_invblk: configs/invblk.cfg for memory.dcoh.invblk_max = 1..4:
  bandwidth, mean latency and the time requests waited for BIRsps
  (mem0's snoop_wait_ps), normalised to length 1.
Both configs as shipped (64000 hot/cold reads; 2 x 16000 streaming reads).
"""
import figlib as fl

POLICIES = ["fifo", "lru", "lfi", "lifo", "mru"]
LENGTHS = [1, 2, 3, 4]
# ESF §V-B as stated, normalised to FIFO: (policy, metric index) -> value
ESF14 = {("LIFO", 0): 1.05, ("LIFO", 1): 0.85, ("LIFO", 2): 0.84, ("LFI", 2): 0.85}


def panels(name, title, labels, cols, base, paper, note):
    """Three bar panels of cols (lists of values) normalised to index base."""
    metrics = ["bandwidth", "mean latency", cols[2][0]]
    fig, axes = fl.plt.subplots(1, 3, figsize=(11, 3.3))
    for m, ax in enumerate(axes):
        vals = [v / cols[m][1][base] for v in cols[m][1]]
        bars = ax.bar(labels, vals, color="C%d" % m)
        fl.bar_labels(ax, bars, "%.2f", 7)
        marks = [(labels.index(lab), v) for (lab, mm), v in paper.items() if mm == m]
        if marks:
            ax.plot([x for x, _ in marks], [v for _, v in marks], "k_", ms=14, mew=2,
                    ls="none", label="ESF (stated)")
        ax.set_title(metrics[m] if m < 2 else cols[2][0])
        ax.set_ylim(0, max(vals + [1.1]) * 1.15)
        ax.axhline(1, color="k", lw=0.6)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="lower right", framealpha=1)
    axes[0].set_ylabel("normalised to " + labels[base])
    fig.suptitle(title, y=1.02)
    fig.text(0.5, -0.04, note, ha="center", fontsize=8)
    fl.save(fig, name)


def main():
    sf = [fl.Run("coherence/sf-" + p, fl.cfg("sf-policy.cfg"), ["memory.dcoh.policy=" + p])
          for p in POLICIES]
    ib = [fl.Run("coherence/invblk-%d" % n, fl.cfg("invblk.cfg"), ["memory.dcoh.invblk_max=%d" % n])
          for n in LENGTHS]
    fl.run_all(sf + ib)

    bw = [r.summary["bandwidth_GBps"] for r in sf]
    lat = [r.summary["latency_ns"]["mean"] for r in sf]
    snp = [r.summary["bisnp"] for r in sf]
    fl.table("fig14_sf_policy", ["policy", "GB/s", "mean ns", "BISnps", "bw / FIFO",
                                 "latency / FIFO", "BISnps / FIFO"],
             [[p.upper(), round(bw[i], 2), round(lat[i], 1), int(snp[i]), round(bw[i] / bw[0], 3),
               round(lat[i] / lat[0], 3), round(snp[i] / snp[0], 3)] for i, p in enumerate(POLICIES)],
             "ESF Fig. 14: snoop-filter victim policies (configs/sf-policy.cfg)",
             ["ESF vs FIFO: LIFO bandwidth 1.05, latency 0.85, invalidations 0.84; "
              "LFI invalidations 0.85; LRU ~ FIFO, MRU ~ LIFO."])
    panels("fig14_sf_policy", "ESF Fig. 14: snoop-filter victim policies, normalised to FIFO (cxlfab)",
           [p.upper() for p in POLICIES],
           [("bandwidth", bw), ("latency", lat), ("BISnps (invalidations)", snp)], 0, ESF14,
           "bars: cxlfab; black marks: ESF's stated values (LIFO +5% bw, -15% latency, "
           "-16% invalidations; LFI -15% invalidations); ESF: LRU ~ FIFO, MRU ~ LIFO")

    bw = [r.summary["bandwidth_GBps"] for r in ib]
    lat = [r.summary["latency_ns"]["mean"] for r in ib]
    wait = [r.num("mem0", "snoop_wait_ps") / 1e9 for r in ib]
    snp = [r.summary["bisnp"] for r in ib]
    fl.table("fig15_invblk", ["InvBlk max", "GB/s", "mean ns", "BISnps", "BIRsp wait ms (sum)",
                              "bw / len 1", "latency / len 1", "wait / len 1"],
             [[n, round(bw[i], 2), round(lat[i], 1), int(snp[i]), round(wait[i], 2),
               round(bw[i] / bw[0], 3), round(lat[i] / lat[0], 3), round(wait[i] / wait[0], 3)]
              for i, n in enumerate(LENGTHS)],
             "ESF Fig. 15: InvBlk length (configs/invblk.cfg)",
             ["ESF: length 2 lowers the wait and latency and raises bandwidth; "
              "lengths 3-4 no better than 1 (no numbers stated)."])
    panels("fig15_invblk", "ESF Fig. 15: InvBlk length, normalised to length 1 (cxlfab)",
           ["len %d" % n for n in LENGTHS],
           [("bandwidth", bw), ("latency", lat), ("waiting for BIRsps", wait)], 0, {},
           "ESF (no numbers): length 2 best, lengths 3-4 no better than length 1; cxlfab: "
           "every length helps (a streaming requester never reuses an invalidated line)")


if __name__ == "__main__":
    main()
