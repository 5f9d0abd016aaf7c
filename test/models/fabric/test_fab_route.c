/*
 * test/models/fabric/test_fab_route.c - unit tests for models/fabric/fab_route.c.
 *
 * The routing tables are checked against an independent BFS over the
 * engine graph (components and links, not the fabric's switch graph): for
 * every destination, every port listed at every switch leads one connection
 * closer (two links: switch -> bus -> next node), no minimal port is
 * missing, and the oblivious route from every source arrives along a
 * shortest path.  Every pair on small instances of each kind; sampled
 * destinations and sources on the 4096-port spine-leaf rack.  Also: tables
 * are byte-identical when built twice, memory is O(switches x edge ports),
 * adaptive routing picks the least-loaded minimal port.
 *
 * The build (twin classes, fab_route.c) is compared table for table with
 * the former one - one BFS over the whole switch graph per edge switch,
 * O(edge switches x connections), kept here as ref_build() - on every kind
 * and on random fabrics with twins, parallel connections and switches
 * without endpoints; and its step count (build_work) is bounded by a
 * constant times (connections + switches x edge switches), which the
 * former build exceeds 20-fold on a 256 x 256 spine-leaf: a quadratic
 * regression fails without any timing.
 */
#include "models/fabric/fab_route.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"
#include "models/fabric/fab_topo.h"
#include "test/models/fabric/fab_fixture.h"

typedef struct adjg adjg;
struct adjg {
	uint32_t *off; /* CSR offsets, ncomp + 1 */
	uint32_t *nb;  /* neighbours */
	uint32_t *dist; /* BFS scratch */
	uint32_t *queue;
};

static void make(const fab_topo *t, fabric *f, sim_graph *g)
{
	cxl_err e = { 0 };

	ck_assert_msg(fab_fixture_make(t, f, g, &e) == 0, "%s", e.msg);
}

static void adj_build(const sim_graph *g, adjg *a)
{
	a->off = calloc(g->ncomp + 1, sizeof(*a->off));
	a->nb = malloc(2 * g->nlink * sizeof(*a->nb));
	a->dist = malloc(g->ncomp * sizeof(*a->dist));
	a->queue = malloc(g->ncomp * sizeof(*a->queue));
	for (uint32_t l = 0; l < g->nlink; l++) {
		a->off[g->link[l].a + 1]++;
		a->off[g->link[l].b + 1]++;
	}
	for (uint32_t i = 0; i < g->ncomp; i++)
		a->off[i + 1] += a->off[i];
	uint32_t *fill = calloc(g->ncomp, sizeof(*fill));
	for (uint32_t l = 0; l < g->nlink; l++) {
		uint32_t x = g->link[l].a, y = g->link[l].b;
		a->nb[a->off[x] + fill[x]++] = y;
		a->nb[a->off[y] + fill[y]++] = x;
	}
	free(fill);
}

static void adj_free(adjg *a)
{
	free(a->off);
	free(a->nb);
	free(a->dist);
	free(a->queue);
}

/* Hop distances (links) from component @src to every component. */
static void graph_bfs(const sim_graph *g, adjg *a, uint32_t src)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < g->ncomp; i++)
		a->dist[i] = UINT32_MAX;
	a->dist[src] = 0;
	a->queue[tail++] = src;
	while (head < tail) {
		uint32_t x = a->queue[head++];
		for (uint32_t j = a->off[x]; j < a->off[x + 1]; j++)
			if (a->dist[a->nb[j]] == UINT32_MAX) {
				a->dist[a->nb[j]] = a->dist[x] + 1;
				a->queue[tail++] = a->nb[j];
			}
	}
}

/* Every switch's set towards @dst is exactly its minimal ports (dist from BFS at dst). */
static void check_sets_to(const fabric *f, const adjg *a, uint32_t dst)
{
	const fab_route *r = &f->route;

	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t n = r->sw_node[s], cnt, listed = 0;
		uint32_t here = a->dist[f->node[n].comp];
		const uint16_t *p = fab_route_ports(r, s, dst, &cnt);
		for (uint32_t port = 0; port < f->node[n].nports; port++) {
			uint32_t next = f->node[fab_peer(f, n, port)].comp;
			int minimal = a->dist[next] + 2 == here;
			int in = 0;
			for (uint32_t i = 0; i < cnt; i++)
				in |= p[i] == port;
			if (minimal != in)
				ck_abort_msg("switch %s port %u towards pbr %u: minimal %d, listed %d",
					     f->node[n].name, port, dst, minimal, in);
			listed += in;
		}
		if (listed != cnt || !cnt)
			ck_abort_msg("switch %s towards pbr %u: %u listed, %u valid", f->node[n].name,
				     dst, cnt, listed);
	}
}

/* The oblivious route src -> dst (pbr ids) arrives in @want connections. */
static void check_walk(const fabric *f, uint32_t src, uint32_t dst, uint32_t want)
{
	uint32_t n = f->pbr_node[src], hops = 1;

	n = fab_peer(f, n, 0);
	while (n != f->pbr_node[dst]) {
		if (f->node[n].kind != FAB_SWITCH || hops > want)
			ck_abort_msg("route %u -> %u strays at %s after %u hops", src, dst,
				     f->node[n].name, hops);
		int port = fab_route_oblivious(&f->route, f->route.sw_of[n], src, dst);
		ck_assert_int_ge(port, 0);
		n = fab_peer(f, n, (uint32_t)port);
		hops++;
	}
	if (hops != want)
		ck_abort_msg("route %u -> %u: %u hops, shortest %u", src, dst, hops, want);
}

/* Check every (or every @step-th) destination and source of a built fabric. */
static void check_fabric_step(const fabric *f, const sim_graph *g, uint32_t step)
{
	adjg a;

	adj_build(g, &a);
	for (uint32_t d = 0; d < f->npbr; d += step) {
		graph_bfs(g, &a, f->node[f->pbr_node[d]].comp);
		check_sets_to(f, &a, d);
		for (uint32_t s = d % step; s < f->npbr; s += step)
			if (s != d)
				check_walk(f, s, d, a.dist[f->node[f->pbr_node[s]].comp] / 2);
	}
	adj_free(&a);
}

static void check_fabric_built(const fabric *f, const sim_graph *g)
{
	check_fabric_step(f, g, 1);
}

/* Check every (or every @step-th) destination and source. */
static void check_fabric(const fab_topo *t, uint32_t step)
{
	fabric f;
	sim_graph g;

	make(t, &f, &g);
	check_fabric_step(&f, &g, step);
	fab_fixture_drop(&f, &g);
}

/* --- the former build, the reference (models/fabric/fab_route.c before the twin classes) --- */

typedef struct ref_builder ref_builder;
struct ref_builder {
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

static uint32_t ref_hash(const uint16_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static int ref_has_endpoint(const fabric *f, uint32_t node)
{
	for (uint32_t p = 0; p < f->node[node].nports; p++)
		if (fab_is_endpoint(&f->node[fab_peer(f, node, p)]))
			return 1;
	return 0;
}

static void ref_index_switches(ref_builder *b)
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
		if (ref_has_endpoint(f, n))
			b->edge[b->nedge++] = r->nsw;
		r->sw_of[n] = r->nsw++;
	}
}

static void ref_bfs(const ref_builder *b, uint32_t src, uint16_t *dist, uint32_t *queue)
{
	const fabric *f = b->f;
	const fab_route *r = b->r;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < r->nsw; s++)
		dist[s] = UINT16_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t s = queue[head++], n = r->sw_node[s];
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t m = r->sw_of[fab_peer(f, n, p)];
			if (m != UINT32_MAX && dist[m] == UINT16_MAX) {
				dist[m] = (uint16_t)(dist[s] + 1);
				queue[tail++] = m;
			}
		}
	}
}

static int ref_distances(ref_builder *b, cxl_err *err)
{
	fab_route *r = b->r;
	uint32_t *queue = xmalloc((r->nsw ? r->nsw : 1) * sizeof(*queue));

	b->dist = xmalloc(((size_t)b->nedge * r->nsw + 1) * sizeof(*b->dist));
	for (uint32_t e = 0; e < b->nedge; e++) {
		uint16_t *d = &b->dist[(size_t)e * r->nsw];
		ref_bfs(b, b->edge[e], d, queue);
		for (uint32_t s = 0; s < r->nsw; s++) {
			if (d[s] == UINT16_MAX) {
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

static uint16_t ref_intern(ref_builder *b, uint32_t s, uint32_t n)
{
	fab_route *r = b->r;
	uint32_t h = ref_hash(b->tmp, n), first = r->sw_set0[s];

	for (uint32_t g = first; g < r->nsets; g++) {
		uint32_t len = r->set_start[g + 1] - r->set_start[g];
		if (b->hash[g - first] == h && len == n &&
		    !memcmp(&r->ports[r->set_start[g]], b->tmp, n * sizeof(*b->tmp)))
			return (uint16_t)(g - first);
	}
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

static void ref_to_endpoints_of(ref_builder *b, uint32_t s, uint32_t t, uint16_t j)
{
	const fabric *f = b->f;
	uint32_t tn = b->r->sw_node[t];

	for (uint32_t p = 0; p < f->node[tn].nports; p++) {
		const fab_node *e = &f->node[fab_peer(f, tn, p)];
		if (fab_is_endpoint(e))
			b->r->set_of[(size_t)s * b->r->npbr + e->pbr] = j;
	}
}

static void ref_build_switch(ref_builder *b, uint32_t s)
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
		r->set_of[(size_t)s * r->npbr + e->pbr] = ref_intern(b, s, 1);
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
		ck_assert_uint_gt(cnt, 0);
		ref_to_endpoints_of(b, s, t, ref_intern(b, s, cnt));
	}
	for (uint32_t dst = 0; dst < r->npbr; dst++) {
		uint32_t cnt;
		fab_route_ports(r, s, dst, &cnt);
		r->multipath += cnt > 1;
	}
}

/* ref_build - the former fab_route_build(), O(edge switches x connections). */
static int ref_build(const fabric *f, fab_route *r, cxl_err *err)
{
	ref_builder b = { .f = f, .r = r };
	uint32_t maxports = 1;
	int rc;

	*r = (fab_route){ .npbr = f->npbr, .nnode = f->nnode };
	ref_index_switches(&b);
	if ((rc = ref_distances(&b, err)))
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
		ref_build_switch(&b, s);
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

/* The tables of @f equal the reference build's, every array and count. */
static void check_same_as_reference(const fabric *f)
{
	const fab_route *r = &f->route;
	fab_route ref;
	cxl_err e = { 0 };

	ck_assert_msg(ref_build(f, &ref, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(r->nsw, ref.nsw);
	ck_assert_uint_eq(r->npbr, ref.npbr);
	ck_assert_uint_eq(r->nsets, ref.nsets);
	ck_assert_uint_eq(r->nports, ref.nports);
	ck_assert_uint_eq(r->max_hops, ref.max_hops);
	ck_assert_uint_eq(r->multipath, ref.multipath);
	ck_assert_int_eq(memcmp(r->sw_of, ref.sw_of, r->nnode * sizeof(*r->sw_of)), 0);
	ck_assert_int_eq(memcmp(r->set_of, ref.set_of,
				(size_t)r->nsw * r->npbr * sizeof(*r->set_of)), 0);
	ck_assert_int_eq(memcmp(r->sw_set0, ref.sw_set0, (r->nsw + 1) * sizeof(*r->sw_set0)), 0);
	ck_assert_int_eq(memcmp(r->set_start, ref.set_start,
				(r->nsets + 1) * sizeof(*r->set_start)), 0);
	ck_assert_int_eq(memcmp(r->ports, ref.ports, r->nports * sizeof(*r->ports)), 0);
	ck_assert_uint_eq(fab_route_checksum(r), fab_route_checksum(&ref));
	fab_route_free(&ref);
}

/* xorshift32, seeded by the test. */
static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* The peer across port @port of node @n before fab_finish() (no adjacency yet). */
static uint32_t fab_peer_raw(const fabric *f, uint32_t n, uint32_t port)
{
	for (uint32_t c = 0; c < f->nconn; c++) {
		if (f->conn[c].a == n && f->conn[c].aport == port)
			return f->conn[c].b;
		if (f->conn[c].b == n && f->conn[c].bport == port)
			return f->conn[c].a;
	}
	ck_abort_msg("node %u has no port %u", n, port);
	return 0;
}

/*
 * A random connected fabric of @nsw switches: a random tree, then @extra
 * random connections (parallel ones too), then "twin" copies - switches
 * wired to the same neighbours as an earlier one - and endpoints on a
 * random half of the switches.
 */
static int make_random(fabric *f, sim_graph *g, uint32_t nsw, uint32_t extra, uint32_t seed,
		       cxl_err *e)
{
	char name[32];
	uint32_t x = seed * 2654435761u + 1, base = nsw / 2, nep = 0;

	fab_init(f, "custom", 1000);
	graph_init(g);
	for (uint32_t s = 0; s < nsw; s++) {
		snprintf(name, sizeof(name), "sw%u", s);
		fab_add_node(f, FAB_SWITCH, name);
	}
	for (uint32_t s = 1; s < base; s++)
		ck_assert_int_eq(fab_connect(f, s, rnd(&x) % s, e), 0);
	for (uint32_t i = 0; i < extra; i++) {
		uint32_t a = rnd(&x) % base, b = rnd(&x) % base;
		if (a != b)
			ck_assert_int_eq(fab_connect(f, a, b, e), 0);
	}
	for (uint32_t s = base; s < nsw; s++) { /* a twin of a random earlier switch */
		uint32_t of = rnd(&x) % base, np = f->node[of].nports;
		for (uint32_t p = 0; p < np; p++)
			ck_assert_int_eq(fab_connect(f, s, fab_peer_raw(f, of, p), e), 0);
		if (!np)
			ck_assert_int_eq(fab_connect(f, s, of, e), 0);
	}
	for (uint32_t s = 0; s < nsw; s++) {
		for (uint32_t k = rnd(&x) % 3; k-- > 0 && nep < 64;) {
			snprintf(name, sizeof(name), k % 2 ? "host%u" : "mem%u", nep++);
			uint32_t n = fab_add_node(f, k % 2 ? FAB_HOST : FAB_MEMORY, name);
			ck_assert_int_eq(fab_connect(f, n, s, e), 0);
		}
	}
	return fab_finish(f, g, e);
}

START_TEST(test_fab_route_minimal_every_kind)
{
	const fab_topo t[] = {
		{ .kind = FAB_CHAIN, .switches = 8, .hosts = 8, .memories = 8 },
		{ .kind = FAB_RING, .switches = 8, .hosts = 8, .memories = 8 },
		{ .kind = FAB_RING, .switches = 7, .hosts = 3, .accels = 2, .memories = 9 },
		{ .kind = FAB_TREE, .switches = 8, .hosts = 8, .memories = 8, .arity = 2 },
		{ .kind = FAB_TREE, .switches = 10, .hosts = 7, .memories = 13, .arity = 3 },
		{ .kind = FAB_SPINE_LEAF, .leaves = 8, .spines = 4, .hosts_per_leaf = 2,
		  .mems_per_leaf = 2 },
		{ .kind = FAB_FULLY_CONNECTED, .switches = 8, .hosts = 8, .memories = 8 },
		{ .kind = FAB_FAT_TREE, .k = 6, .hosts = 27, .memories = 27 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check_fabric(&t[i], 1);
}
END_TEST

START_TEST(test_fab_route_same_as_reference_every_kind)
{
	const fab_topo t[] = {
		{ .kind = FAB_CHAIN, .switches = 9, .hosts = 5, .memories = 8 },
		{ .kind = FAB_RING, .switches = 12, .hosts = 12, .memories = 12 },
		{ .kind = FAB_RING, .switches = 7, .hosts = 3, .accels = 2, .memories = 9 },
		{ .kind = FAB_TREE, .switches = 10, .hosts = 7, .memories = 13, .arity = 3 },
		{ .kind = FAB_TREE, .switches = 16, .hosts = 16, .memories = 16, .arity = 4 },
		{ .kind = FAB_SPINE_LEAF, .leaves = 8, .spines = 4, .hosts_per_leaf = 2,
		  .mems_per_leaf = 2 },
		{ .kind = FAB_SPINE_LEAF, .leaves = 33, .spines = 5, .hosts_per_leaf = 1,
		  .mems_per_leaf = 0 },
		{ .kind = FAB_SPINE_LEAF, .leaves = 1, .spines = 3, .hosts_per_leaf = 2,
		  .mems_per_leaf = 2 },
		{ .kind = FAB_FULLY_CONNECTED, .switches = 9, .hosts = 9, .memories = 4 },
		{ .kind = FAB_FAT_TREE, .k = 6, .hosts = 27, .memories = 27 },
		{ .kind = FAB_FAT_TREE, .k = 8, .hosts = 20, .memories = 40 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fabric f;
		sim_graph g;
		make(&t[i], &f, &g);
		check_same_as_reference(&f);
		fab_fixture_drop(&f, &g);
	}
}
END_TEST

START_TEST(test_fab_route_same_as_reference_random)
{
	for (uint32_t seed = 1; seed <= 40; seed++) {
		fabric f;
		sim_graph g;
		cxl_err e = { 0 };
		uint32_t nsw = 4 + seed % 23, extra = seed % 7 * (nsw / 3);
		int rc = make_random(&f, &g, nsw, extra, seed, &e);
		if (rc == 0) {
			check_same_as_reference(&f);
			check_fabric_built(&f, &g);
			ck_assert_uint_lt(f.route.nclass, nsw + 1);
		} else {
			ck_assert_msg(strstr(e.msg, "not connected") || strstr(e.msg, "endpoint"),
				      "seed %u: %s", seed, e.msg);
		}
		fab_fixture_drop(&f, &g);
	}
}
END_TEST

/* Two disconnected halves: the same error as the reference build, naming the same switches. */
START_TEST(test_fab_route_not_connected_same_error)
{
	fabric f;
	sim_graph g;
	cxl_err e = { 0 }, er = { 0 };
	fab_route ref;

	fab_init(&f, "custom", 1000);
	graph_init(&g);
	uint32_t s0 = fab_add_node(&f, FAB_SWITCH, "a0"), s1 = fab_add_node(&f, FAB_SWITCH, "a1");
	uint32_t s2 = fab_add_node(&f, FAB_SWITCH, "b0"), s3 = fab_add_node(&f, FAB_SWITCH, "b1");
	uint32_t h = fab_add_node(&f, FAB_HOST, "host0"), m = fab_add_node(&f, FAB_MEMORY, "mem0");
	ck_assert_int_eq(fab_connect(&f, s0, s1, &e), 0);
	ck_assert_int_eq(fab_connect(&f, s2, s3, &e), 0);
	ck_assert_int_eq(fab_connect(&f, h, s1, &e), 0);
	ck_assert_int_eq(fab_connect(&f, m, s3, &e), 0);
	ck_assert_int_ne(fab_finish(&f, &g, &e), 0);
	ck_assert_int_ne(ref_build(&f, &ref, &er), 0);
	ck_assert_str_eq(e.msg, er.msg);
	ck_assert_ptr_nonnull(strstr(e.msg, "switch b0 cannot reach switch a1"));
	fab_fixture_drop(&f, &g);
}
END_TEST

/*
 * No quadratic build: the steps stay within a constant of connections +
 * switches x edge switches (the tables' own size).  The former build takes
 * edge switches x adjacency entries: 256 x 2 x 66048 on the 256 x 256
 * spine-leaf, over 20 times the bound.
 */
START_TEST(test_fab_route_build_work_linear)
{
	const fab_topo t[] = {
		{ .kind = FAB_SPINE_LEAF, .leaves = 64, .spines = 16, .hosts_per_leaf = 1,
		  .mems_per_leaf = 1 },
		{ .kind = FAB_SPINE_LEAF, .leaves = 256, .spines = 256, .hosts_per_leaf = 1,
		  .mems_per_leaf = 1 },
		{ .kind = FAB_FAT_TREE, .k = 16, .hosts = 512, .memories = 512 },
	};
	/* the former build's steps over the bound, at least (measured: 4.9, 32, 4.1) */
	const uint64_t times[] = { 1, 20, 1 };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fabric f;
		sim_graph g;
		make(&t[i], &f, &g);
		const fab_route *r = &f.route;
		uint64_t nedge = 0, bound;
		for (uint32_t s = 0; s < r->nsw; s++) {
			uint32_t n = r->sw_node[s], has = 0;
			for (uint32_t p = 0; p < f.node[n].nports; p++)
				has |= fab_is_endpoint(&f.node[fab_peer(&f, n, p)]);
			nedge += has;
		}
		bound = 4 * (2 * (uint64_t)f.nconn + (uint64_t)r->nsw * nedge + r->npbr);
		ck_assert_msg(r->build_work <= bound, "topology %zu: %llu steps, bound %llu", i,
			      (unsigned long long)r->build_work, (unsigned long long)bound);
		/* the former build's BFS alone: edge switches x adjacency entries */
		ck_assert_uint_ge(nedge * 2 * (uint64_t)f.nconn, times[i] * bound);
		if (t[i].kind == FAB_SPINE_LEAF)
			ck_assert_uint_eq(r->nclass, 2);
		fab_fixture_drop(&f, &g);
	}
}
END_TEST

START_TEST(test_fab_route_minimal_rack_4096_sampled)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 64, .spines = 32, .hosts_per_leaf = 32,
		       .mems_per_leaf = 32 };

	check_fabric(&t, 97); /* 43 destinations x 43 sources, spread over leaves */
}
END_TEST

START_TEST(test_fab_route_tables_identical_when_rebuilt)
{
	fab_topo t = { .kind = FAB_FAT_TREE, .k = 8, .hosts = 64, .memories = 64 };
	fabric a, b;
	sim_graph ga, gb;

	make(&t, &a, &ga);
	make(&t, &b, &gb);
	ck_assert_uint_eq(fab_route_checksum(&a.route), fab_route_checksum(&b.route));
	ck_assert_uint_eq(a.route.nsets, b.route.nsets);
	ck_assert_int_eq(memcmp(a.route.set_of, b.route.set_of,
				(size_t)a.route.nsw * a.route.npbr * sizeof(*a.route.set_of)), 0);
	ck_assert_int_eq(memcmp(a.route.ports, b.route.ports,
				a.route.nports * sizeof(*a.route.ports)), 0);
	fab_free(&a);
	fab_fixture_drop(&b, &ga);
	graph_free(&gb);
}
END_TEST

START_TEST(test_fab_route_memory_per_switch_linear_in_edge_ports)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 64, .spines = 32, .hosts_per_leaf = 32,
		       .mems_per_leaf = 32 };
	fabric f;
	sim_graph g;

	make(&t, &f, &g);
	/* a leaf: 64 local sets + "all spines"; a spine: one set per leaf */
	ck_assert_uint_eq(f.route.nsets, 64 * 65 + 32 * 64);
	ck_assert_uint_le(fab_route_bytes(&f.route), 96u * 4096 * 2 + 256 * 1024);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_route_adaptive_least_loaded)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 2, .spines = 4, .hosts_per_leaf = 1,
		       .mems_per_leaf = 1 };
	fabric f;
	sim_graph g;
	uint32_t load[8] = { 0 }, n;

	make(&t, &f, &g);
	uint32_t leaf0 = f.route.sw_of[fab_find(&f, "leaf0")];
	uint32_t mem1 = f.node[fab_find(&f, "mem1")].pbr, host0 = f.node[fab_find(&f, "host0")].pbr;
	const uint16_t *p = fab_route_ports(&f.route, leaf0, mem1, &n);
	ck_assert_uint_eq(n, 4);
	for (uint32_t i = 0; i < 8; i++)
		load[i] = 10;
	load[p[2]] = 3;
	ck_assert_int_eq(fab_route_adaptive(&f.route, leaf0, host0, mem1, load), p[2]);
	load[p[0]] = 3; /* a tie: the first in rotation from the oblivious pick wins */
	int o = fab_route_oblivious(&f.route, leaf0, host0, mem1);
	int a = fab_route_adaptive(&f.route, leaf0, host0, mem1, load);
	ck_assert(a == p[0] || a == p[2]);
	if (o == p[0] || o == p[2])
		ck_assert_int_eq(a, o);
	/* a local destination has one port, whatever the load */
	uint32_t mem0 = f.node[fab_find(&f, "mem0")].pbr;
	fab_route_ports(&f.route, leaf0, mem0, &n);
	ck_assert_uint_eq(n, 1);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_route_oblivious_spreads_flows)
{
	fab_topo t = { .kind = FAB_FAT_TREE, .k = 8, .hosts = 64, .memories = 64 };
	fabric f;
	sim_graph g;
	uint32_t used = 0;

	make(&t, &f, &g);
	/* every core switch carries some host -> memory flow */
	for (uint32_t c = 0; c < f.nconn; c++) {
		const fab_conn *k = &f.conn[c];
		if (!strncmp(f.node[k->b].name, "core", 4) && k->traffic > 0)
			used++;
	}
	ck_assert_uint_eq(used, 16 * 8);
	fab_fixture_drop(&f, &g);
}
END_TEST

Suite *fab_route_suite(void)
{
	Suite *s = suite_create("fab_route");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_fab_route_minimal_every_kind);
	tcase_add_test(tc, test_fab_route_minimal_rack_4096_sampled);
	tcase_add_test(tc, test_fab_route_tables_identical_when_rebuilt);
	tcase_add_test(tc, test_fab_route_memory_per_switch_linear_in_edge_ports);
	tcase_add_test(tc, test_fab_route_adaptive_least_loaded);
	tcase_add_test(tc, test_fab_route_oblivious_spreads_flows);
	tcase_add_test(tc, test_fab_route_same_as_reference_every_kind);
	tcase_add_test(tc, test_fab_route_same_as_reference_random);
	tcase_add_test(tc, test_fab_route_not_connected_same_error);
	tcase_add_test(tc, test_fab_route_build_work_linear);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
