/*
 * test/models/host/cmpi_fixture.c - a cMPI generator opened for the tests
 * (contract in cmpi_fixture.h).
 */
#include "test/models/host/cmpi_fixture.h"

#include <string.h>

/* Load @sets (NULL-terminated) against the cmpi schema. */
int cfx_load(cfg **cf, const char *const *sets, cxl_err *err)
{
	const cfg_schema *const schemas[] = { &prog_cmpi_schema };
	size_t n = 0;

	while (sets && sets[n])
		n++;
	memset(err, 0, sizeof(*err));
	return cfg_load(cf, NULL, schemas, 1, sets, n, err);
}

int cfx_gen_try(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		   uint32_t cores, cxl_err *err)
{
	memset(g, 0, sizeof(*g));
	ck_assert_msg(cfx_load(&g->cf, sets, err) == 0, "%s", err->msg);
	g->ctx = (prog_ctx){ .host = host, .nhosts = nhosts, .cores = cores, .mps = 256,
			     .ndevices = 1, .interleave = 64 };
	return prog_cmpi_gen.init(&g->st, &g->ctx, g->cf, err);
}

void cfx_gen_open(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		     uint32_t cores)
{
	cxl_err err;

	ck_assert_msg(cfx_gen_try(g, sets, host, nhosts, cores, &err) == 0, "%s", err.msg);
}

void cfx_gen_close(tgen *g)
{
	prog_cmpi_gen.free(g->st);
	cfg_free(g->cf);
}
