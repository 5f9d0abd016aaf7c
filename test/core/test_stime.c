/*
 * test/core/test_stime.c - unit tests for core/stime.c.
 *
 * Parsing: every unit, fractions, blanks, and each error (not a whole ps,
 * negative, no unit, unknown unit, overflow, empty).  Formatting: the
 * documented examples and unit choice.  Property: stime_parse(stime_format(t))
 * == t over seeded pseudo-random values of every magnitude.  Conversion
 * from double (stime_from_ps): exact in range, saturating outside it.
 */
#include "core/stime.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static sim_time parse_ok(const char *s)
{
	sim_time t = 12345;
	cxl_err err = { 0 };

	ck_assert_msg(stime_parse(s, &t, &err) == 0, "\"%s\": %s", s, err.msg);
	ck_assert_int_eq(err.code, CXL_OK);
	return t;
}

/* Parse @s, expect failure with message @msg; the output stays untouched. */
static void parse_fails(const char *s, const char *msg)
{
	sim_time t = 12345;
	cxl_err err = { 0 };

	ck_assert_int_eq(stime_parse(s, &t, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_uint_eq(t, 12345);
	ck_assert_int_eq(stime_parse(s, &t, NULL), CXL_EINVAL);
}

START_TEST(test_stime_parse_units)
{
	ck_assert_uint_eq(parse_ok("7ps"), 7);
	ck_assert_uint_eq(parse_ok("25ns"), 25 * SIM_NS);
	ck_assert_uint_eq(parse_ok("3us"), 3 * SIM_US);
	ck_assert_uint_eq(parse_ok("4ms"), 4 * SIM_MS);
	ck_assert_uint_eq(parse_ok("2s"), 2 * SIM_S);
	ck_assert_uint_eq(parse_ok("0ps"), 0);
	ck_assert_uint_eq(parse_ok("0s"), 0);
}
END_TEST

START_TEST(test_stime_parse_fractions)
{
	ck_assert_uint_eq(parse_ok("1.5us"), 1500000);
	ck_assert_uint_eq(parse_ok("0.001ns"), 1);
	ck_assert_uint_eq(parse_ok("2.25ns"), 2250);
	ck_assert_uint_eq(parse_ok("1.000001s"), SIM_S + SIM_US);
	ck_assert_uint_eq(parse_ok("0.000000000001s"), 1);
	ck_assert_uint_eq(parse_ok("3.0ps"), 3);
	ck_assert_uint_eq(parse_ok(".5ns"), 500);
	ck_assert_uint_eq(parse_ok("1.50ns"), 1500);
}
END_TEST

START_TEST(test_stime_parse_blanks)
{
	ck_assert_uint_eq(parse_ok("  25ns"), 25000);
	ck_assert_uint_eq(parse_ok("25ns \t\n"), 25000);
	ck_assert_uint_eq(parse_ok("\t1.5us "), 1500000);
}
END_TEST

START_TEST(test_stime_parse_not_whole_ps)
{
	parse_fails("0.5ps", "time \"0.5ps\" is not a whole number of picoseconds");
	parse_fails("0.0001ns", "time \"0.0001ns\" is not a whole number of picoseconds");
	parse_fails("1.0000000000001s", "time \"1.0000000000001s\" is not a whole number of picoseconds");
}
END_TEST

START_TEST(test_stime_parse_negative)
{
	parse_fails("-5ns", "negative time \"-5ns\" (a time is >= 0)");
	parse_fails(" -0ps", "negative time \" -0ps\" (a time is >= 0)");
}
END_TEST

START_TEST(test_stime_parse_missing_unit)
{
	parse_fails("100", "bad time \"100\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("1.5", "bad time \"1.5\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("ns", "bad time \"ns\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
}
END_TEST

START_TEST(test_stime_parse_unknown_unit)
{
	parse_fails("5min", "bad time \"5min\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("5NS", "bad time \"5NS\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("5 ns", "bad time \"5 ns\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("5ns5", "bad time \"5ns5\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("1e3ns", "bad time \"1e3ns\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
}
END_TEST

START_TEST(test_stime_parse_overflow)
{
	ck_assert_uint_eq(parse_ok("18446744073709551615ps"), SIM_TIME_MAX);
	ck_assert_uint_eq(parse_ok("18446744.073709551615s"), SIM_TIME_MAX);
	parse_fails("18446744073709551616ps", "time \"18446744073709551616ps\" too large (at most 2^64-1 ps)");
	parse_fails("18446745s", "time \"18446745s\" too large (at most 2^64-1 ps)");
	parse_fails("18446744.073709551616s", "time \"18446744.073709551616s\" too large (at most 2^64-1 ps)");
	parse_fails("99999999999999999999999ns", "time \"99999999999999999999999ns\" too large (at most 2^64-1 ps)");
}
END_TEST

START_TEST(test_stime_parse_blank_and_empty)
{
	parse_fails("", "bad time \"\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails("   ", "bad time \"   \" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	parse_fails(".ns", "bad time \".ns\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
}
END_TEST

static void format_is(sim_time t, const char *want)
{
	char buf[STIME_FMT_LEN];

	ck_assert_ptr_eq(stime_format(t, buf), buf);
	ck_assert_str_eq(buf, want);
}

START_TEST(test_stime_format_examples)
{
	format_is(0, "0ps");
	format_is(1500, "1.5ns");
	format_is(4000000, "4us");
	format_is(SIM_TIME_MAX, "never");
	format_is(1, "1ps");
	format_is(999, "999ps");
	format_is(1000, "1ns");
	format_is(1001, "1.001ns");
	format_is(SIM_MS, "1ms");
	format_is(2 * SIM_S + 1, "2.000000000001s");
	format_is(SIM_TIME_MAX - 1, "18446744.073709551614s");
}
END_TEST

/* xorshift64*: deterministic test values, seeded here. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

START_TEST(test_stime_round_trip_property)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char buf[STIME_FMT_LEN];

	for (int i = 0; i < 200000; i++) {
		uint64_t r = next_rand(&seed);
		unsigned bits = (unsigned)(next_rand(&seed) % 64) + 1;
		sim_time t = bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1);
		if (i % 3 == 0)
			t -= t % SIM_NS;  /* whole units exercise the no-fraction path */
		if (t == SIM_TIME_MAX)
			continue;  /* "never" is not parseable; see the stime report */
		sim_time back = 0;
		stime_format(t, buf);
		ck_assert_msg(stime_parse(buf, &back, NULL) == 0, "%s does not parse", buf);
		ck_assert_msg(back == t, "%s parsed back differently", buf);
	}
}
END_TEST

/* A double time out of range saturates; a plain cast was undefined (0 on x86-64). */
START_TEST(test_stime_from_ps_saturates)
{
	volatile double big = 0x1p64; /* volatile: no constant folding of the casts */

	ck_assert_uint_eq(stime_from_ps(0.0), 0);
	ck_assert_uint_eq(stime_from_ps(1.0), 1);
	ck_assert_uint_eq(stime_from_ps(2.9), 2);
	ck_assert_uint_eq(stime_from_ps(0x1p63), UINT64_C(1) << 63);
	ck_assert_uint_eq(stime_from_ps(0x1p64 - 2048), UINT64_MAX - 2047);
	ck_assert_uint_eq(stime_from_ps(big), SIM_TIME_MAX - 1);
	ck_assert_uint_eq(stime_from_ps(1e300), SIM_TIME_MAX - 1);
	ck_assert_uint_eq(stime_from_ps(INFINITY), SIM_TIME_MAX - 1);
	ck_assert_uint_eq(stime_from_ps((double)UINT64_MAX * 1.0), SIM_TIME_MAX - 1);
	ck_assert_uint_eq(stime_from_ps(0.5), 0);
	ck_assert_uint_eq(stime_from_ps(-1.0), 0);
	ck_assert_uint_eq(stime_from_ps(-INFINITY), 0);
	ck_assert_uint_eq(stime_from_ps(NAN), 0);
}
END_TEST

Suite *stime_suite(void)
{
	Suite *s = suite_create("stime");
	TCase *parse = tcase_create("parse");
	TCase *parse_errors = tcase_create("parse_errors");
	TCase *format = tcase_create("format");
	TCase *convert = tcase_create("convert");

	tcase_add_test(parse, test_stime_parse_units);
	tcase_add_test(parse, test_stime_parse_fractions);
	tcase_add_test(parse, test_stime_parse_blanks);
	tcase_add_test(parse_errors, test_stime_parse_not_whole_ps);
	tcase_add_test(parse_errors, test_stime_parse_negative);
	tcase_add_test(parse_errors, test_stime_parse_missing_unit);
	tcase_add_test(parse_errors, test_stime_parse_unknown_unit);
	tcase_add_test(parse_errors, test_stime_parse_overflow);
	tcase_add_test(parse_errors, test_stime_parse_blank_and_empty);
	tcase_add_test(format, test_stime_format_examples);
	tcase_add_test(format, test_stime_round_trip_property);
	tcase_add_test(convert, test_stime_from_ps_saturates);
	tcase_set_timeout(format, 30);
	suite_add_tcase(s, parse);
	suite_add_tcase(s, parse_errors);
	suite_add_tcase(s, format);
	suite_add_tcase(s, convert);
	return s;
}
