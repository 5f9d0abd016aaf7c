/*
 * test/models/memory/test_dram_cfg.c - unit tests for the memory.dram.* keys
 * (models/memory/dram_cfg.c): the simple model is the default, a preset with
 * overrides of organisation, policy and timings, DDR4-2400 with 4 channels
 * (the cMPI pool's), every key exists in the memory schema and is refused
 * with the simple model, and the errors of bad values (row size, mapping, a
 * parameter set the model rejects).
 */
#include "models/memory/dram_cfg.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/memory/mem.h"

static dram_params preset(const char *name)
{
	const dram_params *p = dram_preset(name);

	ck_assert_ptr_nonnull(p);
	return *p;
}

static int load(const char *const *sets, size_t n, dram_params *p, int *detailed, cxl_err *err)
{
	const cfg_schema *const schemas[] = { &cxl_memory_schema };
	cfg *cf;

	memset(err, 0, sizeof(*err));
	ck_assert_msg(cfg_load(&cf, NULL, schemas, 1, sets, n, err) == 0, "%s", err->msg);
	int rc = dram_cfg_read(cf, p, detailed, err);
	cfg_free(cf);
	return rc;
}

START_TEST(test_dram_cfg_default_is_simple)
{
	dram_params p;
	int detailed = -1;
	cxl_err err;

	ck_assert_int_eq(load(NULL, 0, &p, &detailed, &err), 0);
	ck_assert_int_eq(detailed, 0);
}
END_TEST

START_TEST(test_dram_cfg_preset_and_overrides)
{
	const char *const sets[] = {
		"memory.dram.preset=DDR5-4800", "memory.dram.tRCD=40", "memory.dram.bankgroups=4",
		"memory.dram.page=closed", "memory.dram.mapping=ch:row:bank:rank:col:bg",
		"memory.dram.refresh=false", "memory.dram.queue=8", "memory.dram.rate=5600",
		"memory.dram.row_bytes=2048", "memory.dram.channels=4", "memory.dram.ranks=2",
		"memory.dram.starve=0",
	};
	dram_params p, want = preset("DDR5-4800");
	int detailed;
	cxl_err err;

	ck_assert_int_eq(load(sets, 1, &p, &detailed, &err), 0);
	ck_assert_int_eq(detailed, 1);
	ck_assert_int_eq(memcmp(p.t, want.t, sizeof(p.t)), 0);
	ck_assert_int_eq(memcmp(p.map, want.map, sizeof(p.map)), 0);
	ck_assert_uint_eq(p.bankgroups, 8);
	ck_assert_uint_eq(p.queue, 32);
	ck_assert_int_eq(load(sets, sizeof(sets) / sizeof(sets[0]), &p, &detailed, &err), 0);
	ck_assert_uint_eq(p.t[DRAM_tRCD], 40);
	ck_assert_uint_eq(p.t[DRAM_tRP], 34);
	ck_assert_uint_eq(p.bankgroups, 4);
	ck_assert_uint_eq(p.banks, 4);
	ck_assert_uint_eq(p.closed_page, 1);
	ck_assert_uint_eq(p.refresh, 0);
	ck_assert_uint_eq(p.queue, 8);
	ck_assert_uint_eq(p.rate, 5600);
	ck_assert_uint_eq(p.row_lines, 32);
	ck_assert_uint_eq(p.channels, 4);
	ck_assert_uint_eq(p.ranks, 2);
	ck_assert_uint_eq(p.starve, 0);
	ck_assert_uint_eq(p.map[0], DRAM_F_BG);
}
END_TEST

/* Every memory.dram.* key exists in the schema and is refused with "simple". */
/* The cMPI pool's DRAM (configs/cmpi-pool.cfg): DDR4-2400 with 4 channels. */
START_TEST(test_dram_cfg_ddr4_2400_four_channels)
{
	const char *const sets[] = { "memory.dram.preset=DDR4-2400", "memory.dram.channels=4" };
	dram_params p, want = preset("DDR4-2400");
	int detailed;
	cxl_err err;

	ck_assert_int_eq(load(sets, 2, &p, &detailed, &err), 0);
	ck_assert_int_eq(detailed, 1);
	ck_assert_int_eq(memcmp(p.t, want.t, sizeof(p.t)), 0);
	ck_assert_uint_eq(p.rate, 2400);
	ck_assert_uint_eq(p.channels, 4);
	ck_assert_uint_eq(p.t[DRAM_tCL], 16);
	ck_assert_double_eq_tol(4 * dram_peak_GBps(&p), 76.8, 1e-9);
}
END_TEST

START_TEST(test_dram_cfg_keys_refused_with_simple)
{
	size_t n = 0;

	for (size_t i = 0; dram_cfg_key(i); i++, n++) {
		const char *key = dram_cfg_key(i), *def = NULL;
		for (size_t k = 0; k < cxl_memory_schema.nkeys; k++)
			if (!strcmp(cxl_memory_schema.keys[k].path, key))
				def = cxl_memory_schema.keys[k].def;
		ck_assert_msg(def != NULL, "%s is not in the memory schema", key);
		char set[128];
		snprintf(set, sizeof(set), "%s=%s", key, def);
		const char *const sets[] = { set };
		dram_params p;
		int detailed;
		cxl_err err;
		ck_assert_int_eq(load(sets, 1, &p, &detailed, &err), CXL_EINVAL);
		ck_assert_msg(strstr(err.msg, key) && strstr(err.msg, "applies to a DDR preset only"),
			      "%s", err.msg);
	}
	ck_assert_uint_eq(n, 34);
}
END_TEST

START_TEST(test_dram_cfg_errors)
{
	static const struct { const char *set, *msg; } cases[] = {
		{ "memory.dram.row_bytes=100", "not a multiple of 64" },
		{ "memory.dram.mapping=row:bank:col:bg:ch", "is not a mapping" },
		{ "memory.dram.tREFI=500", "memory.dram.tREFI: tREFI must exceed tRFC + tRC" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const sets[] = { "memory.dram.preset=DDR4-3200", cases[i].set };
		dram_params p;
		int detailed;
		cxl_err err;
		ck_assert_int_eq(load(sets, 2, &p, &detailed, &err), CXL_EINVAL);
		ck_assert_msg(strstr(err.msg, cases[i].msg), "%s: %s", cases[i].set, err.msg);
	}
}
END_TEST

Suite *dram_cfg_suite(void)
{
	Suite *s = suite_create("dram_cfg");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, test_dram_cfg_default_is_simple);
	tcase_add_test(tc, test_dram_cfg_preset_and_overrides);
	tcase_add_test(tc, test_dram_cfg_ddr4_2400_four_channels);
	tcase_add_test(tc, test_dram_cfg_keys_refused_with_simple);
	tcase_add_test(tc, test_dram_cfg_errors);
	suite_add_tcase(s, tc);
	return s;
}
