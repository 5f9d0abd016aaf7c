"""analysis/plot_pcie.py - the PCIe seed's Fig. 9(b)-(d) (Alian et al., gem5
PCIe model) with configs/pcie-replay.cfg as shipped (root -Gen2 x4- switch
-Gen2 x1..x8- device, replay buffer 4, 16-packet port buffers, refuse on
full, 20000 streaming reads with 64 outstanding).

fig9_pcie_replay: throughput (summary bandwidth x 8, Gbit/s) and the share
  of the packets the device link sends upstream that are replays
  (sw-dev replayed_ppm_d1 / 10^4), (b) against the device link's width,
  (c) against the replay buffer at x8, (d) against the switch's port buffer
  at x8 with 64 and 48 reads outstanding; the seed's numbers as black marks.
"""
import figlib as fl

CFG = fl.cfg("pcie-replay.cfg")
WIDTHS = [1, 2, 4, 8]
REPLAY = [1, 2, 3, 4]
PORTBUF = [16, 20, 24, 28, 40]
QUEUES = [64, 48]
BUS = "sw-dev"


def run(key, sets):
    return fl.Run("pcie/" + key, CFG, sets)


def gbit(r):
    return r.summary["bandwidth_GBps"] * 8


def replay_pct(r):
    return r.num(BUS, "replayed_ppm_d1") / 1e4


def panel(ax, labels, groups, title, xlabel, seed_bw=None, seed_rp=None):
    """Bars of throughput per group (name, runs) with replay % on a twin axis."""
    tw = ax.twinx()
    tw.grid(False)
    n = len(groups)
    w = 0.8 / n
    xs = range(len(labels))
    for g, (name, runs) in enumerate(groups):
        pos = [x + (g - (n - 1) / 2) * w for x in xs]
        bars = ax.bar(pos, [gbit(r) for r in runs], w, color="C%d" % g, alpha=0.75,
                      label="Gbit/s" + name)
        fl.bar_labels(ax, bars, "%.1f", 7)
        tw.plot(pos, [replay_pct(r) for r in runs], "o-", color="C%d" % (g + 3),
                label="replays, % of sent" + name)
    if seed_bw:
        ax.plot([labels.index(k) for k in seed_bw], list(seed_bw.values()), "k_", ms=16, mew=2,
                ls="none", label="seed Gbit/s")
    if seed_rp:
        tw.plot([labels.index(k) for k in seed_rp], list(seed_rp.values()), "kx", ms=8, mew=2,
                ls="none", label="seed replays / timeouts %")
    ax.set_xticks(list(xs), labels)
    ax.set_xlabel(xlabel)
    ax.set_ylim(0, 14)
    tw.set_ylim(0, 40)
    tw.set_ylabel("replays, % of packets sent upstream")
    ax.set_title(title)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = tw.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.2),
              ncol=2)
    return tw


def main():
    width = [run("w%d" % w, ["bus[sw-dev].lanes=%d" % w]) for w in WIDTHS]
    rbuf = [run("r%d" % n, ["bus[sw-dev].lanes=8", "bus.replay_buffer=%d" % n]) for n in REPLAY]
    pbuf = {q: [run("p%d-q%d" % (p, q), ["bus[sw-dev].lanes=8", "switch.buffer=%d" % p,
                                          "workload.queue=%d" % q]) for p in PORTBUF]
            for q in QUEUES}
    fl.run_all(width + rbuf + pbuf[64] + pbuf[48])

    def row(sweep, value, r, q=64):
        return [sweep, value, q, round(gbit(r), 3), int(r.num(BUS, "replays_d1")),
                round(replay_pct(r), 1), int(r.num(BUS, "replay_timeouts_d1"))]
    rows = [row("device link width", "x%d" % w, r) for w, r in zip(WIDTHS, width)]
    rows += [row("replay buffer (x8)", n, r) for n, r in zip(REPLAY, rbuf)]
    rows += [row("port buffer (x8)", p, r, q) for q in QUEUES for p, r in zip(PORTBUF, pbuf[q])]
    fl.table("fig9_pcie_replay", ["sweep", "value", "reads outstanding", "Gbit/s", "replays",
                                  "% of sent", "timeouts"], rows,
             "PCIe seed Fig. 9(b)-(d): configs/pcie-replay.cfg, device link sw-dev upstream",
             ["Seed: x1 ~3 Gbit/s (3.072 per sector), x2 1.67 x x1, a drop at x8 with 27% replayed "
              "(x2, x4 ~0); replay buffer 1/2/3/4: 0/6/~27/~27% timeouts, 1-2 faster; port buffer "
              "16/20/24/28: 27/20/0/0% timeouts, saturating at ~5.08 Gbit/s."])

    fig, axes = fl.plt.subplots(1, 3, figsize=(14, 3.8))
    panel(axes[0], ["x%d" % w for w in WIDTHS], [("", width)], "(b) device link width",
          "sw-dev lanes (Gen 2)", {"x1": 3.072, "x2": 1.67 * 3.072}, {"x2": 0, "x4": 0, "x8": 27})
    panel(axes[1], [str(n) for n in REPLAY], [("", rbuf)], "(c) replay buffer, x8",
          "replay buffer (TLPs)", None, {"1": 0, "2": 6, "3": 27, "4": 27})
    panel(axes[2], [str(p) for p in PORTBUF], [(" (%d out)" % q, pbuf[q]) for q in QUEUES],
          "(d) port buffer, x8", "switch port buffer (packets)", {"24": 5.08, "28": 5.08},
          {"16": 27, "20": 20, "24": 0, "28": 0})
    for ax in axes:
        ax.set_ylabel("throughput (Gbit/s)")
    fig.suptitle("PCIe seed Fig. 9(b)-(d): link width, replay buffer, port buffer (cxlfab)", y=1.02)
    fig.tight_layout()
    fl.save(fig, "fig9_pcie_replay")


if __name__ == "__main__":
    main()
