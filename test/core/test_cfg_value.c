/*
 * test/core/test_cfg_value.c - unit tests for the CFG_LIST values of
 * core/cfg_value.c: arrays and lists in files, comma-separated --set and
 * defaults, element-type and element-count errors, required lists.
 * Schemas and helpers: cfg_fixture.h.
 */
#include "core/cfg.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/cfg_fixture.h"

START_TEST(test_cfg_list_file_array)
{
	const char *const sw[] = { "sw0", "sw1" }, *const links[] = { "host0 sw0", "sw0 sw1" };
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; };\n"
			      "topology: { custom: {\n"
			      "  switches = [\"sw0\", \"sw1\"];\n"
			      "  links = [\"host0 sw0\",\n \"sw0 sw1\"];\n"
			      "}; };\n");

	cfgt_assert_list(c, SWITCHES, sw, 2);
	cfgt_assert_list(c, LINKS, links, 2);
	ck_assert_int_eq(cfg_is_set(c, SWITCHES), 1);
	ck_assert_ptr_null(cfg_list(c, SWITCHES, NULL)[2]);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_file_list)
{
	const char *const sw[] = { "a", "", " b c " };
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; };\n"
			      "topology = { custom = { switches = (\"a\", \"\", \" b c \"); }; };\n");

	cfgt_assert_list(c, SWITCHES, sw, 3);
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

	cfgt_write(path, "x.cfg", "topology = { custom = { switches = [\"f\"]; }; };\n");
	cfg *c = cfgt_load_ok(path, sets, 2);
	cfgt_assert_list(c, SWITCHES, two, 2);
	cfg_free(c);
	c = cfgt_load_ok(path, sets, NELEMS(sets));
	cfgt_assert_list(c, SWITCHES, four, 4);
	cfgt_assert_list(c, LINKS, one, 1);
	cfg_error_at(c, SWITCHES, NULL, "x");
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_empty)
{
	const char *sets[] = { "phold.lps=1", SWITCHES "=", SWITCHES "= \t " };
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; };\n"
			      "topology = { custom = { switches = []; }; };\n");

	cfgt_assert_list(c, SWITCHES, NULL, 0);
	ck_assert_int_eq(cfg_is_set(c, SWITCHES), 1);
	cfg_free(c);
	c = cfgt_load_text_ok("phold = { lps = 1; };\n"
			 "topology = { custom = { switches = (); }; };\n");
	cfgt_assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
	c = cfgt_load_ok(NULL, sets, 2);
	cfgt_assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
	c = cfgt_load_ok(NULL, sets, 3);
	cfgt_assert_list(c, SWITCHES, NULL, 0);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_wrong_element_type)
{
	cfgt_expect_file_error("topology = { custom = {\n  links = (\"a\", 1);\n}; };\n",
			  ":2: topology.custom.links[1]: wrong type: got an integer (expected a string)");
	cfgt_expect_file_error("topology = { custom = { links = [1, 2]; }; };\n",
			  ":1: topology.custom.links[0]: wrong type: got an integer (expected a string)");
	cfgt_expect_file_error("topology = { custom = { links = (\"a\", \"b\", (\"c\")); }; };\n",
			  ":1: topology.custom.links[2]: wrong type: got a list (expected a string)");
	cfgt_expect_file_error("topology = { custom = { links = (\"a\", [\"b\"]); }; };\n",
			  ":1: topology.custom.links[1]: wrong type: got an array (expected a string)");
	cfgt_expect_file_error("topology = { custom = { links = ({ a = 1; }); }; };\n",
			  ":1: topology.custom.links[0]: wrong type: got a group (expected a string)");
}
END_TEST

START_TEST(test_cfg_list_scalar_where_list_expected)
{
	cfgt_expect_file_error("topology = { custom = { links = 5; }; };\n",
			  ":1: topology.custom.links: wrong type: got an integer "
			  "(expected a list of strings)");
	cfgt_expect_file_error("topology = { custom = { links = \"a,b\"; }; };\n",
			  ":1: topology.custom.links: wrong type: got a string "
			  "(expected a list of strings)");
	cfgt_expect_file_error("topology = { custom = { links = { a = \"b\"; }; }; };\n",
			  ":1: topology.custom.links: wrong type: got a group "
			  "(expected a list of strings)");
}
END_TEST

START_TEST(test_cfg_list_count_out_of_range)
{
	const char *const two[] = { "a", "b" };
	const char *sets[] = { "phold.lps=1", LINKS "=a,b" };

	cfgt_expect_file_error("topology = { custom = { links = [\"a\", \"b\", \"c\"]; }; };\n",
			  ":1: topology.custom.links: 3 elements is out of range (expected 1 to 2)");
	cfgt_expect_file_error("topology = { custom = { links = []; }; };\n",
			  ":1: topology.custom.links: 0 elements is out of range (expected 1 to 2)");
	cfgt_expect_set_error(LINKS "=a,b,c", "--set " LINKS "=a,b,c: " LINKS
			 ": 3 elements is out of range (expected 1 to 2)");
	cfgt_expect_set_error(LINKS "=", "--set " LINKS "=: " LINKS
			 ": 0 elements is out of range (expected 1 to 2)");
	cfg *c = cfgt_load_ok(NULL, sets, 2);
	cfgt_assert_list(c, LINKS, two, 2);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_default_applied)
{
	const char *const links[] = { "host0 sw0", "sw0 sw1" };
	cfg *c = cfgt_load_text_ok("phold = { lps = 1; };\n");

	cfgt_assert_list(c, SWITCHES, NULL, 0);
	cfgt_assert_list(c, LINKS, links, 2);
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

Suite *cfg_value_suite(void)
{
	Suite *s = suite_create("cfg_value");
	TCase *tc = cfgt_case("list");

	tcase_add_test(tc, test_cfg_list_file_array);
	tcase_add_test(tc, test_cfg_list_file_list);
	tcase_add_test(tc, test_cfg_list_set_commas);
	tcase_add_test(tc, test_cfg_list_empty);
	tcase_add_test(tc, test_cfg_list_wrong_element_type);
	tcase_add_test(tc, test_cfg_list_scalar_where_list_expected);
	tcase_add_test(tc, test_cfg_list_count_out_of_range);
	tcase_add_test(tc, test_cfg_list_default_applied);
	tcase_add_test(tc, test_cfg_list_required_missing);
	suite_add_tcase(s, tc);
	return s;
}
