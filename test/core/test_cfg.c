/*
 * test/core/test_cfg.c - unit tests for core/cfg.c: loading valid files,
 * every file error, --set, error locations (cfg_error_at, cfg_is_set,
 * cfg_has_group) and the panics of programming errors.  Schemas and
 * helpers: cfg_fixture.h; list values: test_cfg_value.c; dump and help:
 * test_cfg_out.c.
 */
#include "core/cfg.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "test/core/cfg_fixture.h"
#include "test/core/panic_fixture.h"

/* ---- loading valid files ------------------------------------------------ */

START_TEST(test_cfg_valid_file_every_type)
{
	char path[256];

	cfgt_write(path, "all.cfg", cfgt_every_type_cfg);
	cfg *c = cfgt_load_ok(path, NULL, 0);
	ck_assert_int_eq(cfg_int(c, "sim.seed"), 42);
	ck_assert_uint_eq(cfg_time(c, "sim.end"), 2500000);
	ck_assert_int_eq(cfg_bool(c, "sim.verbose"), 1);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "hello world");
	ck_assert_int_eq(cfg_int(c, "phold.lps"), 64);
	ck_assert_double_eq(cfg_float(c, "phold.remote"), 0.25);
	ck_assert_uint_eq(cfg_time(c, "phold.lookahead"), 1000);
	ck_assert_str_eq(cfg_str(c, "phold.part"), "metis");
	ck_assert_int_eq(cfg_enum(c, "phold.part"), 1);
	ck_assert_int_eq(cfg_int(c, "phold.big"), INT64_C(9007199254740993));
	ck_assert_uint_eq(cfg_time(c, "phold.mean.delay"), 3000);
	ck_assert_double_eq(cfg_float(c, "phold.mean.weight"), 2.0);
	ck_assert_str_eq(cfg_file(c), path);
	ck_assert_int_eq(cfg_is_set(c, "sim.seed"), 1);
	ck_assert_int_eq(cfg_is_set(c, "sim.ranks"), 0);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_defaults)
{
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; };\n");

	ck_assert_int_eq(cfg_int(c, "sim.seed"), 1);
	ck_assert_uint_eq(cfg_time(c, "sim.end"), SIM_US);
	ck_assert_int_eq(cfg_bool(c, "sim.verbose"), 0);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "run");
	ck_assert_double_eq(cfg_float(c, "phold.remote"), 0.5);
	ck_assert_uint_eq(cfg_time(c, "phold.lookahead"), 100);
	ck_assert_str_eq(cfg_str(c, "phold.part"), "block");
	ck_assert_int_eq(cfg_enum(c, "phold.part"), 0);
	ck_assert_int_eq(cfg_is_set(c, "phold.remote"), 0);
	ck_assert_int_eq(cfg_is_set(c, "phold.lps"), 1);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_no_file)
{
	const char *sets[] = { "phold.lps=8" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	ck_assert_ptr_null(cfg_file(c));
	ck_assert_int_eq(cfg_int(c, "phold.lps"), 8);
	ck_assert_int_eq(cfg_int(c, "sim.seed"), 1);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_int64_and_float_from_int)
{
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; big = -9223372036854775807L; remote = 1; };\n");

	ck_assert_int_eq(cfg_int(c, "phold.big"), -INT64_MAX);
	ck_assert_double_eq(cfg_float(c, "phold.remote"), 1.0);
	cfg_free(c);
}
END_TEST

/*
 * libconfig 1.5 reads an integer without the L suffix into an int (4294967296
 * as 0, 0x7fffffffffffffff as -1): cfg reads the literal again, exactly.
 */
START_TEST(test_cfg_int_beyond_32_bits_exact)
{
	cfg *c = cfgt_load_text_ok("sim = { seed = 4294967296; };\n"
				   "phold = { lps = 1; big = 0x7fffffffffffffff;\n"
				   "  remote = 0; mean = { weight = 4294967297; }; };\n");

	ck_assert_int_eq(cfg_int(c, "sim.seed"), INT64_C(4294967296));
	ck_assert_int_eq(cfg_int(c, "phold.big"), INT64_MAX);
	ck_assert_double_eq(cfg_float(c, "phold.mean.weight"), 4294967297.0);
	cfg_free(c);
	/* a name and its value on different lines; the name inside a string first */
	c = cfgt_load_text_ok("phold = { lps = 1; big\n  =\n  -9223372036854775808; };\n"
			      "sim = { name = \"seed = 5\"; seed = 4294967296; };\n");
	ck_assert_int_eq(cfg_int(c, "phold.big"), INT64_MIN);
	ck_assert_int_eq(cfg_int(c, "sim.seed"), INT64_C(4294967296));
	cfg_free(c);
}
END_TEST

/* ---- file errors ---------------------------------------------------------- */

START_TEST(test_cfg_required_missing)
{
	cfg *c = NULL;
	cxl_err err = { 0 };

	cfgt_expect_file_error("sim = { seed = 1; };\n",
			  ": missing required key \"phold.lps\" (an integer)");
	ck_assert_int_eq(cfgt_load(&c, NULL, NULL, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "(no file): missing required key \"phold.lps\" (an integer)");
}
END_TEST

START_TEST(test_cfg_unknown_key_suggestion)
{
	cfgt_expect_file_error("phold = {\n  lp = 3;\n};\n",
			  ":2: unknown key \"phold.lp\" (did you mean \"phold.lps\"?)");
	cfgt_expect_file_error("phold = { mean = { dealy = \"1ns\"; }; };\n",
			  ":1: unknown key \"phold.mean.dealy\" (did you mean \"phold.mean.delay\"?)");
}
END_TEST

START_TEST(test_cfg_unknown_key_last_component)
{
	cfgt_expect_file_error("sim = {\n  lps = 3;\n};\n",
			  ":2: unknown key \"sim.lps\" (did you mean \"phold.lps\"?)");
	cfgt_expect_file_error("seed = 3;\n",
			  ":1: unknown key \"seed\" (did you mean \"sim.seed\"?)");
}
END_TEST

START_TEST(test_cfg_unknown_key_no_suggestion)
{
	cfgt_expect_file_error("phold = { zzzzzz = 1; };\n",
			  ":1: unknown key \"phold.zzzzzz\" (no such key in any schema; see --help-config)");
}
END_TEST

/* A 100 000-character key is shown by its first 60 characters and its length,
 * not echoed whole (it was: a 1 MB key made a 1 MB error line, cut by the
 * message buffer). */
START_TEST(test_cfg_unknown_key_long_is_shortened)
{
	size_t n = 100000;
	char *text = xmalloc(n + 64);
	int k = snprintf(text, n + 64, "phold = { ");
	memset(text + k, 'a', n);
	snprintf(text + k + n, 64, " = 1; };\n");
	cfgt_expect_file_error(text, ":1: unknown key \"phold.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" "
			       "(100006 characters) (no such key in any schema; see --help-config)");
	free(text);
}
END_TEST

START_TEST(test_cfg_unknown_group)
{
	cfgt_expect_file_error("\nphol = {\n  lps = 1;\n};\n",
			  ":2: unknown group \"phol\" (did you mean \"phold\"?)");
	cfgt_expect_file_error("phold = { mien = { delay = \"1ns\"; }; };\n",
			  ":1: unknown group \"phold.mien\" (did you mean \"phold.mean\"?)");
	cfgt_expect_file_error("fabric = { x = 1; };\n",
			  ":1: unknown group \"fabric\" (no such group in any schema; see --help-config)");
}
END_TEST

START_TEST(test_cfg_wrong_type_int)
{
	cfgt_expect_file_error("phold = { lps = 2.5; };\n",
			  ":1: phold.lps: wrong type: got a float (expected an integer)");
	cfgt_expect_file_error("phold = { lps = \"4\"; };\n",
			  ":1: phold.lps: wrong type: got a string (expected an integer)");
}
END_TEST

START_TEST(test_cfg_wrong_type_float)
{
	cfgt_expect_file_error("phold = { remote = \"0.5\"; };\n",
			  ":1: phold.remote: wrong type: got a string (expected a number)");
	cfgt_expect_file_error("phold = { remote = true; };\n",
			  ":1: phold.remote: wrong type: got a boolean (expected a number)");
}
END_TEST

START_TEST(test_cfg_wrong_type_bool)
{
	cfgt_expect_file_error("sim = { verbose = 1; };\n",
			  ":1: sim.verbose: wrong type: got an integer (expected true or false)");
}
END_TEST

START_TEST(test_cfg_wrong_type_string)
{
	cfgt_expect_file_error("sim = { name = 5; };\n",
			  ":1: sim.name: wrong type: got an integer (expected a string)");
}
END_TEST

START_TEST(test_cfg_wrong_type_enum)
{
	cfgt_expect_file_error("phold = { part = 3; };\n",
			  ":1: phold.part: wrong type: got an integer (expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_wrong_type_time)
{
	cfgt_expect_file_error("phold = { lookahead = false; };\n",
			  ":1: phold.lookahead: wrong type: got a boolean "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
}
END_TEST

START_TEST(test_cfg_time_without_unit)
{
	cfgt_expect_file_error("phold = {\n  lookahead = 100;\n};\n",
			  ":2: phold.lookahead: wrong type: got a number without a unit "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
	cfgt_expect_file_error("phold = { lookahead = 1.5; };\n",
			  ":1: phold.lookahead: wrong type: got a number without a unit "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
}
END_TEST

START_TEST(test_cfg_group_where_key_expected)
{
	cfgt_expect_file_error("phold = { lps = { a = 1; }; };\n",
			  ":1: phold.lps: wrong type: got a group (expected an integer)");
	cfgt_expect_file_error("phold = 3;\n",
			  ":1: phold: wrong type: got an integer (expected a group)");
}
END_TEST

START_TEST(test_cfg_list_not_supported)
{
	cfgt_expect_file_error("phold = { lps = [1, 2]; };\n",
			  ":1: phold.lps: lists are not supported for this key (expected an integer)");
	cfgt_expect_file_error("phold = { part = (\"a\", 1); };\n",
			  ":1: phold.part: lists are not supported for this key "
			  "(expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_out_of_range_int)
{
	cfgt_expect_file_error("phold = { lps = 0; };\n",
			  ":1: phold.lps: 0 is out of range (expected 1 to 1000000)");
	cfgt_expect_file_error("phold = { lps = 1000001; };\n",
			  ":1: phold.lps: 1000001 is out of range (expected 1 to 1000000)");
	cfgt_expect_file_error("sim = { seed = -1; };\n",
			  ":1: sim.seed: -1 is out of range (expected >= 0)");
	cfgt_expect_file_error("sim = { ranks = 65; };\n",
			  ":1: sim.ranks: 65 is out of range (expected <= 64)");
}
END_TEST

START_TEST(test_cfg_out_of_range_float)
{
	cfgt_expect_file_error("phold = { remote = 1.5; };\n",
			  ":1: phold.remote: 1.5 is out of range (expected 0 to 1)");
	cfgt_expect_file_error("phold = { remote = -0.1; };\n",
			  ":1: phold.remote: -0.1 is out of range (expected 0 to 1)");
}
END_TEST

START_TEST(test_cfg_out_of_range_time)
{
	cfgt_expect_file_error("sim = { end = \"1.5s\"; };\n",
			  ":1: sim.end: 1.5s is out of range (expected 1ps to 1s)");
	cfgt_expect_file_error("phold = { lookahead = \"0ns\"; };\n",
			  ":1: phold.lookahead: 0ps is out of range (expected 1ps to 3600s)");
}
END_TEST

/* An integer that does not fit in 64 bits is reported as written, not as libconfig wraps it. */
START_TEST(test_cfg_int_beyond_64_bits)
{
	cfgt_expect_file_error("sim = { seed = 0xffffffffffffffff; };\n",
			  ":1: sim.seed: 0xffffffffffffffff is out of range (expected >= 0, within "
			  "-2^63 to 2^63-1)");
	cfgt_expect_file_error("phold = {\n  lps = 1;\n  big = 18446744073709551615;\n};\n",
			  ":3: phold.big: 18446744073709551615 is out of range (expected an integer "
			  "within -2^63 to 2^63-1)");
	cfgt_expect_file_error("phold = { lps = -9223372036854775809L; };\n",
			  ":1: phold.lps: -9223372036854775809L is out of range (expected 1 to "
			  "1000000, within -2^63 to 2^63-1)");
	cfgt_expect_set_error("sim.seed=18446744073709551615",
			      "--set sim.seed=18446744073709551615: sim.seed: 18446744073709551615 is "
			      "out of range (expected >= 0, within -2^63 to 2^63-1)");
}
END_TEST

/* Every time is at most CFG_TIME_LIMIT, whether its key has a max or not. */
START_TEST(test_cfg_time_limit)
{
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; lookahead = \"3600s\"; };\n");

	ck_assert_uint_eq(cfg_time(c, "phold.lookahead"), CFG_TIME_LIMIT);
	cfg_free(c);
	cfgt_expect_file_error("phold = { lookahead = \"3600.000000000001s\"; };\n",
			  ":1: phold.lookahead: 3600.000000000001s is out of range "
			  "(expected 1ps to 3600s)");
	cfgt_expect_file_error("phold = { lookahead = \"never\"; };\n",
			  ":1: phold.lookahead: 18446744073709551615ps is out of range "
			  "(expected 1ps to 3600s)");
	cfgt_expect_set_error("phold.lookahead=18446744073709551615ps",
			      "--set phold.lookahead=18446744073709551615ps: phold.lookahead: "
			      "18446744073709551615ps is out of range (expected 1ps to 3600s)");
	cfgt_expect_set_error("phold.mean.delay=9223372036854775808ps",
			      "--set phold.mean.delay=9223372036854775808ps: phold.mean.delay: "
			      "9223372.036854775808s is out of range (expected <= 3600s)");
	/* a key's own max still applies below the limit */
	cfgt_expect_file_error("sim = { end = \"3600s\"; };\n",
			  ":1: sim.end: 3600s is out of range (expected 1ps to 1s)");
}
END_TEST

START_TEST(test_cfg_range_bounds_inclusive)
{
	cfg *c = cfgt_load_text_ok("sim = { seed = 0; ranks = 64; end = \"1s\"; };\n"
			      "phold = { lps = 1000000; remote = 1.0; lookahead = \"1ps\"; };\n");

	ck_assert_int_eq(cfg_int(c, "phold.lps"), 1000000);
	ck_assert_uint_eq(cfg_time(c, "sim.end"), SIM_S);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_negative_time)
{
	cfgt_expect_file_error("phold = { lookahead = \"-5ns\"; };\n",
			  ":1: phold.lookahead: negative time \"-5ns\" (a time is >= 0)");
}
END_TEST

START_TEST(test_cfg_bad_time)
{
	cfgt_expect_file_error("phold = { lookahead = \"5 parsecs\"; };\n",
			  ":1: phold.lookahead: bad time \"5 parsecs\" "
			  "(a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	cfgt_expect_file_error("phold = { lookahead = \"0.5ps\"; };\n",
			  ":1: phold.lookahead: time \"0.5ps\" is not a whole number of picoseconds");
}
END_TEST

START_TEST(test_cfg_bad_enum_choice)
{
	cfgt_expect_file_error("phold = { part = \"ring\"; };\n",
			  ":1: phold.part: bad choice \"ring\" (expected one of block|metis|rr)");
	cfgt_expect_file_error("phold = { part = \"Metis\"; };\n",
			  ":1: phold.part: bad choice \"Metis\" (expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_syntax_error_has_file_and_line)
{
	cfgt_expect_file_error("phold = {\n  lps = 1;\n  remote = ;\n};\n",
			  ":3: syntax error (expected settings NAME = VALUE; with strings in "
			  "double quotes and every {, ( and [ closed; the mistake may be on an "
			  "earlier line)");
	cfgt_expect_file_error("phold = {\n  lps = 1;\n  lps = 2;\n};\n",
			  ":3: syntax error: duplicate setting name");
}
END_TEST

START_TEST(test_cfg_cannot_open)
{
	char path[256], want[512];
	cfg *c = NULL;
	cxl_err err = { 0 };

	snprintf(path, sizeof(path), "%s/missing.cfg", cfgt_tmpdir);
	ck_assert_int_eq(cfgt_load(&c, path, NULL, 0, &err), CXL_EIO);
	ck_assert_int_eq(err.code, CXL_EIO);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof(want), "%s: cannot open: No such file or directory", path);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

START_TEST(test_cfg_null_err_accepted)
{
	char path[256];
	cfg *c = NULL;

	cfgt_write(path, "bad.cfg", "phold = { lp = 1; };\n");
	ck_assert_int_eq(cfgt_load(&c, path, NULL, 0, NULL), CXL_EINVAL);
	ck_assert_ptr_null(c);
}
END_TEST

/* ---- --set ---------------------------------------------------------------- */

START_TEST(test_cfg_set_overrides_every_type)
{
	const char *sets[] = {
		"sim.seed=+7",         "sim.end=3ns",     "sim.verbose=true",
		"sim.name=\"quoted\"", "phold.lps=12",    "phold.remote=0.75",
		"phold.part=rr",       "phold.mean.delay=2.5ns",
		"phold.big=-9223372036854775808",
	};
	char path[256];

	cfgt_write(path, "all.cfg", cfgt_every_type_cfg);
	cfg *c = cfgt_load_ok(path, sets, NELEMS(sets));
	ck_assert_int_eq(cfg_int(c, "sim.seed"), 7);
	ck_assert_uint_eq(cfg_time(c, "sim.end"), 3000);
	ck_assert_int_eq(cfg_bool(c, "sim.verbose"), 1);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "quoted");
	ck_assert_int_eq(cfg_int(c, "phold.lps"), 12);
	ck_assert_double_eq(cfg_float(c, "phold.remote"), 0.75);
	ck_assert_int_eq(cfg_enum(c, "phold.part"), 2);
	ck_assert_uint_eq(cfg_time(c, "phold.mean.delay"), 2500);
	ck_assert_int_eq(cfg_int(c, "phold.big"), INT64_MIN);
	ck_assert_uint_eq(cfg_time(c, "phold.lookahead"), 1000);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_set_raw_text)
{
	const char *sets[] = { "phold.lps=1", "sim.name=a b=c", "sim.verbose=FALSE",
			       "phold.part=\"metis\"", "sim.name=", "sim.name=\"\"x" };
	cfg *c = cfgt_load_ok(NULL, sets, 5);

	ck_assert_str_eq(cfg_str(c, "sim.name"), "");
	ck_assert_int_eq(cfg_bool(c, "sim.verbose"), 0);
	ck_assert_int_eq(cfg_enum(c, "phold.part"), 1);
	cfg_free(c);
	c = cfgt_load_ok(NULL, sets, 6);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "\"\"x");
	cfg_free(c);
	c = cfgt_load_ok(NULL, sets, 2);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "a b=c");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_set_last_wins)
{
	const char *sets[] = { "phold.lps=3", "phold.lps=5" };
	cfg *c = cfgt_load_ok(NULL, sets, 2);
	cxl_err err = { 0 };

	ck_assert_int_eq(cfg_int(c, "phold.lps"), 5);
	cfg_error_at(c, "phold.lps", &err, "too many");
	ck_assert_str_eq(err.msg, "--set phold.lps=5: phold.lps: too many");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_set_unknown_key)
{
	cfgt_expect_set_error("phold.lp=3",
			 "--set phold.lp=3: unknown key \"phold.lp\" (did you mean \"phold.lps\"?)");
	cfgt_expect_set_error("phold=3",
			 "--set phold=3: unknown key \"phold\" (no such key in any schema; see --help-config)");
}
END_TEST

START_TEST(test_cfg_set_bad_value)
{
	cfgt_expect_set_error("phold.lps=abc",
			 "--set phold.lps=abc: phold.lps: bad value \"abc\" (expected an integer)");
	cfgt_expect_set_error("phold.lps=1.5",
			 "--set phold.lps=1.5: phold.lps: bad value \"1.5\" (expected an integer)");
	cfgt_expect_set_error("phold.lps= 3",
			 "--set phold.lps= 3: phold.lps: bad value \" 3\" (expected an integer)");
	cfgt_expect_set_error("phold.big=9223372036854775808",
			 "--set phold.big=9223372036854775808: phold.big: 9223372036854775808 is "
			 "out of range (expected an integer within -2^63 to 2^63-1)");
	cfgt_expect_set_error("phold.remote=half",
			 "--set phold.remote=half: phold.remote: bad value \"half\" (expected a number)");
	cfgt_expect_set_error("phold.remote=nan",
			 "--set phold.remote=nan: phold.remote: bad value \"nan\" (expected a number)");
	cfgt_expect_set_error("sim.verbose=yes",
			 "--set sim.verbose=yes: sim.verbose: bad value \"yes\" (expected true or false)");
	cfgt_expect_set_error("phold.part=ring",
			 "--set phold.part=ring: phold.part: bad choice \"ring\" (expected one of block|metis|rr)");
	cfgt_expect_set_error("phold.lookahead=100",
			 "--set phold.lookahead=100: phold.lookahead: bad time \"100\" "
			 "(a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	cfgt_expect_set_error("phold.lookahead=-1ns",
			 "--set phold.lookahead=-1ns: phold.lookahead: negative time \"-1ns\" (a time is >= 0)");
}
END_TEST

START_TEST(test_cfg_set_out_of_range)
{
	cfgt_expect_set_error("phold.lps=0",
			 "--set phold.lps=0: phold.lps: 0 is out of range (expected 1 to 1000000)");
	cfgt_expect_set_error("phold.remote=2",
			 "--set phold.remote=2: phold.remote: 2 is out of range (expected 0 to 1)");
	cfgt_expect_set_error("sim.end=2s",
			 "--set sim.end=2s: sim.end: 2s is out of range (expected 1ps to 1s)");
}
END_TEST

START_TEST(test_cfg_set_without_equals)
{
	cfgt_expect_set_error("phold.lps", "--set phold.lps: missing '=' (expected PATH=VALUE)");
}
END_TEST

/* ---- cfg_error_at, cfg_is_set, cfg_has_group ------------------------------ */

START_TEST(test_cfg_error_at_origins)
{
	const char *sets[] = { "sim.seed=9" };
	char path[256], want[512];
	cxl_err err = { 0 };

	cfgt_write(path, "x.cfg", "\nphold = {\n  lps = 4;\n};\n");
	cfg *c = cfgt_load_ok(path, sets, 1);
	ck_assert_int_eq(cfg_error_at(c, "phold.lps", &err, "%d is not a power of %d", 4, 3),
			 CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	snprintf(want, sizeof(want), "%s:3: phold.lps: 4 is not a power of 3", path);
	ck_assert_str_eq(err.msg, want);

	err = (cxl_err){ 0 };
	cfg_error_at(c, "sim.seed", &err, "odd (expected even)");
	ck_assert_str_eq(err.msg, "--set sim.seed=9: sim.seed: odd (expected even)");

	err = (cxl_err){ 0 };
	cfg_error_at(c, "phold.remote", &err, "too small");
	snprintf(want, sizeof(want), "%s: default: phold.remote: too small", path);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(cfg_error_at(c, "phold.remote", NULL, "x"), CXL_EINVAL);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_error_at_default_without_file)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);
	cxl_err err = { 0 };

	cfg_error_at(c, "sim.seed", &err, "bad");
	ck_assert_str_eq(err.msg, "(no file): default: sim.seed: bad");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_is_set)
{
	const char *sets[] = { "sim.seed=2" };
	char path[256];

	cfgt_write(path, "x.cfg", "phold = { lps = 4; };\n");
	cfg *c = cfgt_load_ok(path, sets, 1);
	ck_assert_int_eq(cfg_is_set(c, "phold.lps"), 1);
	ck_assert_int_eq(cfg_is_set(c, "sim.seed"), 1);
	ck_assert_int_eq(cfg_is_set(c, "sim.end"), 0);
	ck_assert_int_eq(cfg_is_set(c, "phold.mean.delay"), 0);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_has_group)
{
	const char *sets[] = { "phold.mean.delay=1ns" };
	char path[256];

	cfgt_write(path, "x.cfg", "sim = { };\nphold = { lps = 4; };\n");
	cfg *c = cfgt_load_ok(path, sets, 1);
	ck_assert_int_eq(cfg_has_group(c, "sim"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold.mean"), 1);
	ck_assert_int_eq(cfg_has_group(c, "ph"), 0);
	ck_assert_int_eq(cfg_has_group(c, "phold.lps"), 0);
	ck_assert_int_eq(cfg_has_group(c, "fabric"), 0);
	cfg_free(c);

	const char *only_lps[] = { "phold.lps=4" };
	c = cfgt_load_ok(NULL, only_lps, 1);
	ck_assert_int_eq(cfg_has_group(c, "phold"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold.mean"), 0);
	ck_assert_int_eq(cfg_has_group(c, "sim"), 0);
	cfg_free(c);
}
END_TEST

/* ---- programming errors panic --------------------------------------------- */

START_TEST(test_cfg_getter_unknown_path_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	panict_expect("cfg: cfg_int(\"phold.lp\"): no such key in any schema");
	cfg_int(c, "phold.lp");
}
END_TEST

START_TEST(test_cfg_getter_wrong_type_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	panict_expect("cfg: cfg_float(\"phold.lps\"): the key is a int");
	cfg_float(c, "phold.lps");
}
END_TEST

START_TEST(test_cfg_enum_getter_on_string_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	panict_expect("cfg: cfg_enum(\"sim.name\"): the key is a string");
	cfg_enum(c, "sim.name");
}
END_TEST

START_TEST(test_cfg_list_getter_on_scalar_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	panict_expect("cfg: cfg_list(\"sim.name\"): the key is a string");
	cfg_list(c, "sim.name", NULL);
}
END_TEST

START_TEST(test_cfg_str_getter_on_list_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);

	panict_expect("cfg: cfg_str(\"" SWITCHES "\"): the key is a list");
	cfg_str(c, SWITCHES);
}
END_TEST

static const cfg_key bad_list_bound_keys[] = {
	{ .path = "t.names", .type = CFG_LIST, .def = "", .max = "-1" },
};

START_TEST(test_cfg_list_bad_bound_schema_panics)
{
	const cfg_schema s = { "bad", bad_list_bound_keys, NELEMS(bad_list_bound_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;

	panict_expect("cfg: schema bound of t.names: bad element count \"-1\"");
	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

START_TEST(test_cfg_duplicate_schema_path_panics)
{
	const cfg_schema *const twice[] = { cfgt_schemas[0], cfgt_schemas[0] };
	cfg *c = NULL;

	panict_expect("cfg: schema key \"sim.end\" is defined twice");
	cfg_load(&c, NULL, twice, 2, NULL, 0, NULL);
}
END_TEST

static const cfg_key key_and_group_keys[] = {
	{ .path = "a.b", .type = CFG_INT, .def = "1" },
	{ .path = "a.b.c", .type = CFG_INT, .def = "1" },
};

START_TEST(test_cfg_key_and_group_schema_panics)
{
	const cfg_schema s = { "bad", key_and_group_keys, NELEMS(key_and_group_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;

	panict_expect("cfg: schema path \"a.b\" is both a key and a group");
	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

static const cfg_key time_max_keys[] = {
	{ .path = "a.t", .type = CFG_TIME, .def = "1ns", .min = "0ps", .max = "3601s" },
};

START_TEST(test_cfg_time_max_above_limit_schema_panics)
{
	const cfg_schema s = { "bad", time_max_keys, NELEMS(time_max_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;

	panict_expect("cfg: schema bound of a.t: max 3601s is above the limit of every time, 3600s");
	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

static const cfg_key bad_default_keys[] = {
	{ .path = "a.b", .type = CFG_INT, .def = "1", .min = "2" },
};

START_TEST(test_cfg_bad_default_schema_panics)
{
	const cfg_schema s = { "bad", bad_default_keys, NELEMS(bad_default_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;

	panict_expect("cfg: schema default of a.b: 1 is out of range (expected >= 2)");
	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

static TCase *file_errors_case(void)
{
	TCase *tc = cfgt_case("file_errors");

	tcase_add_test(tc, test_cfg_required_missing);
	tcase_add_test(tc, test_cfg_unknown_key_suggestion);
	tcase_add_test(tc, test_cfg_unknown_key_last_component);
	tcase_add_test(tc, test_cfg_unknown_key_no_suggestion);
	tcase_add_test(tc, test_cfg_unknown_key_long_is_shortened);
	tcase_add_test(tc, test_cfg_unknown_group);
	tcase_add_test(tc, test_cfg_wrong_type_int);
	tcase_add_test(tc, test_cfg_wrong_type_float);
	tcase_add_test(tc, test_cfg_wrong_type_bool);
	tcase_add_test(tc, test_cfg_wrong_type_string);
	tcase_add_test(tc, test_cfg_wrong_type_enum);
	tcase_add_test(tc, test_cfg_wrong_type_time);
	tcase_add_test(tc, test_cfg_time_without_unit);
	tcase_add_test(tc, test_cfg_group_where_key_expected);
	tcase_add_test(tc, test_cfg_list_not_supported);
	tcase_add_test(tc, test_cfg_out_of_range_int);
	tcase_add_test(tc, test_cfg_out_of_range_float);
	tcase_add_test(tc, test_cfg_out_of_range_time);
	tcase_add_test(tc, test_cfg_time_limit);
	tcase_add_test(tc, test_cfg_int_beyond_64_bits);
	tcase_add_test(tc, test_cfg_negative_time);
	tcase_add_test(tc, test_cfg_bad_time);
	tcase_add_test(tc, test_cfg_bad_enum_choice);
	tcase_add_test(tc, test_cfg_syntax_error_has_file_and_line);
	tcase_add_test(tc, test_cfg_cannot_open);
	tcase_add_test(tc, test_cfg_null_err_accepted);
	return tc;
}

static TCase *set_case(void)
{
	TCase *tc = cfgt_case("set");

	tcase_add_test(tc, test_cfg_set_overrides_every_type);
	tcase_add_test(tc, test_cfg_set_raw_text);
	tcase_add_test(tc, test_cfg_set_last_wins);
	tcase_add_test(tc, test_cfg_set_unknown_key);
	tcase_add_test(tc, test_cfg_set_bad_value);
	tcase_add_test(tc, test_cfg_set_out_of_range);
	tcase_add_test(tc, test_cfg_set_without_equals);
	return tc;
}

static TCase *panics_case(void)
{
	TCase *tc = tcase_create("panics");  /* no temp dir: an abort skips teardown */

	tcase_add_test_raise_signal(tc, test_cfg_getter_unknown_path_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_getter_wrong_type_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_enum_getter_on_string_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_list_getter_on_scalar_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_str_getter_on_list_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_list_bad_bound_schema_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_duplicate_schema_path_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_key_and_group_schema_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_bad_default_schema_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_cfg_time_max_above_limit_schema_panics, SIGABRT);
	return tc;
}

Suite *cfg_suite(void)
{
	Suite *s = suite_create("cfg");
	TCase *valid = cfgt_case("valid");
	TCase *origin = cfgt_case("origin");

	tcase_add_test(valid, test_cfg_valid_file_every_type);
	tcase_add_test(valid, test_cfg_defaults);
	tcase_add_test(valid, test_cfg_no_file);
	tcase_add_test(valid, test_cfg_int64_and_float_from_int);
	tcase_add_test(valid, test_cfg_int_beyond_32_bits_exact);
	tcase_add_test(valid, test_cfg_range_bounds_inclusive);
	tcase_add_test(origin, test_cfg_error_at_origins);
	tcase_add_test(origin, test_cfg_error_at_default_without_file);
	tcase_add_test(origin, test_cfg_is_set);
	tcase_add_test(origin, test_cfg_has_group);
	suite_add_tcase(s, valid);
	suite_add_tcase(s, file_errors_case());
	suite_add_tcase(s, set_case());
	suite_add_tcase(s, origin);
	suite_add_tcase(s, panics_case());
	return s;
}
