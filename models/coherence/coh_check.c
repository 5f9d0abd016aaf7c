/*
 * models/coherence/coh_check.c - the coherence checker (contract in coh_check.h).
 * Cost: every cached line of every requester, one snoop-filter lookup each
 * - fine after every event of a small study, not for a rack.
 */
#include "models/coherence/coh_check.h"

#include "models/coherence/dcoh.h"
#include "models/coherence/sf.h"
#include "models/fabric/fab_view.h"
#include "models/host/req.h"
#include "models/memory/mem.h"

typedef struct walk walk;
struct walk {
	sim_comp *c;   /* the component running the check */
	uint32_t id;   /* the requester whose cache is walked */
	uint16_t pbr;  /* its PBR id (its name in snoop filters) */
};

/* One cached line of requester w->id, homed by component @dev. */
static void check_line(void *ctx, uint64_t line, int dirty, uint32_t dev)
{
	const walk *w = ctx;
	sim_comp *c = w->c;
	const void *st = sim_state_of(c, dev);
	CXL_ASSERT(st && sim_ops_of(c, dev) == &cxl_memory_ops);
	dcoh *d = mem_dcoh(st);
	sf *s = d ? dcoh_sf(d) : NULL;

	if (!s)
		return; /* HDM-H: nothing tracks it */
	uint32_t e = sf_find(s, line);
	const sf_entry *en = e == SF_NONE ? NULL : sf_entry_at(s, e);
	int owner = 0;
	for (uint32_t k = 0; en && k < en->nowners; k++)
		owner |= en->owner[k] == w->pbr;
	if (!owner)
		CXL_PANIC("coherence: %s caches line %#llx but %s's snoop filter does not "
			  "list it as an owner (at %llu ps)", sim_name_of(c, w->id),
			  (unsigned long long)line * CXL_LINE, sim_name_of(c, dev),
			  (unsigned long long)sim_now(c));
	if (dirty && (!en->excl || en->nowners != 1))
		CXL_PANIC("coherence: %s holds line %#llx dirty but %s's filter lists "
			  "%u owner(s), %s (at %llu ps)", sim_name_of(c, w->id),
			  (unsigned long long)line * CXL_LINE, sim_name_of(c, dev), en->nowners,
			  en->excl ? "exclusive" : "shared", (unsigned long long)sim_now(c));
}

void coh_check_now(sim_comp *c)
{
	const fab_view *v = fab_view_of(c);

	for (uint32_t id = 0; id < sim_ncomp(c); id++) {
		if (!req_runs(sim_ops_of(c, id)))
			continue;
		const void *st = sim_state_of(c, id);
		CXL_ASSERT(st);
		walk w = { c, id, fab_view_pbr(v, id) };
		req_each_cached(st, check_line, &w);
	}
}

void coh_check_end(sim_comp *c)
{
	coh_check_now(c);
	for (uint32_t id = 0; id < sim_ncomp(c); id++) {
		if (sim_ops_of(c, id) != &cxl_memory_ops)
			continue;
		const dcoh *d = mem_dcoh(sim_state_of(c, id));
		uint64_t snp, rsp, open;
		if (!d)
			continue;
		dcoh_counts(d, &snp, &rsp, &open);
		if (snp != rsp || open)
			CXL_PANIC("coherence: %s sent %llu BISnps, received %llu BIRsps, "
				  "%llu transactions open at the end", sim_name_of(c, id),
				  (unsigned long long)snp,
				  (unsigned long long)rsp, (unsigned long long)open);
	}
}
