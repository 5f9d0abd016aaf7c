/*
 * test/models/host/cmpi_fixture.h - what the cMPI generator's tests share
 * (test_cmpi.c: the operations of each benchmark and the config errors;
 * test_cmpi_world.c: every process of every host together): a generator
 * opened on a hand-made config and context.
 */
#ifndef CXL_TEST_CMPI_FIXTURE_H
#define CXL_TEST_CMPI_FIXTURE_H

#include <check.h>

#include "models/host/cmpi_int.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* An assertion for hot loops: Check's ck_assert writes to its pipe on every success. */
#define CHECK(cond, ...)                           \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

typedef struct tgen tgen;
struct tgen {
	cfg *cf;       /* the loaded keys */
	void *st;      /* generator state */
	prog_ctx ctx;  /* the host it generates for */
};

/* cfx_load - load @sets (NULL-terminated) against the cmpi schema. */
int cfx_load(cfg **cf, const char *const *sets, cxl_err *err);
/* cfx_gen_try - open host @host of @nhosts with @cores: 0 or the generator's error. */
int cfx_gen_try(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		uint32_t cores, cxl_err *err);
/* cfx_gen_open - the same, failing the test on an error. */
void cfx_gen_open(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		  uint32_t cores);
void cfx_gen_close(tgen *g);

#endif
