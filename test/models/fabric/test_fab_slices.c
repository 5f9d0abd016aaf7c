/*
 * test/models/fabric/test_fab_slices.c - unit tests for sliced switches in the
 * fabric's graph (fabric.h "A switch may be split into slices"): slice
 * components and names, where each switch port lands, the internal links,
 * and node_of_comp for every slice.  The switch model's behaviour with
 * slices (same idle latency, conservation, determinism) is tested end to
 * end in test/integration/t_slices.sh.
 */
#include <check.h>
#include <string.h>

#include "models/fabric/fab_int.h"
#include "test/models/fabric/fab_fixture.h"

/* Spine-leaf 3 leaves x (2 hosts + 1 memory), 2 spines; leaves in @S slices. */
static void make_sliced(fabric *f, sim_graph *g, uint32_t S)
{
	fab_topo t = { .kind = FAB_SPINE_LEAF, .leaves = 3, .spines = 2, .hosts_per_leaf = 2,
		       .mems_per_leaf = 1 };
	enum fab_topo_field field;
	cxl_err e = { 0 };

	fab_init(f, "test", 1000);
	graph_init(g);
	ck_assert_int_eq(fab_topo_generate(f, &t, &field, &e), 0);
	for (uint32_t n = 0; n < f->nnode; n++)
		if (f->node[n].kind == FAB_SWITCH && !strncmp(f->node[n].name, "leaf", 4)) {
			f->node[n].slices = (uint16_t)S;
			f->node[n].slice_latency = 7000;
		}
	ck_assert_int_eq(fab_finish(f, g, &e), 0);
}

/* The graph link with an end at (@comp, @port); NULL if none. */
static const graph_link *link_at(const sim_graph *g, uint32_t comp, uint32_t port, uint32_t *peer)
{
	for (uint32_t i = 0; i < g->nlink; i++) {
		const graph_link *l = &g->link[i];
		if (l->a == comp && l->aport == port) {
			*peer = l->b;
			return l;
		}
		if (l->b == comp && l->bport == port) {
			*peer = l->a;
			return l;
		}
	}
	return NULL;
}

START_TEST(test_fab_slices_layout)
{
	const uint32_t S = 2;
	fabric f, f1;
	sim_graph g, g1;

	make_sliced(&f1, &g1, 1);
	make_sliced(&f, &g, S);
	/* 3 leaves gain one component and one internal link each */
	ck_assert_uint_eq(g.ncomp, g1.ncomp + 3 * (S - 1));
	ck_assert_uint_eq(g.nlink, g1.nlink + 3 * S * (S - 1) / 2);
	for (uint32_t n = 0; n < f.nnode; n++) {
		const fab_node *nd = &f.node[n];
		uint32_t s = fab_slices(nd);
		for (uint32_t k = 0; k < s; k++) {
			ck_assert_uint_eq(fab_node_of(&f, nd->comp + k), n);
			if (s > 1) {
				char want[64];
				snprintf(want, sizeof(want), "%s:%u", nd->name, k);
				ck_assert_str_eq(g.comp[nd->comp + k].name, want);
			}
		}
		/* switch port p is slice p % S's local port p / S, joined to its bus */
		for (uint32_t p = 0; p < nd->nports; p++) {
			const fab_conn *c = &f.conn[f.adj[nd->adj + p]];
			uint32_t peer;
			const graph_link *l = link_at(&g, nd->comp + p % s, p / s, &peer);
			ck_assert_ptr_nonnull(l);
			ck_assert_uint_eq(peer, c->bus);
			ck_assert_uint_eq(l->latency, 1000);
		}
		/* internal ports follow the external ones, to every other slice */
		for (uint32_t a = 0; s > 1 && a < s; a++)
			for (uint32_t b = 0; b < s; b++) {
				uint32_t peer;
				if (a == b)
					continue;
				const graph_link *l = link_at(&g, nd->comp + a,
							      fab_slice_int(nd->nports, s, a, b), &peer);
				ck_assert_ptr_nonnull(l);
				ck_assert_uint_eq(peer, nd->comp + b);
				ck_assert_uint_eq(l->latency, 7000);
			}
	}
	/* a leaf has 2 hosts, 1 memory and 2 spines: 5 ports, slices of 3 and 2 */
	ck_assert_uint_eq(fab_slice_ext(5, 2, 0), 3);
	ck_assert_uint_eq(fab_slice_ext(5, 2, 1), 2);
	ck_assert_uint_eq(fab_slice_ext(5, 3, 2), 1);
	ck_assert_uint_eq(fab_slice_ext(2, 3, 2), 0);
	ck_assert_uint_eq(fab_slice_int(5, 3, 0, 2), 2 + 1);
	ck_assert_uint_eq(fab_slice_int(5, 3, 2, 0), 1 + 0);
	fab_fixture_drop(&f, &g);
	fab_fixture_drop(&f1, &g1);
}
END_TEST

Suite *fab_slices_suite(void)
{
	Suite *s = suite_create("fab_slices");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, test_fab_slices_layout);
	suite_add_tcase(s, tc);
	return s;
}
