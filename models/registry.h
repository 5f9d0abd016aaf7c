/*
 * models/registry.h - systems a config can describe, and how to build them.
 *
 * A `sys_builder` turns a loaded config into the component/link graph and,
 * after the run, writes the `summary` section of stats.json from the merged
 * statistics table.  Each builder owns one top-level config group (PHOLD:
 * `phold`; the fabric, later: `topology`); a config selects its builder by
 * containing exactly that group.  Builders are listed in models/registry.c.
 *
 * build() may also return a description of its own in *sys (the fabric:
 * switches, PBR ids, routing tables) that describe() and dot() print and
 * free_sys() releases; PHOLD leaves it NULL.
 *
 * Contract: build() must be deterministic and rank-independent (every rank
 * calls it and must get the same graph); it reports config errors with
 * cfg_error_at() so they carry FILE:LINE.  summary() runs on rank 0 only
 * and must depend only on the table (never on ranks), so that `summary` is
 * byte-identical for any rank count; series_summary() likewise, from the
 * merged time series (simulation.sample_period > 0).
 */
#ifndef CXL_MODELS_REGISTRY_H
#define CXL_MODELS_REGISTRY_H

#include <stdint.h>
#include <stdio.h>

#include "core/cfg.h"
#include "core/err.h"
#include "core/graph.h"
#include "core/json.h"
#include "core/series.h"
#include "core/stats.h"
#include "core/stime.h"

typedef size_t sys_schemas_fn(const cfg_schema **out, size_t cap);
typedef int sys_build_fn(const cfg *cf, sim_graph *g, void **sys, cxl_err *err);
typedef void sys_summary_fn(const cfg *cf, const sim_graph *g, const stats_set *table,
			    json_w *w);
typedef void sys_series_fn(const cfg *cf, const sim_graph *g, const series_set *table,
			   FILE *f);
typedef void sys_describe_fn(const void *sys, FILE *out);
typedef void sys_free_fn(void *sys);
typedef uint64_t sys_checksum_fn(const void *sys);
typedef sim_time sys_drain_fn(const cfg *cf);
typedef void sys_report_fn(const cfg *cf, const sim_graph *g, const stats_set *table,
			   FILE *out, FILE *warn);
typedef uint64_t sys_requests_fn(const cfg *cf, const sim_graph *g, const stats_set *table);
typedef uint64_t sys_comp_bytes_fn(const void *sys, const cfg *cf, const sim_graph *g,
				   uint32_t comp, const char **key);
typedef uint64_t sys_shared_bytes_fn(const void *sys);

typedef struct sys_builder sys_builder;
struct sys_builder {
	const char *name;          /* "phold" */
	const char *group;         /* top-level config group that selects it */
	const char *doc;           /* one line for --help */
	sys_schemas_fn *schemas;   /* its keys: writes up to cap schemas to out, returns
				      how many it has (call with cap 0 to count) */
	sys_build_fn *build;       /* config -> graph, and the system's own description */
	sys_summary_fn *summary;   /* table -> summary keys (inside the object) */
	sys_series_fn *series_summary; /* optional: time-series table ->
				      timeseries_summary.csv (per-period totals) */
	sys_describe_fn *describe; /* optional: --check details of the description */
	sys_describe_fn *dot;      /* optional: --dot, the system for Graphviz */
	sys_free_fn *free_sys;     /* optional: frees what build() put in *sys */
	sys_checksum_fn *checksum; /* optional: digest of the description (the
				      routing tables), compared across ranks by --check */
	sys_drain_fn *drain;       /* optional: how long after simulation.end the run may
				      go on so that work in flight finishes (NULL: 0) */
	sys_report_fn *report;     /* optional, rank 0: a few lines of results after the run
				      to out, warnings to warn (either NULL: none) */
	sys_requests_fn *requests; /* optional: requests completed in the whole run (warm-up
				      included), from the merged table: the denominator
				      of run.events_per_request (NULL: no such key) */
	sys_comp_bytes_fn *comp_bytes; /* optional: bytes component comp's state will hold at
				      its peak, from its config view @cf alone (before any
				      init), and in *key the key that sizes most of it;
				      core/memest.h sums them per rank */
	sys_shared_bytes_fn *shared_bytes; /* optional: bytes every rank holds (the description) */
	const char *partitioner;   /* the default --partition (NULL: block) */
	const char *not_runnable;  /* NULL, or why this system cannot be simulated yet */
};

extern const sys_builder sys_phold;
extern const sys_builder sys_fabric;

/* sys_list - every builder; *@n receives the count. */
const sys_builder *const *sys_list(int *n);

/**
 * sys_select - the builder whose group the config file @path (or a --set of
 * @sets) contains, before the config is loaded.
 * Error (CXL_EINVAL) if none or more than one is present.  *@out is NULL
 * (and 0 returned) when the file cannot be parsed: loading it with every
 * schema then reports the syntax or I/O error itself.
 */
int sys_select(const char *path, const char *const *sets, size_t nsets,
	       const sys_builder **out, cxl_err *err);

#endif
