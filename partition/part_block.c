/*
 * partition/part_block.c - contiguous blocks of component ids of equal weight.
 *
 * Rank r gets the ids whose cumulative weight falls in
 * [r * W / n, (r + 1) * W / n), W the total weight: builders number
 * neighbouring components consecutively, so blocks keep neighbours together.
 * O(components).
 */
#include "partition/part.h"

static int assign(const sim_graph *g, int nranks, int32_t *rank_of, cxl_err *err)
{
	uint64_t total = 0, acc = 0;

	(void)err;
	for (uint32_t i = 0; i < g->ncomp; i++)
		total += g->comp[i].weight ? g->comp[i].weight : 1;
	for (uint32_t i = 0; i < g->ncomp; i++) {
		uint64_t w = g->comp[i].weight ? g->comp[i].weight : 1;
		/* rank by the weight midpoint of this component */
		uint64_t r = ((2 * acc + w) * (uint64_t)nranks) / (2 * total);
		rank_of[i] = (int32_t)(r < (uint64_t)nranks ? r : (uint64_t)nranks - 1);
		acc += w;
	}
	return 0;
}

const part_ops part_block = {
	.name = "block",
	.doc = "contiguous id ranges of equal weight (keeps neighbours together)",
	.assign = assign,
};
