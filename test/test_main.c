/*
 * test/test_main.c - the Check runner for every unit-test suite.
 *
 * Suites are found by convention, not listed by hand: each file
 * test/<dir>/test_<name>.c exports `Suite *<name>_suite(void)`, and the build
 * generates suites.h with one CXL_SUITE(<name>) line per such file.
 * CK_RUN_SUITE / CK_RUN_CASE select tests as Check documents; CK_FORK stays on.
 * Exit status: the number of failed tests (0 = all passed), capped at 255.
 *
 * Under AddressSanitizer the quarantine of freed memory is kept small: every
 * test runs in a child forked from this runner, and each child's leak check
 * at exit went through the runner's full 256 MB quarantine - 7.6 min for
 * the sanitizer pass instead of 1.9 (ASAN_OPTIONS set by hand still wins).
 */
#include <check.h>
#include <stdlib.h>

#define CXL_SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef CXL_SUITE

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=8";
}

int main(void)
{
	SRunner *sr = srunner_create(NULL);

#define CXL_SUITE(name) srunner_add_suite(sr, name##_suite());
#include "suites.h"
#undef CXL_SUITE
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed > 255 ? 255 : failed;
}
