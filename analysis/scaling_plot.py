#!/usr/bin/python3
"""analysis/scaling_plot.py - tables, CSV and plots of how cxlfab runs scale.

Reads the stats.json of finished runs (and, optionally, the partition.json of
`cxlfab --partition-only` runs and the profile.json of `cxlfab --profile-ranks`
runs), prints a table of medians per (partitioner, ranks), the partition
quality and the predictions, and writes in OUT: scaling.csv (one row per run),
scaling_medians.csv, partition.csv, prediction.csv, scaling.png, partition.png
and prediction.png.  Usually called by analysis/scaling; usable alone:

  analysis/scaling_plot.py -o OUT [--cores N] [--no-plot]
      [--partitions DIR...] [--profiles DIR...] --runs DIR...

A run is oversubscribed when its folder holds scaling.meta.json saying so
(analysis/scaling writes it) or, with --cores N, when it used more than N
ranks.  Runs are grouped by system: the effective config.cfg of the run (the
partitioner is not part of it), so runs of several configs can be mixed.
"""
import argparse
import csv
import hashlib
import json
import os
import signal
import statistics
import sys

RUN_FIELDS = ["system", "config", "partitioner", "ranks", "round", "oversubscribed",
              "wall_s", "loop_s", "events", "events_per_s", "events_per_s_per_rank",
              "speedup", "efficiency", "windows", "events_per_window", "mpi_wait_s",
              "mpi_wait_share", "event_imbalance", "peak_rss_max_bytes", "sim_time_ps",
              "sim_ns_per_wall_s", "lookahead_ps", "edge_cut", "remote_events", "identical", "dir"]
MEDIAN_FIELDS = ["wall_s", "loop_s", "events_per_s", "events_per_s_per_rank", "speedup",
                 "efficiency", "windows", "events_per_window", "mpi_wait_s",
                 "mpi_wait_share", "event_imbalance", "peak_rss_max_bytes", "sim_ns_per_wall_s"]
COLOURS = {"block": "C0", "metis": "C1", "roundrobin": "C2"}
PART_FIELDS = ["partitioner", "ranks", "ran", "edge_cut", "cut_fraction", "links",
               "imbalance", "imbalance_floor", "lookahead_ps", "cut_below_floor",
               "empty_ranks", "components_min", "components_max", "dir"]


def find(dirs, name):
    out = []
    for d in dirs:
        if os.path.isfile(d) and os.path.basename(d) == name:
            out.append(d)
            continue
        for top, subdirs, files in os.walk(d):
            subdirs.sort()
            if name in files:
                out.append(os.path.join(top, name))
    return sorted(set(out))


def results_text(path):
    """The summary and components of a stats.json, as text (byte comparison)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i = text.find('\n  "summary": {')
    return text[i:] if i >= 0 else None


def system_of(run_dir, stats):
    """Identity of the simulated system: the effective config, else config + seed + end."""
    cfg = os.path.join(run_dir, "config.cfg")
    if os.path.isfile(cfg):
        with open(cfg, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:8]
    r = stats["run"]
    key = "%s %s %s %s" % (r.get("config"), r.get("config_sha256"), r.get("seed"), r.get("end_ps"))
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def load_runs(dirs, cores):
    runs = []
    for path in find(dirs, "stats.json"):
        d = os.path.dirname(path)
        try:
            with open(path, encoding="utf-8") as f:
                st = json.load(f)
            r = st["run"]
        except (OSError, ValueError, KeyError) as e:
            print("scaling: skipping %s: %s" % (path, e), file=sys.stderr)
            continue
        meta = {}
        mp = os.path.join(d, "scaling.meta.json")
        if os.path.isfile(mp):
            with open(mp, encoding="utf-8") as f:
                meta = json.load(f)
        n = int(r["ranks"])
        if "oversubscribed" in meta:
            over = bool(meta["oversubscribed"])
        elif cores:
            over = n > cores
        else:
            over = None  # unknown
        wall = float(r["wall_s"])
        row = {
            "system": system_of(d, st), "config": r.get("config", ""),
            "partitioner": r.get("partitioner", ""), "ranks": n,
            "round": meta.get("round", ""), "oversubscribed": over,
            "wall_s": wall, "loop_s": float(r["loop_s"]), "events": int(r["events"]),
            "events_per_s": float(r["events_per_s"]),
            "events_per_s_per_rank": float(r["events_per_s"]) / n,
            "windows": int(r["windows"]), "events_per_window": float(r["events_per_window"]),
            "mpi_wait_s": float(r["mpi_wait_s"]),
            "mpi_wait_share": float(r["mpi_wait_s"]) / wall if wall > 0 else 0.0,
            "peak_rss_max_bytes": max(r["peak_rss_bytes"]),
            "event_imbalance": imbalance(r.get("events_per_rank")),
            "sim_time_ps": int(r["sim_time_ps"]),
            "sim_ns_per_wall_s": int(r["sim_time_ps"]) / 1000.0 / wall if wall > 0 else 0.0,
            "lookahead_ps": r.get("lookahead_ps"), "edge_cut": r.get("edge_cut"),
            "remote_events": r.get("remote_events"), "dir": d,
            "_results": results_text(path),
        }
        runs.append(row)
    return runs


def imbalance(per_rank):
    """max/mean - 1 of the events each rank executed (the load it really had)."""
    if not per_rank or sum(per_rank) == 0:
        return None
    return max(per_rank) / (sum(per_rank) / len(per_rank)) - 1


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def analyse(runs):
    """Speedup, efficiency, determinism; medians per (system, partitioner, ranks)."""
    systems = {}
    for r in runs:
        systems.setdefault(r["system"], []).append(r)
    meds = []
    for sysid, rs in systems.items():
        ref = rs[0]["_results"]
        for r in rs:
            r["identical"] = r["_results"] == ref
        base_n = min(r["ranks"] for r in rs)
        base = median([r["events_per_s"] for r in rs if r["ranks"] == base_n])
        for r in rs:
            r["speedup"] = r["events_per_s"] / base
            r["efficiency"] = r["speedup"] * base_n / r["ranks"]
        parts = sorted({r["partitioner"] for r in rs if r["ranks"] > base_n}) or \
            sorted({r["partitioner"] for r in rs})
        for p in parts:
            # the base rank count (1: the partitioner does not matter) starts every line
            pts = sorted({r["ranks"] for r in rs if r["partitioner"] == p or r["ranks"] == base_n == 1})
            for n in pts:
                sel = [r for r in rs if r["ranks"] == n and (r["partitioner"] == p or n == base_n == 1)]
                m = {"system": sysid, "config": sel[0]["config"], "partitioner": p, "ranks": n,
                     "runs": len(sel), "oversubscribed": any(r["oversubscribed"] for r in sel)
                     if all(r["oversubscribed"] is not None for r in sel) else None,
                     "identical": all(r["identical"] for r in sel)}
                for f in MEDIAN_FIELDS:
                    m[f] = median([r[f] for r in sel])
                m["events"] = sel[0]["events"]
                m["lookahead_ps"] = sel[0]["lookahead_ps"]
                meds.append(m)
    return systems, meds


def load_partitions(dirs):
    rows = []
    for path in find(dirs, "partition.json"):
        with open(path, encoding="utf-8") as f:
            pj = json.load(f)
        cpr = pj.get("components_per_rank") or [0]
        rows.append({
            "partitioner": pj["method"], "ranks": int(pj["ranks"]),
            "edge_cut": pj["edge_cut"], "cut_fraction": pj["cut_fraction"], "links": pj["links"],
            "imbalance": pj["imbalance"], "imbalance_floor": pj["imbalance_floor"],
            "lookahead_ps": pj["lookahead_ps"], "cut_below_floor": pj.get("cut_below_floor"),
            "empty_ranks": pj.get("empty_ranks"), "components_min": min(cpr),
            "components_max": max(cpr), "dir": os.path.dirname(path)})
    rows.sort(key=lambda r: (r["ranks"], r["partitioner"]))
    return rows


def fmt_time_ps(ps):
    if ps is None:
        return "none"
    for unit, div in (("us", 10**6), ("ns", 10**3)):
        if ps >= div and ps % div == 0:
            return "%d%s" % (ps // div, unit)
    return "%dps" % ps


def mib(b):
    return "%.1f MiB" % (b / 1048576.0)


def over_note(o):
    return "oversubscribed: timing not meaningful" if o else ""


def print_runs(systems, meds):
    for sysid, rs in systems.items():
        ms = [m for m in meds if m["system"] == sysid]
        nruns = len(rs)
        print("%s (system %s): %d events, last at %.3f us, %d run(s)" % (
            rs[0]["config"], sysid, rs[0]["events"], rs[0]["sim_time_ps"] / 1e6, nruns))
        hdr = ("ranks", "partition", "runs", "wall s", "loop s", "events/s", "/rank",
               "speedup", "eff.", "windows", "ev/window", "MPI wait", "ev.imbal", "RSS/rank",
               "sim ns/wall s", "")
        fmt = "%5s %-10s %4s %8s %8s %9s %9s %7s %6s %8s %10s %8s %8s %10s %13s  %s"
        print(fmt % hdr)
        shown = set()
        for m in ms:
            if m["ranks"] == 1 and 1 in shown:
                continue  # 1 rank starts every partitioner's line: print it once
            shown.add(m["ranks"])
            print(fmt % (m["ranks"], m["partitioner"] if m["ranks"] > 1 else "-", m["runs"],
                         "%.3f" % m["wall_s"], "%.3f" % m["loop_s"],
                         "%.2f M" % (m["events_per_s"] / 1e6),
                         "%.2f M" % (m["events_per_s_per_rank"] / 1e6),
                         "%.2f" % m["speedup"], "%.2f" % m["efficiency"], "%d" % m["windows"],
                         "%.0f" % m["events_per_window"], "%.0f%%" % (100 * m["mpi_wait_share"]),
                         "%.1f%%" % (100 * m["event_imbalance"]) if m["event_imbalance"] is not None
                         else "-",
                         mib(m["peak_rss_max_bytes"]), "%.0f" % m["sim_ns_per_wall_s"],
                         over_note(m["oversubscribed"])))
        same = sum(1 for r in rs if r["identical"])
        print("results (summary, components) identical across runs: %d of %d%s" % (
            same, nruns, "" if same == nruns else "  <-- DIFFER: a bug"))
        print()


def print_partitions(parts, ran):
    if not parts:
        return
    print("partition quality (cxlfab --partition-only -n N; imbalance = max/mean - 1 of the expected load;")
    print("floor = the imbalance no partition of these components can avoid; lookahead = least cut link latency)")
    fmt = "%6s %-10s %10s %7s %10s %8s %9s %12s %6s  %s"
    print(fmt % ("ranks", "partition", "edge cut", "cut", "imbalance", "floor", "lookahead",
                 "comp/rank", "empty", ""))
    for p in parts:
        print(fmt % (p["ranks"], p["partitioner"], p["edge_cut"], "%.1f%%" % (100 * p["cut_fraction"]),
                     "%.2f%%" % (100 * p["imbalance"]), "%.2f%%" % (100 * p["imbalance_floor"]),
                     fmt_time_ps(p["lookahead_ps"]),
                     "%d-%d" % (p["components_min"], p["components_max"]), p["empty_ranks"],
                     "run" if (p["partitioner"], p["ranks"]) in ran else "not run (partition only)"))
    print()


def write_csv(path, fields, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in fields})


def plot_runs(path, systems, meds, cores):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("wall_s", "wall time (s)", False),
              ("events_per_s_per_rank", "events/s per rank (millions)", False),
              ("efficiency", "parallel efficiency", False), ("windows", "windows", True),
              ("events_per_window", "events per window (all ranks)", True),
              ("mpi_wait_share", "MPI wait / wall", False)]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    ranks_all = sorted({m["ranks"] for m in meds})
    markers = "osD^v<>"
    lines = sorted({(m["system"], m["partitioner"]) for m in meds})
    for ax, (key, label, logy) in zip(axes.flat, panels):
        for i, (sysid, p) in enumerate(lines):
            ms = sorted((m for m in meds if m["system"] == sysid and m["partitioner"] == p),
                        key=lambda m: m["ranks"])
            xs = [m["ranks"] for m in ms]
            ys = [m[key] / (1e6 if key == "events_per_s_per_rank" else 1) for m in ms]
            name = p if len(systems) == 1 else "%s %s" % (os.path.basename(ms[0]["config"]), p)
            colour = COLOURS.get(p, "C%d" % (3 + i)) if len(systems) == 1 else "C%d" % i
            ln, = ax.plot(xs, ys, "-", marker=markers[i % len(markers)], label=name, color=colour)
            for m, y in zip(ms, ys):  # hollow markers: oversubscribed
                if m["oversubscribed"]:
                    ax.plot([m["ranks"]], [y], marker=markers[i % len(markers)], markersize=9,
                            markerfacecolor="white", markeredgecolor=ln.get_color(), linestyle="none")
        if key in ("wall_s", "events_per_s_per_rank"):
            ax.set_ylim(bottom=0)
        if key == "efficiency":
            ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
            ax.set_ylim(bottom=0)
        if key == "mpi_wait_share":
            ax.set_ylim(0, 1)
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks_all)
        ax.set_xticklabels([str(n) for n in ranks_all])
        if logy:
            ax.set_yscale("log")
        lo, hi = min(ranks_all) / 1.3, max(ranks_all) * 1.3
        ax.set_xlim(lo, hi)
        if cores and cores < max(ranks_all):  # oversubscribed: beyond the cores
            ax.axvspan(cores * 2 ** 0.5, hi, color="0.92", zorder=0)
        ax.set_xlabel("ranks")
        ax.set_title(label)
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    cfgs = ", ".join(sorted({os.path.basename(m["config"]) for m in meds}))
    title = "cxlfab scaling: %s (medians)" % cfgs
    if cores:
        title += "; shaded / hollow: more ranks than the %d cores (oversubscribed, timing not meaningful)" % cores
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_partitions(path, parts):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for p in sorted({r["partitioner"] for r in parts}):
        rs = [r for r in parts if r["partitioner"] == p]
        xs = [r["ranks"] for r in rs]
        c = COLOURS.get(p)
        axes[0].plot(xs, [100 * r["cut_fraction"] for r in rs], "-o", label=p, color=c)
        axes[1].plot(xs, [100 * r["imbalance"] for r in rs], "-o", label=p, color=c)
    floor = sorted({(r["ranks"], r["imbalance_floor"]) for r in parts})
    if any(f for _, f in floor):
        axes[1].plot([n for n, _ in floor], [100 * f for _, f in floor], "k:", label="floor")
    ticks = sorted({r["ranks"] for r in parts})
    for ax, t in zip(axes, ("edge cut (% of links)", "imbalance (%, max/mean - 1)")):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(n) for n in ticks])
        ax.set_xlabel("ranks")
        ax.set_title(t)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[1].set_yscale("symlog", linthresh=1)
    axes[1].set_ylim(bottom=0)
    axes[0].set_ylim(0, 100)
    fig.suptitle("partition quality (cxlfab --partition-only)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


PRED_FIELDS = ["partitioner", "ranks", "windows", "events_per_window", "lookahead_ps",
               "edge_cut", "remote_events", "neighbours_max", "ceiling_speedup",
               "predicted_loop_s", "predicted_speedup", "predicted_efficiency",
               "measured_runs", "measured_windows", "measured_loop_s", "measured_speedup",
               "measured_efficiency", "oversubscribed", "event_ns", "net", "dir"]


def load_profiles(dirs, meds):
    """One row per (partitioner, ranks) of every profile.json, with the measured medians."""
    rows = []
    for path in find(dirs, "profile.json"):
        with open(path, encoding="utf-8") as f:
            prof = json.load(f)
        net = prof["net"]
        for r in prof["results"]:
            pr = r["predicted"]
            row = {"partitioner": prof["partitioner"], "ranks": r["ranks"],
                   "windows": r["windows"], "events_per_window": r["events_per_window"],
                   "lookahead_ps": r["lookahead_ps"], "edge_cut": r["edge_cut"],
                   "remote_events": r["remote_events"], "neighbours_max": r["neighbours"]["max"],
                   "ceiling_speedup": r["ceiling_speedup"], "predicted_loop_s": pr["loop_s"],
                   "predicted_speedup": pr["speedup"], "predicted_efficiency": pr["efficiency"],
                   "event_ns": prof["event_ns"], "dir": os.path.dirname(path),
                   "net": "%gus,%gGB/s,%gus" % (net["message_us"], net["bandwidth_GBps"],
                                                net["allreduce_step_us"])}
            m = [x for x in meds if x["ranks"] == r["ranks"] and
                 (x["partitioner"] == prof["partitioner"] or r["ranks"] == 1)]
            if m:
                m = m[0]
                row.update(measured_runs=m["runs"], measured_windows=m["windows"],
                           measured_loop_s=m["loop_s"], measured_speedup=m["speedup"],
                           measured_efficiency=m["efficiency"], oversubscribed=m["oversubscribed"])
            rows.append(row)
    rows.sort(key=lambda r: (r["partitioner"], r["ranks"]))
    return rows


def print_predictions(rows):
    if not rows:
        return
    print("rank profile (cxlfab --profile-ranks: one run on one rank, its windows replayed for N ranks;")
    print("cluster model %s, %.0f ns per event; core/README.md \"Rank profile\")" %
          (rows[0]["net"], rows[0]["event_ns"]))
    fmt = "%6s %-10s %8s %10s %8s %10s %9s %7s | %8s %10s %9s %7s"
    print(fmt % ("ranks", "partition", "windows", "ev/window", "ceiling", "pred loop", "speedup",
                 "eff.", "windows", "loop", "speedup", "eff."))
    for r in rows:
        meas = ("%8s %9.4fs %9.2f %6.1f%%%s" % (
            r["measured_windows"], r["measured_loop_s"], r["measured_speedup"],
            100 * r["measured_efficiency"], " (oversubscribed)" if r.get("oversubscribed") else "")
            if r.get("measured_runs") else "  (not run)")
        print("%6d %-10s %8d %10.0f %8.2f %9.4fs %9.2f %6.1f%% | %s" % (
            r["ranks"], r["partitioner"], r["windows"], r["events_per_window"],
            r["ceiling_speedup"], r["predicted_loop_s"], r["predicted_speedup"],
            100 * r["predicted_efficiency"], meas))
    print()


def plot_predictions(path, rows, cores):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ticks = sorted({r["ranks"] for r in rows})
    for p in sorted({r["partitioner"] for r in rows}):
        rs = [r for r in rows if r["partitioner"] == p]
        c = COLOURS.get(p)
        xs = [r["ranks"] for r in rs]
        axes[0].plot(xs, [r["predicted_speedup"] for r in rs], "-o", color=c,
                     label="%s predicted" % p)
        axes[0].plot(xs, [r["ceiling_speedup"] for r in rs], "--", color=c,
                     label="%s ceiling (no communication)" % p)
        axes[1].plot(xs, [r["predicted_efficiency"] for r in rs], "-o", color=c,
                     label="%s predicted" % p)
        ms = [r for r in rs if r.get("measured_runs")]
        for ax, key in ((axes[0], "measured_speedup"), (axes[1], "measured_efficiency")):
            for r in ms:
                hollow = bool(r.get("oversubscribed"))
                ax.plot([r["ranks"]], [r[key]], marker="s", markersize=9, linestyle="none",
                        color=c, markerfacecolor="white" if hollow else c)
            if ms:
                ax.plot([], [], marker="s", linestyle="none", color=c, label="%s measured" % p)
    axes[0].plot(ticks, ticks, ":", color="grey", label="linear")
    for ax, t in zip(axes, ("speedup over 1 rank", "parallel efficiency")):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(n) for n in ticks], rotation=45)
        ax.set_xlabel("ranks")
        ax.set_title(t)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_yscale("log", base=2)
    axes[1].set_ylim(0, 1.25)
    title = "rank profile: predicted (cluster model %s, %.0f ns/event) beside measured" % (
        rows[0]["net"], rows[0]["event_ns"])
    if cores:
        title += "; hollow: oversubscribed on %d cores" % cores
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", required=True, help="output folder")
    ap.add_argument("--runs", nargs="*", default=[], help="run folders (searched for stats.json)")
    ap.add_argument("--partitions", nargs="*", default=[],
                    help="--partition-only folders (searched for partition.json)")
    ap.add_argument("--profiles", nargs="*", default=[],
                    help="--profile-ranks folders (searched for profile.json)")
    ap.add_argument("--cores", type=int, default=0,
                    help="runs with more ranks than this are oversubscribed (if not marked)")
    ap.add_argument("--no-plot", action="store_true", help="tables and CSV only")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    runs = load_runs(a.runs, a.cores)
    parts = load_partitions(a.partitions)
    if not runs and not parts and not a.profiles:
        sys.exit("scaling: no stats.json, partition.json or profile.json found")
    cores = a.cores
    if not cores:
        metas = [os.path.join(r["dir"], "scaling.meta.json") for r in runs]
        for mp in metas:
            if os.path.isfile(mp):
                with open(mp, encoding="utf-8") as f:
                    cores = json.load(f).get("cores", 0)
                break

    written = []
    systems, meds = analyse(runs) if runs else ({}, [])
    if runs:
        print_runs(systems, meds)
        runs.sort(key=lambda r: (r["system"], r["partitioner"], r["ranks"], str(r["round"])))
        write_csv(os.path.join(a.out, "scaling.csv"), RUN_FIELDS, runs)
        write_csv(os.path.join(a.out, "scaling_medians.csv"),
                  ["system", "config", "partitioner", "ranks", "runs", "oversubscribed", "identical",
                   "events", "lookahead_ps"] + MEDIAN_FIELDS, meds)
        written += ["scaling.csv", "scaling_medians.csv"]
    if parts:
        ran = {(r["partitioner"], r["ranks"]) for r in runs}
        print_partitions(parts, ran)
        for p in parts:
            p["ran"] = (p["partitioner"], p["ranks"]) in ran
        write_csv(os.path.join(a.out, "partition.csv"), PART_FIELDS, parts)
        written.append("partition.csv")
    preds = load_profiles(a.profiles, meds)
    if preds:
        print_predictions(preds)
        write_csv(os.path.join(a.out, "prediction.csv"), PRED_FIELDS, preds)
        written.append("prediction.csv")
    if not a.no_plot:
        try:
            if runs:
                plot_runs(os.path.join(a.out, "scaling.png"), systems, meds, cores)
                written.append("scaling.png")
            if parts:
                plot_partitions(os.path.join(a.out, "partition.png"), parts)
                written.append("partition.png")
            if preds:
                plot_predictions(os.path.join(a.out, "prediction.png"), preds, cores)
                written.append("prediction.png")
        except ImportError:
            print("scaling: matplotlib missing (apt-get install python3-matplotlib): no plots",
                  file=sys.stderr)
    print("written to %s/: %s" % (a.out.rstrip("/"), ", ".join(written)))
    if runs and not all(r["identical"] for r in runs):
        sys.exit(1)


if __name__ == "__main__":
    main()
