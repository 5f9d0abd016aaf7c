/*
 * test/core/test_cfg.c - unit tests for core/cfg.c.
 *
 * Every test writes its config files into a fresh mkdtemp() directory (a
 * checked fixture, so it runs in the forked test process) and loads them
 * against the three test schemas below, which cover every cfg_type, required
 * keys, ranges of each form (element counts for lists) and nested groups.  Error messages are checked
 * exactly: they are the user interface of a strict loader.
 */
#include "core/cfg.h"

#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cfg_key sim_keys[] = {
	{ .path = "sim.seed", .type = CFG_INT, .def = "1", .min = "0", .doc = "run seed" },
	{ .path = "sim.ranks", .type = CFG_INT, .def = "1", .max = "64", .doc = "ranks" },
	{ .path = "sim.end", .type = CFG_TIME, .def = "1us", .min = "1ps", .max = "1s",
	  .doc = "end of simulated time" },
	{ .path = "sim.verbose", .type = CFG_BOOL, .def = "false", .doc = "chatty output" },
	{ .path = "sim.name", .type = CFG_STRING, .def = "run", .doc = "run name" },
};

static const cfg_key phold_keys[] = {
	{ .path = "phold.lps", .type = CFG_INT, .min = "1", .max = "1000000",
	  .doc = "LPs per rank" },
	{ .path = "phold.remote", .type = CFG_FLOAT, .def = "0.5", .min = "0", .max = "1",
	  .doc = "fraction of remote events" },
	{ .path = "phold.lookahead", .type = CFG_TIME, .def = "100ps", .min = "1ps",
	  .doc = "minimum remote delay" },
	{ .path = "phold.part", .type = CFG_ENUM, .def = "block", .choices = "block|metis|rr",
	  .doc = "partitioner" },
	{ .path = "phold.big", .type = CFG_INT, .def = "0", .doc = "a 64-bit value" },
	{ .path = "phold.mean.delay", .type = CFG_TIME, .def = "1ns", .doc = "mean delay" },
	{ .path = "phold.mean.weight", .type = CFG_FLOAT, .def = "1.0", .doc = "weight" },
};

static const cfg_key topo_keys[] = {
	{ .path = "topology.custom.switches", .type = CFG_LIST, .def = "",
	  .doc = "switch names" },
	{ .path = "topology.custom.links", .type = CFG_LIST, .def = " host0 sw0 ,sw0 sw1",
	  .min = "1", .max = "2", .doc = "links, \"A B\" each" },
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const cfg_schema sim_schema = { "simulation", sim_keys, NELEMS(sim_keys) };
static const cfg_schema phold_schema = { "phold", phold_keys, NELEMS(phold_keys) };
static const cfg_schema topo_schema = { "topology", topo_keys, NELEMS(topo_keys) };
static const cfg_schema *const schemas[] = { &sim_schema, &phold_schema, &topo_schema };

/*
 * The fixture's temp directory.  Check fixtures take no arguments, so this
 * is the one mutable file-scope object; each forked test has its own copy.
 */
static char tmpdir[64];

static void setup(void)
{
	strcpy(tmpdir, "/tmp/cxl_cfg_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[sizeof(tmpdir) + sizeof(e->d_name) + 1];

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

/* Write @text to tmpdir/@name; @path (256 bytes) receives its path. */
static void write_cfg(char *path, const char *name, const char *text)
{
	snprintf(path, 256, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int load(cfg **c, const char *path, const char *const *sets, size_t nsets,
		cxl_err *err)
{
	return cfg_load(c, path, schemas, NELEMS(schemas), sets, nsets, err);
}

static cfg *load_ok(const char *path, const char *const *sets, size_t nsets)
{
	cfg *c = NULL;
	cxl_err err = { 0 };

	ck_assert_msg(load(&c, path, sets, nsets, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(c);
	return c;
}

static cfg *load_text_ok(const char *text)
{
	char path[256];

	write_cfg(path, "ok.cfg", text);
	return load_ok(path, NULL, 0);
}

/* Load @text as a file; expect CXL_EINVAL and the message "<path><suffix>". */
static void expect_file_error(const char *text, const char *suffix)
{
	char path[256], want[1024];
	cfg *c = NULL;
	cxl_err err = { 0 };

	write_cfg(path, "bad.cfg", text);
	ck_assert_int_eq(load(&c, path, NULL, 0, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof(want), "%s%s", path, suffix);
	ck_assert_str_eq(err.msg, want);
}

/* Load no file with the one --set @set; expect CXL_EINVAL and @msg. */
static void expect_set_error(const char *set, const char *msg)
{
	const char *sets[] = { "phold.lps=1", set };
	cfg *c = NULL;
	cxl_err err = { 0 };

	ck_assert_int_eq(load(&c, NULL, sets, 2, &err), CXL_EINVAL);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err.msg, msg);
}

/* ---- loading valid files ------------------------------------------------ */

static const char every_type_cfg[] =
	"# every type\n"
	"sim = {\n"
	"  seed = 42;\n"
	"  end = \"2.5us\";\n"
	"  verbose = true;\n"
	"  name = \"hello world\";\n"
	"};\n"
	"phold = {\n"
	"  lps = 64;\n"
	"  remote = 0.25;\n"
	"  lookahead = \"1ns\";\n"
	"  part = \"metis\";\n"
	"  big = 9007199254740993L;\n"
	"  mean = { delay = \"3ns\"; weight = 2; };\n"
	"};\n";

START_TEST(test_cfg_valid_file_every_type)
{
	char path[256];

	write_cfg(path, "all.cfg", every_type_cfg);
	cfg *c = load_ok(path, NULL, 0);
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
	cfg *c = load_text_ok("phold = { lps = 1; };\n");

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
	cfg *c = load_ok(NULL, sets, 1);

	ck_assert_ptr_null(cfg_file(c));
	ck_assert_int_eq(cfg_int(c, "phold.lps"), 8);
	ck_assert_int_eq(cfg_int(c, "sim.seed"), 1);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_int64_and_float_from_int)
{
	cfg *c = load_text_ok("phold = { lps = 1; big = -9223372036854775807L; remote = 1; };\n");

	ck_assert_int_eq(cfg_int(c, "phold.big"), -INT64_MAX);
	ck_assert_double_eq(cfg_float(c, "phold.remote"), 1.0);
	cfg_free(c);
}
END_TEST

/* ---- file errors ---------------------------------------------------------- */

START_TEST(test_cfg_required_missing)
{
	cfg *c = NULL;
	cxl_err err = { 0 };

	expect_file_error("sim = { seed = 1; };\n",
			  ": missing required key \"phold.lps\" (an integer)");
	ck_assert_int_eq(load(&c, NULL, NULL, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "(no file): missing required key \"phold.lps\" (an integer)");
}
END_TEST

START_TEST(test_cfg_unknown_key_suggestion)
{
	expect_file_error("phold = {\n  lp = 3;\n};\n",
			  ":2: unknown key \"phold.lp\" (did you mean \"phold.lps\"?)");
	expect_file_error("phold = { mean = { dealy = \"1ns\"; }; };\n",
			  ":1: unknown key \"phold.mean.dealy\" (did you mean \"phold.mean.delay\"?)");
}
END_TEST

START_TEST(test_cfg_unknown_key_last_component)
{
	expect_file_error("sim = {\n  lps = 3;\n};\n",
			  ":2: unknown key \"sim.lps\" (did you mean \"phold.lps\"?)");
	expect_file_error("seed = 3;\n",
			  ":1: unknown key \"seed\" (did you mean \"sim.seed\"?)");
}
END_TEST

START_TEST(test_cfg_unknown_key_no_suggestion)
{
	expect_file_error("phold = { zzzzzz = 1; };\n",
			  ":1: unknown key \"phold.zzzzzz\" (no such key in any schema; see --help-config)");
}
END_TEST

START_TEST(test_cfg_unknown_group)
{
	expect_file_error("\nphol = {\n  lps = 1;\n};\n",
			  ":2: unknown group \"phol\" (did you mean \"phold\"?)");
	expect_file_error("phold = { mien = { delay = \"1ns\"; }; };\n",
			  ":1: unknown group \"phold.mien\" (did you mean \"phold.mean\"?)");
	expect_file_error("fabric = { x = 1; };\n",
			  ":1: unknown group \"fabric\" (no such group in any schema; see --help-config)");
}
END_TEST

START_TEST(test_cfg_wrong_type_int)
{
	expect_file_error("phold = { lps = 2.5; };\n",
			  ":1: phold.lps: wrong type: got a float (expected an integer)");
	expect_file_error("phold = { lps = \"4\"; };\n",
			  ":1: phold.lps: wrong type: got a string (expected an integer)");
}
END_TEST

START_TEST(test_cfg_wrong_type_float)
{
	expect_file_error("phold = { remote = \"0.5\"; };\n",
			  ":1: phold.remote: wrong type: got a string (expected a number)");
	expect_file_error("phold = { remote = true; };\n",
			  ":1: phold.remote: wrong type: got a boolean (expected a number)");
}
END_TEST

START_TEST(test_cfg_wrong_type_bool)
{
	expect_file_error("sim = { verbose = 1; };\n",
			  ":1: sim.verbose: wrong type: got an integer (expected true or false)");
}
END_TEST

START_TEST(test_cfg_wrong_type_string)
{
	expect_file_error("sim = { name = 5; };\n",
			  ":1: sim.name: wrong type: got an integer (expected a string)");
}
END_TEST

START_TEST(test_cfg_wrong_type_enum)
{
	expect_file_error("phold = { part = 3; };\n",
			  ":1: phold.part: wrong type: got an integer (expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_wrong_type_time)
{
	expect_file_error("phold = { lookahead = false; };\n",
			  ":1: phold.lookahead: wrong type: got a boolean "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
}
END_TEST

START_TEST(test_cfg_time_without_unit)
{
	expect_file_error("phold = {\n  lookahead = 100;\n};\n",
			  ":2: phold.lookahead: wrong type: got a number without a unit "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
	expect_file_error("phold = { lookahead = 1.5; };\n",
			  ":1: phold.lookahead: wrong type: got a number without a unit "
			  "(expected a time with a unit ps|ns|us|ms|s, e.g. \"100ps\")");
}
END_TEST

START_TEST(test_cfg_group_where_key_expected)
{
	expect_file_error("phold = { lps = { a = 1; }; };\n",
			  ":1: phold.lps: wrong type: got a group (expected an integer)");
	expect_file_error("phold = 3;\n",
			  ":1: phold: wrong type: got an integer (expected a group)");
}
END_TEST

START_TEST(test_cfg_list_not_supported)
{
	expect_file_error("phold = { lps = [1, 2]; };\n",
			  ":1: phold.lps: lists are not supported for this key (expected an integer)");
	expect_file_error("phold = { part = (\"a\", 1); };\n",
			  ":1: phold.part: lists are not supported for this key "
			  "(expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_out_of_range_int)
{
	expect_file_error("phold = { lps = 0; };\n",
			  ":1: phold.lps: 0 is out of range (expected 1 to 1000000)");
	expect_file_error("phold = { lps = 1000001; };\n",
			  ":1: phold.lps: 1000001 is out of range (expected 1 to 1000000)");
	expect_file_error("sim = { seed = -1; };\n",
			  ":1: sim.seed: -1 is out of range (expected >= 0)");
	expect_file_error("sim = { ranks = 65; };\n",
			  ":1: sim.ranks: 65 is out of range (expected <= 64)");
}
END_TEST

START_TEST(test_cfg_out_of_range_float)
{
	expect_file_error("phold = { remote = 1.5; };\n",
			  ":1: phold.remote: 1.5 is out of range (expected 0 to 1)");
	expect_file_error("phold = { remote = -0.1; };\n",
			  ":1: phold.remote: -0.1 is out of range (expected 0 to 1)");
}
END_TEST

START_TEST(test_cfg_out_of_range_time)
{
	expect_file_error("sim = { end = \"1.5s\"; };\n",
			  ":1: sim.end: 1.5s is out of range (expected 1ps to 1s)");
	expect_file_error("phold = { lookahead = \"0ns\"; };\n",
			  ":1: phold.lookahead: 0ps is out of range (expected >= 1ps)");
}
END_TEST

START_TEST(test_cfg_range_bounds_inclusive)
{
	cfg *c = load_text_ok("sim = { seed = 0; ranks = 64; end = \"1s\"; };\n"
			      "phold = { lps = 1000000; remote = 1.0; lookahead = \"1ps\"; };\n");

	ck_assert_int_eq(cfg_int(c, "phold.lps"), 1000000);
	ck_assert_uint_eq(cfg_time(c, "sim.end"), SIM_S);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_negative_time)
{
	expect_file_error("phold = { lookahead = \"-5ns\"; };\n",
			  ":1: phold.lookahead: negative time \"-5ns\" (a time is >= 0)");
}
END_TEST

START_TEST(test_cfg_bad_time)
{
	expect_file_error("phold = { lookahead = \"5 parsecs\"; };\n",
			  ":1: phold.lookahead: bad time \"5 parsecs\" "
			  "(a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	expect_file_error("phold = { lookahead = \"0.5ps\"; };\n",
			  ":1: phold.lookahead: time \"0.5ps\" is not a whole number of picoseconds");
}
END_TEST

START_TEST(test_cfg_bad_enum_choice)
{
	expect_file_error("phold = { part = \"ring\"; };\n",
			  ":1: phold.part: bad choice \"ring\" (expected one of block|metis|rr)");
	expect_file_error("phold = { part = \"Metis\"; };\n",
			  ":1: phold.part: bad choice \"Metis\" (expected one of block|metis|rr)");
}
END_TEST

START_TEST(test_cfg_syntax_error_has_file_and_line)
{
	expect_file_error("phold = {\n  lps = 1;\n  remote = ;\n};\n",
			  ":3: syntax error: syntax error");
	expect_file_error("phold = {\n  lps = 1;\n  lps = 2;\n};\n",
			  ":3: syntax error: duplicate setting name");
}
END_TEST

START_TEST(test_cfg_cannot_open)
{
	char path[256], want[512];
	cfg *c = NULL;
	cxl_err err = { 0 };

	snprintf(path, sizeof(path), "%s/missing.cfg", tmpdir);
	ck_assert_int_eq(load(&c, path, NULL, 0, &err), CXL_EIO);
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

	write_cfg(path, "bad.cfg", "phold = { lp = 1; };\n");
	ck_assert_int_eq(load(&c, path, NULL, 0, NULL), CXL_EINVAL);
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

	write_cfg(path, "all.cfg", every_type_cfg);
	cfg *c = load_ok(path, sets, NELEMS(sets));
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
	cfg *c = load_ok(NULL, sets, 5);

	ck_assert_str_eq(cfg_str(c, "sim.name"), "");
	ck_assert_int_eq(cfg_bool(c, "sim.verbose"), 0);
	ck_assert_int_eq(cfg_enum(c, "phold.part"), 1);
	cfg_free(c);
	c = load_ok(NULL, sets, 6);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "\"\"x");
	cfg_free(c);
	c = load_ok(NULL, sets, 2);
	ck_assert_str_eq(cfg_str(c, "sim.name"), "a b=c");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_set_last_wins)
{
	const char *sets[] = { "phold.lps=3", "phold.lps=5" };
	cfg *c = load_ok(NULL, sets, 2);
	cxl_err err = { 0 };

	ck_assert_int_eq(cfg_int(c, "phold.lps"), 5);
	cfg_error_at(c, "phold.lps", &err, "too many");
	ck_assert_str_eq(err.msg, "--set phold.lps=5: phold.lps: too many");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_set_unknown_key)
{
	expect_set_error("phold.lp=3",
			 "--set phold.lp=3: unknown key \"phold.lp\" (did you mean \"phold.lps\"?)");
	expect_set_error("phold=3",
			 "--set phold=3: unknown key \"phold\" (no such key in any schema; see --help-config)");
}
END_TEST

START_TEST(test_cfg_set_bad_value)
{
	expect_set_error("phold.lps=abc",
			 "--set phold.lps=abc: phold.lps: bad value \"abc\" (expected an integer)");
	expect_set_error("phold.lps=1.5",
			 "--set phold.lps=1.5: phold.lps: bad value \"1.5\" (expected an integer)");
	expect_set_error("phold.lps= 3",
			 "--set phold.lps= 3: phold.lps: bad value \" 3\" (expected an integer)");
	expect_set_error("phold.big=9223372036854775808",
			 "--set phold.big=9223372036854775808: phold.big: bad value "
			 "\"9223372036854775808\" (expected an integer)");
	expect_set_error("phold.remote=half",
			 "--set phold.remote=half: phold.remote: bad value \"half\" (expected a number)");
	expect_set_error("phold.remote=nan",
			 "--set phold.remote=nan: phold.remote: bad value \"nan\" (expected a number)");
	expect_set_error("sim.verbose=yes",
			 "--set sim.verbose=yes: sim.verbose: bad value \"yes\" (expected true or false)");
	expect_set_error("phold.part=ring",
			 "--set phold.part=ring: phold.part: bad choice \"ring\" (expected one of block|metis|rr)");
	expect_set_error("phold.lookahead=100",
			 "--set phold.lookahead=100: phold.lookahead: bad time \"100\" "
			 "(a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")");
	expect_set_error("phold.lookahead=-1ns",
			 "--set phold.lookahead=-1ns: phold.lookahead: negative time \"-1ns\" (a time is >= 0)");
}
END_TEST

START_TEST(test_cfg_set_out_of_range)
{
	expect_set_error("phold.lps=0",
			 "--set phold.lps=0: phold.lps: 0 is out of range (expected 1 to 1000000)");
	expect_set_error("phold.remote=2",
			 "--set phold.remote=2: phold.remote: 2 is out of range (expected 0 to 1)");
	expect_set_error("sim.end=2s",
			 "--set sim.end=2s: sim.end: 2s is out of range (expected 1ps to 1s)");
}
END_TEST

START_TEST(test_cfg_set_without_equals)
{
	expect_set_error("phold.lps", "--set phold.lps: missing '=' (expected PATH=VALUE)");
}
END_TEST

/* ---- CFG_LIST ------------------------------------------------------------- */

#define SWITCHES "topology.custom.switches"
#define LINKS "topology.custom.links"

/* Assert that list key @path of @c holds the @n strings @want. */
static void assert_list(const cfg *c, const char *path, const char *const *want, size_t n)
{
	size_t got_n = 99;
	const char *const *got = cfg_list(c, path, &got_n);

	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(got_n, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(got[i], want[i]);
	ck_assert_ptr_null(got[n]);
}

START_TEST(test_cfg_list_file_array)
{
	const char *const sw[] = { "sw0", "sw1" }, *const links[] = { "host0 sw0", "sw0 sw1" };
	cfg *c = load_text_ok("phold = { lps = 1; };\n"
			      "topology: { custom: {\n"
			      "  switches = [\"sw0\", \"sw1\"];\n"
			      "  links = [\"host0 sw0\",\n \"sw0 sw1\"];\n"
			      "}; };\n");

	assert_list(c, SWITCHES, sw, 2);
	assert_list(c, LINKS, links, 2);
	ck_assert_int_eq(cfg_is_set(c, SWITCHES), 1);
	ck_assert_ptr_null(cfg_list(c, SWITCHES, NULL)[2]);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_file_list)
{
	const char *const sw[] = { "a", "", " b c " };
	cfg *c = load_text_ok("phold = { lps = 1; };\n"
			      "topology = { custom = { switches = (\"a\", \"\", \" b c \"); }; };\n");

	assert_list(c, SWITCHES, sw, 3);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_set_commas)
{
	const char *sets[] = { "phold.lps=1", SWITCHES "=sw0,sw1", SWITCHES "= sw0 , sw 1 ,,x",
			       LINKS "=h0 s0" };
	const char *const two[] = { "sw0", "sw1" }, *const four[] = { "sw0", "sw 1", "", "x" };
	const char *const one[] = { "h0 s0" };
	char path[256];

	write_cfg(path, "x.cfg", "topology = { custom = { switches = [\"f\"]; }; };\n");
	cfg *c = load_ok(path, sets, 2);
	assert_list(c, SWITCHES, two, 2);
	cfg_free(c);
	c = load_ok(path, sets, NELEMS(sets));
	assert_list(c, SWITCHES, four, 4);
	assert_list(c, LINKS, one, 1);
	cfg_error_at(c, SWITCHES, NULL, "x");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_empty)
{
	const char *sets[] = { "phold.lps=1", SWITCHES "=", SWITCHES "= \t " };
	cfg *c = load_text_ok("phold = { lps = 1; };\n"
			      "topology = { custom = { switches = []; }; };\n");

	assert_list(c, SWITCHES, NULL, 0);
	ck_assert_int_eq(cfg_is_set(c, SWITCHES), 1);
	cfg_free(c);
	c = load_text_ok("phold = { lps = 1; };\n"
			 "topology = { custom = { switches = (); }; };\n");
	assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
	c = load_ok(NULL, sets, 2);
	assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
	c = load_ok(NULL, sets, 3);
	assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_wrong_element_type)
{
	expect_file_error("topology = { custom = {\n  links = (\"a\", 1);\n}; };\n",
			  ":2: topology.custom.links[1]: wrong type: got an integer (expected a string)");
	expect_file_error("topology = { custom = { links = [1, 2]; }; };\n",
			  ":1: topology.custom.links[0]: wrong type: got an integer (expected a string)");
	expect_file_error("topology = { custom = { links = (\"a\", \"b\", (\"c\")); }; };\n",
			  ":1: topology.custom.links[2]: wrong type: got a list (expected a string)");
	expect_file_error("topology = { custom = { links = (\"a\", [\"b\"]); }; };\n",
			  ":1: topology.custom.links[1]: wrong type: got an array (expected a string)");
	expect_file_error("topology = { custom = { links = ({ a = 1; }); }; };\n",
			  ":1: topology.custom.links[0]: wrong type: got a group (expected a string)");
}
END_TEST

START_TEST(test_cfg_list_scalar_where_list_expected)
{
	expect_file_error("topology = { custom = { links = 5; }; };\n",
			  ":1: topology.custom.links: wrong type: got an integer "
			  "(expected a list of strings)");
	expect_file_error("topology = { custom = { links = \"a,b\"; }; };\n",
			  ":1: topology.custom.links: wrong type: got a string "
			  "(expected a list of strings)");
	expect_file_error("topology = { custom = { links = { a = \"b\"; }; }; };\n",
			  ":1: topology.custom.links: wrong type: got a group "
			  "(expected a list of strings)");
}
END_TEST

START_TEST(test_cfg_list_count_out_of_range)
{
	const char *const two[] = { "a", "b" };
	const char *sets[] = { "phold.lps=1", LINKS "=a,b" };

	expect_file_error("topology = { custom = { links = [\"a\", \"b\", \"c\"]; }; };\n",
			  ":1: topology.custom.links: 3 elements is out of range (expected 1 to 2)");
	expect_file_error("topology = { custom = { links = []; }; };\n",
			  ":1: topology.custom.links: 0 elements is out of range (expected 1 to 2)");
	expect_set_error(LINKS "=a,b,c", "--set " LINKS "=a,b,c: " LINKS
			 ": 3 elements is out of range (expected 1 to 2)");
	expect_set_error(LINKS "=", "--set " LINKS "=: " LINKS
			 ": 0 elements is out of range (expected 1 to 2)");
	cfg *c = load_ok(NULL, sets, 2);
	assert_list(c, LINKS, two, 2);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_default_applied)
{
	const char *const links[] = { "host0 sw0", "sw0 sw1" };
	cfg *c = load_text_ok("phold = { lps = 1; };\n");

	assert_list(c, SWITCHES, NULL, 0);
	assert_list(c, LINKS, links, 2);
	ck_assert_int_eq(cfg_is_set(c, LINKS), 0);
	ck_assert_int_eq(cfg_has_group(c, "topology"), 0);
	cfg_free(c);
}
END_TEST

static const cfg_key required_list_keys[] = {
	{ .path = "t.names", .type = CFG_LIST, .min = "0", .doc = "names" },
};

START_TEST(test_cfg_list_required_missing)
{
	const cfg_schema s = { "t", required_list_keys, NELEMS(required_list_keys) };
	const cfg_schema *const list[] = { &s };
	cfg *c = NULL;
	cxl_err err = { 0 };

	ck_assert_int_eq(cfg_load(&c, NULL, list, 1, NULL, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "(no file): missing required key \"t.names\" (a list of strings)");
}
END_TEST

/* ---- cfg_error_at, cfg_is_set, cfg_has_group ------------------------------ */

START_TEST(test_cfg_error_at_origins)
{
	const char *sets[] = { "sim.seed=9" };
	char path[256], want[512];
	cxl_err err = { 0 };

	write_cfg(path, "x.cfg", "\nphold = {\n  lps = 4;\n};\n");
	cfg *c = load_ok(path, sets, 1);
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
	cfg *c = load_ok(NULL, sets, 1);
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

	write_cfg(path, "x.cfg", "phold = { lps = 4; };\n");
	cfg *c = load_ok(path, sets, 1);
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

	write_cfg(path, "x.cfg", "sim = { };\nphold = { lps = 4; };\n");
	cfg *c = load_ok(path, sets, 1);
	ck_assert_int_eq(cfg_has_group(c, "sim"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold.mean"), 1);
	ck_assert_int_eq(cfg_has_group(c, "ph"), 0);
	ck_assert_int_eq(cfg_has_group(c, "phold.lps"), 0);
	ck_assert_int_eq(cfg_has_group(c, "fabric"), 0);
	cfg_free(c);

	const char *only_lps[] = { "phold.lps=4" };
	c = load_ok(NULL, only_lps, 1);
	ck_assert_int_eq(cfg_has_group(c, "phold"), 1);
	ck_assert_int_eq(cfg_has_group(c, "phold.mean"), 0);
	ck_assert_int_eq(cfg_has_group(c, "sim"), 0);
	cfg_free(c);
}
END_TEST

/* ---- dump and help -------------------------------------------------------- */

static char *dump_text(const cfg *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cfg_dump(c, f);
	fclose(f);
	return buf;
}

static void assert_same_values(const cfg *a, const cfg *b)
{
	ck_assert_int_eq(cfg_int(a, "sim.seed"), cfg_int(b, "sim.seed"));
	ck_assert_int_eq(cfg_int(a, "sim.ranks"), cfg_int(b, "sim.ranks"));
	ck_assert_uint_eq(cfg_time(a, "sim.end"), cfg_time(b, "sim.end"));
	ck_assert_int_eq(cfg_bool(a, "sim.verbose"), cfg_bool(b, "sim.verbose"));
	ck_assert_str_eq(cfg_str(a, "sim.name"), cfg_str(b, "sim.name"));
	ck_assert_int_eq(cfg_int(a, "phold.lps"), cfg_int(b, "phold.lps"));
	ck_assert(cfg_float(a, "phold.remote") == cfg_float(b, "phold.remote"));
	ck_assert_uint_eq(cfg_time(a, "phold.lookahead"), cfg_time(b, "phold.lookahead"));
	ck_assert_int_eq(cfg_enum(a, "phold.part"), cfg_enum(b, "phold.part"));
	ck_assert_int_eq(cfg_int(a, "phold.big"), cfg_int(b, "phold.big"));
	ck_assert_uint_eq(cfg_time(a, "phold.mean.delay"), cfg_time(b, "phold.mean.delay"));
	ck_assert(cfg_float(a, "phold.mean.weight") == cfg_float(b, "phold.mean.weight"));
	for (int k = 0; k < 2; k++) {
		const char *p = k ? LINKS : SWITCHES;
		size_t n;
		const char *const *la = cfg_list(a, p, &n);
		assert_list(b, p, la, n);
	}
}

/* Dump @c, reload the dump, compare values, and check the dump is stable. */
static void round_trip(const cfg *c)
{
	char path[256];
	char *text = dump_text(c);

	write_cfg(path, "dump.cfg", text);
	cfg *back = load_ok(path, NULL, 0);
	assert_same_values(c, back);
	char *again = dump_text(back);
	ck_assert_str_eq(again, text);
	free(again);
	free(text);
	cfg_free(back);
}

START_TEST(test_cfg_dump_round_trip)
{
	const char *sets[] = {
		"sim.name=tab\there \"quoted\" back\\slash\nnewline \x01",
		"phold.remote=0.1",
		"phold.mean.weight=-1e300",
		"phold.big=-9223372036854775808",
		"sim.end=1.000000001ms",
		"phold.lookahead=18446744073709551615ps",
		"phold.part=rr",
	};
	char path[256];

	write_cfg(path, "all.cfg", every_type_cfg);
	cfg *c = load_ok(path, NULL, 0);
	round_trip(c);
	cfg_free(c);
	c = load_ok(path, sets, NELEMS(sets));
	round_trip(c);
	cfg_free(c);
	const char *minimal[] = { "phold.lps=1", "phold.big=2147483648", "phold.mean.weight=3" };
	c = load_ok(NULL, minimal, NELEMS(minimal));
	round_trip(c);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_dump_round_trip)
{
	const char *sets[] = { "phold.lps=1", SWITCHES "=sw0, s\"w\\1\", tab\tx ,\x01" };
	char path[256];

	write_cfg(path, "l.cfg", "phold = { lps = 1; };\n"
		  "topology = { custom = { switches = (); links = (\"a\", \"\"); }; };\n");
	cfg *c = load_ok(path, NULL, 0);
	round_trip(c);
	cfg_free(c);
	c = load_ok(NULL, sets, NELEMS(sets));
	round_trip(c);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_dump_format)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);
	char *text = dump_text(c);

	ck_assert_str_eq(text,
			 "phold = {\n"
			 "  big = 0;\n"
			 "  lookahead = \"100ps\";\n"
			 "  lps = 2;\n"
			 "  mean = {\n"
			 "    delay = \"1ns\";\n"
			 "    weight = 1.0;\n"
			 "  };\n"
			 "  part = \"block\";\n"
			 "  remote = 0.5;\n"
			 "};\n"
			 "sim = {\n"
			 "  end = \"1us\";\n"
			 "  name = \"run\";\n"
			 "  ranks = 1;\n"
			 "  seed = 1;\n"
			 "  verbose = false;\n"
			 "};\n"
			 "topology = {\n"
			 "  custom = {\n"
			 "    links = [\"host0 sw0\", \"sw0 sw1\"];\n"
			 "    switches = [];\n"
			 "  };\n"
			 "};\n");
	free(text);
	cfg_free(c);
}
END_TEST

static char *help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cfg_help(schemas, NELEMS(schemas), f);
	fclose(f);
	return buf;
}

/* The line of @text that contains @needle, copied into @line. */
static void line_with(const char *text, const char *needle, char *line, size_t n)
{
	const char *p = strstr(text, needle);

	ck_assert_ptr_nonnull(p);
	while (p > text && p[-1] != '\n')
		p--;
	size_t len = strcspn(p, "\n");
	ck_assert_uint_lt(len, n);
	memcpy(line, p, len);
	line[len] = '\0';
}

START_TEST(test_cfg_help_table)
{
	char *text = help_text();
	char head[512], lps[512], part[512];

	ck_assert_ptr_nonnull(strstr(text, "[simulation]\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n[phold]\n"));
	line_with(text, "KEY", head, sizeof(head));
	line_with(text, "phold.lps ", lps, sizeof(lps));
	line_with(text, "phold.part ", part, sizeof(part));
	ck_assert_ptr_nonnull(strstr(lps, "(required)"));
	ck_assert_ptr_nonnull(strstr(lps, "1 to 1000000"));
	ck_assert_ptr_nonnull(strstr(lps, "LPs per rank"));
	ck_assert_ptr_nonnull(strstr(part, "block|metis|rr"));
	ck_assert_ptr_nonnull(strstr(text, "\"run\""));
	/* columns line up: TYPE and DESCRIPTION start where the row's cells do */
	ck_assert_int_eq(strstr(head, "TYPE") - head, strstr(lps, "int") - lps);
	ck_assert_int_eq(strstr(head, "DESCRIPTION") - head, strstr(lps, "LPs") - lps);
	ck_assert_int_eq(strstr(head, "DESCRIPTION") - head, strstr(part, "partitioner") - part);
	free(text);
}
END_TEST

START_TEST(test_cfg_list_help)
{
	char *text = help_text();
	char head[512], links[512], sw[512];

	ck_assert_ptr_nonnull(strstr(text, "\n[topology]\n"));
	line_with(text, "KEY", head, sizeof(head));
	line_with(text, LINKS " ", links, sizeof(links));
	line_with(text, SWITCHES " ", sw, sizeof(sw));
	ck_assert_int_eq(strstr(head, "TYPE") - head, strstr(links, "list ") - links);
	ck_assert_int_eq(strstr(head, "DEFAULT") - head,
			 strstr(links, "[\"host0 sw0\", \"sw0 sw1\"]") - links);
	ck_assert_int_eq(strstr(head, "RANGE") - head, strstr(links, "1 to 2") - links);
	ck_assert_int_eq(strstr(head, "DEFAULT") - head, strstr(sw, "[]") - sw);
	ck_assert_int_eq(strstr(head, "DESCRIPTION") - head, strstr(sw, "switch names") - sw);
	free(text);
}
END_TEST

/* ---- programming errors panic --------------------------------------------- */

START_TEST(test_cfg_getter_unknown_path_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);

	cfg_int(c, "phold.lp");
}
END_TEST

START_TEST(test_cfg_getter_wrong_type_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);

	cfg_float(c, "phold.lps");
}
END_TEST

START_TEST(test_cfg_enum_getter_on_string_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);

	cfg_enum(c, "sim.name");
}
END_TEST

START_TEST(test_cfg_list_getter_on_scalar_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);

	cfg_list(c, "sim.name", NULL);
}
END_TEST

START_TEST(test_cfg_str_getter_on_list_panics)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = load_ok(NULL, sets, 1);

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

	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

START_TEST(test_cfg_duplicate_schema_path_panics)
{
	const cfg_schema *const twice[] = { &sim_schema, &sim_schema };
	cfg *c = NULL;

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

	cfg_load(&c, NULL, list, 1, NULL, 0, NULL);
}
END_TEST

static TCase *fixture_case(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	return tc;
}

static TCase *file_errors_case(void)
{
	TCase *tc = fixture_case("file_errors");

	tcase_add_test(tc, test_cfg_required_missing);
	tcase_add_test(tc, test_cfg_unknown_key_suggestion);
	tcase_add_test(tc, test_cfg_unknown_key_last_component);
	tcase_add_test(tc, test_cfg_unknown_key_no_suggestion);
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
	TCase *tc = fixture_case("set");

	tcase_add_test(tc, test_cfg_set_overrides_every_type);
	tcase_add_test(tc, test_cfg_set_raw_text);
	tcase_add_test(tc, test_cfg_set_last_wins);
	tcase_add_test(tc, test_cfg_set_unknown_key);
	tcase_add_test(tc, test_cfg_set_bad_value);
	tcase_add_test(tc, test_cfg_set_out_of_range);
	tcase_add_test(tc, test_cfg_set_without_equals);
	return tc;
}

static TCase *list_case(void)
{
	TCase *tc = fixture_case("list");

	tcase_add_test(tc, test_cfg_list_file_array);
	tcase_add_test(tc, test_cfg_list_file_list);
	tcase_add_test(tc, test_cfg_list_set_commas);
	tcase_add_test(tc, test_cfg_list_empty);
	tcase_add_test(tc, test_cfg_list_wrong_element_type);
	tcase_add_test(tc, test_cfg_list_scalar_where_list_expected);
	tcase_add_test(tc, test_cfg_list_count_out_of_range);
	tcase_add_test(tc, test_cfg_list_default_applied);
	tcase_add_test(tc, test_cfg_list_required_missing);
	tcase_add_test(tc, test_cfg_list_dump_round_trip);
	tcase_add_test(tc, test_cfg_list_help);
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
	return tc;
}

Suite *cfg_suite(void)
{
	Suite *s = suite_create("cfg");
	TCase *valid = fixture_case("valid");
	TCase *origin = fixture_case("origin");
	TCase *output = fixture_case("output");

	tcase_add_test(valid, test_cfg_valid_file_every_type);
	tcase_add_test(valid, test_cfg_defaults);
	tcase_add_test(valid, test_cfg_no_file);
	tcase_add_test(valid, test_cfg_int64_and_float_from_int);
	tcase_add_test(valid, test_cfg_range_bounds_inclusive);
	tcase_add_test(origin, test_cfg_error_at_origins);
	tcase_add_test(origin, test_cfg_error_at_default_without_file);
	tcase_add_test(origin, test_cfg_is_set);
	tcase_add_test(origin, test_cfg_has_group);
	tcase_add_test(output, test_cfg_dump_round_trip);
	tcase_add_test(output, test_cfg_dump_format);
	tcase_add_test(output, test_cfg_help_table);
	suite_add_tcase(s, valid);
	suite_add_tcase(s, file_errors_case());
	suite_add_tcase(s, set_case());
	suite_add_tcase(s, list_case());
	suite_add_tcase(s, origin);
	suite_add_tcase(s, output);
	suite_add_tcase(s, panics_case());
	return s;
}
