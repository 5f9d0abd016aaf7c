/*
 * test/models/memory/dram_drive.h - a driver for the DRAM model's tests: it plays
 * the memory endpoint's part (models/memory/mem.c) without the engine.
 *
 * It advances every channel to the current time, enqueues requests, and
 * jumps to the earliest dram_next_time() or arrival.  Requests come
 * closed-loop (the queues kept full: peak bandwidth) or at timed arrivals,
 * from a pattern (stream = consecutive lines, random = uniform over a
 * footprint) with a share of writes, all drawn from a seeded xorshift.
 * Every command is recorded through the trace hook (for dram_check.h) and
 * every completion by request index (tag = index).  Failures are Check
 * assertions.
 */
#ifndef CXL_TEST_MODELS_DRAM_DRIVE_H
#define CXL_TEST_MODELS_DRAM_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "models/memory/dram.h"

enum { PAT_STREAM, PAT_RANDOM };

typedef struct gen gen;
struct gen {
	int pattern;        /* PAT_* */
	uint64_t footprint; /* random: lines */
	unsigned wr_pct;    /* percent of writes */
	uint64_t rng;       /* xorshift state, nonzero */
	const uint64_t *list; /* if set: the lines, in order (pattern ignored) */
	uint64_t i;         /* requests drawn */
};

typedef struct run run;
struct run {
	dram *d;              /* the model */
	dram_cmd_rec *tr;     /* commands issued */
	size_t ntr, cap;      /* count, capacity */
	sim_time now;         /* driver time, ps */
	uint64_t ndone;       /* column commands issued */
	sim_time *done;       /* [request] time its burst ends, ps */
	uint64_t *order;      /* [k] tag of the k-th request served */
	uint64_t nreq;        /* requests of the run */
};

uint64_t drv_xs(uint64_t *s);
void drv_gen_next(gen *g, uint64_t *line, int *wr);

/* drv_start - a fresh DRAM with @p for @n requests, tracing on. */
void drv_start(run *r, const dram_params *p, uint64_t n);
void drv_end(run *r);

/* drv_closed - closed loop: keep the queues full (in request order) until all are served. */
void drv_closed(run *r, gen *g);

/*
 * drv_timed - timed arrivals, gaps uniform in [0, 2 * @gap) ps, waiting in
 * one FIFO for a queue slot; with @extra, the driver also advances at
 * random times in between (which must change nothing).
 */
void drv_timed(run *r, gen *g, sim_time gap, int extra, uint64_t seed);

/* drv_advance_all - advance every channel to r->now. */
void drv_advance_all(run *r);

/* drv_assert_clean - the trace passes dram_check (else the first violation). */
void drv_assert_clean(const dram_params *p, const run *r);

/* drv_totals - statistics summed over channels. */
dram_stats drv_totals(const dram *d);

/* drv_bandwidth - steady-state GB/s: requests served after the first tenth. */
double drv_bandwidth(const run *r);

/* drv_end_cycle - the last command's cycle. */
uint64_t drv_end_cycle(const run *r);

#endif
