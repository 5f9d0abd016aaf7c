/*
 * core/memest.c - per-rank memory estimate (memest.h).  O(components) time,
 * O(ranks + model types) memory.
 */
#include "core/memest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim_int.h"
#include "core/xmalloc.h"

enum { MAX_TYPES = 32 };

typedef struct kind_sum kind_sum;
struct kind_sum {
	const model_ops *ops; /* the type */
	uint64_t bytes;       /* its components' bytes on the worst rank */
	uint64_t top;         /* the largest one's */
	const char *key;      /* the largest one's key */
};

/* The bytes of component @i, engine part included; *@key its key. */
static uint64_t comp_bytes(const sim_graph *g, const cfg *cf, memest_comp_fn *fn,
			   const void *ctx, uint32_t i, const char **key)
{
	*key = "";
	return MEMEST_PER_COMP + g->comp[i].ops->state_size +
	       (fn ? fn(ctx, sim__comp_cfg(cf, &g->comp[i]), g, i, key) : 0);
}

/* Sum the kinds of rank @r into @k (at most MAX_TYPES), returning the count. */
static int sum_kinds(const sim_graph *g, const cfg *cf, memest_comp_fn *fn, const void *ctx,
		     const int32_t *rank_of, int r, kind_sum *k)
{
	int nk = 0;

	for (uint32_t i = 0; i < g->ncomp; i++) {
		if ((rank_of ? rank_of[i] : 0) != r)
			continue;
		const char *key;
		uint64_t b = comp_bytes(g, cf, fn, ctx, i, &key);
		int j = 0;
		while (j < nk && k[j].ops != g->comp[i].ops)
			j++;
		if (j == nk && nk == MAX_TYPES)
			continue;
		if (j == nk)
			k[nk++] = (kind_sum){ .ops = g->comp[i].ops, .key = "" };
		k[j].bytes += b;
		if (b > k[j].top) {
			k[j].top = b;
			k[j].key = key;
		}
	}
	return nk;
}

void memest_compute(const sim_graph *g, const cfg *cf, uint64_t shared, memest_comp_fn *fn,
		    const void *ctx, int nranks, const int32_t *rank_of, memest *m)
{
	uint64_t *rb = xcalloc((size_t)(nranks > 0 ? nranks : 1), sizeof(*rb));
	kind_sum k[MAX_TYPES];
	const char *key;

	for (uint32_t i = 0; i < g->ncomp; i++)
		rb[rank_of ? rank_of[i] : 0] += comp_bytes(g, cf, fn, ctx, i, &key);
	for (uint32_t l = 0; l < g->nlink; l++) {
		rb[rank_of ? rank_of[g->link[l].a] : 0] += MEMEST_PER_LINK;
		if (rank_of && rank_of[g->link[l].b] != rank_of[g->link[l].a])
			rb[rank_of[g->link[l].b]] += MEMEST_PER_LINK;
	}
	*m = (memest){ .kind = "", .key = "" };
	for (int r = 0; r < (nranks > 0 ? nranks : 1); r++)
		if (rb[r] > rb[m->worst])
			m->worst = r;
	m->bytes = rb[m->worst] + shared + MEMEST_BASE;
	int nk = sum_kinds(g, cf, fn, ctx, rank_of, m->worst, k);
	for (int j = 0; j < nk; j++)
		if (k[j].bytes > m->kind_bytes) {
			m->kind_bytes = k[j].bytes;
			m->kind = k[j].ops->name;
			m->key = k[j].key;
		}
	free(rb);
}

uint64_t memest_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}
