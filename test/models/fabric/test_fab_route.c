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
 */
#include "models/fabric/fab_route.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
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

/* Check every (or every @step-th) destination and source. */
static void check_fabric(const fab_topo *t, uint32_t step)
{
	fabric f;
	sim_graph g;
	adjg a;

	make(t, &f, &g);
	adj_build(&g, &a);
	for (uint32_t d = 0; d < f.npbr; d += step) {
		graph_bfs(&g, &a, f.node[f.pbr_node[d]].comp);
		check_sets_to(&f, &a, d);
		for (uint32_t s = d % step; s < f.npbr; s += step)
			if (s != d)
				check_walk(&f, s, d, a.dist[f.node[f.pbr_node[s]].comp] / 2);
	}
	adj_free(&a);
	fab_fixture_drop(&f, &g);
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
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
