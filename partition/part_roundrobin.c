/*
 * partition/part_roundrobin.c - component i goes to rank i mod n.
 *
 * The worst case for locality (almost every link is cut), which is exactly
 * why it is useful: it stresses the cross-rank path in determinism tests.
 */
#include "partition/part.h"

static int assign(const sim_graph *g, int nranks, int32_t *rank_of, cxl_err *err)
{
	(void)err;
	for (uint32_t i = 0; i < g->ncomp; i++)
		rank_of[i] = (int32_t)(i % (uint32_t)nranks);
	return 0;
}

const part_ops part_roundrobin = {
	.name = "roundrobin",
	.doc = "component i on rank i mod N (maximal cut; for testing)",
	.assign = assign,
};
