/*
 * models/coherence/coh_check.h - the coherence checker (memory.dcoh.check): checks,
 * across every requester cache and every DCOH of the run, that
 *   - each snoop filter is inclusive: every line a requester caches from an
 *     HDM-DB device is in that device's filter with the requester as owner;
 *   - one writer: a dirty line's entry lists its holder as sole, exclusive
 *     owner (so no line is writable in two caches);
 *   - at the end, every BISnp was answered by exactly one BIRsp and no
 *     transaction is open.
 * A violation is an internal error naming the line, requester and device
 * (CXL_PANIC, exit 1).  It reads other components' states, so it needs
 * every component on one rank (sim_state_of()).
 */
#ifndef CXL_MODELS_COH_CHECK_H
#define CXL_MODELS_COH_CHECK_H

#include "core/sim.h"

/* coh_check_now - check inclusivity and one writer now (an after-event hook). */
void coh_check_now(sim_comp *c);

/* coh_check_end - coh_check_now() plus the end-of-run BISnp/BIRsp balance. */
void coh_check_end(sim_comp *c);

#endif
