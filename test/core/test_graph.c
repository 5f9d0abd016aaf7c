/*
 * test/core/test_graph.c - unit tests for core/graph.c.
 *
 * Ids are dense in insertion order (past the first growth of the arrays),
 * names are copied, links are stored field for field, graph_cut() counts the
 * cut links and their minimum latency for a hand-made partition and reports
 * SIM_TIME_MAX when nothing is cut.  A zero latency or an unknown endpoint
 * panics (SIGABRT).
 */
#include "core/graph.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/sim.h"
#include "test/core/panic_fixture.h"

static const model_ops test_ops = { .name = "test" };
static const model_ops other_ops = { .name = "other" };

START_TEST(test_graph_empty)
{
	sim_graph g;
	sim_time m = 0;

	graph_init(&g);
	ck_assert_uint_eq(g.ncomp, 0);
	ck_assert_uint_eq(g.nlink, 0);
	ck_assert_uint_eq(g.global_lookahead, 0);
	ck_assert_uint_eq(graph_cut(&g, NULL, &m), 0);
	ck_assert_uint_eq(m, SIM_TIME_MAX);
	graph_free(&g);
}
END_TEST

START_TEST(test_graph_ids_dense_in_insertion_order)
{
	enum { N = 1000 }; /* beyond the first capacity */
	sim_graph g;
	char name[32];

	graph_init(&g);
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		uint32_t id = graph_add_comp(&g, i % 2 ? &other_ops : &test_ops, name, i * 3);
		ck_assert_uint_eq(id, i);
	}
	strcpy(name, "changed"); /* the graph holds its own copies */
	ck_assert_uint_eq(g.ncomp, N);
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		ck_assert_str_eq(g.comp[i].name, name);
		ck_assert_ptr_eq(g.comp[i].ops, i % 2 ? &other_ops : &test_ops);
		ck_assert_uint_eq(g.comp[i].weight, i * 3);
	}
	graph_free(&g);
	ck_assert_uint_eq(g.ncomp, 0);
	ck_assert_ptr_null(g.comp);
}
END_TEST

START_TEST(test_graph_links_stored)
{
	enum { N = 600 };
	sim_graph g;

	graph_init(&g);
	for (uint32_t i = 0; i < N; i++)
		graph_add_comp(&g, &test_ops, "c", 1);
	for (uint32_t i = 0; i < N; i++)
		graph_add_link(&g, i, (uint16_t)(i % 7), (i + 1) % N, UINT16_MAX,
			       (sim_time)i + 1, i * 2);
	graph_add_link(&g, 5, 0, 5, 1, SIM_TIME_MAX, 0); /* a loop is a link too */
	ck_assert_uint_eq(g.nlink, N + 1);
	for (uint32_t i = 0; i < N; i++) {
		const graph_link *l = &g.link[i];
		ck_assert_uint_eq(l->a, i);
		ck_assert_uint_eq(l->aport, i % 7);
		ck_assert_uint_eq(l->b, (i + 1) % N);
		ck_assert_uint_eq(l->bport, UINT16_MAX);
		ck_assert_uint_eq(l->latency, (sim_time)i + 1);
		ck_assert_uint_eq(l->weight, i * 2);
	}
	ck_assert_uint_eq(g.link[N].latency, SIM_TIME_MAX);
	graph_free(&g);
	ck_assert_uint_eq(g.nlink, 0);
	ck_assert_ptr_null(g.link);
}
END_TEST

/*
 * Six components on three ranks:  0,1 -> rank 0;  2,3 -> rank 1;  4,5 -> rank 2.
 * Links (latency): 0-1 (5, internal), 1-2 (40), 2-3 (1, internal),
 * 3-4 (25), 0-5 (30), 4-4 (2, loop), 5-1 (100).
 */
static void build_six(sim_graph *g)
{
	graph_init(g);
	for (int i = 0; i < 6; i++)
		graph_add_comp(g, &test_ops, "c", 1);
	graph_add_link(g, 0, 0, 1, 0, 5, 1);
	graph_add_link(g, 1, 1, 2, 0, 40, 1);
	graph_add_link(g, 2, 1, 3, 0, 1, 1);
	graph_add_link(g, 3, 1, 4, 0, 25, 1);
	graph_add_link(g, 0, 1, 5, 0, 30, 1);
	graph_add_link(g, 4, 1, 4, 2, 2, 1);
	graph_add_link(g, 5, 1, 1, 2, 100, 1);
}

START_TEST(test_graph_cut_hand_made)
{
	static const int32_t three[6] = { 0, 0, 1, 1, 2, 2 };
	static const int32_t split[6] = { 0, 0, 0, 1, 1, 1 };
	sim_graph g;
	sim_time m = 0;

	build_six(&g);
	ck_assert_uint_eq(graph_cut(&g, three, &m), 4); /* 1-2, 3-4, 0-5, 5-1 */
	ck_assert_uint_eq(m, 25);
	ck_assert_uint_eq(graph_cut(&g, split, &m), 3); /* 2-3, 0-5, 5-1 */
	ck_assert_uint_eq(m, 1);
	graph_free(&g);
}
END_TEST

START_TEST(test_graph_cut_nothing_cut)
{
	static const int32_t one[6] = { 0, 0, 0, 0, 0, 0 };
	static const int32_t same[6] = { 3, 3, 3, 3, 3, 3 };
	sim_graph g;
	sim_time m = 7;

	build_six(&g);
	ck_assert_uint_eq(graph_cut(&g, one, &m), 0);
	ck_assert_uint_eq(m, SIM_TIME_MAX);
	m = 7;
	ck_assert_uint_eq(graph_cut(&g, same, &m), 0);
	ck_assert_uint_eq(m, SIM_TIME_MAX);
	graph_free(&g);
}
END_TEST

START_TEST(test_graph_cut_every_link)
{
	static const int32_t each[6] = { 0, 1, 2, 3, 4, 5 };
	sim_graph g;
	sim_time m = 0;

	build_six(&g);
	ck_assert_uint_eq(graph_cut(&g, each, &m), 6); /* all but the loop 4-4 */
	ck_assert_uint_eq(m, 1);
	graph_free(&g);
}
END_TEST

START_TEST(test_graph_zero_latency_panics)
{
	sim_graph g;

	graph_init(&g);
	graph_add_comp(&g, &test_ops, "a", 1);
	graph_add_comp(&g, &test_ops, "b", 1);
	panict_expect("assertion failed: latency > 0");
	graph_add_link(&g, 0, 0, 1, 0, 0, 1);
}
END_TEST

START_TEST(test_graph_link_to_unknown_comp_panics)
{
	sim_graph g;

	graph_init(&g);
	graph_add_comp(&g, &test_ops, "a", 1);
	panict_expect("assertion failed: a < g->ncomp && b < g->ncomp");
	graph_add_link(&g, 0, 0, 1, 0, 10, 1);
}
END_TEST

Suite *graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *build = tcase_create("build");
	TCase *cut = tcase_create("cut");
	TCase *misuse = tcase_create("misuse");

	tcase_add_test(build, test_graph_empty);
	tcase_add_test(build, test_graph_ids_dense_in_insertion_order);
	tcase_add_test(build, test_graph_links_stored);
	tcase_add_test(cut, test_graph_cut_hand_made);
	tcase_add_test(cut, test_graph_cut_nothing_cut);
	tcase_add_test(cut, test_graph_cut_every_link);
	tcase_add_test_raise_signal(misuse, test_graph_zero_latency_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_graph_link_to_unknown_comp_panics, SIGABRT);
	suite_add_tcase(s, build);
	suite_add_tcase(s, cut);
	suite_add_tcase(s, misuse);
	return s;
}
