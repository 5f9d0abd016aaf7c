/*
 * test/core/test_json.c - unit tests for core/json.c.
 *
 * Every test writes into an open_memstream() buffer (opened by a checked
 * fixture) and compares the exact text: layout of nested, inline and empty
 * containers, string escaping, integer extremes, the "%.9g" doubles with
 * non-finite values as null, booleans.  Misuse (a key outside an object,
 * too deep nesting, an unbalanced end) panics: those tests expect SIGABRT.
 */
#include "core/json.h"
#include "test/core/panic_fixture.h"

#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

/* The fixture's memory stream; each forked test has its own copy. */
static char *text;
static size_t text_len;
static FILE *mem;
static json_w w;

static void setup(void)
{
	text = NULL;
	text_len = 0;
	mem = open_memstream(&text, &text_len);
	ck_assert_ptr_nonnull(mem);
	json_init(&w, mem);
}

static void teardown(void)
{
	if (mem)
		fclose(mem);
	free(text);
}

/* Close the stream and compare everything written with @want. */
static void expect(const char *want)
{
	fclose(mem);
	mem = NULL;
	ck_assert_str_eq(text, want);
}

START_TEST(test_json_nested_objects)
{
	json_obj(&w);
	json_key(&w, "a");
	json_u64(&w, 1);
	json_key(&w, "b");
	json_obj(&w);
	json_key(&w, "c");
	json_str(&w, "x");
	json_key(&w, "d");
	json_obj(&w);
	json_key(&w, "e");
	json_bool(&w, 0);
	json_end(&w);
	json_end(&w);
	json_key(&w, "f");
	json_arr(&w);
	json_u64(&w, 1);
	json_obj(&w);
	json_key(&w, "g");
	json_u64(&w, 2);
	json_end(&w);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
	expect("{\n"
	       "  \"a\": 1,\n"
	       "  \"b\": {\n"
	       "    \"c\": \"x\",\n"
	       "    \"d\": {\n"
	       "      \"e\": false\n"
	       "    }\n"
	       "  },\n"
	       "  \"f\": [\n"
	       "    1,\n"
	       "    {\n"
	       "      \"g\": 2\n"
	       "    }\n"
	       "  ]\n"
	       "}\n");
}
END_TEST

START_TEST(test_json_inline_containers)
{
	json_obj(&w);
	json_key(&w, "h");
	json_obj_inline(&w);
	json_key(&w, "n");
	json_u64(&w, 3);
	json_key(&w, "p50");
	json_dbl(&w, 1.5);
	json_end(&w);
	json_key(&w, "v");
	json_arr_inline(&w);
	json_u64(&w, 1);
	json_u64(&w, 2);
	json_u64(&w, 3);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
	expect("{\n"
	       "  \"h\": { \"n\": 3, \"p50\": 1.5 },\n"
	       "  \"v\": [ 1, 2, 3 ]\n"
	       "}\n");
}
END_TEST

/* A container opened inside an inline one stays on the same line. */
START_TEST(test_json_inline_is_inherited)
{
	json_arr_inline(&w);
	json_obj(&w);
	json_key(&w, "a");
	json_arr(&w);
	json_u64(&w, 1);
	json_end(&w);
	json_end(&w);
	json_arr(&w);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
	expect("[ { \"a\": [ 1 ] }, [] ]\n");
}
END_TEST

START_TEST(test_json_empty_containers)
{
	json_obj(&w);
	json_key(&w, "o");
	json_obj(&w);
	json_end(&w);
	json_key(&w, "a");
	json_arr(&w);
	json_end(&w);
	json_key(&w, "oi");
	json_obj_inline(&w);
	json_end(&w);
	json_key(&w, "ai");
	json_arr_inline(&w);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
	expect("{\n"
	       "  \"o\": {},\n"
	       "  \"a\": [],\n"
	       "  \"oi\": {},\n"
	       "  \"ai\": []\n"
	       "}\n");
}
END_TEST

START_TEST(test_json_empty_top_level)
{
	json_obj(&w);
	json_end(&w);
	json_finish(&w);
	json_arr(&w);
	json_end(&w);
	json_finish(&w);
	expect("{}\n[]\n");
}
END_TEST

START_TEST(test_json_top_level_scalar)
{
	json_u64(&w, 5);
	json_finish(&w);
	expect("5\n");
}
END_TEST

START_TEST(test_json_string_escaping)
{
	json_arr_inline(&w);
	json_str(&w, "say \"hi\"");
	json_str(&w, "back\\slash");
	json_str(&w, "tab\there\nnl\rcr");
	json_str(&w, "\x01\x1f\x7f");
	json_str(&w, "caf\xc3\xa9");
	json_str(&w, "");
	json_end(&w);
	expect("[ \"say \\\"hi\\\"\", \"back\\\\slash\", "
	       "\"tab\\u0009here\\u000anl\\u000dcr\", \"\\u0001\\u001f\x7f\", "
	       "\"caf\xc3\xa9\", \"\" ]");
}
END_TEST

START_TEST(test_json_key_escaping)
{
	json_obj_inline(&w);
	json_key(&w, "a\"b\\c\n");
	json_u64(&w, 0);
	json_end(&w);
	expect("{ \"a\\\"b\\\\c\\u000a\": 0 }");
}
END_TEST

START_TEST(test_json_integers)
{
	json_arr_inline(&w);
	json_u64(&w, 0);
	json_u64(&w, UINT64_MAX);
	json_i64(&w, -1);
	json_i64(&w, INT64_MIN);
	json_i64(&w, INT64_MAX);
	json_i64(&w, 0);
	json_end(&w);
	expect("[ 0, 18446744073709551615, -1, -9223372036854775808, "
	       "9223372036854775807, 0 ]");
}
END_TEST

START_TEST(test_json_doubles)
{
	json_arr_inline(&w);
	json_dbl(&w, 0.1);
	json_dbl(&w, 1e-300);
	json_dbl(&w, 1e300);
	json_dbl(&w, 0.0);
	json_dbl(&w, -2.5);
	json_dbl(&w, 1.0 / 3.0);
	json_dbl(&w, 123456789012.0);
	json_dbl(&w, 4.9e-324);
	json_end(&w);
	expect("[ 0.1, 1e-300, 1e+300, 0, -2.5, 0.333333333, 1.23456789e+11, "
	       "4.94065646e-324 ]");
}
END_TEST

START_TEST(test_json_non_finite_is_null)
{
	json_obj_inline(&w);
	json_key(&w, "nan");
	json_dbl(&w, NAN);
	json_key(&w, "inf");
	json_dbl(&w, INFINITY);
	json_key(&w, "-inf");
	json_dbl(&w, -INFINITY);
	json_end(&w);
	expect("{ \"nan\": null, \"inf\": null, \"-inf\": null }");
}
END_TEST

START_TEST(test_json_bool)
{
	json_arr_inline(&w);
	json_bool(&w, 1);
	json_bool(&w, 0);
	json_bool(&w, 42);
	json_end(&w);
	expect("[ true, false, true ]");
}
END_TEST

START_TEST(test_json_key_outside_object_panics)
{
	json_arr(&w);
	panict_expect("assertion failed: w->close[w->depth - 1] == '}'");
	json_key(&w, "k");
}
END_TEST

START_TEST(test_json_key_at_top_level_panics)
{
	panict_expect("assertion failed: w->depth > 0");
	json_key(&w, "k");
}
END_TEST

START_TEST(test_json_end_without_open_panics)
{
	panict_expect("assertion failed: w->depth > 0");
	json_end(&w);
}
END_TEST

START_TEST(test_json_end_after_key_panics)
{
	json_obj(&w);
	json_key(&w, "k");
	panict_expect("assertion failed: !w->after_key");
	json_end(&w);
}
END_TEST

START_TEST(test_json_finish_with_open_container_panics)
{
	json_obj(&w);
	panict_expect("assertion failed: w->depth == 0");
	json_finish(&w);
}
END_TEST

START_TEST(test_json_too_deep_panics)
{
	panict_expect("JSON nesting deeper than 16");
	for (int d = 0; d <= JSON_MAX_DEPTH; d++)
		json_arr(&w);
}
END_TEST

START_TEST(test_json_max_depth_ok)
{
	_Static_assert(JSON_MAX_DEPTH == 16, "the expected text has 16 levels");
	for (int d = 0; d < JSON_MAX_DEPTH; d++)
		json_arr_inline(&w);
	for (int d = 0; d < JSON_MAX_DEPTH; d++)
		json_end(&w);
	expect("[ [ [ [ [ [ [ [ [ [ [ [ [ [ [ [] ] ] ] ] ] ] ] ] ] ] ] ] ] ] ]");
}
END_TEST

Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *layout = tcase_create("layout");
	TCase *values = tcase_create("values");
	TCase *misuse = tcase_create("misuse");

	tcase_add_checked_fixture(layout, setup, teardown);
	tcase_add_checked_fixture(values, setup, teardown);
	tcase_add_checked_fixture(misuse, setup, teardown);
	tcase_add_test(layout, test_json_nested_objects);
	tcase_add_test(layout, test_json_inline_containers);
	tcase_add_test(layout, test_json_inline_is_inherited);
	tcase_add_test(layout, test_json_empty_containers);
	tcase_add_test(layout, test_json_empty_top_level);
	tcase_add_test(layout, test_json_top_level_scalar);
	tcase_add_test(layout, test_json_max_depth_ok);
	tcase_add_test(values, test_json_string_escaping);
	tcase_add_test(values, test_json_key_escaping);
	tcase_add_test(values, test_json_integers);
	tcase_add_test(values, test_json_doubles);
	tcase_add_test(values, test_json_non_finite_is_null);
	tcase_add_test(values, test_json_bool);
	tcase_add_test_raise_signal(misuse, test_json_key_outside_object_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_json_key_at_top_level_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_json_end_without_open_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_json_end_after_key_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_json_finish_with_open_container_panics,
				    SIGABRT);
	tcase_add_test_raise_signal(misuse, test_json_too_deep_panics, SIGABRT);
	suite_add_tcase(s, layout);
	suite_add_tcase(s, values);
	suite_add_tcase(s, misuse);
	return s;
}
