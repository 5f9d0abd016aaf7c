/*
 * test/partition/test_part_metis.c - unit tests for partition/part_metis.c:
 * the per-kind balance constraints.
 *
 * The graph: a chain of K components of kind "a" followed by a chain of K
 * of kind "b", equal weights.  Cutting the chain at the seam is the least
 * communication, and one total constraint accepts it (every "a" on one
 * side); one constraint per kind must give every rank its share of each
 * kind (within PART_METIS_UBVEC_KIND, 10%, plus one component of
 * granularity).  A kind with fewer components than ranks gets no
 * constraint: a third kind of one component must not stop the others being
 * balanced, nor the partition from being valid.
 */
#include "partition/part.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/sim.h"

static const model_ops kind_a = { .name = "a" };
static const model_ops kind_b = { .name = "b" };
static const model_ops kind_c = { .name = "c" };

/* Chain of @k "a" then @k "b" components, equal weights; then @extra "c". */
static void build_two_kinds(sim_graph *g, uint32_t k, uint32_t extra)
{
	char name[32];

	graph_init(g);
	for (uint32_t i = 0; i < 2 * k + extra; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		graph_add_comp(g, i < k ? &kind_a : i < 2 * k ? &kind_b : &kind_c, name, 10);
		if (i > 0)
			graph_add_link(g, i - 1, 1, i, 0, 10, 1);
	}
}

/* Every rank holds at most 10% + one component above its share of each of kinds a, b. */
static void check_kind_balance(uint32_t k, uint32_t extra, int nranks)
{
	sim_graph g;
	cxl_err err = { 0 };

	build_two_kinds(&g, k, extra);
	int32_t *map = malloc(g.ncomp * sizeof(*map));
	ck_assert_msg(part_metis.assign(&g, nranks, map, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(part_check(&g, nranks, map, &err), 0);
	for (int r = 0; r < nranks; r++) {
		uint32_t na = 0, nb = 0;
		for (uint32_t i = 0; i < 2 * k; i++)
			if (map[i] == r)
				*(i < k ? &na : &nb) += 1;
		double cap = 1.10 * k / nranks + 1;
		ck_assert_msg(na <= cap && nb <= cap, "%d ranks: rank %d holds %u a, %u b (cap %.1f)",
			      nranks, r, na, nb, cap);
	}
	free(map);
	graph_free(&g);
}

START_TEST(test_part_metis_balances_every_kind)
{
	check_kind_balance(64, 0, 2);
	check_kind_balance(256, 0, 8);
}
END_TEST

START_TEST(test_part_metis_kind_with_fewer_components_than_ranks_unconstrained)
{
	check_kind_balance(64, 1, 2);
	check_kind_balance(256, 3, 8);
}
END_TEST

Suite *part_metis_suite(void)
{
	Suite *s = suite_create("part_metis");
	TCase *kinds = tcase_create("kinds");

	tcase_add_test(kinds, test_part_metis_balances_every_kind);
	tcase_add_test(kinds, test_part_metis_kind_with_fewer_components_than_ranks_unconstrained);
	tcase_set_timeout(kinds, 30);
	suite_add_tcase(s, kinds);
	return s;
}
