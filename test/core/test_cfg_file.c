/*
 * test/core/test_cfg_file.c - unit tests for core/cfg_file.c: the config
 * and every file it @includes must be regular files, checked without
 * blocking (a FIFO blocked every rank in fopen()).  Fixture: cfg_fixture.h
 * (a temp folder per test).
 */
#include "core/cfg.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "test/core/cfg_fixture.h"

static char path[256], inc[256], text[1024];

START_TEST(test_cfg_file_regular_passes)
{
	cxl_err err = { 0 };

	cfgt_write(inc, "inc.cfg", "phold = { lps = 4; };\n");
	snprintf(text, sizeof(text), "sim = { seed = 1; };\n@include \"%s\"\n", inc);
	cfgt_write(path, "top.cfg", text);
	ck_assert_int_eq(cfg_file_check(path, &err), 0);
	ck_assert_int_eq(cfg_file_check("/nonexistent/x.cfg", &err), 0); /* cfg_load reports it */
}
END_TEST

START_TEST(test_cfg_file_fifo_refused)
{
	cxl_err err = { 0 };

	snprintf(path, sizeof(path), "%s/f.cfg", cfgt_tmpdir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(cfg_file_check(path, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "f.cfg: a FIFO (expected a regular file)"));
}
END_TEST

START_TEST(test_cfg_file_include_fifo_and_folder_refused)
{
	cxl_err err = { 0 }, e2 = { 0 };

	snprintf(inc, sizeof(inc), "%s/inc.cfg", cfgt_tmpdir);
	ck_assert_int_eq(mkfifo(inc, 0600), 0);
	snprintf(text, sizeof(text), "sim = { seed = 1; };\n\n  @include \"%s\"\n", inc);
	cfgt_write(path, "top.cfg", text);
	ck_assert_int_eq(cfg_file_check(path, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "top.cfg:3: @include \""));
	ck_assert_ptr_nonnull(strstr(err.msg, "inc.cfg\": a FIFO (expected a regular file)"));
	/* the load itself refuses it too, before libconfig opens anything */
	cfg *c = NULL;
	ck_assert_int_eq(cfgt_load(&c, path, NULL, 0, &e2), CXL_EINVAL);
	ck_assert_str_eq(e2.msg, err.msg);
	snprintf(text, sizeof(text), "@include \"%s\"\n", cfgt_tmpdir);
	cfgt_write(path, "dir.cfg", text);
	cxl_err e3 = { 0 };
	ck_assert_int_eq(cfg_file_check(path, &e3), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(e3.msg, "dir.cfg:1: @include"));
	ck_assert_ptr_nonnull(strstr(e3.msg, "a folder (expected a regular file)"));
}
END_TEST

/* A nested include is followed; one inside a block comment is not read. */
START_TEST(test_cfg_file_nested_and_commented)
{
	cxl_err err = { 0 };
	char mid[256], fifo[256];

	snprintf(fifo, sizeof(fifo), "%s/p.fifo", cfgt_tmpdir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof(text), "/* old:\n@include \"%s\"\n*/\nsim = { seed = 1; };\n", fifo);
	cfgt_write(path, "top.cfg", text);
	ck_assert_int_eq(cfg_file_check(path, &err), 0);
	snprintf(text, sizeof(text), "# two levels down\n@include \"%s\"\n", fifo);
	cfgt_write(mid, "mid.cfg", text);
	snprintf(text, sizeof(text), "@include \"%s\"\n", mid);
	cfgt_write(path, "top.cfg", text);
	ck_assert_int_eq(cfg_file_check(path, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "mid.cfg:2: @include"));
	ck_assert_ptr_nonnull(strstr(err.msg, "p.fifo\": a FIFO"));
}
END_TEST

Suite *cfg_file_suite(void)
{
	Suite *s = suite_create("cfg_file");
	TCase *tc = cfgt_case("regular files");

	tcase_add_test(tc, test_cfg_file_regular_passes);
	tcase_add_test(tc, test_cfg_file_fifo_refused);
	tcase_add_test(tc, test_cfg_file_include_fifo_and_folder_refused);
	tcase_add_test(tc, test_cfg_file_nested_and_commented);
	suite_add_tcase(s, tc);
	return s;
}
