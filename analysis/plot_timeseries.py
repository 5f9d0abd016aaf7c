"""analysis/plot_timeseries.py - statistics over time: a run's
timeseries_summary.csv (simulation.sample_period; core/README.md, "Output")
as one figure, so warm-up and saturation can be seen.

Top: throughput (GB/s: the data of the requests answered in each period,
64 B each, so their count too); middle: latency mean, p50 and p99 (ns) of
those requests; bottom: bus utilisation (mean and max over the
transmitters) and switch-output occupancy (packets queued, mean over the
ports).  simulation.warmup, read from the run's config.cfg, is shaded; the
last period is drawn over its simulated part only (span_ps).

  python3 analysis/plot_timeseries.py RUN_DIR [RUN_DIR ...]
      draws RUN_DIR/timeseries.png for each finished run (cxlfab -o RUN_DIR
      ... --set simulation.sample_period=100ns)
  python3 analysis/plot_timeseries.py        (analysis/figures timeseries)
      runs the example below and draws out/figures/timeseries.png (+ .csv, .md)

The example: configs/spine_leaf.cfg with Gen 3 x1 links, so the fabric
saturates: 8 hosts x 1500 random reads, queue 16, sampled every 500 ns,
simulation.warmup = 10 us.
"""
import csv
import os
import re
import sys

import figlib as fl

EXAMPLE = ["simulation.sample_period=500ns", "simulation.warmup=10us", "bus.gen=3",
           "bus.lanes=1", "workload.requests=1500"]


def read_summary(run_dir):
    """The rows of RUN_DIR/timeseries_summary.csv as dicts of floats (None: empty cell)."""
    path = os.path.join(run_dir, "timeseries_summary.csv")
    if not os.path.exists(path):
        sys.exit("plot_timeseries: %s: no such file (was simulation.sample_period set?)" % path)
    with open(path) as f:
        return [{k: (float(v) if v != "" else None) for k, v in row.items()}
                for row in csv.DictReader(f)]


def warmup_ps(run_dir):
    """simulation.warmup of the run in ps, from its config.cfg (0 if absent)."""
    units = {"ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "s": 1e12}
    try:
        text = open(os.path.join(run_dir, "config.cfg")).read()
    except OSError:
        return 0.0
    group = re.search(r"^simulation\s*=\s*\{(.*?)^\};", text, re.S | re.M)
    m = group and re.search(r'^\s*warmup\s*=\s*"([0-9.]+)\s*(ps|ns|us|ms|s)"', group.group(1),
                            re.M)
    return float(m.group(1)) * units[m.group(2)] if m else 0.0


def col(rows, key, scale=1.0):
    return [r[key] * scale if r[key] is not None else float("nan") for r in rows]


def draw(rows, warm, title):
    """The figure: throughput, latency, utilisation and occupancy over time (us)."""
    rows = [r for r in rows if r["span_ps"]]
    t = [(r["time_ps"] + r["span_ps"] / 2) / 1e6 for r in rows]  # period middles, us
    fig, ax = fl.plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    ax[0].plot(t, col(rows, "throughput_GBps"), color="C0")
    ax[0].set_ylabel("throughput (GB/s)")
    for key, c in [("latency_mean_ns", "C0"), ("latency_p50_ns", "C2"), ("latency_p99_ns", "C3")]:
        ax[1].plot(t, col(rows, key), color=c, label=key.split("_")[1])
    ax[1].set_ylabel("latency (ns)")
    ax[1].legend(fontsize=7, loc="upper left")
    ax[2].plot(t, col(rows, "bus_util_mean"), color="C0", label="bus utilisation, mean")
    ax[2].plot(t, col(rows, "bus_util_max"), color="C0", ls="--", label="bus utilisation, max")
    ax[2].set_ylabel("utilisation")
    ax[2].set_ylim(0, 1.05)
    occ = ax[2].twinx()
    occ.plot(t, col(rows, "switch_occupancy_mean"), color="C1", label="switch output queue")
    occ.set_ylabel("packets queued per switch output")
    occ.grid(False)
    lines = ax[2].get_lines() + occ.get_lines()
    ax[2].legend(lines, [l.get_label() for l in lines], fontsize=7, loc="upper left")
    ax[2].set_xlabel("simulated time (us)")
    for a in ax:
        if warm > 0:
            a.axvspan(0, warm / 1e6, color="0.85", zorder=0)
    if warm > 0:
        ax[0].text(warm / 2e6, 0.95, "warm-up", transform=ax[0].get_xaxis_transform(),
                   ha="center", va="top", fontsize=8)
    fig.suptitle(title, y=1.0)
    fig.tight_layout()
    return fig


def plot_dir(run_dir):
    rows = read_summary(run_dir)
    fig = draw(rows, warmup_ps(run_dir), "%s: statistics over time" % run_dir)
    path = os.path.join(run_dir, "timeseries.png")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    fl.plt.close(fig)
    print("wrote", path)


def example():
    r = fl.Run("timeseries/spine_leaf-gen3x1", fl.cfg("spine_leaf.cfg"), EXAMPLE)
    fl.run_all([r])
    rows = read_summary(r.dir)
    keys = list(rows[0].keys())
    cell = lambda v: "" if v is None else int(v) if v.is_integer() else round(v, 4)
    fl.table("timeseries", keys, [[cell(v) for v in row.values()] for row in rows],
             "Statistics over time: configs/spine_leaf.cfg, Gen 3 x1, --set " + " ".join(EXAMPLE))
    fig = draw(rows, warmup_ps(r.dir), "spine_leaf, Gen 3 x1, 8 hosts x 1500 reads "
               "(sampled every 500 ns; warm-up shaded)")
    fl.save(fig, "timeseries")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        for d in sys.argv[1:]:
            plot_dir(d)
    else:
        example()
