/*
 * core/output.h - the output folder of a run (rank 0 only).
 *
 *   stats.json       {"run": {...}, "summary": {...}, "components": {...}}
 *   components.csv   component,type,rank,stat,value
 *   config.cfg       the effective configuration (every key, defaults too)
 * and with simulation.sample_period > 0:
 *   timeseries.csv          time_ps,component,type,stat,value: every
 *                           component's time series, period by period
 *   timeseries_summary.csv  the system's totals per period (its own writer)
 *
 * `summary` and `components` depend only on the merged statistics table,
 * never on ranks or partitioner, so they are byte-identical for any rank
 * count; `run` holds the run's own facts (ranks, wall time, events/s, ...).
 * Files are written to "<name>.tmp" and renamed, so a reader never sees a
 * partial file.  Histograms appear as {count, mean, min, p50, p99, max}.
 * The time series are as rank-independent as the statistics.
 */
#ifndef CXL_CORE_OUTPUT_H
#define CXL_CORE_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "core/cfg.h"
#include "core/engine.h"
#include "core/err.h"
#include "core/graph.h"
#include "core/json.h"
#include "core/series.h"
#include "core/stats.h"

typedef void output_summary_fn(const cfg *cf, const sim_graph *g, const stats_set *t,
			       json_w *w);

/* A system's count of requests completed in the run (run.events_per_request). */
typedef uint64_t output_requests_fn(const cfg *cf, const sim_graph *g, const stats_set *t);

/* A system's per-period totals (timeseries_summary.csv) from the merged series. */
typedef void output_series_fn(const cfg *cf, const sim_graph *g, const series_set *t,
			      FILE *f);

typedef struct output_run output_run;
struct output_run {
	const char *dir;            /* output folder (created if missing) */
	const char *config_path;    /* config file as given */
	const char *config_sha256;  /* hex digest of the config file */
	const cfg *cf;              /* effective configuration */
	const sim_graph *g;         /* the system */
	const int32_t *rank_of;     /* partition */
	int nranks;                 /* ranks */
	const char *partitioner;    /* its name */
	uint64_t seed;              /* run seed */
	sim_time end;               /* simulation.end */
	sim_time lookahead;         /* cross-rank lookahead, ps */
	uint64_t edge_cut;          /* links cut */
	double wall_s;              /* whole run, start-up to output */
	const sim_rank_info *info;  /* per rank */
	const stats_set *table;     /* merged statistics, sorted by id */
	output_summary_fn *summary; /* the system's summary writer */
	output_requests_fn *requests; /* the system's request count, or NULL (no
				       run.events_per_request) */
	const series_set *series;   /* merged time series, sorted by id; NULL: off */
	output_series_fn *series_summary; /* the system's per-period totals, or NULL */
};

typedef void output_writer_fn(const void *ctx, FILE *f);

/* output_file - write DIR/NAME atomically (temp file + rename); creates DIR. */
int output_file(const char *dir, const char *name, output_writer_fn *fn, const void *ctx,
		cxl_err *err);

/* output_write - write every file of the run; CXL_EIO with the path on failure. */
int output_write(const output_run *o, cxl_err *err);

#endif
