/*
 * models/coherence/coh_check.c - the coherence checker (contract in coh_check.h).
 * Cost: every cached line of every requester, one snoop-filter lookup each
 * - fine after every event of a small study, not for a rack.
 */
#include "models/coherence/coh_check.h"

#include "models/coherence/dcoh.h"
#include "models/memory/mem.h"
#include "models/host/req.h"
#include "models/host/req_int.h"
#include "models/coherence/sf.h"

/* The filter of the device that holds @line for requester @r (NULL: HDM-H). */
static sf *home_filter(const sim_comp *c, const req *r, uint64_t line, uint32_t *dev)
{
	const fabric *f = r->f;

	*dev = f->node[f->pbr_node[req__home(r, line)]].comp;
	const void *st = sim_state_of(c, *dev);
	CXL_ASSERT(st);
	dcoh *d = mem_dcoh(st);
	return d ? dcoh_sf(d) : NULL;
}

static void check_cache(sim_comp *c, uint32_t id, const req *r)
{
	const hcache *h = &r->cache;

	for (uint64_t i = 0; i < (uint64_t)h->nsets * h->assoc; i++) {
		if (h->state[i] == HCACHE_INVALID)
			continue;
		uint64_t line = h->tag[i];
		uint32_t dev;
		sf *s = home_filter(c, r, line, &dev);
		if (!s)
			continue;
		uint32_t e = sf_find(s, line);
		const sf_entry *en = e == SF_NONE ? NULL : sf_entry_at(s, e);
		int owner = 0;
		for (uint32_t k = 0; en && k < en->nowners; k++)
			owner |= en->owner[k] == r->pbr;
		if (!owner)
			CXL_PANIC("coherence: %s caches line %#llx but %s's snoop filter does not "
				  "list it as an owner (at %llu ps)", sim_name_of(c, id),
				  (unsigned long long)line * CXL_LINE, sim_name_of(c, dev),
				  (unsigned long long)sim_now(c));
		if (h->state[i] == HCACHE_DIRTY && (!en->excl || en->nowners != 1))
			CXL_PANIC("coherence: %s holds line %#llx dirty but %s's filter lists "
				  "%u owner(s), %s (at %llu ps)", sim_name_of(c, id),
				  (unsigned long long)line * CXL_LINE, sim_name_of(c, dev), en->nowners,
				  en->excl ? "exclusive" : "shared", (unsigned long long)sim_now(c));
	}
}

void coh_check_now(sim_comp *c)
{
	for (uint32_t id = 0; id < sim_ncomp(c); id++) {
		const model_ops *o = sim_ops_of(c, id);
		if (o != &cxl_host_ops && o != &cxl_accel_ops)
			continue;
		const req *r = sim_state_of(c, id);
		CXL_ASSERT(r);
		if (r->cached)
			check_cache(c, id, r);
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
