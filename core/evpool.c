/*
 * core/evpool.c - slab growth and teardown of the event free list (evpool.h).
 */
#include "core/evpool.h"

#include <stdlib.h>

#include "core/err.h"
#include "core/xmalloc.h"

void evpool_init(evpool *p)
{
	*p = (evpool){ 0 };
}

void evpool_destroy(evpool *p)
{
	for (size_t i = 0; i < p->nslabs; i++)
		free(p->slabs[i]);
	free(p->slabs);
	*p = (evpool){ 0 };
}

void evpool__grow(evpool *p)
{
	cxl_event *slab = xmalloc(EVPOOL_SLAB * sizeof(*slab));

	if (p->nslabs == p->cap_slabs) {
		p->cap_slabs = p->cap_slabs ? 2 * p->cap_slabs : 16;
		p->slabs = xrealloc(p->slabs, p->cap_slabs * sizeof(*p->slabs));
	}
	p->slabs[p->nslabs++] = slab;
	for (size_t i = EVPOOL_SLAB; i-- > 0;) {
		slab[i].owner = CXL_OWN_POOL;
		slab[i].next_free = p->free;
		p->free = &slab[i];
	}
}

void evpool__double_free(const cxl_event *ev)
{
	CXL_PANIC("event freed twice (dst %u src %u seq %llu)", ev->dst, ev->src,
		  (unsigned long long)ev->seq);
}
