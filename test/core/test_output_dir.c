/*
 * test/core/test_output_dir.c - unit tests for core/output_dir.c: the
 * output folder as a unit (lock, private folder, previous/, commit with
 * stats.json last, clean-up of a failed or killed run).
 */
#include "core/output.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/cxl_outdir.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *d, const char *name, const char *text)
{
	char p[8400];

	snprintf(p, sizeof(p), "%s/%s", d, name);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int has(const char *d, const char *name)
{
	char p[8400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", d, name);
	return !stat(p, &st);
}

/* Entries of @d whose name starts with @prefix. */
static int count(const char *d, const char *prefix)
{
	DIR *h = opendir(d);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(h);
	while ((de = readdir(h)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(h);
	return n;
}

START_TEST(test_output_dir_previous_and_commit)
{
	output_dir od;
	cxl_err err = { 0 };
	char out[96], prev[128];

	snprintf(out, sizeof(out), "%s/a/out", dir);
	ck_assert_int_eq(output_dir_open(&od, out, &err), 0); /* parents created */
	put(od.tmp, "config.cfg", "one");
	put(od.tmp, "stats.json", "one");
	ck_assert_int_eq(output_dir_commit(&od, &err), 0);
	output_dir_close(&od);
	ck_assert(has(out, "stats.json") && has(out, "config.cfg"));
	ck_assert_int_eq(count(out, ".cxlfab-run."), 0);
	/* a second run: the first one's files go to previous/ at once */
	ck_assert_int_eq(output_dir_open(&od, out, &err), 0);
	snprintf(prev, sizeof(prev), "%s/previous", out);
	ck_assert(has(prev, "stats.json") && has(prev, "config.cfg"));
	ck_assert(!has(out, "stats.json") && !has(out, "config.cfg"));
	ck_assert_int_eq(count(out, ".cxlfab-run."), 1);
	/* it fails: closing removes its private folder, nothing is committed */
	put(od.tmp, "config.cfg", "two");
	output_dir_close(&od);
	ck_assert_int_eq(count(out, ".cxlfab-run."), 0);
	ck_assert(!has(out, "config.cfg"));
}
END_TEST

START_TEST(test_output_dir_one_run_at_a_time)
{
	output_dir a, b;
	cxl_err err = { 0 };

	ck_assert_int_eq(output_dir_open(&a, dir, &err), 0);
	ck_assert_int_eq(output_dir_open(&b, dir, &err), CXL_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "another cxlfab run is writing into this output folder"));
	ck_assert_int_eq(count(dir, ".cxlfab-run."), 1);
	output_dir_close(&a);
	cxl_err e2 = { 0 };
	ck_assert_int_eq(output_dir_open(&b, dir, &e2), 0);
	output_dir_close(&b);
}
END_TEST

/* A killed run's private folder (no lock held) is removed by the next run. */
START_TEST(test_output_dir_stale_private_folder_removed)
{
	output_dir od;
	cxl_err err = { 0 };
	char stale[96];

	snprintf(stale, sizeof(stale), "%s/.cxlfab-run.dead00", dir);
	ck_assert_int_eq(mkdir(stale, 0777), 0);
	put(stale, "components.csv", "half");
	ck_assert_int_eq(output_dir_open(&od, dir, &err), 0);
	ck_assert(!has(dir, ".cxlfab-run.dead00"));
	ck_assert_int_eq(count(dir, ".cxlfab-run."), 1);
	output_dir_close(&od);
}
END_TEST

START_TEST(test_output_dir_unwritable_is_one_error)
{
	output_dir od;
	cxl_err err = { 0 };
	char out[96];

	put(dir, "afile", "x");
	snprintf(out, sizeof(out), "%s/afile/out", dir);
	ck_assert_int_eq(output_dir_open(&od, out, &err), CXL_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot create: Not a directory"));
}
END_TEST

Suite *output_dir_suite(void)
{
	Suite *s = suite_create("output_dir");
	TCase *tc = tcase_create("folder as a unit");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_output_dir_previous_and_commit);
	tcase_add_test(tc, test_output_dir_one_run_at_a_time);
	tcase_add_test(tc, test_output_dir_stale_private_folder_removed);
	tcase_add_test(tc, test_output_dir_unwritable_is_one_error);
	suite_add_tcase(s, tc);
	return s;
}
