/*
 * models/fabric/fab_describe.c - what `--check` and `--dot` print about a fabric:
 * counts by kind, edge ports, switch radix, diameter, a bisection estimate,
 * the routing tables' size and checksum; and the Graphviz drawing.
 *
 * The bisection estimate is the cut, in connections, of a 2-way split of the
 * switch graph with each switch weighted by its edge ports (both halves hold
 * about half the endpoints): exact (every split tried) up to 16 switches,
 * METIS's k-way cut above - an upper bound on the true minimum, exact for
 * the regular kinds in practice (chain 1, ring 2, spine-leaf L/2 x S).
 * Deterministic: METIS runs with a fixed seed.
 */
#include "models/fabric/fab_int.h"

#include <inttypes.h>
#include <metis.h>
#include <stdlib.h>

#include "core/xmalloc.h"

typedef struct csr csr;
struct csr {
	idx_t n;        /* switches */
	idx_t *xadj;    /* METIS adjacency offsets */
	idx_t *adjncy;  /* neighbours */
	idx_t *adjwgt;  /* parallel connections merged: their count */
	idx_t *vwgt;    /* edge ports per switch */
};

/* Switch graph in METIS form; parallel connections become one weighted edge. */
static void switch_csr(const fabric *f, csr *g)
{
	const fab_route *r = &f->route;
	idx_t m = 0;

	g->n = (idx_t)r->nsw;
	g->xadj = xmalloc((r->nsw + 1) * sizeof(*g->xadj));
	g->adjncy = xmalloc((2 * (size_t)f->nconn + 1) * sizeof(*g->adjncy));
	g->adjwgt = xmalloc((2 * (size_t)f->nconn + 1) * sizeof(*g->adjwgt));
	g->vwgt = xcalloc(r->nsw + 1, sizeof(*g->vwgt));
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t n = r->sw_node[s];
		g->xadj[s] = m;
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t t = r->sw_of[fab_peer(f, n, p)];
			if (t == UINT32_MAX) {
				g->vwgt[s]++;
				continue;
			}
			idx_t j = g->xadj[s];
			while (j < m && g->adjncy[j] != (idx_t)t)
				j++;
			if (j < m) {
				g->adjwgt[j]++;
			} else {
				g->adjncy[m] = (idx_t)t;
				g->adjwgt[m++] = 1;
			}
		}
	}
	g->xadj[r->nsw] = m;
}

#define EXACT_MAX 16 /* up to this many switches, try every split */

/* Exact minimum cut among the splits whose edge-port halves differ least. */
static int64_t bisection_exact(const csr *g)
{
	int64_t best = INT64_MAX, best_diff = INT64_MAX;

	for (uint32_t mask = 1; mask < (1u << g->n) - 1; mask += 2) { /* switch 0 on side 1 */
		int64_t diff = 0, cut = 0;
		for (idx_t v = 0; v < g->n; v++) {
			int side = (int)(mask >> v & 1);
			diff += side ? g->vwgt[v] : -g->vwgt[v];
			for (idx_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
				cut += side != (int)(mask >> g->adjncy[j] & 1) ? g->adjwgt[j] : 0;
		}
		diff = diff < 0 ? -diff : diff;
		if (diff < best_diff || (diff == best_diff && cut / 2 < best)) {
			best_diff = diff;
			best = cut / 2;
		}
	}
	return best;
}

/* The memory groups (fab_group.c): who can share memory with whom. */
static void describe_groups(const fabric *f, FILE *out)
{
	uint32_t lo = UINT32_MAX;

	if (!f->ngroups)
		return;
	for (uint32_t g = 0; g < f->ngroups; g++)
		lo = f->group_size[g] < lo ? f->group_size[g] : lo;
	fprintf(out, "  memory groups (requesters reaching the same devices; host programs talk "
		"within one): %u, of %u..%u requesters\n", f->ngroups, lo, f->group_max);
}

/**
 * fab_bisection - connections cut by a balanced 2-way split of the switches
 * (edge ports balanced; see the top of this file); -1 if < 2 switches.
 */
int64_t fab_bisection(const fabric *f)
{
	csr g;
	idx_t ncon = 1, nparts = 2, cut = 0, opt[METIS_NOPTIONS];
	real_t ub = 1.001f;

	if (f->route.nsw < 2)
		return -1;
	switch_csr(f, &g);
	if (g.n <= EXACT_MAX) {
		int64_t b = bisection_exact(&g);
		free(g.xadj);
		free(g.adjncy);
		free(g.adjwgt);
		free(g.vwgt);
		return b;
	}
	idx_t *part = xmalloc((size_t)g.n * sizeof(*part));
	METIS_SetDefaultOptions(opt);
	opt[METIS_OPTION_SEED] = 1;
	int rc = METIS_PartGraphKway(&g.n, &ncon, g.xadj, g.adjncy, g.vwgt, NULL,
					  g.adjwgt, &nparts, NULL, &ub, opt, &cut, part);
	free(part);
	free(g.xadj);
	free(g.adjncy);
	free(g.adjwgt);
	free(g.vwgt);
	return rc == METIS_OK ? (int64_t)cut : -1;
}

static void describe_radix(const fabric *f, FILE *out)
{
	uint32_t lo = UINT32_MAX, hi = 0, edge_hi = 0, nedge_sw = 0;

	for (uint32_t n = 0; n < f->nnode; n++) {
		const fab_node *nd = &f->node[n];
		if (!fab_has(nd, FAB_ROLE_SWITCH))
			continue;
		uint32_t e = 0;
		for (uint32_t p = 0; p < nd->nports; p++)
			e += fab_is_endpoint(&f->node[fab_peer(f, n, p)]);
		lo = nd->nports < lo ? nd->nports : lo;
		hi = nd->nports > hi ? nd->nports : hi;
		edge_hi = e > edge_hi ? e : edge_hi;
		nedge_sw += e > 0;
	}
	if (!f->route.nsw) {
		fprintf(out, "  switch radix: no switches\n");
		return;
	}
	fprintf(out, "  switch radix: %u to %u ports; %u edge switches, at most %u edge ports each\n",
		lo, hi, nedge_sw, edge_hi);
}

void fab_describe(const fabric *f, FILE *out)
{
	const fab_route *r = &f->route;
	char lat[STIME_FMT_LEN];

	fprintf(out, "fabric: %s, link latency %s\n", f->kind_name,
		stime_format(f->link_latency, lat));
	fprintf(out, " ");
	for (uint32_t k = 0; k < fab_nkinds; k++) /* built-in kinds always, others if present */
		if (k < FAB_NBUILTIN || f->count[k])
			fprintf(out, "%s %s %u", k ? "," : "", fab_kinds[k].plural, f->count[k]);
	fprintf(out, "\n");
	fprintf(out, "  edge ports %u (PBR ids 0..%u of 4096)\n", f->npbr,
		f->npbr ? f->npbr - 1 : 0);
	describe_radix(f, out);
	if (r->nsw)
		fprintf(out, "  diameter: %u switch-to-switch hops (%u switches, %u buses "
			"from endpoint to endpoint)\n", r->max_hops, r->max_hops + 1, r->max_hops + 2);
	int64_t b = fab_bisection(f);
	if (b >= 0)
		fprintf(out, "  bisection estimate: %" PRId64 " switch-to-switch connections "
			"(2-way split, edge ports balanced)\n", b);
	if (f->trunk_slowdown > 1)
		fprintf(out, "  iso-bisection: switch-to-switch buses serialise %ux slower\n",
			f->trunk_slowdown);
	uint64_t pairs = (uint64_t)r->nsw * r->npbr;
	fprintf(out, "  routing: %u tables, %u port sets, %.1f KiB; %.1f%% of (switch, "
		"destination) pairs have several minimal ports; checksum %016" PRIx64 "\n",
		r->nsw, r->nsets, (double)fab_route_bytes(r) / 1024.0,
		pairs ? 100.0 * (double)r->multipath / (double)pairs : 0.0,
		fab_route_checksum(r));
	describe_groups(f, out);
	fab_pod_describe(f, out);
}

void fab_write_dot(const fabric *f, FILE *out)
{
	fprintf(out, "// cxlfab fabric \"%s\": %u nodes, %u buses (drawn as edges)\n",
		f->kind_name, f->nnode, f->nconn);
	fprintf(out, "graph fabric {\n  graph [overlap=false, splines=true];\n"
		"  node [style=filled, fontsize=10];\n");
	for (uint32_t n = 0; n < f->nnode; n++) {
		const fab_node *nd = &f->node[n];
		const char *colour = fab_kinds[nd->kind].colour;
		if (!fab_is_endpoint(nd))
			fprintf(out, "  \"%s\" [shape=box, fillcolor=%s];\n", nd->name, colour);
		else
			fprintf(out, "  \"%s\" [shape=ellipse, fillcolor=%s, label=\"%s\\npbr %u\"];\n",
				nd->name, colour, nd->name, nd->pbr);
	}
	for (uint32_t c = 0; c < f->nconn; c++)
		fprintf(out, "  \"%s\" -- \"%s\";\n", f->node[f->conn[c].a].name,
			f->node[f->conn[c].b].name);
	fprintf(out, "}\n");
}
