/*
 * traces/trc_gen.c - synthetic traces: the requester model's address
 * patterns (stream, random, hotcold) as records (contracts in trc_ops.h).
 *
 * Draws come from one counter-based stream, rng (seed, 0): for each record
 * first the line (random, hotcold: the hot/cold choice then the line), then
 * the op.  The same options and seed give the same trace on any machine.
 * Record i is issued at i * interval.
 */
#include "traces/trc_ops.h"

#include <math.h>

/**
 * trc_gen_defaults - see trc_ops.h.
 */
void trc_gen_defaults(trc_gen_opts *o)
{
	*o = (trc_gen_opts){
		.pattern = TRC_GEN_RANDOM,
		.records = 1000,
		.seed = 1,
		.footprint = 1 << 20,
		.read_ratio = 1.0,
		.hot_fraction = 0.9,
		.hot_footprint = 0.1,
		.size = 64,
	};
}

static int unit_range(double v)
{
	return v >= 0.0 && v <= 1.0;
}

/**
 * trc_gen_init - see trc_ops.h.
 */
int trc_gen_init(trc_gen *g, const trc_gen_opts *o, cxl_err *err)
{
	if (o->pattern < TRC_GEN_STREAM || o->pattern > TRC_GEN_HOTCOLD)
		return cxl_err_set(err, CXL_EINVAL, "--pattern: unknown pattern (expected "
				   "stream|random|hotcold)");
	if (!o->footprint || o->footprint % 64)
		return cxl_err_set(err, CXL_EINVAL, "--footprint %llu: not a positive multiple "
				   "of 64 bytes", (unsigned long long)o->footprint);
	if (o->base % 64 || o->base + (o->footprint - 64) < o->base)
		return cxl_err_set(err, CXL_EINVAL, "--base 0x%llx: not a multiple of 64, or base + "
				   "footprint above 2^64", (unsigned long long)o->base);
	if (!unit_range(o->read_ratio))
		return cxl_err_set(err, CXL_EINVAL, "--read-ratio %g: out of range [0, 1]", o->read_ratio);
	if (!unit_range(o->hot_fraction))
		return cxl_err_set(err, CXL_EINVAL, "--hot-fraction %g: out of range [0, 1]",
				   o->hot_fraction);
	if (!unit_range(o->hot_footprint))
		return cxl_err_set(err, CXL_EINVAL, "--hot-footprint %g: out of range [0, 1]",
				   o->hot_footprint);
	if (!o->size)
		return cxl_err_set(err, CXL_EINVAL, "--size 0: a record has at least 1 byte");
	if (o->records > 1 && o->interval_ps > UINT64_MAX / (o->records - 1))
		return cxl_err_set(err, CXL_EINVAL, "--interval: the last record's time overflows "
				   "2^64 ps");
	g->o = *o;
	rng_seed(&g->rng, o->seed, 0);
	g->lines = o->footprint / 64;
	g->hot = (uint64_t)floor(o->hot_footprint * (double)g->lines);
	if (g->hot < 1)
		g->hot = 1;
	if (g->hot > g->lines)
		g->hot = g->lines;
	g->i = 0;
	return 0;
}

static uint64_t next_line(trc_gen *g)
{
	switch (g->o.pattern) {
	case TRC_GEN_STREAM:
		return g->i % g->lines;
	case TRC_GEN_RANDOM:
		return rng_below(&g->rng, g->lines);
	default:
		if (g->hot == g->lines || rng_uniform(&g->rng) < g->o.hot_fraction)
			return rng_below(&g->rng, g->hot);
		return g->hot + rng_below(&g->rng, g->lines - g->hot);
	}
}

/**
 * trc_gen_next - see trc_ops.h.
 */
void trc_gen_next(trc_gen *g, trc_rec *rec)
{
	uint64_t line = next_line(g);

	*rec = (trc_rec){
		.time = g->i * g->o.interval_ps,
		.addr = g->o.base + line * 64,
		.size = g->o.size,
		.op = rng_uniform(&g->rng) < g->o.read_ratio ? TRC_READ : TRC_WRITE,
	};
	g->i++;
}

/**
 * trc_gen_write - see trc_ops.h.
 */
int trc_gen_write(const char *out, const trc_gen_opts *o, uint32_t cap, cxl_err *err)
{
	trc_writer *w;
	trc_gen g;
	trc_rec r;
	int rc;

	if ((rc = trc_gen_init(&g, o, err)) || (rc = trc_writer_open(&w, out, NULL, cap, err)))
		return rc;
	for (uint64_t i = 0; i < o->records; i++) {
		trc_gen_next(&g, &r);
		if ((rc = trc_writer_add(w, &r, err))) {
			trc_writer_abort(w);
			return rc;
		}
	}
	return trc_writer_close(w, err);
}
