/*
 * test/core/panic_fixture.h - panic tests that check which panic happened.
 *
 * A test registered with tcase_add_test_raise_signal(tc, t, SIGABRT) passes
 * on ANY abort: a failed assertion elsewhere, the wrong panic, an abort from
 * the C library.  Calling panict_expect(WHAT) in such a test, before the
 * code that must panic, makes it pass only on a CXL_PANIC (or CXL_ASSERT)
 * whose line contains WHAT: the panic's line goes to a temporary file
 * instead of stderr, and the abort hook reads it back; a line without WHAT
 * fails the test with both texts, a matching one aborts as before.  Keep
 * registering the test with tcase_add_test_raise_signal(..., SIGABRT).
 *
 * State: the expected text, the capture file and the saved stderr are
 * file-scope in panic_fixture.c; each forked test sets them afresh (the
 * tests need CK_FORK, as every signal test does).
 */
#ifndef CXL_TEST_CORE_PANIC_FIXTURE_H
#define CXL_TEST_CORE_PANIC_FIXTURE_H

/* panict_expect - the rest of this test must end in a panic whose line contains @what. */
void panict_expect(const char *what);

#endif
