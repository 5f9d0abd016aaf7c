/*
 * test/core/test_cfg_out.c - unit tests for core/cfg_out.c: cfg_dump()
 * round trips (every type, lists included) and its format, cfg_help()'s
 * table.  Schemas and helpers: cfg_fixture.h.
 */
#include "core/cfg.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/cfg_fixture.h"

/* ---- dump and help -------------------------------------------------------- */

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
		cfgt_assert_list(b, p, la, n);
	}
}

/* Dump @c, reload the dump, compare values, and check the dump is stable. */
static void round_trip(const cfg *c)
{
	char path[256];
	char *text = cfgt_dump(c);

	cfgt_write(path, "dump.cfg", text);
	cfg *back = cfgt_load_ok(path, NULL, 0);
	assert_same_values(c, back);
	char *again = cfgt_dump(back);
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
		"phold.lookahead=3600s", /* CFG_TIME_LIMIT */
		"phold.part=rr",
	};
	char path[256];

	cfgt_write(path, "all.cfg", cfgt_every_type_cfg);
	cfg *c = cfgt_load_ok(path, NULL, 0);
	round_trip(c);
	cfg_free(c);
	c = cfgt_load_ok(path, sets, NELEMS(sets));
	round_trip(c);
	cfg_free(c);
	const char *minimal[] = { "phold.lps=1", "phold.big=2147483648", "phold.mean.weight=3" };
	c = cfgt_load_ok(NULL, minimal, NELEMS(minimal));
	round_trip(c);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_list_dump_round_trip)
{
	const char *sets[] = { "phold.lps=1", SWITCHES "=sw0, s\"w\\1\", tab\tx ,\x01" };
	char path[256];

	cfgt_write(path, "l.cfg", "phold = { lps = 1; };\n"
		  "topology = { custom = { switches = (); links = (\"a\", \"\"); }; };\n");
	cfg *c = cfgt_load_ok(path, NULL, 0);
	round_trip(c);
	cfg_free(c);
	c = cfgt_load_ok(NULL, sets, NELEMS(sets));
	round_trip(c);
	cfg_free(c);
}
END_TEST

START_TEST(test_cfg_dump_format)
{
	const char *sets[] = { "phold.lps=2" };
	cfg *c = cfgt_load_ok(NULL, sets, 1);
	char *text = cfgt_dump(c);

	ck_assert_str_eq(text,
			 "phold = {\n"
			 "  # big = 0;  (default)\n"
			 "  # lookahead = \"100ps\";  (default)\n"
			 "  lps = 2;\n"
			 "  mean = {\n"
			 "    # delay = \"1ns\";  (default)\n"
			 "    # weight = 1.0;  (default)\n"
			 "  };\n"
			 "  # part = \"block\";  (default)\n"
			 "  # remote = 0.5;  (default)\n"
			 "};\n"
			 "sim = {\n"
			 "  # end = \"1us\";  (default)\n"
			 "  # name = \"run\";  (default)\n"
			 "  # ranks = 1;  (default)\n"
			 "  # seed = 1;  (default)\n"
			 "  # verbose = false;  (default)\n"
			 "};\n"
			 "topology = {\n"
			 "  custom = {\n"
			 "    # links = [\"host0 sw0\", \"sw0 sw1\"];  (default)\n"
			 "    # switches = [];  (default)\n"
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
	cfg_help(cfgt_schemas, NELEMS(cfgt_schemas), f);
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

Suite *cfg_out_suite(void)
{
	Suite *s = suite_create("cfg_out");
	TCase *tc = cfgt_case("output");

	tcase_add_test(tc, test_cfg_dump_round_trip);
	tcase_add_test(tc, test_cfg_list_dump_round_trip);
	tcase_add_test(tc, test_cfg_dump_format);
	tcase_add_test(tc, test_cfg_help_table);
	tcase_add_test(tc, test_cfg_list_help);
	suite_add_tcase(s, tc);
	return s;
}
