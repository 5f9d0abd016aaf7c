/*
 * models/memory/dram_cfg.h - DRAM model parameters from the memory.dram.* keys of
 * a loaded configuration (see dram_cfg.c for the contract with the memory
 * schema in mem.c).
 */
#ifndef CXL_MODELS_DRAM_CFG_H
#define CXL_MODELS_DRAM_CFG_H

#include <stddef.h>

#include "core/cfg.h"
#include "core/err.h"
#include "models/memory/dram.h"

int dram_cfg_read(const cfg *cf, dram_params *p, int *detailed, cxl_err *err);

/* dram_cfg_key - the @i-th memory.dram.* key other than the preset, NULL past the last. */
const char *dram_cfg_key(size_t i);

#endif
