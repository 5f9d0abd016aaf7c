/*
 * test/models/fabric/test_fab_view.c - unit tests for the component models'
 * view of the fabric (models/fabric/fab_view.h), on a small hand-built
 * fabric with every case the models rely on: two switches joined by a
 * trunk, hosts, an accelerator and memories on them, and a multi-headed
 * memory wired straight to two hosts (no switch).
 *
 *   node  0 sw0   1 host0  2 host1  3 mem0  4 mem1          (on sw0)
 *         5 sw1   6 accel0 7 mem2                          (on sw1)
 *         8 host2 9 mh0 (memory, 2 heads) 10 host3          (no switch)
 *   PBR ids in node order over endpoints: host0 0, host1 1, mem0 2,
 *   mem1 3, accel0 4, mem2 5, host2 6, mh0 7, host3 8.
 */
#include <check.h>

#include "models/fabric/fab_int.h"
#include "test/models/fabric/fab_fixture.h"

static const struct { uint32_t kind; const char *name; } nodes[] = {
	{ FAB_SWITCH, "sw0" }, { FAB_HOST, "host0" }, { FAB_HOST, "host1" },
	{ FAB_MEMORY, "mem0" }, { FAB_MEMORY, "mem1" }, { FAB_SWITCH, "sw1" },
	{ FAB_ACCEL, "accel0" }, { FAB_MEMORY, "mem2" }, { FAB_HOST, "host2" },
	{ FAB_MEMORY, "mh0" }, { FAB_HOST, "host3" },
};
static const uint32_t conns[][2] = {
	{ 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 5, 6 }, { 5, 7 }, { 0, 5 }, { 9, 8 }, { 9, 10 },
};
#define NNODE (sizeof(nodes) / sizeof(nodes[0]))
#define NCONN (sizeof(conns) / sizeof(conns[0]))

static fabric f;
static sim_graph g;

static void setup(void)
{
	cxl_err e = { 0 };

	fab_init(&f, "test", 1000);
	graph_init(&g);
	for (uint32_t n = 0; n < NNODE; n++)
		ck_assert_uint_eq(fab_add_node(&f, nodes[n].kind, nodes[n].name), n);
	for (uint32_t c = 0; c < NCONN; c++)
		ck_assert_int_eq(fab_connect(&f, conns[c][0], conns[c][1], &e), 0);
	ck_assert_msg(fab_finish(&f, &g, &e) == 0, "%s", e.msg);
}

static void teardown(void)
{
	fab_fixture_drop(&f, &g);
}

/* Component id of node @n. */
static uint32_t comp(uint32_t n)
{
	return f.node[n].comp;
}

START_TEST(test_fab_view_identity)
{
	const fab_view *v = &f;
	static const uint16_t pbr[NNODE] = { FAB_NO_PBR, 0, 1, 2, 3, FAB_NO_PBR, 4, 5, 6, 7, 8 };

	for (uint32_t n = 0; n < NNODE; n++) {
		ck_assert_uint_eq(fab_view_kind(v, comp(n)), nodes[n].kind);
		ck_assert_uint_eq(fab_view_roles(v, comp(n)), fab_kinds[nodes[n].kind].roles);
		ck_assert_uint_eq(fab_view_pbr(v, comp(n)), pbr[n]);
		if (pbr[n] != FAB_NO_PBR)
			ck_assert_uint_eq(fab_view_comp_of_pbr(v, pbr[n]), comp(n));
	}
	for (uint32_t c = 0; c < NCONN; c++) {
		ck_assert_uint_eq(fab_view_kind(v, f.conn[c].bus), FAB_BUS);
		ck_assert_uint_eq(fab_view_roles(v, f.conn[c].bus), FAB_ROLE_BUS);
		ck_assert_uint_eq(fab_view_pbr(v, f.conn[c].bus), FAB_NO_PBR);
	}
	/* requesters numbered in node order: host0 host1 accel0 host2 host3 */
	ck_assert_uint_eq(fab_view_requester_index(v, comp(1)), 0);
	ck_assert_uint_eq(fab_view_requester_index(v, comp(2)), 1);
	ck_assert_uint_eq(fab_view_requester_index(v, comp(6)), 2);
	ck_assert_uint_eq(fab_view_requester_index(v, comp(8)), 3);
	ck_assert_uint_eq(fab_view_requester_index(v, comp(10)), 4);
}
END_TEST

START_TEST(test_fab_view_peers)
{
	const fab_view *v = &f;

	ck_assert_uint_eq(fab_view_peer_roles(v, comp(1), 0), FAB_ROLE_SWITCH);
	ck_assert_uint_eq(fab_view_peer_pbr(v, comp(1), 0), FAB_NO_PBR);
	ck_assert_uint_eq(fab_view_peer_roles(v, comp(3), 0), FAB_ROLE_SWITCH);
	/* the multi-headed device: head 0 is host2, head 1 host3 */
	ck_assert_uint_eq(fab_view_peer_pbr(v, comp(9), 0), 6);
	ck_assert_uint_eq(fab_view_peer_pbr(v, comp(9), 1), 8);
	ck_assert(fab_view_peer_roles(v, comp(9), 1) & FAB_ROLE_REQUESTER);
	ck_assert(fab_view_peer_roles(v, comp(8), 0) & FAB_ROLE_TARGET);
}
END_TEST

START_TEST(test_fab_view_targets_and_routes)
{
	const fab_view *v = &f;
	uint16_t t[8];

	ck_assert_uint_eq(fab_view_ntargets(v), 4);
	ck_assert_uint_eq(fab_view_switched_targets(v), 3);
	/* behind a switch: every memory a route reaches, ascending; not mh0 */
	ck_assert_uint_eq(fab_view_targets(v, comp(1), t), 3);
	ck_assert_uint_eq(t[0], 2);
	ck_assert_uint_eq(t[1], 3);
	ck_assert_uint_eq(t[2], 5);
	ck_assert_uint_eq(fab_view_targets(v, comp(6), t), 3);
	ck_assert_uint_eq(t[2], 5);
	/* on a multi-headed device: that device only */
	ck_assert_uint_eq(fab_view_targets(v, comp(10), t), 1);
	ck_assert_uint_eq(t[0], 7);
	/* buses crossed: host0 -> sw0 -> mem0 is 2, -> sw1 -> mem2 is 3 */
	ck_assert_uint_eq(fab_view_route_len(v, comp(1), 2), 2);
	ck_assert_uint_eq(fab_view_route_len(v, comp(1), 5), 3);
	ck_assert_uint_eq(fab_view_route_len(v, comp(8), 7), 1);
	ck_assert_uint_eq(fab_view_route_len(v, comp(8), 2), 0); /* unreachable */
}
END_TEST

START_TEST(test_fab_view_switches_and_buses)
{
	const fab_view *v = &f;
	fab_view_switch s;
	uint32_t n;

	fab_view_switch_of(v, comp(0), &s);
	ck_assert_uint_eq(s.ports, 5);
	ck_assert_uint_eq(s.slices, 1);
	ck_assert_uint_eq(s.slice, 0);
	/* the tables route mem2 (PBR 5) from sw0 over its port 4, the trunk */
	ck_assert_uint_eq(fab_route_ports(s.route, s.index, 5, &n)[0], 4);
	ck_assert_uint_eq(n, 1);
	fab_view_switch_of(v, comp(5), &s);
	ck_assert_uint_eq(s.ports, 3);
	ck_assert_uint_eq(fab_route_ports(s.route, s.index, 2, &n)[0], 2);
	f.trunk_slowdown = 4;
	ck_assert_uint_eq(fab_view_bus_slowdown(v, f.conn[6].bus), 4);
	ck_assert_uint_eq(fab_view_bus_slowdown(v, f.conn[0].bus), 1);
	ck_assert_uint_eq(fab_view_bus_slowdown(v, f.conn[7].bus), 1);
}
END_TEST

/* Memory groups: host0, host1 and accel0 reach mem0..mem2 through the
 * switches, host2 and host3 only mh0; indices in node order. */
START_TEST(test_fab_view_mem_groups)
{
	const fab_view *v = &f;
	static const uint32_t req[] = { 1, 2, 6, 8, 10 }, index[] = { 0, 1, 2, 0, 1 },
			      size[] = { 3, 3, 3, 2, 2 };
	uint32_t gi, gn, largest;

	for (uint32_t k = 0; k < sizeof(req) / sizeof(req[0]); k++) {
		fab_view_mem_group(v, comp(req[k]), &gi, &gn);
		ck_assert_uint_eq(gi, index[k]);
		ck_assert_uint_eq(gn, size[k]);
	}
	ck_assert_uint_eq(fab_view_mem_groups(v, &largest), 2);
	ck_assert_uint_eq(largest, 3);
}
END_TEST

/*
 * fab_view_route_len keeps one switch's row of route lengths (fab_view.c):
 * on generated fabrics with several minimal paths (the oblivious hash picks
 * among them per source), asked endpoint by endpoint and then destination by
 * destination (the row changes at every call), it answers what walking
 * every route answers.
 */
START_TEST(test_fab_view_route_len_cached)
{
	static const fab_topo topos[] = {
		{ .kind = FAB_SPINE_LEAF, .leaves = 5, .spines = 3, .hosts_per_leaf = 3,
		  .mems_per_leaf = 2 },
		{ .kind = FAB_FAT_TREE, .k = 4, .hosts = 9, .memories = 7 },
		{ .kind = FAB_RING, .switches = 6, .hosts = 7, .memories = 5 },
		{ .kind = FAB_CHAIN, .switches = 5, .hosts = 4, .accels = 2, .memories = 3 },
	};

	for (size_t t = 0; t < sizeof(topos) / sizeof(topos[0]); t++) {
		fabric ft;
		sim_graph gt;
		cxl_err e = { 0 };
		ck_assert_msg(fab_fixture_make(&topos[t], &ft, &gt, &e) == 0, "%s", e.msg);
		for (int pass = 0; pass < 2; pass++)
			for (uint32_t i = 0; i < ft.npbr * ft.npbr; i++) {
				uint32_t a = pass ? i % ft.npbr : i / ft.npbr, b = pass ? i / ft.npbr : i % ft.npbr;
				uint32_t n = ft.pbr_node[a];
				ck_assert_uint_eq(fab_view_route_len(&ft, ft.node[n].comp, (uint16_t)b),
						  fab_route_len(&ft, n, ft.pbr_node[b]));
			}
		fab_fixture_drop(&ft, &gt);
	}
}
END_TEST

Suite *fab_view_suite(void)
{
	Suite *s = suite_create("fab_view");
	TCase *tc = tcase_create("view");
	TCase *gen = tcase_create("generated");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fab_view_identity);
	tcase_add_test(tc, test_fab_view_peers);
	tcase_add_test(tc, test_fab_view_targets_and_routes);
	tcase_add_test(tc, test_fab_view_switches_and_buses);
	tcase_add_test(tc, test_fab_view_mem_groups);
	tcase_add_test(gen, test_fab_view_route_len_cached);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, gen);
	return s;
}
