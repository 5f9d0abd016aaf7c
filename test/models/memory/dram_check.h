/*
 * test/models/memory/dram_check.h - an independent checker of DRAM command traces
 * for the DRAM model's tests (test_dram.c).
 *
 * It knows the JEDEC rules, not the scheduler: given the parameters and the
 * commands a run issued (dram_cmd_rec, in issue order, channels in any
 * interleaving), it replays each channel and reports every violation of
 *   - the command bus: one command per cycle, ACT/RD/WR hold it tCMD cycles;
 *   - bank state: ACT to a closed bank, PRE to an open one, RD/WR to the
 *     open row, REF with every bank of the rank closed;
 *   - pairwise minimum separations (same bank: tRC, tRCD, tRAS, tRP, tRTP,
 *     tCWL+tBL+tWR; same rank: tRRD_S/L, tCCD_S/L, tCCD_L_WR, tWTR_S/L after
 *     the write data, tRTW, tPPD, PRE->REF tRP, ACT->REF tRC, REF->ACT/REF
 *     tRFC), checked for every pair closer than the largest separation;
 *   - tFAW: at most four ACTs of a rank in any tFAW window;
 *   - the data bus: bursts (RD at +tCL, WR at +tCWL, tBL long) never
 *     overlap, and leave tRTRS between two ranks;
 *   - refresh (if enabled): consecutive REFs of a rank between 0.9 and 1.1
 *     tREFI apart, the first within 1.1 tREFI, the last within 1.1 tREFI of
 *     the end of the trace.
 */
#ifndef CXL_TEST_MODELS_DRAM_CHECK_H
#define CXL_TEST_MODELS_DRAM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "models/memory/dram.h"

typedef struct dck_result dck_result;
struct dck_result {
	uint64_t violations; /* rules broken (each pair or event once per rule) */
	uint64_t pairs;      /* command pairs examined */
	uint64_t refs;       /* REF commands seen */
	char first[256];     /* description of the first violation, "" if none */
};

/**
 * dck_run - check the @n commands at @rec against @p.
 * @end_cycle: last cycle the run covered (for the refresh check)
 * @out:       OUT the result
 */
void dck_run(const dram_params *p, const dram_cmd_rec *rec, size_t n, uint64_t end_cycle,
	     dck_result *out);

#endif
