/*
 * models/memory/mem.h - the memory endpoint model (type-3 expander: controller
 * latency, then the simple DRAM service model or the detailed DDR model of
 * dram.h) and its keys (`memory`, `memory.dram`); see mem.c for the
 * contract.
 */
#ifndef CXL_MODELS_MEM_H
#define CXL_MODELS_MEM_H

#include "core/sim.h"

extern const model_ops cxl_memory_ops;   /* type "memory" */
extern const cfg_schema cxl_memory_schema;

/* mem_dcoh - the DCOH of the memory component whose state is @state (NULL: HDM-H). */
struct dcoh;
struct dcoh *mem_dcoh(const void *state);

#endif
