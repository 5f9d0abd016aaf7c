"""analysis/figlib.py - what the analysis/plot_*.py scripts share.

Runs cxlfab ($CXLFAB) at most $JOBS at a time (default 2), each run in its own
folder under $FIG_OUT/runs/, and reads its stats.json and components.csv
(bandwidth and latency as the summary measures them: over the window
[simulation.warmup, end or last answer), models/fabric/README.md; a run's
summary.warnings are printed);
reads a host program's marks (models/host/README.md, "Host programs");
writes a figure's data as CSV and markdown beside its PNG in $FIG_OUT
(default out/figures); draws with matplotlib's Agg backend (size_axis: a
log2 axis of message sizes labelled 1B, 64KiB, 1MiB; log_y: a log axis
with plain tick labels).
"""
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXLFAB = os.environ.get("CXLFAB", os.path.join(ROOT, "bin", "cxlfab"))
CXLFAB_TRACE = os.environ.get("CXLFAB_TRACE", os.path.join(ROOT, "bin", "cxlfab-trace"))
OUT = os.environ.get("FIG_OUT", os.path.join(ROOT, "out", "figures"))
RUNS = os.path.join(OUT, "runs")
JOBS = max(1, int(os.environ.get("JOBS", "2")))
MTS = {1: 2500, 2: 5000, 3: 8000, 4: 16000, 5: 32000, 6: 64000}  # MT/s per lane

plt.rcParams.update({"figure.dpi": 110, "font.size": 9, "axes.grid": True,
                     "grid.alpha": 0.3, "axes.axisbelow": True})


def cfg(name):
    """Path of configs/NAME."""
    return os.path.join(ROOT, "configs", name)


def size_name(n):
    """A byte count as the cmpi generator names its mark classes: 1B, 64KiB, 8MiB."""
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return "%dB" % n


def pow2(lo, hi):
    """The powers of two from LO to HI, both included."""
    out = [lo]
    while out[-1] * 2 <= hi:
        out.append(out[-1] * 2)
    return out


def size_axis(ax, sizes, label="message size"):
    """A log2 x axis over SIZES (powers of two, bytes), every second one named."""
    ax.set_xscale("log", base=2)
    ticks = [s for s in sizes if (s.bit_length() - sizes[0].bit_length()) % 2 == 0]
    ax.set_xticks(ticks, [size_name(s) for s in ticks], rotation=45)
    ax.minorticks_off()
    ax.set_xlabel(label)


def log_y(ax):
    """A log y axis whose ticks read as plain numbers (0.01, 1, 100)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))


def port_bw(gen=3, lanes=1, header=20):
    """One link direction's data rate in GB/s for 64-byte lines (as topology-study)."""
    eff = 0.8 if gen <= 2 else (128 / 130 if gen <= 5 else 236 / 256)
    return MTS[gen] * lanes * eff / 8 / 1000 * 64 / (64 + header)


class Run:
    """One cxlfab run: KEY names its folder (runs/KEY), SETS are --set KEY=VALUE."""

    def __init__(self, key, config, sets=()):
        self.key, self.config, self.sets = key, config, list(sets)
        self.dir = os.path.join(RUNS, key)
        self.stats = self.summary = self.comp = self.types = None

    def num(self, component, stat):
        """A counter of components.csv (0 if absent)."""
        return self.comp.get((component, stat), 0.0)

    def of_type(self, kind):
        """Names of the components of type KIND (bus, host, switch, memory)."""
        return sorted(c for c, t in self.types.items() if t == kind)

    def mark(self, host, cls):
        """Host HOST's mark class CLS (a host program's `mark`): count,
        bytes, sum_ps (the intervals added up) and mean_ps."""
        m = {k: self.num(host, "mark_%s_%s" % (cls, k)) for k in ("count", "bytes", "sum_ps")}
        m["mean_ps"] = self.num(host, "mark_%s_ps.mean" % cls)
        return m

    def window_ns(self):
        """Length of the measurement window, ns (summary.window.length_ns):
        [simulation.warmup, W1), W1 = simulation.end for a time-bounded run,
        else the last answer (models/fabric/README.md, "Measurement")."""
        return self.summary["window"]["length_ns"]

    def req_bw(self, name):
        """Requester NAME's throughput, GB/s: the data it received inside the
        window (its window_bytes, whatever the requests' issue times) / the
        window's length, as summary.bandwidth_GBps is for the whole system."""
        length = self.window_ns()
        return self.num(name, "window_bytes") / length if length > 0 else 0.0

    def req_lat(self, name):
        """Requester NAME's mean read latency, ns: every read it issued inside
        the window (after its workload.warmup), answered in the drain or not."""
        return self.num(name, "lat_read_ps.mean") / 1e3


def _run(r):
    cmd = [CXLFAB, "-q", r.config, "-o", r.dir]
    for s in r.sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit("figures: run %s failed (exit %d): %s\n%s"
                 % (r.key, p.returncode, " ".join(cmd), p.stderr.strip()))
    with open(os.path.join(r.dir, "stats.json")) as f:
        r.stats = json.load(f)
    r.summary = r.stats["summary"]
    for w in r.summary.get("warnings", []):
        print("figures: run %s: warning: %s" % (r.key, w), file=sys.stderr)
    r.comp, r.types = {}, {}
    with open(os.path.join(r.dir, "components.csv")) as f:
        for row in csv.DictReader(f):
            r.types[row["component"]] = row["type"]
            try:
                r.comp[(row["component"], row["stat"])] = float(row["value"])
            except ValueError:
                pass
    return r


def run_all(runs):
    """Run every Run, at most JOBS at once; returns them loaded, in order."""
    os.makedirs(RUNS, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        return list(ex.map(_run, runs))


def table(name, header, rows, title="", notes=()):
    """Write NAME.csv and NAME.md (title, markdown table, notes) in OUT."""
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    md = []
    if title:
        md += [title, ""]
    md.append("| " + " | ".join(header) + " |")
    md.append("|" + "---|" * len(header))
    md += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    if notes:
        md += [""] + list(notes)
    text = "\n".join(md) + "\n"
    with open(os.path.join(OUT, name + ".md"), "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(os.path.join(OUT, name), ROOT) + ".{csv,md}")


def fmt(v):
    """A table cell: floats with at most 6 significant digits (round them first)."""
    return "%.6g" % v if isinstance(v, float) else str(v)


def save(fig, name):
    """Write the figure as OUT/NAME.png."""
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name + ".png")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    print("wrote", os.path.relpath(path, ROOT))


def bar_labels(ax, bars, form="%.2f", size=7):
    """Print each bar's value above it."""
    for b in bars:
        h = b.get_height()
        ax.annotate(form % h, (b.get_x() + b.get_width() / 2, h), ha="center", va="bottom",
                    fontsize=size, xytext=(0, 1), textcoords="offset points")
