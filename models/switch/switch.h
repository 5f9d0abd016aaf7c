/*
 * models/switch/switch.h - the PBR switch model and its keys (`switch`); see
 * switch.c for the contract.
 */
#ifndef CXL_MODELS_SWITCH_H
#define CXL_MODELS_SWITCH_H

#include "core/sim.h"

extern const model_ops cxl_switch_ops;   /* type "switch" */
extern const cfg_schema cxl_switch_schema;

#endif
