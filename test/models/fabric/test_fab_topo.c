/*
 * test/models/fabric/test_fab_topo.c - unit tests for models/fabric/fab_topo.c and the
 * fabric builder of models/fabric/fabric.c.
 *
 * Every generator produces the documented counts of switches, endpoints and
 * connections (formulas in fab_topo.h), endpoints are spread round-robin
 * (at most ceil(endpoints / edge switches) per edge switch), each endpoint
 * has exactly one connection and a PBR id in node order, and the graph has
 * one component per node and connection, two links per connection.
 * Errors: ring < 3, fully_connected > 256, odd k, a full fat tree, more
 * than 4096 endpoints, an endpoint with two connections.
 */
#include "models/fabric/fab_int.h"
#include "models/fabric/fab_topo.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "test/models/fabric/fab_fixture.h"

/* Generate and finish @t into @f and @g; returns fab_finish's code. */
static int make(const fab_topo *t, fabric *f, sim_graph *g)
{
	cxl_err e = { 0 };

	return fab_fixture_make(t, f, g, &e);
}

static void expect_counts(const fabric *f, const sim_graph *g, uint32_t sw, uint32_t conns)
{
	ck_assert_uint_eq(f->count[FAB_SWITCH], sw);
	ck_assert_uint_eq(f->nconn, conns);
	ck_assert_uint_eq(f->count[FAB_BUS], conns);
	ck_assert_uint_eq(g->ncomp, f->nnode + f->nconn);
	ck_assert_uint_eq(g->nlink, 2 * f->nconn);
	ck_assert_uint_eq(f->npbr, f->count[FAB_HOST] + f->count[FAB_ACCEL] + f->count[FAB_MEMORY]);
}

/* Every endpoint: one port, PBR ids dense in node order, at most @cap per switch. */
static void expect_endpoints(const fabric *f, uint32_t cap)
{
	uint32_t next = 0;

	for (uint32_t n = 0; n < f->nnode; n++) {
		const fab_node *nd = &f->node[n];
		if (!fab_is_endpoint(nd)) {
			uint32_t e = 0;
			for (uint32_t p = 0; p < nd->nports; p++)
				e += fab_is_endpoint(&f->node[fab_peer(f, n, p)]);
			if (e > cap)
				ck_abort_msg("%s carries %u endpoints (cap %u)", nd->name, e, cap);
			continue;
		}
		if (nd->nports != 1 || nd->pbr != next || f->pbr_node[next] != n)
			ck_abort_msg("%s: ports %u pbr %u (expected 1, %u)", nd->name, nd->nports,
				     nd->pbr, next);
		next++;
	}
}

START_TEST(test_fab_topo_chain_counts)
{
	fab_topo t = { .kind = FAB_CHAIN, .switches = 8, .hosts = 8, .memories = 8 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 8, 7 + 16);
	expect_endpoints(&f, 2);
	ck_assert_str_eq(f.node[0].name, "sw0");
	ck_assert_uint_eq(f.route.max_hops, 7);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_ring_counts)
{
	fab_topo t = { .kind = FAB_RING, .switches = 16, .hosts = 16, .memories = 16 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 16, 16 + 32);
	expect_endpoints(&f, 2);
	ck_assert_uint_eq(f.route.max_hops, 8);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_tree_counts)
{
	/* 8 leaves, arity 2: 4 + 2 + 1 above; 5 leaves, arity 3: 2 + 1 */
	fab_topo t = { .kind = FAB_TREE, .switches = 8, .hosts = 8, .memories = 8, .arity = 2 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 15, 14 + 16);
	ck_assert_uint_eq(f.route.max_hops, 6);
	fab_fixture_drop(&f, &g);
	t.switches = 5;
	t.arity = 3;
	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 8, 7 + 16);
	expect_endpoints(&f, 4);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_spine_leaf_counts)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 6, .spines = 3, .hosts_per_leaf = 2,
		       .mems_per_leaf = 3 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 9, 18 + 30);
	expect_endpoints(&f, 5);
	ck_assert_uint_eq(f.count[FAB_HOST], 12);
	ck_assert_uint_eq(f.count[FAB_MEMORY], 18);
	ck_assert_uint_eq(f.route.max_hops, 2);
	fab_fixture_drop(&f, &g);
}
END_TEST

/*
 * A graph built for one rank (sim_graph.unweighted) has every weight 1 and
 * is otherwise the graph the traffic estimate weights: same components,
 * names and links.
 */
START_TEST(test_fab_topo_unweighted)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 6, .spines = 3, .hosts_per_leaf = 2,
		       .mems_per_leaf = 3 };
	fabric fw, fu;
	sim_graph gw, gu;
	cxl_err e = { 0 };
	enum fab_topo_field field;
	int heavier = 0;

	ck_assert_int_eq(make(&t, &fw, &gw), 0);
	fab_init(&fu, "test", 1000);
	graph_init(&gu);
	gu.unweighted = 1;
	ck_assert_int_eq(fab_topo_generate(&fu, &t, &field, &e), 0);
	ck_assert_int_eq(fab_finish(&fu, &gu, &e), 0);
	ck_assert_uint_eq(gu.ncomp, gw.ncomp);
	ck_assert_uint_eq(gu.nlink, gw.nlink);
	for (uint32_t i = 0; i < gu.ncomp; i++) {
		ck_assert_str_eq(gu.comp[i].name, gw.comp[i].name);
		ck_assert_uint_eq(gu.comp[i].weight, 1);
		heavier += gw.comp[i].weight > 1;
	}
	for (uint32_t l = 0; l < gu.nlink; l++) {
		ck_assert_uint_eq(gu.link[l].a, gw.link[l].a);
		ck_assert_uint_eq(gu.link[l].b, gw.link[l].b);
		ck_assert_uint_eq(gu.link[l].latency, gw.link[l].latency);
		ck_assert_uint_eq(gu.link[l].weight, 1);
	}
	ck_assert_int_gt(heavier, 0); /* the estimate does weight the switches */
	fab_fixture_drop(&fw, &gw);
	fab_fixture_drop(&fu, &gu);
}
END_TEST

START_TEST(test_fab_topo_fully_connected_counts)
{
	fab_topo t = { .kind = FAB_FULLY_CONNECTED, .switches = 9, .hosts = 9, .memories = 9 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 9, 36 + 18);
	ck_assert_uint_eq(f.route.max_hops, 1);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_fat_tree_counts)
{
	/* k = 6: 6 pods x (3 edge + 3 agg) + 9 cores = 45; 54 edge ports */
	fab_topo t = { .kind = FAB_FAT_TREE, .k = 6, .hosts = 27, .memories = 27 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_counts(&f, &g, 45, 6 * 9 + 9 * 6 + 54);
	expect_endpoints(&f, 3);
	ck_assert_uint_eq(f.route.max_hops, 4);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_round_robin_continues_across_kinds)
{
	/* 5 hosts on sw0..sw4, 3 accels on sw5..sw7, 4 memories on sw0..sw3 */
	fab_topo t = { .kind = FAB_CHAIN, .switches = 8, .hosts = 5, .accels = 3, .memories = 4 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	expect_endpoints(&f, 2);
	uint32_t a0 = fab_find(&f, "accel0"), m3 = fab_find(&f, "mem3");
	ck_assert_str_eq(f.node[fab_peer(&f, a0, 0)].name, "sw5");
	ck_assert_str_eq(f.node[fab_peer(&f, m3, 0)].name, "sw3");
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_bus_follows_later_node)
{
	fab_topo t = { .kind = FAB_CHAIN, .switches = 2, .hosts = 1, .memories = 1 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), 0);
	/* sw0, host0, sw0-host0, sw1, sw0-sw1, mem0, sw1-mem0 */
	ck_assert_str_eq(g.comp[0].name, "sw0");
	ck_assert_str_eq(g.comp[1].name, "host0");
	ck_assert_str_eq(g.comp[2].name, "sw0-host0");
	ck_assert_str_eq(g.comp[3].name, "sw1");
	ck_assert_str_eq(g.comp[4].name, "sw0-sw1");
	ck_assert_uint_eq(g.link[0].latency, 1000);
	fab_fixture_drop(&f, &g);
}
END_TEST

static void expect_gen_error(const fab_topo *t, enum fab_topo_field want, const char *text)
{
	fabric f;
	enum fab_topo_field field;
	cxl_err e = { 0 };

	fab_init(&f, "test", 1000);
	ck_assert_int_eq(fab_topo_generate(&f, t, &field, &e), CXL_EINVAL);
	ck_assert_int_eq(field, want);
	ck_assert_msg(strstr(e.msg, text), "message \"%s\" lacks \"%s\"", e.msg, text);
	fab_free(&f);
}

START_TEST(test_fab_topo_errors)
{
	fab_topo ring = { .kind = FAB_RING, .switches = 2 };
	fab_topo fc = { .kind = FAB_FULLY_CONNECTED, .switches = 257 };
	fab_topo odd = { .kind = FAB_FAT_TREE, .k = 5 };
	fab_topo full = { .kind = FAB_FAT_TREE, .k = 4, .hosts = 10, .memories = 7 };

	expect_gen_error(&ring, FAB_F_SWITCHES, "at least 3 switches");
	expect_gen_error(&fc, FAB_F_SWITCHES, "at most 256");
	expect_gen_error(&odd, FAB_F_K, "even k");
	expect_gen_error(&full, FAB_F_HOSTS, "17 endpoints do not fit the 16 edge ports");
}
END_TEST

START_TEST(test_fab_topo_too_many_endpoints)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 65, .spines = 1, .hosts_per_leaf = 32,
		       .mems_per_leaf = 32 };
	fabric f;
	sim_graph g;

	ck_assert_int_eq(make(&t, &f, &g), CXL_EINVAL);
	fab_fixture_drop(&f, &g);
	t.leaves = 64;
	ck_assert_int_eq(make(&t, &f, &g), 0);
	ck_assert_uint_eq(f.npbr, 4096);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_topo_endpoint_second_connection)
{
	fabric f;
	cxl_err e = { 0 };

	fab_init(&f, "test", 1000);
	uint32_t s = fab_add_node(&f, FAB_SWITCH, "s"), h = fab_add_node(&f, FAB_HOST, "h");
	uint32_t t = fab_add_node(&f, FAB_SWITCH, "t");
	ck_assert_int_eq(fab_connect(&f, s, h, &e), 0);
	ck_assert_int_eq(fab_connect(&f, h, t, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "exactly one port"));
	ck_assert_int_eq(fab_connect(&f, s, s, NULL), CXL_EINVAL);
	ck_assert_uint_eq(fab_find(&f, "t"), t);
	ck_assert_uint_eq(fab_find(&f, "nope"), UINT32_MAX);
	fab_free(&f);
}
END_TEST

START_TEST(test_fab_topo_disconnected_switches)
{
	fabric f;
	sim_graph g;
	cxl_err e = { 0 };

	fab_init(&f, "test", 1000);
	graph_init(&g);
	uint32_t a = fab_add_node(&f, FAB_SWITCH, "a"), b = fab_add_node(&f, FAB_SWITCH, "b");
	ck_assert_int_eq(fab_connect(&f, a, fab_add_node(&f, FAB_HOST, "h"), NULL), 0);
	ck_assert_int_eq(fab_connect(&f, b, fab_add_node(&f, FAB_MEMORY, "m"), NULL), 0);
	ck_assert_int_eq(fab_finish(&f, &g, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "not connected"));
	fab_fixture_drop(&f, &g);
}
END_TEST

Suite *fab_topo_suite(void)
{
	Suite *s = suite_create("fab_topo");
	TCase *counts = tcase_create("counts");
	TCase *errors = tcase_create("errors");

	tcase_add_test(counts, test_fab_topo_chain_counts);
	tcase_add_test(counts, test_fab_topo_ring_counts);
	tcase_add_test(counts, test_fab_topo_tree_counts);
	tcase_add_test(counts, test_fab_topo_spine_leaf_counts);
	tcase_add_test(counts, test_fab_topo_fully_connected_counts);
	tcase_add_test(counts, test_fab_topo_fat_tree_counts);
	tcase_add_test(counts, test_fab_topo_round_robin_continues_across_kinds);
	tcase_add_test(counts, test_fab_topo_bus_follows_later_node);
	tcase_add_test(counts, test_fab_topo_unweighted);
	tcase_add_test(errors, test_fab_topo_errors);
	tcase_add_test(errors, test_fab_topo_too_many_endpoints);
	tcase_add_test(errors, test_fab_topo_endpoint_second_connection);
	tcase_add_test(errors, test_fab_topo_disconnected_switches);
	tcase_set_timeout(errors, 30);
	suite_add_tcase(s, counts);
	suite_add_tcase(s, errors);
	return s;
}
