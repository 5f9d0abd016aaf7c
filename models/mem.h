/*
 * models/mem.h - the memory endpoint model (type-3 expander, simple DRAM
 * service) and its keys (`memory`); see mem.c for the contract.
 */
#ifndef CXL_MODELS_MEM_H
#define CXL_MODELS_MEM_H

#include "core/sim.h"

extern const model_ops cxl_memory_ops;   /* type "memory" */
extern const cfg_schema cxl_memory_schema;

#endif
