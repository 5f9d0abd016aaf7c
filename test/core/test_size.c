/*
 * test/core/test_size.c - unit tests for core/size.c.
 *
 * Parsing: bare numbers, every unit, fractions that are whole bytes,
 * blanks, the largest size, and each error (negative, a fraction of a
 * byte, unknown or miscased unit, no number, overflow, too many
 * decimals).  Formatting: the documented examples and the choice of unit.
 * Property: size_parse(size_format(b)) == b over seeded pseudo-random
 * values of every magnitude.  Units: size_unit() lookups.
 */
#include "core/size.h"

#include <check.h>
#include <string.h>

#define BAD(s) "bad size \"" s "\" (expected a number of bytes, or a number with a unit " \
	"B|KiB|MiB|GiB|TiB (1024-based) or kB|MB|GB|TB (1000-based), e.g. \"4KiB\")"

static uint64_t parse_ok(const char *s)
{
	uint64_t b = 12345;
	cxl_err err = { 0 };

	ck_assert_msg(size_parse(s, &b, &err) == 0, "\"%s\": %s", s, err.msg);
	ck_assert_int_eq(err.code, CXL_OK);
	return b;
}

/* Parse @s, expect failure with message @msg; the output stays untouched. */
static void parse_fails(const char *s, const char *msg)
{
	uint64_t b = 12345;
	cxl_err err = { 0 };

	ck_assert_int_eq(size_parse(s, &b, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_uint_eq(b, 12345);
	ck_assert_int_eq(size_parse(s, &b, NULL), CXL_EINVAL);
}

START_TEST(test_size_parse_bare_bytes)
{
	ck_assert_uint_eq(parse_ok("0"), 0);
	ck_assert_uint_eq(parse_ok("64"), 64);
	ck_assert_uint_eq(parse_ok("1048576"), 1048576);
	ck_assert_uint_eq(parse_ok("007"), 7);
	ck_assert_uint_eq(parse_ok("2.0"), 2);
}
END_TEST

START_TEST(test_size_parse_units)
{
	ck_assert_uint_eq(parse_ok("64B"), 64);
	ck_assert_uint_eq(parse_ok("4KiB"), 4096);
	ck_assert_uint_eq(parse_ok("1MiB"), UINT64_C(1) << 20);
	ck_assert_uint_eq(parse_ok("16GiB"), UINT64_C(16) << 30);
	ck_assert_uint_eq(parse_ok("2TiB"), UINT64_C(2) << 40);
	ck_assert_uint_eq(parse_ok("1kB"), 1000);
	ck_assert_uint_eq(parse_ok("3MB"), 3000000);
	ck_assert_uint_eq(parse_ok("5GB"), UINT64_C(5000000000));
	ck_assert_uint_eq(parse_ok("7TB"), UINT64_C(7000000000000));
	ck_assert_uint_eq(parse_ok("0GiB"), 0);
}
END_TEST

START_TEST(test_size_parse_fractions)
{
	ck_assert_uint_eq(parse_ok("1.5MiB"), 1572864);
	ck_assert_uint_eq(parse_ok("0.5KiB"), 512);
	ck_assert_uint_eq(parse_ok(".25KiB"), 256);
	ck_assert_uint_eq(parse_ok("1.5kB"), 1500);
	ck_assert_uint_eq(parse_ok("0.001kB"), 1);
	ck_assert_uint_eq(parse_ok("1.0009765625KiB"), 1025);
	ck_assert_uint_eq(parse_ok("2.500GB"), UINT64_C(2500000000));
	ck_assert_uint_eq(parse_ok("0.000000000001TB"), 1);
	/* 18 decimals, then only zeros */
	ck_assert_uint_eq(parse_ok("1.000000000000000000000000TB"), UINT64_C(1000000000000));
}
END_TEST

START_TEST(test_size_parse_blanks)
{
	ck_assert_uint_eq(parse_ok("  64B"), 64);
	ck_assert_uint_eq(parse_ok("4KiB \t\n"), 4096);
	ck_assert_uint_eq(parse_ok("\t128 "), 128);
}
END_TEST

START_TEST(test_size_parse_largest)
{
	ck_assert_uint_eq(parse_ok("9223372036854775807"), SIZE_BYTES_MAX);
	ck_assert_uint_eq(parse_ok("9223372036854775807B"), SIZE_BYTES_MAX);
	ck_assert_uint_eq(parse_ok("8388607TiB"), UINT64_C(8388607) << 40);
	ck_assert_uint_eq(parse_ok("8388607.999996185302734375TiB"), SIZE_BYTES_MAX - 4194303);
}
END_TEST

START_TEST(test_size_parse_negative)
{
	parse_fails("-1", "negative size \"-1\" (a size is >= 0)");
	parse_fails(" -4KiB", "negative size \" -4KiB\" (a size is >= 0)");
	parse_fails("-0B", "negative size \"-0B\" (a size is >= 0)");
}
END_TEST

START_TEST(test_size_parse_fraction_of_a_byte)
{
	parse_fails("0.5", "size \"0.5\" is not a whole number of bytes");
	parse_fails("1.5B", "size \"1.5B\" is not a whole number of bytes");
	parse_fails("1.3KiB", "size \"1.3KiB\" is not a whole number of bytes");
	parse_fails("0.0001kB", "size \"0.0001kB\" is not a whole number of bytes");
	parse_fails("1.0000000000001TB", "size \"1.0000000000001TB\" is not a whole number of bytes");
}
END_TEST

START_TEST(test_size_parse_unknown_unit)
{
	parse_fails("4KB", BAD("4KB"));
	parse_fails("4kiB", BAD("4kiB"));
	parse_fails("4kb", BAD("4kb"));
	parse_fails("4b", BAD("4b"));
	parse_fails("1PiB", BAD("1PiB"));
	parse_fails("1EB", BAD("1EB"));
	parse_fails("4 KiB", BAD("4 KiB"));
	parse_fails("4KiB4", BAD("4KiB4"));
	parse_fails("1e3", BAD("1e3"));
	parse_fails("0x40", BAD("0x40"));
	parse_fails("+64", BAD("+64"));
	parse_fails("1.2.3KiB", BAD("1.2.3KiB"));
}
END_TEST

START_TEST(test_size_parse_no_number)
{
	parse_fails("", BAD(""));
	parse_fails("   ", BAD("   "));
	parse_fails("KiB", BAD("KiB"));
	parse_fails(".KiB", BAD(".KiB"));
	parse_fails(".", BAD("."));
}
END_TEST

START_TEST(test_size_parse_overflow)
{
	parse_fails("9223372036854775808", "size \"9223372036854775808\" too large (at most 2^63-1 bytes)");
	parse_fails("8388608TiB", "size \"8388608TiB\" too large (at most 2^63-1 bytes)");
	parse_fails("9223372.036854775808TB",
		    "size \"9223372.036854775808TB\" too large (at most 2^63-1 bytes)");
	parse_fails("18446744073709551616", "size \"18446744073709551616\" too large (at most 2^63-1 bytes)");
	parse_fails("99999999999999999999999KiB",
		    "size \"99999999999999999999999KiB\" too large (at most 2^63-1 bytes)");
}
END_TEST

START_TEST(test_size_parse_too_many_decimals)
{
	parse_fails("1.0000000000000000001TiB",
		    "size \"1.0000000000000000001TiB\" has too many decimals (at most 18)");
}
END_TEST

static void format_is(uint64_t b, const char *want)
{
	char buf[SIZE_FMT_LEN];

	ck_assert_ptr_eq(size_format(b, buf), buf);
	ck_assert_str_eq(buf, want);
}

START_TEST(test_size_format_examples)
{
	format_is(0, "0B");
	format_is(20, "20B");
	format_is(64, "64B");
	format_is(1000, "1kB");
	format_is(1024, "1KiB");
	format_is(1536, "1536B");
	format_is(4096, "4KiB");
	format_is(204800, "200KiB");
	format_is(1000000, "1MB");
	format_is(1048576, "1MiB");
	format_is(1572864, "1.5MiB");
	format_is(UINT64_C(1) << 30, "1GiB");
	format_is(UINT64_C(1) << 40, "1TiB");
	format_is(UINT64_C(5) << 41, "10TiB");
	format_is(UINT64_C(7000000000000), "7TB");
	format_is(SIZE_BYTES_MAX, "9223372036854775807B");
	format_is(UINT64_C(8388607) << 40, "8388607TiB");
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

START_TEST(test_size_round_trip_property)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char buf[SIZE_FMT_LEN];

	for (int i = 0; i < 200000; i++) {
		unsigned bits = (unsigned)(next_rand(&seed) % 63) + 1;
		uint64_t b = next_rand(&seed) & ((UINT64_C(1) << bits) - 1);
		if (i % 3 == 0)
			b -= b % (i % 2 ? 1024 : 1000); /* whole units: the unit paths */
		uint64_t back = 0;
		size_format(b, buf);
		ck_assert_msg(size_parse(buf, &back, NULL) == 0, "%s does not parse", buf);
		ck_assert_msg(back == b, "%s parsed back as %llu, not %llu", buf,
			      (unsigned long long)back, (unsigned long long)b);
	}
}
END_TEST

START_TEST(test_size_unit_lookup)
{
	uint64_t u = 7;

	ck_assert_int_eq(size_unit("GB/s", 2, &u), 0);
	ck_assert_uint_eq(u, UINT64_C(1000000000));
	ck_assert_int_eq(size_unit("KiB", 3, &u), 0);
	ck_assert_uint_eq(u, 1024);
	ck_assert_int_eq(size_unit("B", 1, &u), 0);
	ck_assert_uint_eq(u, 1);
	u = 7;
	ck_assert_int_eq(size_unit("KB", 2, &u), -1);
	ck_assert_int_eq(size_unit("Ki", 2, &u), -1);
	ck_assert_int_eq(size_unit("", 0, &u), -1);
	ck_assert_uint_eq(u, 7);
}
END_TEST

Suite *size_suite(void)
{
	Suite *s = suite_create("size");
	TCase *parse = tcase_create("parse");
	TCase *parse_errors = tcase_create("parse_errors");
	TCase *format = tcase_create("format");

	tcase_add_test(parse, test_size_parse_bare_bytes);
	tcase_add_test(parse, test_size_parse_units);
	tcase_add_test(parse, test_size_parse_fractions);
	tcase_add_test(parse, test_size_parse_blanks);
	tcase_add_test(parse, test_size_parse_largest);
	tcase_add_test(parse, test_size_unit_lookup);
	tcase_add_test(parse_errors, test_size_parse_negative);
	tcase_add_test(parse_errors, test_size_parse_fraction_of_a_byte);
	tcase_add_test(parse_errors, test_size_parse_unknown_unit);
	tcase_add_test(parse_errors, test_size_parse_no_number);
	tcase_add_test(parse_errors, test_size_parse_overflow);
	tcase_add_test(parse_errors, test_size_parse_too_many_decimals);
	tcase_add_test(format, test_size_format_examples);
	tcase_add_test(format, test_size_round_trip_property);
	tcase_set_timeout(format, 30);
	suite_add_tcase(s, parse);
	suite_add_tcase(s, parse_errors);
	suite_add_tcase(s, format);
	return s;
}
