/*
 * models/registry.h - systems a config can describe, and how to build them.
 *
 * A `sys_builder` turns a loaded config into the component/link graph and,
 * after the run, writes the `summary` section of stats.json from the merged
 * statistics table.  Each builder owns one top-level config group (PHOLD:
 * `phold`; the fabric, later: `topology`); a config selects its builder by
 * containing exactly that group.  Builders are listed in models/registry.c.
 *
 * Contract: build() must be deterministic and rank-independent (every rank
 * calls it and must get the same graph); it reports config errors with
 * cfg_error_at() so they carry FILE:LINE.  summary() runs on rank 0 only
 * and must depend only on the table (never on ranks), so that `summary` is
 * byte-identical for any rank count.
 */
#ifndef CXL_MODELS_REGISTRY_H
#define CXL_MODELS_REGISTRY_H

#include "core/cfg.h"
#include "core/err.h"
#include "core/graph.h"
#include "core/json.h"
#include "core/stats.h"

typedef int sys_build_fn(const cfg *cf, sim_graph *g, cxl_err *err);
typedef void sys_summary_fn(const cfg *cf, const sim_graph *g, const stats_set *table,
			    json_w *w);

typedef struct sys_builder sys_builder;
struct sys_builder {
	const char *name;          /* "phold" */
	const char *group;         /* top-level config group that selects it */
	const char *doc;           /* one line for --help */
	const cfg_schema *schema;  /* its keys */
	sys_build_fn *build;       /* config -> graph */
	sys_summary_fn *summary;   /* table -> summary keys (inside the object) */
};

extern const sys_builder sys_phold;

/* sys_list - every builder; *@n receives the count. */
const sys_builder *const *sys_list(int *n);

/**
 * sys_select - the builder whose group the config contains.
 * Error (CXL_EINVAL) if none or more than one is present.
 */
int sys_select(const cfg *cf, const sys_builder **out, cxl_err *err);

#endif
