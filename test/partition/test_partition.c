/*
 * test/partition/test_partition.c - unit tests for partition/registry.c,
 * part_block.c and part_roundrobin.c.
 *
 * Every registered partitioner (iterating part_list) on graphs of 1, 7, 100
 * and 4096 components with equal, unequal (seeded) and partly zero weights,
 * for 1, 2, 3, 4, 64 and 512 ranks: every component gets one rank in
 * [0, n) (part_check), and two calls give the same map.  Block: ranks are
 * non-decreasing in component id and the heaviest rank exceeds the mean by
 * at most one component's weight.  Round robin: component i on rank i mod n.
 * part_lookup finds every listed name and nothing else; part_check reports
 * out-of-range ranks.  Loops over every component test with if +
 * ck_abort_msg: each ck_assert costs a pipe write in fork mode.
 */
#include "partition/part.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"

static const model_ops test_ops = { .name = "test" };

static const uint32_t sizes[] = { 1, 7, 100, 4096 };
static const int nranks_list[] = { 1, 2, 3, 4, 64, 512 };

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

enum weights { W_EQUAL, W_RANDOM, W_SKEWED, W_COUNT };

/* xorshift64*: deterministic weights, seeded by the caller. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/*
 * A graph of @n components in a chain.  W_RANDOM: weights 1..1000; W_SKEWED:
 * mostly 0 (counted as 1 by block) with a few heavy components.
 */
static void build(sim_graph *g, uint32_t n, enum weights w)
{
	uint64_t seed = 0xc0ffee ^ n;
	char name[32];

	graph_init(g);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t wt = 1;
		if (w == W_RANDOM)
			wt = (uint32_t)(next_rand(&seed) % 1000) + 1;
		else if (w == W_SKEWED)
			wt = next_rand(&seed) % 10 == 0 ? 100000 : 0;
		snprintf(name, sizeof(name), "c%u", i);
		graph_add_comp(g, &test_ops, name, wt);
		if (i > 0)
			graph_add_link(g, i - 1, 1, i, 0, 10, 1);
	}
}

/* Weight as block counts it: 0 counts as 1. */
static uint64_t eff_weight(const sim_graph *g, uint32_t i)
{
	return g->comp[i].weight ? g->comp[i].weight : 1;
}

/* Run @p, expecting success and a map that passes part_check. */
static int32_t *assign_ok(const part_ops *p, const sim_graph *g, int nranks)
{
	int32_t *map = malloc((g->ncomp ? g->ncomp : 1) * sizeof(*map));
	cxl_err err = { 0 };

	for (uint32_t i = 0; i < g->ncomp; i++)
		map[i] = -7; /* part_check catches any entry left unwritten */
	ck_assert_msg(p->assign(g, nranks, map, &err) == 0, "%s: %s", p->name, err.msg);
	ck_assert_msg(part_check(g, nranks, map, &err) == 0, "%s, %u comps, %d ranks: %s",
		      p->name, g->ncomp, nranks, err.msg);
	return map;
}

START_TEST(test_partition_every_partitioner_valid_and_deterministic)
{
	int np;
	const part_ops *const *parts = part_list(&np);

	ck_assert_int_ge(np, 2);
	for (int p = 0; p < np; p++) {
		for (size_t s = 0; s < NELEMS(sizes); s++) {
			for (int w = 0; w < W_COUNT; w++) {
				sim_graph g;
				build(&g, sizes[s], (enum weights)w);
				for (size_t r = 0; r < NELEMS(nranks_list); r++) {
					int32_t *a = assign_ok(parts[p], &g, nranks_list[r]);
					int32_t *b = assign_ok(parts[p], &g, nranks_list[r]);
					ck_assert_msg(!memcmp(a, b, g.ncomp * sizeof(*a)),
						      "%s is not deterministic", parts[p]->name);
					free(a);
					free(b);
				}
				graph_free(&g);
			}
		}
	}
}
END_TEST

START_TEST(test_partition_empty_graph)
{
	int np;
	const part_ops *const *parts = part_list(&np);
	sim_graph g;

	graph_init(&g);
	for (int p = 0; p < np; p++)
		free(assign_ok(parts[p], &g, 4));
	graph_free(&g);
}
END_TEST

START_TEST(test_partition_registry_lookup)
{
	int np;
	const part_ops *const *parts = part_list(&np);

	for (int p = 0; p < np; p++) {
		ck_assert_ptr_nonnull(parts[p]->name);
		ck_assert_ptr_nonnull(parts[p]->doc);
		ck_assert_ptr_nonnull(parts[p]->assign);
		ck_assert_ptr_eq(part_lookup(parts[p]->name), parts[p]);
		for (int q = 0; q < p; q++)
			ck_assert_str_ne(parts[p]->name, parts[q]->name);
	}
	ck_assert_ptr_eq(part_lookup("block"), &part_block);
	ck_assert_ptr_eq(part_lookup("roundrobin"), &part_roundrobin);
}
END_TEST

START_TEST(test_partition_lookup_unknown)
{
	ck_assert_ptr_null(part_lookup("metis-nonexistent"));
	ck_assert_ptr_null(part_lookup(""));
	ck_assert_ptr_null(part_lookup("Block"));
	ck_assert_ptr_null(part_lookup("block "));
	ck_assert_ptr_null(part_lookup("round"));
}
END_TEST

START_TEST(test_partition_check_rejects_out_of_range)
{
	sim_graph g;
	int32_t map[7] = { 0, 1, 2, 3, 0, 1, 2 };
	cxl_err err = { 0 };

	build(&g, 7, W_EQUAL);
	ck_assert_int_eq(part_check(&g, 4, map, NULL), 0);
	map[3] = 4;
	ck_assert_int_eq(part_check(&g, 4, map, &err), CXL_EINTERNAL);
	ck_assert_str_eq(err.msg, "partitioner put component c3 on rank 4 (expected 0..3)");
	map[3] = 3;
	map[6] = -1;
	ck_assert_int_eq(part_check(&g, 4, map, NULL), CXL_EINTERNAL);
	graph_free(&g);
}
END_TEST

START_TEST(test_partition_block_contiguous)
{
	for (size_t s = 0; s < NELEMS(sizes); s++) {
		for (int w = 0; w < W_COUNT; w++) {
			sim_graph g;
			build(&g, sizes[s], (enum weights)w);
			for (size_t r = 0; r < NELEMS(nranks_list); r++) {
				int32_t *map = assign_ok(&part_block, &g, nranks_list[r]);
				for (uint32_t i = 1; i < g.ncomp; i++)
					if (map[i - 1] > map[i])
						ck_abort_msg("component %u on rank %d after rank %d",
							     i, map[i], map[i - 1]);
				free(map);
			}
			graph_free(&g);
		}
	}
}
END_TEST

/* Equal weights and at least as many components as ranks: no rank is idle. */
START_TEST(test_partition_block_uses_every_rank)
{
	sim_graph g;

	build(&g, 4096, W_EQUAL);
	for (size_t r = 0; r < NELEMS(nranks_list); r++) {
		int n = nranks_list[r];
		int32_t *map = assign_ok(&part_block, &g, n);
		for (uint32_t i = 1; i < g.ncomp; i++)
			if (map[i] - map[i - 1] > 1)
				ck_abort_msg("%d ranks: rank %d skipped", n, map[i] - 1);
		ck_assert_int_eq(map[0], 0);
		ck_assert_int_eq(map[g.ncomp - 1], n - 1);
		free(map);
	}
	graph_free(&g);
}
END_TEST

/* max/mean - 1 <= w/mean, i.e. n * max - W <= n * w, w the heaviest component. */
static void check_balance(const sim_graph *g, int n)
{
	uint64_t *load = calloc((size_t)n, sizeof(*load)), total = 0, wmax = 0, max = 0;
	int32_t *map = assign_ok(&part_block, g, n);

	for (uint32_t i = 0; i < g->ncomp; i++) {
		uint64_t w = eff_weight(g, i);
		load[map[i]] += w;
		total += w;
		wmax = w > wmax ? w : wmax;
	}
	for (int r = 0; r < n; r++)
		max = load[r] > max ? load[r] : max;
	ck_assert_msg(max * (uint64_t)n - total <= wmax * (uint64_t)n,
		      "%u comps, %d ranks: max load %lu, total %lu, heaviest %lu", g->ncomp, n,
		      (unsigned long)max, (unsigned long)total, (unsigned long)wmax);
	free(map);
	free(load);
}

START_TEST(test_partition_block_balanced)
{
	for (size_t s = 0; s < NELEMS(sizes); s++) {
		for (int w = 0; w < W_COUNT; w++) {
			sim_graph g;
			build(&g, sizes[s], (enum weights)w);
			for (size_t r = 0; r < NELEMS(nranks_list); r++)
				check_balance(&g, nranks_list[r]);
			graph_free(&g);
		}
	}
}
END_TEST

/* One component carries most of the weight: it must not drag its neighbours. */
START_TEST(test_partition_block_one_heavy_component)
{
	sim_graph g;

	graph_init(&g);
	for (uint32_t i = 0; i < 100; i++)
		graph_add_comp(&g, &test_ops, "c", i == 50 ? UINT32_MAX : 1);
	for (size_t r = 0; r < NELEMS(nranks_list); r++)
		check_balance(&g, nranks_list[r]);
	graph_free(&g);
}
END_TEST

START_TEST(test_partition_roundrobin_is_mod)
{
	for (size_t s = 0; s < NELEMS(sizes); s++) {
		sim_graph g;
		build(&g, sizes[s], W_RANDOM);
		for (size_t r = 0; r < NELEMS(nranks_list); r++) {
			int n = nranks_list[r];
			int32_t *map = assign_ok(&part_roundrobin, &g, n);
			for (uint32_t i = 0; i < g.ncomp; i++)
				if (map[i] != (int32_t)(i % (uint32_t)n))
					ck_abort_msg("%d ranks: component %u on rank %d", n, i,
						     map[i]);
			free(map);
		}
		graph_free(&g);
	}
}
END_TEST

START_TEST(test_partition_single_rank_all_zero)
{
	int np;
	const part_ops *const *parts = part_list(&np);
	sim_graph g;

	build(&g, 100, W_SKEWED);
	for (int p = 0; p < np; p++) {
		int32_t *map = assign_ok(parts[p], &g, 1);
		for (uint32_t i = 0; i < g.ncomp; i++)
			ck_assert_int_eq(map[i], 0);
		free(map);
	}
	graph_free(&g);
}
END_TEST

Suite *partition_suite(void)
{
	Suite *s = suite_create("partition");
	TCase *all = tcase_create("all_partitioners");
	TCase *registry = tcase_create("registry");
	TCase *block = tcase_create("block");
	TCase *rr = tcase_create("roundrobin");

	tcase_add_test(all, test_partition_every_partitioner_valid_and_deterministic);
	tcase_add_test(all, test_partition_empty_graph);
	tcase_add_test(all, test_partition_single_rank_all_zero);
	tcase_add_test(registry, test_partition_registry_lookup);
	tcase_add_test(registry, test_partition_lookup_unknown);
	tcase_add_test(registry, test_partition_check_rejects_out_of_range);
	tcase_add_test(block, test_partition_block_contiguous);
	tcase_add_test(block, test_partition_block_uses_every_rank);
	tcase_add_test(block, test_partition_block_balanced);
	tcase_add_test(block, test_partition_block_one_heavy_component);
	tcase_add_test(rr, test_partition_roundrobin_is_mod);
	tcase_set_timeout(all, 30);
	tcase_set_timeout(block, 30);
	suite_add_tcase(s, all);
	suite_add_tcase(s, registry);
	suite_add_tcase(s, block);
	suite_add_tcase(s, rr);
	return s;
}
