/*
 * test/models/coherence/sf_fixture.h - what the snoop-filter tests share (test_sf.c,
 * test_sf_random.c): assertions cheap enough for hot loops, and making a
 * filter that must be valid.
 */
#ifndef CXL_TEST_MODELS_SF_FIXTURE_H
#define CXL_TEST_MODELS_SF_FIXTURE_H

#include <check.h>
#include <stdint.h>

#include "models/coherence/sf.h"

/*
 * Assertions for hot loops: Check's ck_assert_* record a checkpoint through
 * a pipe to the parent on every call (a syscall each), these only on failure.
 */
#define REQ(c)                                                                  \
	do {                                                                    \
		if (!(c))                                                       \
			ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c);      \
	} while (0)
#define REQ_EQ(a, b)                                                            \
	do {                                                                    \
		unsigned long long a_ = (a), b_ = (b);                          \
		if (a_ != b_)                                                   \
			ck_abort_msg("%s:%d: %s == %llu, expected %s == %llu",  \
				     __FILE__, __LINE__, #a, a_, #b, b_);       \
	} while (0)
#define REQ_NE(a, b) REQ((a) != (b))

/* sfx_mk - a filter with these parameters; the test fails if they are refused. */
sf *sfx_mk(uint32_t entries, uint32_t assoc, enum sf_policy pol, uint32_t invblk);

/* sfx_ins - sf_insert() that must succeed; the entry. */
uint32_t sfx_ins(sf *s, uint64_t line);
/* sfx_line_of - the line of valid entry @e. */
uint64_t sfx_line_of(sf *s, uint32_t e);

#endif
