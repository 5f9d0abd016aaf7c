/*
 * models/fabric/fab_route.c - building and querying the PBR routing tables (see
 * fab_route.h).
 *
 * Build, near-linear in connections (design §5):
 *  1. Twin classes.  Switches with the same set of switch neighbours ("false
 *     twins": every leaf of a spine-leaf, every spine, the edge switches of
 *     a fat-tree pod, the leaves under one tree switch) form a class.  A
 *     class is an independent set and a module: a switch next to one member
 *     is next to all of them.  So for switches x and t of different classes
 *     d(x, t) = the distance of their classes in the quotient graph Q, and
 *     two members of one class are 2 apart (they share every neighbour).
 *     Found by hashing each switch's sorted neighbour list: O(connections
 *     log radix).
 *  2. One BFS over Q from each class holding an edge switch (a switch with
 *     endpoints attached): O(edge classes x (classes + class pairs)), kept
 *     as a dense uint16 matrix [edge class][class] during the build.
 *  3. Per switch s, per edge switch t != s, in edge-switch order: the
 *     minimal ports are those to t when t is a neighbour; every switch port
 *     when t is s's twin; else the ports whose peer's class is one step
 *     closer to t's class - the same set for every t of that class, so it
 *     is computed and interned once per (s, class).  Sets are deduplicated
 *     per switch by a hash table, in first-seen order.
 * Time O(connections x log radix + edge classes x (radix sum + Q) + switches
 * x edge ports), the last being the size of set_of itself; the spine-leaf
 * has 2 classes, so 4096 leaves x 1024 spines build in seconds.  The tables
 * are byte-identical to those of one BFS per edge switch over the whole
 * switch graph (the former build, kept as the reference of
 * test/models/fabric/test_fab_route.c).  r->build_work counts the steps.
 */
#include "models/fabric/fab_route.h"

#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"

#define UNREACHED UINT16_MAX
#define NONE UINT32_MAX

typedef struct builder builder;
struct builder {
	const fabric *f;    /* the fabric */
	fab_route *r;       /* tables being built */
	uint32_t nedge;     /* edge switches */
	uint32_t *edge;     /* edge switch index -> switch index */
	uint32_t *ep_off;   /* [k .. k+1]: range of edge switch k's endpoints in ep_pbr */
	uint16_t *ep_pbr;   /* PBR ids of the endpoints of each edge switch, port order */
	uint32_t *nb_off;   /* [s .. s+1]: range of s's switch neighbours in nb (CSR) */
	uint32_t *nb;       /* switch neighbours, sorted and unique per switch */
	uint32_t ncls;      /* twin classes */
	uint32_t *cls;      /* [switch] its class */
	uint32_t *cls_rep;  /* [class] its first switch */
	uint32_t *cls_edges;/* [class] edge switches in it */
	uint32_t *q_off;    /* [c .. c+1]: range of class c's neighbour classes in q_nb */
	uint32_t *q_nb;     /* neighbour classes (Q's adjacency) */
	uint32_t ndcls;     /* classes holding an edge switch */
	uint32_t *dcls;     /* [class] its row in dq, or NONE */
	uint16_t *dq;       /* [row * ncls + c] Q-distance from class c to that edge class */
	uint32_t gen;       /* stamp of the switch being built (s + 1) */
	uint32_t *mark;     /* [switch] == gen: a neighbour of the switch being built */
	uint32_t *head;     /* [switch] its lowest port towards that neighbour */
	uint32_t *pnext;    /* [port] next port towards the same neighbour, or NONE */
	uint32_t *cstamp;   /* [class] == gen: cset[class] is valid */
	uint16_t *cset;     /* [class] local set of the switch being built towards it */
	uint32_t ht_mask;   /* intern hash table size - 1 (a power of two) */
	uint32_t *ht_gen;   /* [slot] == gen: slot used by the switch being built */
	uint16_t *ht_set;   /* [slot] local set index */
	uint32_t cap_sets;  /* capacity of set_start */
	uint32_t cap_ports; /* capacity of ports */
	uint16_t *tmp;      /* candidate set */
};

static uint32_t hash_u32(const uint32_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static uint32_t hash_ports(const uint16_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static int has_endpoint(const fabric *f, uint32_t node)
{
	for (uint32_t p = 0; p < f->node[node].nports; p++)
		if (fab_is_endpoint(&f->node[fab_peer(f, node, p)]))
			return 1;
	return 0;
}

static void index_switches(builder *b)
{
	const fabric *f = b->f;
	fab_route *r = b->r;

	r->sw_of = xmalloc((f->nnode ? f->nnode : 1) * sizeof(*r->sw_of));
	r->sw_node = xmalloc((f->nnode ? f->nnode : 1) * sizeof(*r->sw_node));
	b->edge = xmalloc((f->nnode ? f->nnode : 1) * sizeof(*b->edge));
	for (uint32_t n = 0; n < f->nnode; n++) {
		r->sw_of[n] = NONE;
		if (!fab_has(&f->node[n], FAB_ROLE_SWITCH))
			continue;
		r->sw_node[r->nsw] = n;
		if (has_endpoint(f, n))
			b->edge[b->nedge++] = r->nsw;
		r->sw_of[n] = r->nsw++;
	}
}

/* The PBR ids behind each edge switch (ep_off / ep_pbr), so a table row is filled in O(ids). */
static void edge_endpoints(builder *b)
{
	const fabric *f = b->f;
	uint32_t total = 0;

	b->ep_off = xmalloc((b->nedge + 1) * sizeof(*b->ep_off));
	b->ep_pbr = xmalloc((f->npbr ? f->npbr : 1) * sizeof(*b->ep_pbr));
	for (uint32_t k = 0; k < b->nedge; k++) {
		uint32_t n = b->r->sw_node[b->edge[k]];
		b->ep_off[k] = total;
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			const fab_node *e = &f->node[fab_peer(f, n, p)];
			if (!fab_is_endpoint(e))
				continue;
			CXL_ASSERT(total < f->npbr); /* one connection each: behind one switch */
			b->ep_pbr[total++] = e->pbr;
		}
		b->r->build_work += f->node[n].nports;
	}
	b->ep_off[b->nedge] = total;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The sorted, unique switch neighbours of every switch (CSR nb_off / nb). */
static void neighbour_lists(builder *b)
{
	const fabric *f = b->f;
	fab_route *r = b->r;
	uint32_t total = 0;

	b->nb_off = xmalloc((r->nsw + 1) * sizeof(*b->nb_off));
	for (uint32_t s = 0; s < r->nsw; s++)
		total += f->node[r->sw_node[s]].nports;
	b->nb = xmalloc((total ? total : 1) * sizeof(*b->nb));
	total = 0;
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t n = r->sw_node[s], first = total, *l = &b->nb[first];
		b->nb_off[s] = first;
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t m = r->sw_of[fab_peer(f, n, p)];
			if (m != NONE)
				b->nb[total++] = m;
		}
		qsort(l, total - first, sizeof(*l), cmp_u32);
		uint32_t u = 0;
		for (uint32_t i = 0; i < total - first; i++)
			if (!u || l[u - 1] != l[i])
				l[u++] = l[i];
		total = first + u;
		r->build_work += f->node[n].nports;
	}
	b->nb_off[r->nsw] = total;
}

/* Do switches @s and @u have the same neighbour list? */
static int same_neighbours(builder *b, uint32_t s, uint32_t u)
{
	uint32_t n = b->nb_off[s + 1] - b->nb_off[s];

	if (n != b->nb_off[u + 1] - b->nb_off[u])
		return 0;
	b->r->build_work += n;
	return !memcmp(&b->nb[b->nb_off[s]], &b->nb[b->nb_off[u]], n * sizeof(*b->nb));
}

/* Twin classes, numbered in order of their first switch (a hash table of neighbour lists). */
static void twin_classes(builder *b)
{
	fab_route *r = b->r;
	uint32_t size = 2;

	while (size < 2 * r->nsw)
		size *= 2;
	uint32_t *slot = xmalloc(size * sizeof(*slot));
	memset(slot, 0xff, size * sizeof(*slot));
	b->cls = xmalloc((r->nsw ? r->nsw : 1) * sizeof(*b->cls));
	b->cls_rep = xmalloc((r->nsw ? r->nsw : 1) * sizeof(*b->cls_rep));
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t i = hash_u32(&b->nb[b->nb_off[s]], b->nb_off[s + 1] - b->nb_off[s]);
		for (i &= size - 1; slot[i] != NONE; i = (i + 1) & (size - 1))
			if (same_neighbours(b, s, slot[i]))
				break;
		if (slot[i] == NONE) {
			slot[i] = s;
			b->cls_rep[b->ncls] = s;
			b->cls[s] = b->ncls++;
		} else {
			b->cls[s] = b->cls[slot[i]];
		}
	}
	free(slot);
	b->cls_edges = xcalloc(b->ncls ? b->ncls : 1, sizeof(*b->cls_edges));
	for (uint32_t k = 0; k < b->nedge; k++)
		b->cls_edges[b->cls[b->edge[k]]]++;
}

/* Q: the neighbour classes of each class (those of its first switch), unique. */
static void quotient(builder *b)
{
	uint32_t *seen = xmalloc((b->ncls ? b->ncls : 1) * sizeof(*seen)), total = 0;

	memset(seen, 0xff, (b->ncls ? b->ncls : 1) * sizeof(*seen));
	b->q_off = xmalloc((b->ncls + 1) * sizeof(*b->q_off));
	b->q_nb = xmalloc((b->nb_off[b->r->nsw] + 1) * sizeof(*b->q_nb));
	for (uint32_t c = 0; c < b->ncls; c++) {
		uint32_t s = b->cls_rep[c];
		b->q_off[c] = total;
		for (uint32_t i = b->nb_off[s]; i < b->nb_off[s + 1]; i++) {
			uint32_t x = b->cls[b->nb[i]];
			if (seen[x] != c) {
				seen[x] = c;
				b->q_nb[total++] = x;
			}
		}
		b->r->build_work += b->nb_off[s + 1] - b->nb_off[s];
	}
	b->q_off[b->ncls] = total;
	free(seen);
}

/* BFS over Q from class @src into @dist[ncls]. */
static void bfs(builder *b, uint32_t src, uint16_t *dist, uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t c = 0; c < b->ncls; c++)
		dist[c] = UNREACHED;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t c = queue[head++];
		for (uint32_t i = b->q_off[c]; i < b->q_off[c + 1]; i++) {
			uint32_t x = b->q_nb[i];
			if (dist[x] == UNREACHED) {
				dist[x] = (uint16_t)(dist[c] + 1);
				queue[tail++] = x;
			}
		}
		b->r->build_work += 1 + b->q_off[c + 1] - b->q_off[c];
	}
}

/* Hops from switch @s to edge switch @t (UNREACHED: none). */
static uint16_t hops(const builder *b, uint32_t s, uint32_t t)
{
	uint32_t cs = b->cls[s], ct = b->cls[t];

	if (s == t)
		return 0;
	if (cs != ct)
		return b->dq[(size_t)b->dcls[ct] * b->ncls + cs];
	return b->q_off[ct + 1] > b->q_off[ct] ? 2 : UNREACHED;
}

/* The first switch (in switch order) edge switch 0 cannot reach: the error. */
static int not_connected(const builder *b, cxl_err *err)
{
	const fab_route *r = b->r;

	for (uint32_t s = 0; s < r->nsw; s++)
		if (hops(b, s, b->edge[0]) == UNREACHED)
			return cxl_err_set(err, CXL_EINVAL,
					   "the fabric is not connected: switch %s cannot reach switch %s",
					   b->f->node[r->sw_node[s]].name,
					   b->f->node[r->sw_node[b->edge[0]]].name);
	return 0;
}

/* Q-distances from every edge class; the connection check; max_hops. */
static int distances(builder *b, cxl_err *err)
{
	fab_route *r = b->r;
	uint32_t *queue = xmalloc((b->ncls ? b->ncls : 1) * sizeof(*queue));

	b->dcls = xmalloc((b->ncls ? b->ncls : 1) * sizeof(*b->dcls));
	for (uint32_t c = 0; c < b->ncls; c++)
		b->dcls[c] = b->cls_edges[c] ? b->ndcls++ : NONE;
	b->dq = xmalloc(((size_t)b->ndcls * b->ncls + 1) * sizeof(*b->dq));
	for (uint32_t c = 0; c < b->ncls; c++)
		if (b->dcls[c] != NONE)
			bfs(b, c, &b->dq[(size_t)b->dcls[c] * b->ncls], queue);
	free(queue);
	if (b->nedge && not_connected(b, err))
		return CXL_EINVAL;
	for (uint32_t c = 0; c < b->ncls; c++) {
		if (b->dcls[c] == NONE)
			continue;
		if (b->cls_edges[c] > 1 && r->max_hops < 2)
			r->max_hops = 2;
		for (uint32_t x = 0; x < b->ncls; x++) {
			uint16_t d = b->dq[(size_t)b->dcls[c] * b->ncls + x];
			if (b->dcls[x] != NONE && d > r->max_hops)
				r->max_hops = d;
		}
	}
	return 0;
}

/* Local index of set tmp[0..n) at switch @s, appending it if new. */
static uint16_t intern(builder *b, uint32_t s, uint32_t n)
{
	fab_route *r = b->r;
	uint32_t first = r->sw_set0[s], i = hash_ports(b->tmp, n) & b->ht_mask;

	for (; b->ht_gen[i] == b->gen; i = (i + 1) & b->ht_mask) {
		uint32_t g = first + b->ht_set[i], len = r->set_start[g + 1] - r->set_start[g];
		if (len == n && !memcmp(&r->ports[r->set_start[g]], b->tmp, n * sizeof(*b->tmp)))
			return b->ht_set[i];
	}
	CXL_ASSERT(r->nsets - first < FAB_ROUTE_NONE);
	if (r->nsets + 2 > b->cap_sets) {
		b->cap_sets = 2 * b->cap_sets + 16;
		r->set_start = xrealloc(r->set_start, b->cap_sets * sizeof(*r->set_start));
	}
	if (r->nports + n > b->cap_ports) {
		b->cap_ports = 2 * b->cap_ports + n + 16;
		r->ports = xrealloc(r->ports, b->cap_ports * sizeof(*r->ports));
	}
	b->ht_gen[i] = b->gen;
	b->ht_set[i] = (uint16_t)(r->nsets - first);
	memcpy(&r->ports[r->nports], b->tmp, n * sizeof(*b->tmp));
	r->nports += n;
	r->set_start[++r->nsets] = r->nports;
	r->build_work += n;
	return b->ht_set[i];
}

/* Point every endpoint attached to the @k-th edge switch at set @j of switch @s. */
static void route_to_endpoints_of(builder *b, uint32_t s, uint32_t k, uint16_t j)
{
	uint16_t *row = &b->r->set_of[(size_t)s * b->r->npbr];

	for (uint32_t i = b->ep_off[k]; i < b->ep_off[k + 1]; i++)
		row[b->ep_pbr[i]] = j;
}

/* Chain the ports of switch @s by neighbour (head / pnext), ascending. */
static void chain_ports(builder *b, uint32_t s)
{
	const fabric *f = b->f;
	uint32_t n = b->r->sw_node[s];

	for (uint32_t p = f->node[n].nports; p-- > 0;) {
		uint32_t m = b->r->sw_of[fab_peer(f, n, p)];
		if (m == NONE)
			continue;
		if (b->mark[m] != b->gen) {
			b->mark[m] = b->gen;
			b->head[m] = NONE;
		}
		b->pnext[p] = b->head[m];
		b->head[m] = p;
	}
	b->r->build_work += f->node[n].nports;
}

/*
 * The set of switch @s towards a switch of class @c that is no neighbour:
 * the ports whose peer's class is one step closer to @c (every switch port
 * when @c is s's own class: a twin is 2 away, every neighbour 1).
 */
static uint16_t class_set(builder *b, uint32_t s, uint32_t c)
{
	const fabric *f = b->f;
	uint32_t n = b->r->sw_node[s], cnt = 0;
	const uint16_t *d = &b->dq[(size_t)b->dcls[c] * b->ncls];
	uint16_t here = c == b->cls[s] ? 2 : d[b->cls[s]];

	for (uint32_t p = 0; p < f->node[n].nports; p++) {
		uint32_t m = b->r->sw_of[fab_peer(f, n, p)];
		if (m != NONE && (c == b->cls[s] || d[b->cls[m]] + 1 == here))
			b->tmp[cnt++] = (uint16_t)p;
	}
	b->r->build_work += f->node[n].nports;
	CXL_ASSERT(cnt > 0);
	return intern(b, s, cnt);
}

/* The local set of switch @s towards edge switch @t (t != s). */
static uint16_t set_towards(builder *b, uint32_t s, uint32_t t)
{
	uint32_t c = b->cls[t], cnt = 0;

	b->r->build_work++;
	if (b->mark[t] == b->gen) {
		for (uint32_t p = b->head[t]; p != NONE; p = b->pnext[p])
			b->tmp[cnt++] = (uint16_t)p;
		return intern(b, s, cnt);
	}
	if (b->cstamp[c] != b->gen) {
		b->cstamp[c] = b->gen;
		b->cset[c] = class_set(b, s, c);
	}
	return b->cset[c];
}

/* Sets of switch @s: its own endpoints, then every other edge switch. */
static void build_switch(builder *b, uint32_t s)
{
	const fabric *f = b->f;
	fab_route *r = b->r;
	uint32_t n = r->sw_node[s];

	r->sw_set0[s] = r->nsets;
	b->gen = s + 1;
	for (uint32_t p = 0; p < f->node[n].nports; p++) {
		const fab_node *e = &f->node[fab_peer(f, n, p)];
		if (!fab_is_endpoint(e))
			continue;
		b->tmp[0] = (uint16_t)p;
		r->set_of[(size_t)s * r->npbr + e->pbr] = intern(b, s, 1);
	}
	chain_ports(b, s);
	for (uint32_t k = 0; k < b->nedge; k++)
		if (b->edge[k] != s)
			route_to_endpoints_of(b, s, k, set_towards(b, s, b->edge[k]));
	for (uint32_t dst = 0; dst < r->npbr; dst++) {
		uint32_t cnt;
		fab_route_ports(r, s, dst, &cnt);
		r->multipath += cnt > 1;
	}
}

/* Scratch of the per-switch pass, sized for the largest switch. */
static void tables_init(builder *b)
{
	const fabric *f = b->f;
	fab_route *r = b->r;
	uint32_t maxports = 1, size = 2;

	for (uint32_t n = 0; n < f->nnode; n++)
		maxports = f->node[n].nports > maxports ? f->node[n].nports : maxports;
	while (size < 2 * ((uint64_t)b->nedge + maxports))
		size *= 2;
	r->set_of = xmalloc(((size_t)r->nsw * r->npbr + 1) * sizeof(*r->set_of));
	memset(r->set_of, 0xff, ((size_t)r->nsw * r->npbr + 1) * sizeof(*r->set_of));
	r->sw_set0 = xmalloc((r->nsw + 1) * sizeof(*r->sw_set0));
	b->cap_sets = 16;
	r->set_start = xmalloc(b->cap_sets * sizeof(*r->set_start));
	r->set_start[0] = 0;
	b->ht_mask = size - 1;
	b->ht_gen = xcalloc(size, sizeof(*b->ht_gen));
	b->ht_set = xmalloc(size * sizeof(*b->ht_set));
	b->tmp = xmalloc(maxports * sizeof(*b->tmp));
	b->pnext = xmalloc(maxports * sizeof(*b->pnext));
	b->mark = xcalloc(r->nsw ? r->nsw : 1, sizeof(*b->mark));
	b->head = xmalloc((r->nsw ? r->nsw : 1) * sizeof(*b->head));
	b->cstamp = xcalloc(b->ncls ? b->ncls : 1, sizeof(*b->cstamp));
	b->cset = xmalloc((b->ncls ? b->ncls : 1) * sizeof(*b->cset));
}

static void builder_free(builder *b)
{
	free(b->edge);
	free(b->ep_off);
	free(b->ep_pbr);
	free(b->nb_off);
	free(b->nb);
	free(b->cls);
	free(b->cls_rep);
	free(b->cls_edges);
	free(b->q_off);
	free(b->q_nb);
	free(b->dcls);
	free(b->dq);
	free(b->mark);
	free(b->head);
	free(b->pnext);
	free(b->cstamp);
	free(b->cset);
	free(b->ht_gen);
	free(b->ht_set);
	free(b->tmp);
}

int fab_route_build(const fabric *f, fab_route *r, cxl_err *err)
{
	builder b = { .f = f, .r = r };
	int rc;

	*r = (fab_route){ .npbr = f->npbr, .nnode = f->nnode };
	index_switches(&b);
	edge_endpoints(&b);
	neighbour_lists(&b);
	twin_classes(&b);
	quotient(&b);
	if ((rc = distances(&b, err)))
		goto out;
	tables_init(&b);
	for (uint32_t s = 0; s < r->nsw; s++)
		build_switch(&b, s);
	r->sw_set0[r->nsw] = r->nsets;
	r->nclass = b.ncls;
out:
	builder_free(&b);
	if (rc)
		fab_route_free(r);
	return rc;
}

void fab_route_free(fab_route *r)
{
	free(r->sw_of);
	free(r->sw_node);
	free(r->set_of);
	free(r->sw_set0);
	free(r->set_start);
	free(r->ports);
	*r = (fab_route){ 0 };
}

/* A fixed 64-bit mix of (switch, source, destination) (splitmix64 finaliser). */
static uint64_t flow_hash(uint32_t s, uint32_t src, uint32_t dst)
{
	uint64_t x = ((uint64_t)src << 32 | dst) ^ ((uint64_t)s * 0x9e3779b97f4a7c15ull);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

int fab_route_oblivious(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst)
{
	uint32_t n;
	const uint16_t *p = fab_route_ports(r, s, dst, &n);

	if (!n)
		return -1;
	return n == 1 ? p[0] : p[flow_hash(s, src, dst) % n];
}

int fab_route_adaptive_by(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst,
			  fab_load_fn *load, const void *ctx)
{
	uint32_t n;
	const uint16_t *p = fab_route_ports(r, s, dst, &n);

	if (n <= 1)
		return n ? p[0] : -1;
	uint32_t start = (uint32_t)(flow_hash(s, src, dst) % n), best = start;
	uint32_t lbest = load(ctx, p[start]);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t k = (start + i) % n, l = load(ctx, p[k]);
		if (l < lbest) {
			best = k;
			lbest = l;
		}
	}
	return p[best];
}

static uint32_t array_load(const void *ctx, uint32_t port)
{
	return ((const uint32_t *)ctx)[port];
}

int fab_route_adaptive(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst,
		       const uint32_t *load)
{
	return fab_route_adaptive_by(r, s, src, dst, array_load, load);
}

uint64_t fab_route_checksum(const fab_route *r)
{
	uint64_t h = 14695981039346656037ull;

	h = fab_fnv(h, &r->nsw, sizeof(r->nsw));
	h = fab_fnv(h, &r->npbr, sizeof(r->npbr));
	h = fab_fnv(h, r->set_of, (size_t)r->nsw * r->npbr * sizeof(*r->set_of));
	h = fab_fnv(h, r->sw_set0, r->nsw * sizeof(*r->sw_set0));
	h = fab_fnv(h, r->set_start, (r->nsets + 1) * sizeof(*r->set_start));
	return fab_fnv(h, r->ports, r->nports * sizeof(*r->ports));
}

size_t fab_route_bytes(const fab_route *r)
{
	return (size_t)r->nsw * r->npbr * sizeof(*r->set_of) +
	       (r->nsw + 1) * sizeof(*r->sw_set0) + (r->nsets + 1) * sizeof(*r->set_start) +
	       r->nports * sizeof(*r->ports) + ((size_t)r->nnode + r->nsw) * sizeof(uint32_t);
}
