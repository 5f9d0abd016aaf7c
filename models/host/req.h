/*
 * models/host/req.h - the requester model (hosts and accelerators) and the keys
 * it reads (`host`, `workload`); see req.c for the model's contract.
 */
#ifndef CXL_MODELS_REQ_H
#define CXL_MODELS_REQ_H

#include <stdint.h>

#include "core/sim.h"

extern const model_ops cxl_host_ops;   /* type "host" */
extern const model_ops cxl_accel_ops;  /* type "accel": the same model */
extern const cfg_schema cxl_host_schema;
extern const cfg_schema cxl_workload_schema;
extern const cfg_schema cxl_host_cache_schema; /* host.cache.*: req_coh.c */

/* req_runs - does a component of model @ops run the requester model? */
int req_runs(const model_ops *ops);

/* req_line_fn - one valid line of a requester's cache: its line number,
 * whether it is dirty, and the component id of the device that homes it. */
typedef void req_line_fn(void *ctx, uint64_t line, int dirty, uint32_t home);

/**
 * req_each_cached - call @fn(@ctx, ...) for every valid line of the cache of
 * requester state @st (a component for which req_runs() holds), in way
 * order; nothing if it has no cache.  Read-only: for checkers
 * (models/coherence/coh_check.c).
 */
void req_each_cached(const void *st, req_line_fn *fn, void *ctx);

#endif
