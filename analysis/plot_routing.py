"""analysis/plot_routing.py - ESF Fig. 13: oblivious vs adaptive routing under
noisy neighbours (configs/noisy-neighbours.cfg: spine-leaf, 8 memories, 8
noisy neighbours with 64 reads outstanding each, host0 at a fixed rate).

fig13_routing: host0's bandwidth in port bandwidths (Gen 3 x1), (a) at the
  config's setting (one read per 200 ns, 16 outstanding) alone, oblivious and
  adaptive, (b) against its offered rate, (c) against the noise (the
  neighbours' queue depth; 0 = no neighbours), with the neighbours' own
  aggregate bandwidth.
Time-bounded (200 µs, simulation.warmup 20 µs): a requester's bandwidth is
its window_bytes (data received inside the window) / the window's length
(figlib.Run.req_bw); its latency covers every request issued inside the
window, those answered in the drain after the end included.
"""
import figlib as fl

CFG = fl.cfg("noisy-neighbours.cfg")
PBW = fl.port_bw(3, 1)
ROUTINGS = ["oblivious", "adaptive"]
INTERVALS = [1600, 800, 400, 267, 200, 133, 100]  # ns between host0's issues
NOISE = [0, 2, 4, 8, 16, 32, 64]                   # neighbours' queue depth (0: none)
NOISY = ["nn%d" % i for i in range(8)]


def run(routing, interval=200, noise=64):
    sets = ["switch.routing=" + routing, "workload[host0].issue_interval=%dns" % interval]
    sets += ["workload[nn*].requests=0"] if noise == 0 else ["workload[nn*].queue=%d" % noise]
    return fl.Run("routing/%s-i%d-q%d" % (routing, interval, noise), CFG, sets)


def main():
    runs = {}
    for r in ROUTINGS:
        for i in INTERVALS:
            runs[(r, i, 64)] = run(r, i, 64)
            runs[("oblivious", i, 0)] = run("oblivious", i, 0)  # alone: no neighbours
        for q in NOISE:
            runs[(r, 200, q)] = run(r, 200, q)
    fl.run_all(list(runs.values()))

    def host(k):
        return runs[k].req_bw("host0") / PBW

    def noisy(k):
        return sum(runs[k].req_bw(n) for n in NOISY) / PBW

    rows = []
    for (r, i, q), x in sorted(runs.items(), key=lambda kv: (kv[0][0], -kv[0][1], kv[0][2])):
        rows.append([r, i, round(64 / i / PBW, 3), q, round(host((r, i, q)), 3),
                     round(x.req_lat("host0"), 0), round(noisy((r, i, q)), 2)])
    fl.table("fig13_routing", ["routing", "host0 interval ns", "offered x port bw",
                               "noisy queue", "host0 x port bw", "host0 mean ns",
                               "noisy total x port bw"], rows,
             "ESF Fig. 13: host0's bandwidth under noisy neighbours (port bandwidth %.4f GB/s)"
             % PBW, ["Noisy queue 0 = no neighbours: host0 alone."])

    fig, ax = fl.plt.subplots(1, 3, figsize=(13, 3.6), gridspec_kw={"width_ratios": [0.7, 1, 1]})
    vals = [host(("oblivious", 200, 0)), host(("oblivious", 200, 64)), host(("adaptive", 200, 64))]
    bars = ax[0].bar(["alone", "oblivious", "adaptive"], vals, color=["0.6", "C3", "C0"])
    fl.bar_labels(ax[0], bars, "%.3f", 8)
    ax[0].axhline(64 / 200 / PBW, color="k", ls=":", lw=1, label="offered")
    ax[0].set_ylabel("host0 bandwidth / port bandwidth")
    ax[0].set_title("(a) one read / 200 ns, 8 noisy neighbours")
    ax[0].legend(fontsize=7, loc="lower right", framealpha=1)
    ax[0].set_ylim(0, 0.5)

    offered = [64 / i / PBW for i in INTERVALS]
    ax[1].plot(offered, offered, "k:", lw=1, label="offered")
    ax[1].plot(offered, [host(("oblivious", i, 0)) for i in INTERVALS], "o--", color="0.6",
               label="alone")
    for r, c in zip(ROUTINGS, ["C3", "C0"]):
        ax[1].plot(offered, [host((r, i, 64)) for i in INTERVALS], "o-", color=c, label=r)
    ax[1].set_xlabel("host0 offered rate / port bandwidth")
    ax[1].set_title("(b) host0's rate swept, neighbours at queue 64")
    ax[1].legend(fontsize=7)

    tw = ax[2].twinx()
    tw.grid(False)
    for r, c in zip(ROUTINGS, ["C3", "C0"]):
        ax[2].plot(NOISE, [host((r, 200, q)) for q in NOISE], "o-", color=c, label="host0, " + r)
        tw.plot(NOISE, [noisy((r, 200, q)) for q in NOISE], "s--", color=c, alpha=0.5,
                label="neighbours (sum), " + r)
    ax[2].set_xscale("symlog", linthresh=2)
    ax[2].set_xticks(NOISE, [str(q) for q in NOISE])
    ax[2].set_xlabel("neighbours' queue depth (0 = no neighbours)")
    ax[2].set_ylabel("host0 / port bandwidth")
    ax[2].set_ylim(0, 0.5)
    tw.set_ylim(0, 8)
    tw.set_ylabel("neighbours' sum / port bandwidth")
    ax[2].set_title("(c) noise swept, host0 at one read / 200 ns")
    h1, l1 = ax[2].get_legend_handles_labels()
    h2, l2 = tw.get_legend_handles_labels()
    ax[2].legend(h1 + h2, l1 + l2, fontsize=6.5, loc="center left")
    fig.suptitle("ESF Fig. 13: routing under noisy neighbours, spine-leaf, 2 spines (cxlfab)", y=1.02)
    fig.tight_layout()
    fl.save(fig, "fig13_routing")


if __name__ == "__main__":
    main()
