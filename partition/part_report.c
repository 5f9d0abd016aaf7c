/*
 * partition/part_report.c - partition quality figures (see part_report.h).
 * O(components + links + ranks).
 */
#include "partition/part_report.h"

#include <stdlib.h>

#include "core/json.h"
#include "core/xmalloc.h"

void part_report_compute(part_report *r, const sim_graph *g, int nranks,
			 const int32_t *rank_of, const char *method)
{
	uint64_t total = 0, max = 0, heaviest = 0;

	*r = (part_report){ .method = method, .nranks = nranks, .ncomp = g->ncomp,
			    .nlink = g->nlink, .cut_floor = g->cut_floor };
	r->comps = xcalloc((size_t)nranks, sizeof(*r->comps));
	r->load = xcalloc((size_t)nranks, sizeof(*r->load));
	for (uint32_t i = 0; i < g->ncomp; i++) {
		r->comps[rank_of[i]]++;
		uint64_t w = g->comp[i].weight ? g->comp[i].weight : 1;
		r->load[rank_of[i]] += w;
		heaviest = w > heaviest ? w : heaviest;
	}
	for (int k = 0; k < nranks; k++) {
		total += r->load[k];
		max = r->load[k] > max ? r->load[k] : max;
		r->empty_ranks += r->comps[k] == 0;
	}
	r->imbalance = total ? (double)max * nranks / (double)total - 1.0 : 0.0;
	r->imbalance_floor = total ? (double)heaviest * nranks / (double)total - 1.0 : 0.0;
	if (r->imbalance_floor < 0)
		r->imbalance_floor = 0;
	r->edge_cut = graph_cut(g, rank_of, &r->lookahead);
	for (uint32_t l = 0; l < g->nlink; l++)
		r->cut_below_floor += rank_of[g->link[l].a] != rank_of[g->link[l].b] &&
				      g->link[l].latency < g->cut_floor;
	if (nranks > 1 && g->global_lookahead && g->global_lookahead < r->lookahead)
		r->lookahead = g->global_lookahead;
	r->cut_fraction = g->nlink ? (double)r->edge_cut / g->nlink : 0.0;
}

void part_report_free(part_report *r)
{
	free(r->comps);
	free(r->load);
	r->comps = NULL;
	r->load = NULL;
}

void part_report_print(const part_report *r, FILE *f)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	char la[STIME_FMT_LEN];

	for (int k = 0; k < r->nranks; k++) {
		lo = r->comps[k] < lo ? r->comps[k] : lo;
		hi = r->comps[k] > hi ? r->comps[k] : hi;
	}
	fprintf(f, "partition: %s, %d rank%s, %u components, %u links\n", r->method,
		r->nranks, r->nranks > 1 ? "s" : "", r->ncomp, r->nlink);
	fprintf(f, "  edge cut      %llu links (%.2f%%)\n", (unsigned long long)r->edge_cut,
		100.0 * r->cut_fraction);
	fprintf(f, "  imbalance     %.2f%% (max/mean - 1 of the expected load per rank)\n",
		100.0 * r->imbalance);
	if (r->imbalance_floor > 0)
		fprintf(f, "                at least %.2f%% for any partition: one component "
			"outweighs a rank's mean load\n", 100.0 * r->imbalance_floor);
	fprintf(f, "  lookahead     %s\n", r->lookahead == SIM_TIME_MAX ?
		"none (nothing crosses ranks)" : stime_format(r->lookahead, la));
	fprintf(f, "  components    %llu to %llu per rank (mean %.1f)%s\n", (unsigned long long)lo,
		(unsigned long long)hi,
		(double)r->ncomp / r->nranks, r->empty_ranks ? ", some ranks empty" : "");
	if (r->cut_below_floor)
		fprintf(f, "  warning       %llu cut links are shorter than the cut floor %s\n",
			(unsigned long long)r->cut_below_floor, stime_format(r->cut_floor, la));
}

/* A list with one value per rank. */
static void per_rank(json_w *w, const char *key, const uint64_t *v, int n)
{
	json_key(w, key);
	json_arr_inline(w);
	for (int k = 0; k < n; k++)
		json_u64(w, v[k]);
	json_end(w);
}

void part_report_json(const void *ctx, FILE *f)
{
	const part_report *r = ctx;
	json_w w;

	json_init(&w, f);
	json_obj(&w);
	json_kv_u64(&w, "ranks", (uint64_t)r->nranks);
	json_kv_str(&w, "method", r->method);
	json_kv_u64(&w, "components", r->ncomp);
	json_kv_u64(&w, "links", r->nlink);
	json_kv_u64(&w, "edge_cut", r->edge_cut);
	json_kv_dbl(&w, "cut_fraction", r->cut_fraction);
	json_kv_dbl(&w, "imbalance", r->imbalance);
	json_kv_dbl(&w, "imbalance_floor", r->imbalance_floor);
	json_kv_u64_or_null(&w, "lookahead_ps", r->lookahead, SIM_TIME_MAX);
	json_kv_u64(&w, "cut_floor_ps", r->cut_floor);
	json_kv_u64(&w, "cut_below_floor", r->cut_below_floor);
	json_kv_u64(&w, "empty_ranks", r->empty_ranks);
	per_rank(&w, "components_per_rank", r->comps, r->nranks);
	per_rank(&w, "load_per_rank", r->load, r->nranks);
	json_end(&w);
	json_finish(&w);
}
