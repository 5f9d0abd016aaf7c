/*
 * models/host/cmpi.c - placeholder until the cMPI generator lands: the
 * pattern exists in the enum, and choosing it is an error that says so.
 */
#include "models/host/prog.h"

static const cfg_key cmpi_keys[] = {
	{ "workload.cmpi.op", CFG_ENUM, "put", NULL, NULL, "put|get|sendrecv",
	  "cMPI: not available in this build" },
};

const cfg_schema prog_cmpi_schema = { "workload.cmpi", cmpi_keys, 1 };

static int cmpi_init(void **state, const prog_ctx *ctx, const cfg *cf, cxl_err *err)
{
	(void)state;
	(void)ctx;
	return cfg_error_at(cf, "workload.pattern", err, "cmpi is not available in this build");
}

const prog_gen prog_cmpi_gen = { .name = "cmpi", .init = cmpi_init };
