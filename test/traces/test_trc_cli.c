/*
 * test/traces/test_trc_cli.c - unit tests for traces/trc_cli.c, the option
 * and value parsing of cxlfab-trace.
 */
#include "traces/trc_cli.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

/* A mutable argv from string literals; free with free_args. */
static char **args(int n, const char *const *s)
{
	char **v = calloc((size_t)n + 1, sizeof(*v));

	for (int i = 0; i < n; i++)
		v[i] = strdup(s[i]);
	return v;
}

static void free_args(char **v)
{
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

#define ARGS(...) args(NELEMS(((const char *const[]){ __VA_ARGS__ })), \
		       (const char *const[]){ __VA_ARGS__ })

START_TEST(test_trc_cli_parse_forms)
{
	trc_opt o[] = { { "--records", 0, NULL }, { "--strict", 1, NULL }, { "-q", 1, NULL } };
	char **argv = ARGS("in", "--records", "5", "--strict", "-", "--records=7", "-q", "--",
			   "--odd");
	const char *pos[3];
	cxl_err err = { 0 };

	ck_assert_int_eq(trc_cli_parse("x", 9, argv, o, 3, pos, 3, &err), 0);
	ck_assert_str_eq(o[0].val, "7");
	ck_assert_str_eq(o[1].val, "1");
	ck_assert_str_eq(o[2].val, "1");
	ck_assert_str_eq(pos[0], "in");
	ck_assert_str_eq(pos[1], "-");
	ck_assert_str_eq(pos[2], "--odd");
	free_args(argv);
}
END_TEST

static void parse_fails(int argc, char **argv, int npos, const char *msg)
{
	trc_opt o[] = { { "--records", 0, NULL }, { "--strict", 1, NULL } };
	const char *pos[3];
	cxl_err err = { 0 };

	ck_assert_int_eq(trc_cli_parse("gen", argc, argv, o, 2, pos, npos, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, msg);
	free_args(argv);
}

START_TEST(test_trc_cli_parse_errors)
{
	char **a = ARGS("--recs", "1"), **b = ARGS("--records"), **c = ARGS("--strict=1"),
	     **d = ARGS("x", "y"), **e = ARGS("--records", "1");

	parse_fails(2, a, 1, "gen: unknown option --recs (see cxlfab-trace gen --help)");
	parse_fails(1, b, 0, "gen: --records needs a value");
	parse_fails(1, c, 0, "gen: --strict takes no value");
	parse_fails(2, d, 1, "gen: unexpected argument \"y\" (see cxlfab-trace gen --help)");
	parse_fails(2, e, 1, "gen: expected 1 argument, got 0 (see cxlfab-trace gen --help)");
}
END_TEST

START_TEST(test_trc_cli_help)
{
	char **a = ARGS("x", "--help"), **b = ARGS("--", "-h"), **c = ARGS("-h");

	ck_assert_int_eq(trc_cli_wants_help(2, a), 1);
	ck_assert_int_eq(trc_cli_wants_help(2, b), 0);
	ck_assert_int_eq(trc_cli_wants_help(1, c), 1);
	free_args(a);
	free_args(b);
	free_args(c);
}
END_TEST

START_TEST(test_trc_cli_values)
{
	uint64_t v;
	double d;
	int k;
	cxl_err err = { 0 };
	static const char *const names[] = { "a", "bb" };

	ck_assert_int_eq(trc_cli_u64("--n", "0x10", &v, NULL), 0);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(trc_cli_u64("--n", "18446744073709551615", &v, NULL), 0);
	ck_assert_int_eq(trc_cli_u64("--n", "18446744073709551616", &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_u64("--n", "-1", &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_u64("--n", "1x", &v, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--n 1x: not an unsigned integer");
	ck_assert_int_eq(trc_cli_bytes("--f", "4K", &v, NULL), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(trc_cli_bytes("--f", "2MiB", &v, NULL), 0);
	ck_assert_uint_eq(v, 2 << 20);
	ck_assert_int_eq(trc_cli_bytes("--f", "1g", &v, NULL), 0);
	ck_assert_uint_eq(v, 1 << 30);
	ck_assert_int_eq(trc_cli_bytes("--f", "640", &v, NULL), 0);
	ck_assert_uint_eq(v, 640);
	ck_assert_int_eq(trc_cli_bytes("--f", "3X", &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_bytes("--f", "3KX", &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_bytes("--f", "99999999999T", &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_fraction("--r", "0.25", &d, NULL), 0);
	ck_assert_double_eq(d, 0.25);
	ck_assert_int_eq(trc_cli_fraction("--r", "1.01", &d, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_fraction("--r", "nan", &d, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_time("--clock", "0.625ns", 1, &v, NULL), 0);
	ck_assert_uint_eq(v, 625);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cli_time("--clock", "0ps", 1, &v, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--clock 0ps: must be above 0");
	ck_assert_int_eq(trc_cli_time("--interval", "0ps", 0, &v, NULL), 0);
	ck_assert_int_eq(trc_cli_time("--clock", "5", 1, &v, NULL), CXL_EINVAL);
	ck_assert_int_eq(trc_cli_choice("--x", "bb", names, 2, &k, NULL), 0);
	ck_assert_int_eq(k, 1);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cli_choice("--x", "c", names, 2, &k, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--x c: unknown (expected a|bb)");
}
END_TEST

START_TEST(test_trc_cli_ipns)
{
	static const struct {
		const char *s;
		uint64_t ps;
	} ok[] = { { "1", 1000 }, { "2.5", 400 }, { "0.25", 4000 }, { ".5", 2000 },
		   { "1000", 1 }, { "0.000001", 1000000000 }, { "8", 125 } };
	static const char *const bad[] = { "", "0", "0.0", "-1", "1.", "1e3", "2..5", "x",
					   "0.0000000001" };
	uint64_t ps;
	cxl_err err = { 0 };

	for (size_t i = 0; i < NELEMS(ok); i++) {
		ck_assert_msg(trc_cli_ipns("--ipns", ok[i].s, &ps, &err) == 0, "%s", err.msg);
		ck_assert_uint_eq(ps, ok[i].ps);
	}
	for (size_t i = 0; i < NELEMS(bad); i++)
		ck_assert_msg(trc_cli_ipns("--ipns", bad[i], &ps, NULL) == CXL_EINVAL, "%s", bad[i]);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cli_ipns("--ipns", "3", &ps, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--ipns 3: one instruction would not take a whole number of ps "
			 "(give --clock, the time of one instruction, e.g. --clock 333ps)");
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cli_ipns("--ipns", "2000", &ps, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--ipns 2000: above 1000 per ns (an instruction takes at least 1 ps)");
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cli_ipns("--ipns", "0", &ps, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--ipns 0: not a rate above 0 (expected instructions per ns, e.g. "
			 "1, 2.5, 0.25)");
}
END_TEST

Suite *trc_cli_suite(void)
{
	Suite *s = suite_create("trc_cli");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_trc_cli_parse_forms);
	tcase_add_test(tc, test_trc_cli_parse_errors);
	tcase_add_test(tc, test_trc_cli_help);
	tcase_add_test(tc, test_trc_cli_values);
	tcase_add_test(tc, test_trc_cli_ipns);
	suite_add_tcase(s, tc);
	return s;
}
