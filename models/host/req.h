/*
 * models/host/req.h - the requester model (hosts and accelerators) and the keys
 * it reads (`host`, `workload`); see req.c for the model's contract.
 */
#ifndef CXL_MODELS_REQ_H
#define CXL_MODELS_REQ_H

#include "core/sim.h"

extern const model_ops cxl_host_ops;   /* type "host" */
extern const model_ops cxl_accel_ops;  /* type "accel": the same model */
extern const cfg_schema cxl_host_schema;
extern const cfg_schema cxl_workload_schema;
extern const cfg_schema cxl_host_cache_schema; /* host.cache.*: req_coh.c */

#endif
