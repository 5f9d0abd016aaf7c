/*
 * models/fabric/fab_route.c - building and querying the PBR routing tables (see
 * fab_route.h).
 *
 * Build: one BFS over the switch graph from each edge switch, O(edge
 * switches x (switches + connections)) time, distances kept as a dense
 * uint16 matrix [edge switch][switch] only during the build.  Then, switch
 * by switch, the minimal port set towards each edge switch is computed and
 * deduplicated against the switch's earlier sets (hash, then compare).
 */
#include "models/fabric/fab_route.h"

#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"

#define UNREACHED UINT16_MAX

typedef struct builder builder;
struct builder {
	const fabric *f;    /* the fabric */
	fab_route *r;       /* tables being built */
	uint32_t nedge;     /* edge switches */
	uint32_t *edge;     /* edge switch index -> switch index */
	uint16_t *dist;     /* [e * nsw + s] hops from switch s to edge switch e */
	uint32_t cap_sets;  /* capacity of set_start */
	uint32_t cap_ports; /* capacity of ports */
	uint32_t *hash;     /* hash of each set of the current switch */
	uint16_t *tmp;      /* candidate set */
};

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
		r->sw_of[n] = UINT32_MAX;
		if (!fab_has(&f->node[n], FAB_ROLE_SWITCH))
			continue;
		r->sw_node[r->nsw] = n;
		if (has_endpoint(f, n))
			b->edge[b->nedge++] = r->nsw;
		r->sw_of[n] = r->nsw++;
	}
}

/* BFS from switch @src over switch-to-switch connections into @dist[nsw]. */
static void bfs(const builder *b, uint32_t src, uint16_t *dist, uint32_t *queue)
{
	const fabric *f = b->f;
	const fab_route *r = b->r;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < r->nsw; s++)
		dist[s] = UNREACHED;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t s = queue[head++], n = r->sw_node[s];
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t m = r->sw_of[fab_peer(f, n, p)];
			if (m != UINT32_MAX && dist[m] == UNREACHED) {
				dist[m] = (uint16_t)(dist[s] + 1);
				queue[tail++] = m;
			}
		}
	}
}

static int distances(builder *b, cxl_err *err)
{
	fab_route *r = b->r;
	uint32_t *queue = xmalloc((r->nsw ? r->nsw : 1) * sizeof(*queue));

	b->dist = xmalloc(((size_t)b->nedge * r->nsw + 1) * sizeof(*b->dist));
	for (uint32_t e = 0; e < b->nedge; e++) {
		uint16_t *d = &b->dist[(size_t)e * r->nsw];
		bfs(b, b->edge[e], d, queue);
		for (uint32_t s = 0; s < r->nsw; s++) {
			if (d[s] == UNREACHED) {
				free(queue);
				return cxl_err_set(err, CXL_EINVAL,
						   "the fabric is not connected: switch %s cannot reach switch %s",
						   b->f->node[r->sw_node[s]].name,
						   b->f->node[r->sw_node[b->edge[e]]].name);
			}
		}
		for (uint32_t k = 0; k < b->nedge; k++)
			if (d[b->edge[k]] > r->max_hops)
				r->max_hops = d[b->edge[k]];
	}
	free(queue);
	return 0;
}

/* Local index of set tmp[0..n) at switch @s, appending it if new. */
static uint16_t intern(builder *b, uint32_t s, uint32_t n)
{
	fab_route *r = b->r;
	uint32_t h = hash_ports(b->tmp, n), first = r->sw_set0[s];

	for (uint32_t g = first; g < r->nsets; g++) {
		uint32_t len = r->set_start[g + 1] - r->set_start[g];
		if (b->hash[g - first] == h && len == n &&
		    !memcmp(&r->ports[r->set_start[g]], b->tmp, n * sizeof(*b->tmp)))
			return (uint16_t)(g - first);
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
	b->hash[r->nsets - first] = h;
	memcpy(&r->ports[r->nports], b->tmp, n * sizeof(*b->tmp));
	r->nports += n;
	r->set_start[++r->nsets] = r->nports;
	return (uint16_t)(r->nsets - 1 - first);
}

/* Point every endpoint attached to edge switch @t at set @j of switch @s. */
static void route_to_endpoints_of(builder *b, uint32_t s, uint32_t t, uint16_t j)
{
	const fabric *f = b->f;
	uint32_t tn = b->r->sw_node[t];

	for (uint32_t p = 0; p < f->node[tn].nports; p++) {
		const fab_node *e = &f->node[fab_peer(f, tn, p)];
		if (fab_is_endpoint(e))
			b->r->set_of[(size_t)s * b->r->npbr + e->pbr] = j;
	}
}

/* Sets of switch @s: its own endpoints, then every other edge switch. */
static void build_switch(builder *b, uint32_t s)
{
	const fabric *f = b->f;
	fab_route *r = b->r;
	uint32_t n = r->sw_node[s];

	r->sw_set0[s] = r->nsets;
	for (uint32_t p = 0; p < f->node[n].nports; p++) {
		const fab_node *e = &f->node[fab_peer(f, n, p)];
		if (!fab_is_endpoint(e))
			continue;
		b->tmp[0] = (uint16_t)p;
		r->set_of[(size_t)s * r->npbr + e->pbr] = intern(b, s, 1);
	}
	for (uint32_t k = 0; k < b->nedge; k++) {
		uint32_t t = b->edge[k], cnt = 0;
		if (t == s)
			continue;
		const uint16_t *d = &b->dist[(size_t)k * r->nsw];
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t m = r->sw_of[fab_peer(f, n, p)];
			if (m != UINT32_MAX && d[m] + 1 == d[s])
				b->tmp[cnt++] = (uint16_t)p;
		}
		CXL_ASSERT(cnt > 0);
		route_to_endpoints_of(b, s, t, intern(b, s, cnt));
	}
	for (uint32_t dst = 0; dst < r->npbr; dst++) {
		uint32_t cnt;
		fab_route_ports(r, s, dst, &cnt);
		r->multipath += cnt > 1;
	}
}

int fab_route_build(const fabric *f, fab_route *r, cxl_err *err)
{
	builder b = { .f = f, .r = r };
	uint32_t maxports = 1;
	int rc;

	*r = (fab_route){ .npbr = f->npbr, .nnode = f->nnode };
	index_switches(&b);
	if ((rc = distances(&b, err)))
		goto out;
	for (uint32_t n = 0; n < f->nnode; n++)
		maxports = f->node[n].nports > maxports ? f->node[n].nports : maxports;
	r->set_of = xmalloc(((size_t)r->nsw * r->npbr + 1) * sizeof(*r->set_of));
	memset(r->set_of, 0xff, ((size_t)r->nsw * r->npbr + 1) * sizeof(*r->set_of));
	r->sw_set0 = xmalloc((r->nsw + 1) * sizeof(*r->sw_set0));
	b.cap_sets = 16;
	r->set_start = xmalloc(b.cap_sets * sizeof(*r->set_start));
	r->set_start[0] = 0;
	b.hash = xmalloc(((size_t)b.nedge + maxports + 1) * sizeof(*b.hash));
	b.tmp = xmalloc(maxports * sizeof(*b.tmp));
	for (uint32_t s = 0; s < r->nsw; s++)
		build_switch(&b, s);
	r->sw_set0[r->nsw] = r->nsets;
out:
	free(b.edge);
	free(b.dist);
	free(b.hash);
	free(b.tmp);
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
