/*
 * test/models/fabric/test_fab_estimate.c - unit tests for
 * models/fabric/fab_estimate.c: the per-component memory estimate of a
 * fabric built from a config (sys_fabric, as cxlfab builds it).
 *
 * Checked: the key each kind names (the snoop filter's entries once they
 * dominate a memory device, the buffers otherwise), the snoop filter's
 * bytes per entry as sf_create() allocates them, that the buffers scale
 * the switch and bus terms, per-component overrides, and that the
 * public sizes the formulas rely on are what they say.  How close the
 * figures come to the peak RSS of real runs: t_memest.sh.
 */
#include <check.h>
#include <string.h>

#include "core/engine.h"
#include "core/memest.h"
#include "models/fabric/fab_int.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"
#include "models/registry.h"

typedef struct est est;
struct est {
	cfg *cf;      /* the config */
	sim_graph g;  /* its graph */
	fabric *f;    /* the fabric (sys data) */
};

static void est_open(est *x, const char *const *sets, size_t nsets)
{
	const cfg_schema *s[64] = { &sim_schema };
	size_t ns = 1 + sys_fabric.schemas(s + 1, 63);
	const char *all[16] = { "simulation.end=1us", "topology.kind=spine_leaf",
				"topology.leaves=4", "topology.spines=2" };
	size_t n = 4;
	cxl_err e = { 0 };
	void *sys;

	for (size_t i = 0; i < nsets; i++)
		all[n++] = sets[i];
	ck_assert_msg(cfg_load(&x->cf, NULL, s, ns, all, n, &e) == 0, "%s", e.msg);
	graph_init(&x->g);
	ck_assert_msg(sys_fabric.build(x->cf, &x->g, &sys, &e) == 0, "%s", e.msg);
	x->f = sys;
}

static void est_close(est *x)
{
	sys_fabric.free_sys(x->f);
	graph_free(&x->g);
	cfg_free(x->cf);
}

/* The estimate of the component named @name; *@key its key. */
static uint64_t of(const est *x, const char *name, const char **key)
{
	for (uint32_t i = 0; i < x->g.ncomp; i++)
		if (!strcmp(x->g.comp[i].name, name))
			return sys_fabric.comp_bytes(x->f, cfg_for(x->cf, name, x->g.comp[i].ops->cfg_groups),
						     &x->g, i, key);
	ck_abort_msg("no component %s", name);
	return 0;
}

START_TEST(test_fab_estimate_public_sizes)
{
	/* the sizes fab_estimate.c's comment and the README's table quote */
	ck_assert_uint_eq(sizeof(cxl_event), 96);
	ck_assert_uint_eq(sizeof(evring), 24);
	ck_assert_uint_eq(sizeof(cxl_credits), 24);
	ck_assert_uint_eq(CXL_NVC, 6);
}
END_TEST

START_TEST(test_fab_estimate_snoop_filter_per_entry)
{
	const char *none[] = { "memory.dcoh.entries=0" };
	const char *big[] = { "memory.dcoh.entries=1048576" };
	const char *k0, *k1;
	est a, b;

	est_open(&a, none, 1);
	est_open(&b, big, 1);
	uint64_t m0 = of(&a, "mem0", &k0), m1 = of(&b, "mem0", &k1);
	ck_assert_str_eq(k0, "memory.buffer");
	ck_assert_str_eq(k1, "memory.dcoh.entries");
	/* sf_create: 32 + 8 + 2 x 8 per entry, a 16-byte index slot for 2^21 slots,
	   one set of 36; the DCOH's 2 x buffer transactions; the BIRsp wait queues */
	uint64_t sf = 1048576ull * 56 + (2ull << 20) * 16 + 36;
	uint64_t txn = 2 * 32 * (64 + 8 + 8 * 8);
	uint64_t wait = 2ull * (2 * 32) * (33 - 1) * 8; /* 2 channels, 1 + 4 x 8 slots per request vs 1 */
	ck_assert_uint_eq(m1 - m0, sf + txn + wait);
	est_close(&a);
	est_close(&b);
}
END_TEST

START_TEST(test_fab_estimate_buffers_scale_switch_and_bus)
{
	const char *one[] = { "switch.buffer=1", "bus.buffer=1" };
	const char *many[] = { "switch.buffer=101", "bus.buffer=101" };
	const char *k;
	est a, b;

	est_open(&a, one, 2);
	est_open(&b, many, 2);
	/* spine0: 4 ports, CXL_NVC FIFOs each, an 8-byte pointer and a 2-byte port per slot */
	ck_assert_uint_eq(of(&b, "spine0", &k) - of(&a, "spine0", &k), 4ull * 6 * 100 * 10);
	ck_assert_str_eq(k, "switch.buffer");
	/* a bus: both directions, CXL_NVC FIFOs of pointers */
	ck_assert_uint_eq(of(&b, "leaf0-spine0", &k) - of(&a, "leaf0-spine0", &k), 2ull * 6 * 100 * 8);
	ck_assert_str_eq(k, "bus.buffer");
	est_close(&a);
	est_close(&b);
}
END_TEST

START_TEST(test_fab_estimate_host_cache_and_override)
{
	const char *sets[] = { "host.cache.size=64MiB", "memory[mem1].dcoh.entries=65536" };
	const char *k;
	est a;

	est_open(&a, sets, 2);
	ck_assert_uint_ge(of(&a, "host0", &k), (64ull << 20) / 64 * 17);
	ck_assert_str_eq(k, "host.cache.size");
	of(&a, "mem0", &k);
	ck_assert_str_eq(k, "memory.buffer");
	of(&a, "mem1", &k);
	ck_assert_str_eq(k, "memory.dcoh.entries"); /* the override, not the default */
	est_close(&a);
}
END_TEST

START_TEST(test_fab_estimate_per_rank_sums)
{
	est a;
	memest one, two;
	int32_t rank_of[64];

	est_open(&a, NULL, 0);
	ck_assert_uint_le(a.g.ncomp, 64);
	for (uint32_t i = 0; i < a.g.ncomp; i++)
		rank_of[i] = (int32_t)(i % 2);
	uint64_t shared = sys_fabric.shared_bytes(a.f);
	memest_compute(&a.g, a.cf, shared, sys_fabric.comp_bytes, a.f, 1, NULL, &one);
	memest_compute(&a.g, a.cf, shared, sys_fabric.comp_bytes, a.f, 2, rank_of, &two);
	ck_assert_uint_lt(two.bytes, one.bytes);
	ck_assert_uint_gt(2 * (two.bytes - shared - MEMEST_BASE), one.bytes - shared - MEMEST_BASE);
	ck_assert_str_eq(one.kind, "bus");
	ck_assert_str_eq(one.key, "bus.buffer");
	est_close(&a);
}
END_TEST

Suite *fab_estimate_suite(void)
{
	Suite *s = suite_create("fab_estimate");
	TCase *tc = tcase_create("estimate");

	tcase_add_test(tc, test_fab_estimate_public_sizes);
	tcase_add_test(tc, test_fab_estimate_snoop_filter_per_entry);
	tcase_add_test(tc, test_fab_estimate_buffers_scale_switch_and_bus);
	tcase_add_test(tc, test_fab_estimate_host_cache_and_override);
	tcase_add_test(tc, test_fab_estimate_per_rank_sums);
	suite_add_tcase(s, tc);
	return s;
}
