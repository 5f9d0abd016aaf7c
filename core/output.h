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
 * A run's files are one unit (output_dir.c): written into a private folder
 * inside the output folder and moved into place at the end, stats.json
 * last; an earlier run's files go to previous/ at the start; one run at a
 * time per folder (a lock).  output_file() (partition.json, --dot) writes
 * one file to "<name>.tmp" and renames it, so a reader never sees a partial
 * file.  Histograms appear as {count, mean, min, p50, p99, max}.
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

/* The output folder of a run while it runs (output_dir.c). */
typedef struct output_dir output_dir;
struct output_dir {
	char dir[4096];   /* the -o folder */
	char tmp[4096];   /* this run's private folder in it, "" when gone */
	int lock_fd;      /* the folder, open and flock()ed; -1: not locked */
};

typedef struct output_run output_run;
struct output_run {
	output_dir *od;             /* the output folder, opened by output_dir_open */
	const char *config_path;    /* config file as given */
	const char *config_sha256;  /* hex digest of the config file as loaded */
	const char *interrupted;    /* signal that stopped the run early ("SIGTERM"), or NULL */
	const char *restart_from;   /* the checkpoint folder this run continued, or NULL */
	sim_time restart_cut;       /* its cut */
	uint64_t events_before;     /* events the run executed before the cut */
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

/* output_mkdirs - create @dir and its parents; CXL_EIO naming the path. */
int output_mkdirs(const char *dir, cxl_err *err);

/*
 * output_dir_open - before the run: create and lock @dir, create the run's
 * private folder in it, move an earlier run's files to @dir/previous/.
 * CXL_EIO if @dir cannot be written or another run is writing into it.
 */
int output_dir_open(output_dir *od, const char *dir, cxl_err *err);
/* output_dir_commit - move the private folder's files into place, stats.json last. */
int output_dir_commit(output_dir *od, cxl_err *err);
/* output_remove_folder - remove folder @path and the plain files in it. */
void output_remove_folder(const char *path);
/* output_dir_close - remove what is left of the private folder, unlock. */
void output_dir_close(output_dir *od);

/*
 * output_write - write every file of the run into @o->od's private folder,
 * then commit them; CXL_EIO with the path and the system's reason (a full
 * disk) on failure.
 */
int output_write(const output_run *o, cxl_err *err);

#endif
