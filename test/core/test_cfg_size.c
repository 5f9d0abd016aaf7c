/*
 * test/core/test_cfg_size.c - unit tests for the CFG_SIZE values of the cfg
 * module (core/cfg_value.c, cfg.c's cfg_size(), cfg_out.c): integers and
 * strings with units in files, --set text, defaults and ranges in units,
 * every rejected form with its one-line message, wrong setting types,
 * config dump round trips, --help-config's type and units, and the
 * getter's type check.  Its own schema; the temp-dir fixture of
 * cfg_fixture.h.
 */
#include "core/cfg.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/cfg_fixture.h"
#include "test/core/panic_fixture.h"

static const cfg_key size_keys[] = {
	{ .path = "mem.footprint", .type = CFG_SIZE, .def = "1MiB", .min = "64B", .max = "1TiB",
	  .doc = "bytes touched" },
	{ .path = "mem.header", .type = CFG_SIZE, .def = "20", .min = "0B", .max = "256",
	  .doc = "header bytes" },
	{ .path = "mem.big", .type = CFG_SIZE, .def = "0B", .doc = "no bounds" },
	{ .path = "mem.count", .type = CFG_INT, .def = "4", .doc = "a count, not a size" },
};

static const cfg_schema size_schema = { "mem", size_keys, NELEMS(size_keys) };
static const cfg_schema *const size_schemas[] = { &size_schema };

#define EXPECTED "(expected a size: bytes, or a string with a unit " \
	"B|KiB|MiB|GiB|TiB|kB|MB|GB|TB, e.g. \"4KiB\")"
#define BAD(s) "bad size \"" s "\" (expected a number of bytes, or a number with a unit " \
	"B|KiB|MiB|GiB|TiB (1024-based) or kB|MB|GB|TB (1000-based), e.g. \"4KiB\")"

static int load(cfg **c, const char *path, const char *const *sets, size_t nsets, cxl_err *e)
{
	return cfg_load(c, path, size_schemas, 1, sets, nsets, e);
}

/* Load file text @text (NULL: no file) and the --set @sets; must succeed. */
static cfg *load_ok(const char *text, const char *const *sets, size_t nsets)
{
	char path[256];
	cfg *c = NULL;
	cxl_err err = { 0 };

	if (text)
		cfgt_write(path, "ok.cfg", text);
	ck_assert_msg(load(&c, text ? path : NULL, sets, nsets, &err) == 0, "%s", err.msg);
	return c;
}

/* The size mem.footprint gets from file text "mem = { footprint = @val; };". */
static uint64_t file_size(const char *val)
{
	char text[256];

	snprintf(text, sizeof(text), "mem = { footprint = %s; };\n", val);
	cfg *c = load_ok(text, NULL, 0);
	uint64_t b = cfg_size(c, "mem.footprint");
	ck_assert_int_eq(cfg_is_set(c, "mem.footprint"), 1);
	cfg_free(c);
	return b;
}

/* The size mem.footprint gets from "--set mem.footprint=@val". */
static uint64_t set_size(const char *val)
{
	char set[256];
	const char *sets[] = { set };

	snprintf(set, sizeof(set), "mem.footprint=%s", val);
	cfg *c = load_ok(NULL, sets, 1);
	uint64_t b = cfg_size(c, "mem.footprint");
	cfg_free(c);
	return b;
}

/* File text with the line "  footprint = @val;" fails with "FILE:2: @msg". */
static void file_fails(const char *val, const char *msg)
{
	char text[256], path[256], want[1024];
	cfg *c = NULL;
	cxl_err err = { 0 };

	snprintf(text, sizeof(text), "mem = {\n  footprint = %s;\n};\n", val);
	cfgt_write(path, "bad.cfg", text);
	ck_assert_int_eq(load(&c, path, NULL, 0, &err), CXL_EINVAL);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof(want), "%s:2: mem.footprint: %s", path, msg);
	ck_assert_str_eq(err.msg, want);
}

/* "--set mem.footprint=@val" fails with "--set mem.footprint=@val: mem.footprint: @msg". */
static void set_fails(const char *val, const char *msg)
{
	char set[256], want[1024];
	const char *sets[] = { set };
	cfg *c = NULL;
	cxl_err err = { 0 };

	snprintf(set, sizeof(set), "mem.footprint=%s", val);
	ck_assert_int_eq(load(&c, NULL, sets, 1, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "--set %s: mem.footprint: %s", set, msg);
	ck_assert_str_eq(err.msg, want);
}

START_TEST(test_cfg_size_file_integer_is_bytes)
{
	ck_assert_uint_eq(file_size("4096"), 4096);
	ck_assert_uint_eq(file_size("1048576"), 1048576);
	ck_assert_uint_eq(file_size("64"), 64);
	ck_assert_uint_eq(file_size("0x1000"), 4096);
	ck_assert_uint_eq(file_size("1099511627776L"), UINT64_C(1) << 40);
}
END_TEST

START_TEST(test_cfg_size_file_units)
{
	ck_assert_uint_eq(file_size("\"64B\""), 64);
	ck_assert_uint_eq(file_size("\"4KiB\""), 4096);
	ck_assert_uint_eq(file_size("\"1.5MiB\""), 1572864);
	ck_assert_uint_eq(file_size("\"16GiB\""), UINT64_C(16) << 30);
	ck_assert_uint_eq(file_size("\"1TiB\""), UINT64_C(1) << 40);
	ck_assert_uint_eq(file_size("\"1kB\""), 1000);
	ck_assert_uint_eq(file_size("\"2.5MB\""), 2500000);
	ck_assert_uint_eq(file_size("\"3GB\""), UINT64_C(3000000000));
	ck_assert_uint_eq(file_size("\"1TB\""), UINT64_C(1000000000000));
	ck_assert_uint_eq(file_size("\"4096\""), 4096);
}
END_TEST

START_TEST(test_cfg_size_set_forms)
{
	ck_assert_uint_eq(set_size("4KiB"), 4096);
	ck_assert_uint_eq(set_size("1048576"), 1048576);
	ck_assert_uint_eq(set_size("1MiB"), 1048576);
	ck_assert_uint_eq(set_size(" 1.5KiB "), 1536);
	ck_assert_uint_eq(set_size("64B"), 64);
}
END_TEST

START_TEST(test_cfg_size_defaults)
{
	cfg *c = load_ok(NULL, NULL, 0);

	ck_assert_uint_eq(cfg_size(c, "mem.footprint"), 1048576);
	ck_assert_uint_eq(cfg_size(c, "mem.header"), 20);
	ck_assert_uint_eq(cfg_size(c, "mem.big"), 0);
	ck_assert_int_eq(cfg_is_set(c, "mem.footprint"), 0);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_size_range_in_units)
{
	const char *sets[] = { "mem.header=256B", "mem.big=9223372036854775807" };

	ck_assert_uint_eq(set_size("64B"), 64);
	ck_assert_uint_eq(set_size("1TiB"), UINT64_C(1) << 40);
	set_fails("32", "32B is out of range (expected 64B to 1TiB)");
	set_fails("63B", "63B is out of range (expected 64B to 1TiB)");
	set_fails("1.5TiB", "1.5TiB is out of range (expected 64B to 1TiB)");
	file_fails("0", "0B is out of range (expected 64B to 1TiB)");
	file_fails("\"1100GB\"", "1.1TB is out of range (expected 64B to 1TiB)");
	cfg *c = load_ok(NULL, sets, 2);
	ck_assert_uint_eq(cfg_size(c, "mem.header"), 256);
	ck_assert_uint_eq(cfg_size(c, "mem.big"), (uint64_t)INT64_MAX);
	cfg_free(c);
	const char *over[] = { "mem.header=257" };
	cxl_err err = { 0 };
	ck_assert_int_eq(load(&c, NULL, over, 1, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "--set mem.header=257: mem.header: 257B is out of range "
			 "(expected 0B to 256)");
}
END_TEST

START_TEST(test_cfg_size_rejected_text)
{
	set_fails("4KB", BAD("4KB"));
	set_fails("4kb", BAD("4kb"));
	set_fails("4 KiB", BAD("4 KiB"));
	set_fails("1PiB", BAD("1PiB"));
	set_fails("", BAD(""));
	set_fails("KiB", BAD("KiB"));
	set_fails("1e6", BAD("1e6"));
	set_fails("-4KiB", "negative size \"-4KiB\" (a size is >= 0)");
	set_fails("-64", "negative size \"-64\" (a size is >= 0)");
	set_fails("1.3KiB", "size \"1.3KiB\" is not a whole number of bytes");
	set_fails("64.5", "size \"64.5\" is not a whole number of bytes");
	set_fails("8388608TiB", "size \"8388608TiB\" too large (at most 2^63-1 bytes)");
	set_fails("9223372036854775808", "size \"9223372036854775808\" too large "
		  "(at most 2^63-1 bytes)");
}
END_TEST

START_TEST(test_cfg_size_rejected_in_file)
{
	file_fails("\"4KB\"", BAD("4KB"));
	file_fails("-64", "negative size \"-64\" (a size is >= 0)");
	file_fails("\"-1MiB\"", "negative size \"-1MiB\" (a size is >= 0)");
	file_fails("\"0.1KiB\"", "size \"0.1KiB\" is not a whole number of bytes");
	file_fails("\"9EiB\"", BAD("9EiB"));
	file_fails("\"8192PiB\"", BAD("8192PiB"));
	file_fails("\"9223372036854775808B\"", "size \"9223372036854775808B\" too large "
		   "(at most 2^63-1 bytes)");
}
END_TEST

START_TEST(test_cfg_size_wrong_setting_type)
{
	file_fails("1.5", "wrong type: got a float " EXPECTED);
	file_fails("true", "wrong type: got a boolean " EXPECTED);
	file_fails("[\"4KiB\"]", "lists are not supported for this key " EXPECTED);
}
END_TEST

/* Dump, reload the dump: same sizes, same text. */
START_TEST(test_cfg_size_dump_round_trip)
{
	const char *sets[] = { "mem.footprint=1.5MiB", "mem.header=24",
			       "mem.big=9223372036854775807" };
	cfg *c = load_ok(NULL, sets, NELEMS(sets));
	char path[256];
	char *text = cfgt_dump(c);

	ck_assert_ptr_nonnull(strstr(text, "  footprint = \"1.5MiB\";\n"));
	ck_assert_ptr_nonnull(strstr(text, "  header = \"24B\";\n"));
	ck_assert_ptr_nonnull(strstr(text, "  big = \"9223372036854775807B\";\n"));
	cfgt_write(path, "dump.cfg", text);
	cfg *back = NULL;
	cxl_err err = { 0 };
	ck_assert_msg(load(&back, path, NULL, 0, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < 3; i++)
		ck_assert_uint_eq(cfg_size(back, size_keys[i].path), cfg_size(c, size_keys[i].path));
	char *again = cfgt_dump(back);
	ck_assert_str_eq(again, text);
	free(again);
	free(text);
	cfg_free(back);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_size_dump_unit_forms)
{
	static const struct { const char *set, *line; } cases[] = {
		{ "mem.footprint=4096", "footprint = \"4KiB\";" },
		{ "mem.footprint=1048576", "footprint = \"1MiB\";" },
		{ "mem.footprint=1000000", "footprint = \"1MB\";" },
		{ "mem.footprint=1536", "footprint = \"1536B\";" },
		{ "mem.footprint=17179869184", "footprint = \"16GiB\";" },
	};

	for (size_t i = 0; i < NELEMS(cases); i++) {
		const char *sets[] = { cases[i].set };
		cfg *c = load_ok(NULL, sets, 1);
		char *text = cfgt_dump(c);
		ck_assert_msg(strstr(text, cases[i].line), "%s: %s", cases[i].set, text);
		free(text);
		cfg_free(c);
	}
}
END_TEST

START_TEST(test_cfg_size_help)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cfg_help(size_schemas, 1, f);
	fclose(f);
	const char *row = strstr(buf, "mem.footprint ");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_nonnull(strstr(row, "size "));
	ck_assert_ptr_nonnull(strstr(row, "1MiB"));
	ck_assert_ptr_nonnull(strstr(row, "64B to 1TiB"));
	ck_assert_ptr_nonnull(strstr(buf, "\nsize: bytes, an integer (4096) or a string with a unit "
				     "B|KiB|MiB|GiB|TiB (1024-based) or kB|MB|GB|TB (1000-based)"));
	ck_assert_ptr_null(strstr(buf, "\ntime:")); /* no time key here */
	free(buf);
}
END_TEST

START_TEST(test_cfg_size_int_getter_panics)
{
	cfg *c = NULL;

	cfg_load(&c, NULL, size_schemas, 1, NULL, 0, NULL);
	panict_expect("cfg: cfg_int(\"mem.footprint\"): the key is a size");
	cfg_int(c, "mem.footprint");
}
END_TEST

START_TEST(test_cfg_size_getter_on_int_panics)
{
	cfg *c = NULL;

	cfg_load(&c, NULL, size_schemas, 1, NULL, 0, NULL);
	panict_expect("cfg: cfg_size(\"mem.count\"): the key is a int");
	cfg_size(c, "mem.count");
}
END_TEST

static const cfg_key bad_bound_keys[] = {
	{ .path = "t.size", .type = CFG_SIZE, .def = "0B", .max = "4KB" },
};

START_TEST(test_cfg_size_bad_bound_schema_panics)
{
	const cfg_schema s = { "t", bad_bound_keys, NELEMS(bad_bound_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;

	panict_expect("cfg: schema bound of t.size: t.size: bad size \"4KB\"");
	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

Suite *cfg_size_suite(void)
{
	Suite *s = suite_create("cfg_size");
	TCase *tc = cfgt_case("size");
	TCase *panics = tcase_create("size_panics"); /* no temp dir: an abort skips teardown */

	tcase_add_test(tc, test_cfg_size_file_integer_is_bytes);
	tcase_add_test(tc, test_cfg_size_file_units);
	tcase_add_test(tc, test_cfg_size_set_forms);
	tcase_add_test(tc, test_cfg_size_defaults);
	tcase_add_test(tc, test_cfg_size_range_in_units);
	tcase_add_test(tc, test_cfg_size_rejected_text);
	tcase_add_test(tc, test_cfg_size_rejected_in_file);
	tcase_add_test(tc, test_cfg_size_wrong_setting_type);
	tcase_add_test(tc, test_cfg_size_dump_round_trip);
	tcase_add_test(tc, test_cfg_size_dump_unit_forms);
	tcase_add_test(tc, test_cfg_size_help);
	tcase_add_test_raise_signal(panics, test_cfg_size_int_getter_panics, SIGABRT);
	tcase_add_test_raise_signal(panics, test_cfg_size_getter_on_int_panics, SIGABRT);
	tcase_add_test_raise_signal(panics, test_cfg_size_bad_bound_schema_panics, SIGABRT);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, panics);
	return s;
}
