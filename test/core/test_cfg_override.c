/*
 * test/core/test_cfg_override.c - unit tests for core/cfg_override.c:
 * per-component overrides from the file and from --set, the views
 * cfg_for() builds (which entries apply, in which order, shared views),
 * their errors, and cfg_dump() round trips with overrides.  Schemas and
 * helpers: cfg_fixture.h (groups sim, phold with phold.mean nested,
 * topology).
 */
#include "core/cfg.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/cfg_fixture.h"

static const char base_cfg[] =
	"phold = {\n"
	"  lps = 4;\n"
	"  remote = 0.25;\n"
	"  overrides = (\n"
	"    { match = \"lp*\"; remote = 0.5; },\n"
	"    { match = \"lp3\"; remote = 0.75; mean = { delay = \"7ns\"; weight = 2.0; }; }\n"
	"  );\n"
	"};\n";

START_TEST(test_cfg_override_views)
{
	cfg *c = cfgt_load_text_ok(base_cfg);

	ck_assert_uint_eq(cfg_overrides(c), 2);
	/* the base is untouched */
	ck_assert(cfg_float(c, "phold.remote") == 0.25);
	/* no group read, or no match: the base itself */
	ck_assert_ptr_eq(cfg_for(c, "lp1", NULL), c);
	ck_assert_ptr_eq(cfg_for(c, "lp1", "sim"), c);
	ck_assert_ptr_eq(cfg_for(c, "sw1", "phold"), c);
	const cfg *v1 = cfg_for(c, "lp1", "sim phold");
	ck_assert_ptr_ne(v1, c);
	ck_assert(cfg_float(v1, "phold.remote") == 0.5);
	ck_assert_uint_eq(cfg_time(v1, "phold.mean.delay"), 1000);
	ck_assert_int_eq(cfg_int(v1, "phold.lps"), 4);
	/* same entries -> same view */
	ck_assert_ptr_eq(cfg_for(c, "lp2", "phold"), v1);
	/* later entries win; nested groups */
	const cfg *v3 = cfg_for(c, "lp3", "phold");
	ck_assert_ptr_ne(v3, v1);
	ck_assert(cfg_float(v3, "phold.remote") == 0.75);
	ck_assert_uint_eq(cfg_time(v3, "phold.mean.delay"), 7000);
	ck_assert(cfg_float(v3, "phold.mean.weight") == 2.0);
	ck_assert_int_eq(cfg_is_set(v3, "phold.mean.delay"), 1);
	ck_assert_int_eq(cfg_is_set(c, "phold.mean.delay"), 0);
	/* a view's errors point at the override's line */
	cxl_err e = { 0 };
	cfg_error_at(v3, "phold.remote", &e, "bad");
	ck_assert_msg(strstr(e.msg, "ok.cfg:6: phold.remote: bad"), "%s", e.msg);
	ck_assert_int_eq(cfg_override_applies(c, 0, "lp9", "phold"), 1);
	ck_assert_int_eq(cfg_override_applies(c, 1, "lp9", "phold"), 0);
	ck_assert_int_eq(cfg_override_applies(c, 0, "lp9", "phol"), 0);
	e = (cxl_err){ 0 };
	cfg_override_error(c, 1, &e, "why");
	ck_assert_msg(strstr(e.msg, "ok.cfg:6: phold.overrides (match \"lp3\"): why"), "%s", e.msg);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_override_set)
{
	char path[256];
	const char *sets[] = { "phold[lp3].remote=1", "phold.remote=0.125", "phold[lp[01]].mean.delay=3ns" };

	cfgt_write(path, "c.cfg", base_cfg);
	cfg *c = cfgt_load_ok(path, sets, NELEMS(sets));
	ck_assert_uint_eq(cfg_overrides(c), 4);
	/* --set entries come after the file's; an override beats the plain --set */
	ck_assert(cfg_float(cfg_for(c, "lp3", "phold"), "phold.remote") == 1.0);
	ck_assert(cfg_float(cfg_for(c, "sw", "phold"), "phold.remote") == 0.125);
	ck_assert(cfg_float(cfg_for(c, "lp0", "phold"), "phold.remote") == 0.5);
	ck_assert_uint_eq(cfg_time(cfg_for(c, "lp0", "phold"), "phold.mean.delay"), 3000);
	ck_assert_uint_eq(cfg_time(cfg_for(c, "lp2", "phold"), "phold.mean.delay"), 1000);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_override_errors)
{
	cfgt_expect_file_error("phold = { lps = 1; overrides = 3; };\n",
			       ":1: phold.overrides: wrong type: got an integer (expected a list "
			       "of groups ( { match = \"GLOB\"; KEY = VALUE; ... } ))");
	cfgt_expect_file_error("phold = { lps = 1; overrides = ( 3 ); };\n",
			       ":1: phold.overrides[0]: wrong type: got an integer (expected a "
			       "list of groups ( { match = \"GLOB\"; KEY = VALUE; ... } ))");
	cfgt_expect_file_error("phold = { lps = 1; overrides = ( { remote = 0.1; } ); };\n",
			       ":1: phold.overrides[0]: needs match = \"GLOB\" (a component name "
			       "or pattern, e.g. \"host3\" or \"leaf*\")");
	cfgt_expect_file_error("phold = { lps = 1;\n overrides = ( { match = \"a\";\n remot = 0.1; } ); };\n",
			       ":3: unknown key \"phold.remot\" (did you mean \"phold.remote\"?)");
	cfgt_expect_file_error("phold = { lps = 1; overrides = ( { match = \"a\"; remote = 2.0; } ); };\n",
			       ":1: phold.remote: 2 is out of range (expected 0 to 1)");
	cfgt_expect_file_error("phold = { lps = 1; overrides = ( { match = \"a\"; mean = 1; } ); };\n",
			       ":1: phold.mean: wrong type: got an integer (expected a group)");
	cfgt_expect_file_error("phold = { lps = 1; overrides = ( { match = \"a\"; lps = { x = 1; }; } ); };\n",
			       ":1: phold.lps: wrong type: got a group (expected an integer)");
	/* overrides only at the top level of a group */
	cfgt_expect_file_error("phold = { lps = 1; mean = { overrides = (); }; };\n",
			       ":1: unknown key \"phold.mean.overrides\" (no such key in any "
			       "schema; see --help-config)");
	cfgt_expect_set_error("phold[].remote=0.1",
			      "--set phold[].remote=0.1: expected GROUP[GLOB].KEY=VALUE for a "
			      "per-component override (e.g. host[host3].latency=20ns)");
	cfgt_expect_set_error("phold[a]remote=0.1",
			      "--set phold[a]remote=0.1: expected GROUP[GLOB].KEY=VALUE for a "
			      "per-component override (e.g. host[host3].latency=20ns)");
	cfgt_expect_set_error("phol[a].remote=0.1",
			      "--set phol[a].remote=0.1: unknown group \"phol\" (did you mean "
			      "\"phold\"?)");
	cfgt_expect_set_error("phold[a].remot=0.1",
			      "--set phold[a].remot=0.1: unknown key \"phold.remot\" (did you mean "
			      "\"phold.remote\"?)");
	cfgt_expect_set_error("phold[a].remote=x",
			      "--set phold[a].remote=x: phold.remote: bad value \"x\" "
			      "(expected a number)");
}
END_TEST

START_TEST(test_cfg_override_dump)
{
	char path[256];
	const char *sets[] = { "phold[lp0].mean.delay=3ns" };

	cfgt_write(path, "c.cfg", base_cfg);
	cfg *c = cfgt_load_ok(path, sets, NELEMS(sets));
	char *text = cfgt_dump(c);
	ck_assert_ptr_nonnull(strstr(text,
		"  overrides = (\n"
		"    { match = \"lp*\"; remote = 0.5; },\n"
		"    { match = \"lp3\"; mean = { delay = \"7ns\"; weight = 2.0; }; remote = 0.75; },\n"
		"    { match = \"lp0\"; mean = { delay = \"3ns\"; }; }\n"
		"  );\n};\n"));
	cfgt_write(path, "dump.cfg", text);
	cfg *back = cfgt_load_ok(path, NULL, 0);
	char *again = cfgt_dump(back);
	ck_assert_str_eq(again, text);
	const char *names[] = { "lp0", "lp3", "sw0" };
	for (size_t i = 0; i < NELEMS(names); i++) {
		const cfg *a = cfg_for(c, names[i], "phold"), *b = cfg_for(back, names[i], "phold");
		ck_assert(cfg_float(a, "phold.remote") == cfg_float(b, "phold.remote"));
		ck_assert_uint_eq(cfg_time(a, "phold.mean.delay"), cfg_time(b, "phold.mean.delay"));
	}
	/* a view dumps its effective values */
	char *vt = cfgt_dump(cfg_for(c, "lp3", "phold"));
	ck_assert_ptr_nonnull(strstr(vt, "  remote = 0.75;\n"));
	ck_assert_ptr_null(strstr(vt, "overrides"));
	free(vt);
	free(again);
	free(text);
	cfg_free(back);
	cfg_free(c);
}
END_TEST

Suite *cfg_override_suite(void)
{
	Suite *s = suite_create("cfg_override");
	TCase *tc = cfgt_case("overrides");

	tcase_add_test(tc, test_cfg_override_views);
	tcase_add_test(tc, test_cfg_override_set);
	tcase_add_test(tc, test_cfg_override_errors);
	tcase_add_test(tc, test_cfg_override_dump);
	suite_add_tcase(s, tc);
	return s;
}
