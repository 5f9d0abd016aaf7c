/*
 * test/models/fabric/test_fab_design.c - unit tests for models/fabric/fab_design.c.
 *
 * Every construction is checked here by a brute-force count of its own
 * (an incidence matrix, then every pair of points against every block), not
 * by fab_design_check(): projective planes PG(2,q) and affine planes
 * AG(2,q) for every prime power q up to 16, the radical S(2,3,q) and
 * S(2,4,q) for every q the family has up to 193, S(2,4,25) by name and
 * numbers (25 points, 50 blocks, 8 per point), single and full.  Also: the
 * parameters (b, r, k) by formula, determinism, the choice for (X, N), the
 * errors, and fab_design_check() catching a broken design.
 */
#include "models/fabric/fab_design.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Every pair of points of @d in exactly @lambda blocks, every point in
 * d->r blocks, counted independently of fab_design_check(). */
static void expect_pairs(const fab_design *d, uint32_t lambda)
{
	uint8_t *in = calloc((size_t)d->v * d->b, 1);

	ck_assert_ptr_nonnull(in);
	for (uint32_t j = 0; j < d->b; j++)
		for (uint32_t i = 0; i < d->k; i++) {
			uint32_t p = d->block[(size_t)j * d->k + i];
			ck_assert_uint_lt(p, d->v);
			ck_assert_uint_eq(in[(size_t)p * d->b + j], 0); /* distinct points */
			in[(size_t)p * d->b + j] = 1;
		}
	for (uint32_t a = 0; a < d->v; a++) {
		uint32_t deg = 0;
		for (uint32_t j = 0; j < d->b; j++)
			deg += in[(size_t)a * d->b + j];
		ck_assert_uint_eq(deg, d->r);
		for (uint32_t c = a + 1; c < d->v; c++) {
			uint32_t n = 0;
			for (uint32_t j = 0; j < d->b; j++)
				n += in[(size_t)a * d->b + j] & in[(size_t)c * d->b + j];
			if (n != lambda)
				ck_abort_msg("%s: points %u, %u share %u blocks", d->name, a, c, n);
		}
	}
	free(in);
}

static int prime_power(uint32_t q)
{
	uint32_t p = 2;

	while (q % p)
		p++;
	while (q % p == 0)
		q /= p;
	return q == 1;
}

START_TEST(test_fab_design_projective_planes)
{
	for (uint32_t q = 2; q <= 16; q++) {
		fab_design d;
		int rc = fab_design_make(&d, FAB_DESIGN_PROJECTIVE, q, 0, NULL);
		if (!prime_power(q)) {
			ck_assert_int_eq(rc, CXL_EINVAL);
			continue;
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(d.v, q * q + q + 1);
		ck_assert_uint_eq(d.b, q * q + q + 1);
		ck_assert_uint_eq(d.k, q + 1);
		ck_assert_uint_eq(d.r, q + 1);
		expect_pairs(&d, 1);
		fab_design_free(&d);
	}
}
END_TEST

START_TEST(test_fab_design_affine_planes)
{
	for (uint32_t q = 2; q <= 16; q++) {
		fab_design d;
		int rc = fab_design_make(&d, FAB_DESIGN_AFFINE, q, 0, NULL);
		if (!prime_power(q)) {
			ck_assert_int_eq(rc, CXL_EINVAL);
			continue;
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(d.v, q * q);
		ck_assert_uint_eq(d.b, q * q + q);
		ck_assert_uint_eq(d.k, q);
		ck_assert_uint_eq(d.r, q + 1);
		expect_pairs(&d, 1);
		fab_design_free(&d);
	}
}
END_TEST

/* The radical families: S(2,3,q) for every prime power q = 1 mod 6, S(2,4,q)
 * for those q = 1 mod 12 where it exists: 13, 25, 73, 97, 109, 181 up to 193. */
START_TEST(test_fab_design_radical_families)
{
	uint32_t made4 = 0;

	for (uint32_t q = 7; q <= 193; q += 6) {
		fab_design d;
		if (!prime_power(q))
			continue;
		ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_RADICAL, q, 3, NULL), 0);
		ck_assert_uint_eq(d.b, q * (q - 1) / 6);
		ck_assert_uint_eq(d.r, (q - 1) / 2);
		expect_pairs(&d, 1);
		fab_design_free(&d);
		if (q % 12 != 1 || fab_design_make(&d, FAB_DESIGN_RADICAL, q, 4, NULL))
			continue;
		ck_assert_uint_eq(d.b, q * (q - 1) / 12);
		ck_assert_uint_eq(d.r, (q - 1) / 3);
		expect_pairs(&d, 1);
		fab_design_free(&d);
		made4++;
	}
	ck_assert_uint_eq(made4, 6);
}
END_TEST

/* The 4-port device, 8-port host pod: S(2,4,25), v = 1 + 8 (4 - 1). */
START_TEST(test_fab_design_s_2_4_25)
{
	fab_design d;

	ck_assert_int_eq(fab_design_pick(&d, FAB_DESIGN_AUTO, 8, 4, NULL), 0);
	ck_assert_int_eq(d.kind, FAB_DESIGN_RADICAL);
	ck_assert_str_eq(d.name, "S(2,4,25)");
	ck_assert_ptr_null(d.block);
	ck_assert_int_eq(fab_design_build(&d, NULL), 0);
	ck_assert_uint_eq(d.v, 25);
	ck_assert_uint_eq(d.b, 50);
	ck_assert_uint_eq(d.r, 8);
	ck_assert_uint_eq(d.k, 4);
	ck_assert_uint_eq(d.lambda, 1);
	expect_pairs(&d, 1);
	fab_design_free(&d);
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_RADICAL, 37, 4, NULL), CXL_EINVAL);
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_RADICAL, 19, 4, NULL), CXL_EINVAL);
}
END_TEST

START_TEST(test_fab_design_single_and_full)
{
	fab_design d;

	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_SINGLE, 5, 0, NULL), 0);
	ck_assert_uint_eq(d.b, 1);
	ck_assert_uint_eq(d.r, 1);
	expect_pairs(&d, 1);
	fab_design_free(&d);
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_FULL, 4, 8, NULL), 0);
	ck_assert_uint_eq(d.b, 8);
	ck_assert_uint_eq(d.r, 8);
	ck_assert_uint_eq(d.lambda, 8);
	expect_pairs(&d, 8);
	fab_design_free(&d);
}
END_TEST

START_TEST(test_fab_design_deterministic)
{
	static const enum fab_design_kind kinds[] = {
		FAB_DESIGN_PROJECTIVE, FAB_DESIGN_AFFINE, FAB_DESIGN_RADICAL,
	};
	static const uint32_t qs[] = { 9, 8, 25 };

	for (int i = 0; i < 3; i++) {
		fab_design a, b;
		ck_assert_int_eq(fab_design_make(&a, kinds[i], qs[i], 4, NULL), 0);
		ck_assert_int_eq(fab_design_make(&b, kinds[i], qs[i], 4, NULL), 0);
		ck_assert_uint_eq(a.b, b.b);
		ck_assert_int_eq(memcmp(a.block, b.block, (size_t)a.b * a.k * sizeof(*a.block)), 0);
		fab_design_free(&a);
		fab_design_free(&b);
	}
}
END_TEST

/* (X, N) -> the family and name auto picks, and explicit families. */
START_TEST(test_fab_design_pick)
{
	static const struct {
		enum fab_design_kind kind;
		uint32_t x, n;
		const char *name;
		uint32_t v;
	} c[] = {
		{ FAB_DESIGN_AUTO, 8, 4, "S(2,4,25)", 25 },  /* 2-(25,4,1) */
		{ FAB_DESIGN_AUTO, 4, 4, "PG(2,3)", 13 },    /* 2-(13,4,1) */
		{ FAB_DESIGN_AUTO, 5, 4, "AG(2,4)", 16 },    /* 2-(16,4,1), GF(4) */
		{ FAB_DESIGN_AUTO, 3, 3, "PG(2,2)", 7 },     /* Fano plane */
		{ FAB_DESIGN_AUTO, 1, 4, "one 4-headed device", 4 },
		{ FAB_DESIGN_AUTO, 9, 4, "S(2,4,25)", 25 },  /* S(2,4,28) not built: 8 of 9 ports */
		{ FAB_DESIGN_AUTO, 8, 8, "PG(2,7)", 57 },
		{ FAB_DESIGN_PROJECTIVE, 8, 4, "PG(2,3)", 13 },
		{ FAB_DESIGN_AFFINE, 8, 4, "AG(2,4)", 16 },
		{ FAB_DESIGN_FULL, 8, 4, "K(4,8)", 4 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fab_design d;
		ck_assert_int_eq(fab_design_pick(&d, c[i].kind, c[i].x, c[i].n, NULL), 0);
		ck_assert_str_eq(d.name, c[i].name);
		ck_assert_uint_eq(d.v, c[i].v);
		ck_assert_uint_le(d.k, c[i].n);
		ck_assert_uint_le(d.r, c[i].x);
		fab_design_free(&d);
	}
}
END_TEST

START_TEST(test_fab_design_errors)
{
	fab_design d;
	cxl_err e = { 0 };

	ck_assert_int_eq(fab_design_pick(&d, FAB_DESIGN_AFFINE, 2, 4, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "no affine design fits 2 host ports and 4 device ports"));
	e = (cxl_err){ 0 };
	ck_assert_int_eq(fab_design_pick(&d, FAB_DESIGN_RADICAL, 8, 2, &e), CXL_EINVAL);
	e = (cxl_err){ 0 };
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_PROJECTIVE, 6, 0, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "6 is not a prime power"));
	ck_assert_ptr_null(d.block);
	/* broken designs: a block out of order, a pair in two blocks */
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_PROJECTIVE, 2, 0, NULL), 0);
	ck_assert_int_eq(fab_design_check(&d, NULL), 0);
	d.block[1] = d.block[0];
	e = (cxl_err){ 0 };
	ck_assert_int_eq(fab_design_check(&d, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "block 0 is not 3 ascending points"));
	fab_design_free(&d);
	ck_assert_int_eq(fab_design_make(&d, FAB_DESIGN_FULL, 4, 2, NULL), 0);
	d.lambda = 1;
	e = (cxl_err){ 0 };
	ck_assert_int_eq(fab_design_check(&d, &e), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "points 0 and 1 share 2 blocks, not 1"));
	fab_design_free(&d);
}
END_TEST

Suite *fab_design_suite(void)
{
	Suite *s = suite_create("fab_design");
	TCase *designs = tcase_create("designs");
	TCase *choice = tcase_create("choice");

	tcase_add_test(designs, test_fab_design_projective_planes);
	tcase_add_test(designs, test_fab_design_affine_planes);
	tcase_add_test(designs, test_fab_design_radical_families);
	tcase_add_test(designs, test_fab_design_s_2_4_25);
	tcase_add_test(designs, test_fab_design_single_and_full);
	tcase_add_test(designs, test_fab_design_deterministic);
	tcase_set_timeout(designs, 120);
	tcase_add_test(choice, test_fab_design_pick);
	tcase_add_test(choice, test_fab_design_errors);
	suite_add_tcase(s, designs);
	suite_add_tcase(s, choice);
	return s;
}
