/*
 * test/core/sim_fixture.h - what the engine tests share (test_sim.c: order
 * and sends; test_sim_life.c: ownership, end, statistics, init, RNG,
 * create): a one-rank engine over a test graph, and a log the test models
 * write from their handlers.
 *
 * With opts.nranks == 1 the engine creates no transport and takes the
 * one-rank paths of init, run and collect, so no MPI call is made and the
 * tests run in the ordinary forked Check runner: simt_open() loads a cfg
 * with the engine's schema only and creates the engine, simt_init(),
 * simt_go() (run and collect), simt_close().
 */
#ifndef CXL_TEST_CORE_SIM_FIXTURE_H
#define CXL_TEST_CORE_SIM_FIXTURE_H

#include <check.h>

#include "core/sim_int.h"

typedef struct simt_run simt_run;
struct simt_run {
	const sim_graph *g; /* the graph (owned by the test) */
	int32_t *rank_of;   /* every component on rank 0 */
	cfg *cf;            /* engine schema only */
	sim_engine *e;      /* the engine under test */
	stats_set table;    /* from sim_engine_collect */
	sim_rank_info info; /* from sim_engine_collect */
};

/* simt_open - load a cfg with simulation.end=@end, .seed=@seed; create the engine. */
void simt_open(simt_run *r, const sim_graph *g, const char *end, uint64_t seed);
void simt_init(simt_run *r);
/* simt_go - run to the end and collect statistics and run info. */
void simt_go(simt_run *r);
void simt_close(simt_run *r);
/* simt_add - add a component of weight 1. */
uint32_t simt_add(sim_graph *g, const model_ops *ops, const char *name);

/* One handled event (or a marker) as a test model saw it. */
typedef struct simt_rec simt_rec;
struct simt_rec {
	sim_time t;     /* sim_now() in the handler */
	uint32_t comp;  /* handling component */
	uint32_t src;   /* ev->src */
	uint64_t seq;   /* ev->seq */
	uint16_t port;  /* ev->dst_port */
	uint16_t kind;  /* ev->kind (or a marker) */
	uint32_t tag;   /* ev->pkt.tag */
};

#define SIMT_LOG_MAX 4096
extern simt_rec simt_log[SIMT_LOG_MAX]; /* the log, reset before every test */
extern size_t simt_log_n;               /* its entries */

enum { K_TIMER = 1, K_MSG, K_REPLY, K_LATE, K_MARK = 100 };

/* simt_log_event - log @ev, checking its time, destination and owner. */
void simt_log_event(const sim_comp *c, const cxl_event *ev);
/* simt_log_mark - log a marker with @tag at the current time. */
void simt_log_mark(const sim_comp *c, uint32_t tag);
/* simt_count - log entries equal to @want in every field but seq. */
size_t simt_count(simt_rec want);

/* simt_case - a TCase whose tests start with an empty log, then run @setup (may be NULL). */
TCase *simt_case(const char *name, void (*setup)(void));

#endif
