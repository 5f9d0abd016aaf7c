/*
 * core/graph.c - building the component/link graph (see graph.h).
 */
#include "core/graph.h"

#include <stdlib.h>

#include "core/err.h"
#include "core/xmalloc.h"

void graph_init(sim_graph *g)
{
	*g = (sim_graph){ 0 };
}

void graph_free(sim_graph *g)
{
	for (uint32_t i = 0; i < g->ncomp; i++)
		free(g->comp[i].name);
	free(g->comp);
	free(g->link);
	graph_init(g);
}

uint32_t graph_add_comp(sim_graph *g, const model_ops *ops, const char *name,
			uint32_t weight)
{
	if (g->ncomp == g->cap_comp) {
		g->cap_comp = g->cap_comp ? 2 * g->cap_comp : 256;
		g->comp = xrealloc(g->comp, g->cap_comp * sizeof(*g->comp));
	}
	g->comp[g->ncomp] = (graph_comp){ ops, xstrdup(name), weight };
	return g->ncomp++;
}

void graph_add_link(sim_graph *g, uint32_t a, uint16_t aport, uint32_t b,
		    uint16_t bport, sim_time latency, uint32_t weight)
{
	CXL_ASSERT(a < g->ncomp && b < g->ncomp);
	CXL_ASSERT(latency > 0);
	if (g->nlink == g->cap_link) {
		g->cap_link = g->cap_link ? 2 * g->cap_link : 256;
		g->link = xrealloc(g->link, g->cap_link * sizeof(*g->link));
	}
	g->link[g->nlink++] = (graph_link){ a, b, aport, bport, latency, weight };
}

uint64_t graph_cut(const sim_graph *g, const int32_t *rank_of, sim_time *min_latency)
{
	uint64_t cut = 0;
	sim_time m = SIM_TIME_MAX;

	for (uint32_t i = 0; i < g->nlink; i++) {
		const graph_link *l = &g->link[i];
		if (rank_of[l->a] != rank_of[l->b]) {
			cut++;
			if (l->latency < m)
				m = l->latency;
		}
	}
	*min_latency = m;
	return cut;
}

sim_time graph_lookahead(const sim_graph *g, const int32_t *rank_of, int nranks,
			 uint64_t *cut)
{
	sim_time m;

	*cut = graph_cut(g, rank_of, &m);
	if (nranks > 1 && g->global_lookahead && g->global_lookahead < m)
		m = g->global_lookahead;
	return nranks > 1 ? m : SIM_TIME_MAX;
}
