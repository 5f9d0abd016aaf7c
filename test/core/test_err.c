/*
 * test/core/test_err.c - unit tests for core/err.c: the first failure is
 * kept, messages are one line (control characters escaped), exit codes.
 */
#include "core/err.h"

#include <check.h>
#include <string.h>

START_TEST(test_err_first_failure_kept)
{
	cxl_err err = { 0 };

	ck_assert_int_eq(cxl_err_set(&err, CXL_EINVAL, "first %d", 1), CXL_EINVAL);
	ck_assert_int_eq(cxl_err_set(&err, CXL_EIO, "second"), CXL_EIO);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_str_eq(err.msg, "first 1");
	ck_assert_int_eq(cxl_err_set(NULL, CXL_EIO, "nowhere"), CXL_EIO);
}
END_TEST

/* A quoted value with a newline made the "one line" error two (config fuzzer). */
START_TEST(test_err_message_is_one_line)
{
	cxl_err err = { 0 };

	cxl_err_set(&err, CXL_EINVAL, "f.cfg:3: key: bad value \"%s\"", "a\nb\tc\rd\x01" "e\x7f");
	ck_assert_str_eq(err.msg, "f.cfg:3: key: bad value \"a\\nb\\tc\\rd\\x01e\\x7f\"");
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

/* Escapes never overflow the message: a long value is cut, still one line. */
START_TEST(test_err_message_escape_truncates)
{
	cxl_err err = { 0 };
	char v[600];

	memset(v, '\n', sizeof(v) - 1);
	v[sizeof(v) - 1] = '\0';
	cxl_err_set(&err, CXL_EINVAL, "%s", v);
	ck_assert_uint_le(strlen(err.msg), sizeof(err.msg) - 1);
	ck_assert_uint_eq(strlen(err.msg) % 2, 0); /* whole "\n" pairs only */
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

START_TEST(test_err_exit_codes)
{
	ck_assert_int_eq(cxl_exit_code(CXL_OK), 0);
	ck_assert_int_eq(cxl_exit_code(CXL_EINVAL), 2);
	ck_assert_int_eq(cxl_exit_code(CXL_EIO), 2);
	ck_assert_int_eq(cxl_exit_code(CXL_EINTERNAL), 1);
	ck_assert_int_eq(cxl_exit_code(CXL_ENOMEM), 1);
}
END_TEST

Suite *err_suite(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("errors");

	tcase_add_test(tc, test_err_first_failure_kept);
	tcase_add_test(tc, test_err_message_is_one_line);
	tcase_add_test(tc, test_err_message_escape_truncates);
	tcase_add_test(tc, test_err_exit_codes);
	suite_add_tcase(s, tc);
	return s;
}
