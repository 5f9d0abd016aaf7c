/*
 * models/fabric/fab_group.c - memory groups: the requesters that reach
 * exactly the same memory devices (contract in fab_view.h,
 * fab_view_mem_group()).
 *
 * A requester's address map interleaves its lines over the devices it
 * reaches (models/host/req.c), so two requesters mean the same memory by
 * the same address only when they reach the same devices: host programs
 * that share data or flags talk within a group.  A switched pool is one
 * group; an Octopus pod has one group per device (its heads: the ports of
 * the hosts wired to it).  Two groups never share a device (asserted).
 *
 * Cost: the device set of every switch with requesters (O(switches x
 * devices) route look-ups) and of every directly attached requester
 * (one device), hashed; O(requesters) more.  Built once at fab_finish.
 */
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"

typedef struct gtab gtab;
struct gtab {
	uint32_t *slot;  /* open addressing: group id + 1, 0 = empty */
	uint32_t mask;
	uint64_t *hash;  /* [group] hash of its device set */
	uint32_t *start; /* [group] first entry in pool; [ngroups] = end */
	uint16_t *pool;  /* the groups' device sets, PBR ids ascending */
	uint32_t npool, cap_pool;
};

/* The group of device set @set (@n ids): found, or added as f->ngroups++. */
static uint32_t group_of_set(fabric *f, gtab *t, const uint16_t *set, uint32_t n)
{
	uint64_t h = fab_fnv(1469598103934665603ull, set, n * sizeof(*set));

	for (uint32_t i = (uint32_t)h & t->mask;; i = (i + 1) & t->mask) {
		uint32_t g = t->slot[i];
		if (!g) {
			g = f->ngroups++;
			t->slot[i] = g + 1;
			t->hash[g] = h;
			if (t->npool + n > t->cap_pool) {
				t->cap_pool = 2 * (t->npool + n);
				t->pool = xrealloc(t->pool, t->cap_pool * sizeof(*t->pool));
			}
			if (n) /* an empty set may come with no pool yet (NULL) */
				memcpy(t->pool + t->npool, set, n * sizeof(*set));
			t->start[g] = t->npool;
			t->npool += n;
			t->start[g + 1] = t->npool;
			return g;
		}
		g--;
		if (t->hash[g] == h && t->start[g + 1] - t->start[g] == n &&
		    (!n || !memcmp(t->pool + t->start[g], set, n * sizeof(*set))))
			return g;
	}
}

/*
 * Groups never share a device: a device on a switch is reached by every
 * requester behind a switch (fab_finish refuses a fabric whose endpoints
 * cannot all reach each other), a multi-headed one only by its heads.  So
 * an address means the same memory to every requester that can reach it;
 * asserted here, as a fabric that broke it would silently alias memory.
 */
static void check_disjoint(const fabric *f, const gtab *t)
{
	uint32_t *owner = xmalloc((f->npbr + 1) * sizeof(*owner));

	for (uint32_t p = 0; p < f->npbr; p++)
		owner[p] = UINT32_MAX;
	for (uint32_t g = 0; g < f->ngroups; g++)
		for (uint32_t i = t->start[g]; i < t->start[g + 1]; i++) {
			uint16_t d = t->pool[i];
			CXL_ASSERT(owner[d] == UINT32_MAX);
			owner[d] = g;
		}
	free(owner);
}

/**
 * fab_group_requesters - the memory group of every requester, its index in
 * it, and each group's size.  After fab_finish has
 * built the routes and the component maps.
 */
void fab_group_requesters(fabric *f)
{
	uint32_t nreq = f->nreq ? f->nreq : 1, cap = 2;
	uint32_t *sw_group = xmalloc((f->route.nsw + 1) * sizeof(*sw_group));
	uint16_t *set = xmalloc((f->nmem + 1) * sizeof(*set));

	while (cap < 2 * nreq)
		cap *= 2;
	gtab t = { .slot = xcalloc(cap, sizeof(*t.slot)), .mask = cap - 1,
		   .hash = xmalloc(nreq * sizeof(*t.hash)),
		   .start = xmalloc((nreq + 1) * sizeof(*t.start)) };
	f->req_group = xmalloc(nreq * sizeof(*f->req_group));
	f->req_gindex = xmalloc(nreq * sizeof(*f->req_gindex));
	f->group_size = xcalloc(nreq, sizeof(*f->group_size));
	for (uint32_t s = 0; s < f->route.nsw; s++)
		sw_group[s] = UINT32_MAX;
	for (uint32_t n = 0; n < f->nnode; n++) {
		const fab_node *nd = &f->node[n];
		if (!fab_has(nd, FAB_ROLE_REQUESTER))
			continue;
		uint32_t peer = fab_peer(f, n, 0), s = f->route.sw_of[peer], g;
		if (s != UINT32_MAX && sw_group[s] != UINT32_MAX) {
			g = sw_group[s];
		} else {
			g = group_of_set(f, &t, set, fab_view_targets(f, nd->comp, set));
			if (s != UINT32_MAX)
				sw_group[s] = g;
		}
		f->req_group[nd->req_index] = g;
		f->req_gindex[nd->req_index] = f->group_size[g]++;
		if (f->group_size[g] > f->group_max)
			f->group_max = f->group_size[g];
	}
	check_disjoint(f, &t);
	free(t.slot);
	free(t.hash);
	free(t.start);
	free(t.pool);
	free(sw_group);
	free(set);
}

void fab_view_mem_group(const fab_view *v, uint32_t comp, uint32_t *index, uint32_t *size)
{
	uint32_t r = fab_view_requester_index(v, comp);

	*index = v->req_gindex[r];
	*size = v->group_size[v->req_group[r]];
}

uint32_t fab_view_mem_groups(const fab_view *v, uint32_t *largest)
{
	*largest = v->group_max;
	return v->ngroups;
}
