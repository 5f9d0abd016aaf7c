/*
 * test/models/link/bus_fixture.h - the engine harness of the bus unit tests
 * (test_bus.c, test_bus_replay.c): A - bus - B on one rank.
 *
 * bfx_open builds A - bus - B (component ids 0, 1, 2; links A.0-bus.0 and
 * bus.1-B.0) and bfx_run runs it to completion.  A and B are test
 * endpoints ("tep", bus_fixture.c): each is a SOURCE that sends
 * tep.packets_a (A) or tep.packets_b (B) packets per VC on VCs tep.vc ..
 * tep.vc+tep.vcs-1 as fast as the bus's credits allow (its own credit
 * accounting, cxl_proto.h), and a SINK that grants tep.grant credits per
 * VC and returns one per packet consumed, tep.credit_delay later (never for
 * tep.stall_vc).  Both log what they see into bfx_ep[role] (role 0 = A,
 * 1 = B): arrival times, order per VC, hops, latency, the most packets
 * held and in the bus.  The config is loaded with cfg_load against
 * sim_schema + cxl_bus_schema + the endpoints' own schema, from --set
 * strings ("simulation.end=1s" first, so a test may override it).
 *
 * Failures abort the test (Check).  bfx_ep is the one shared object: each
 * Check test runs in its own process (CK_FORK), and bfx_open clears it.
 */
#ifndef CXL_TEST_MODELS_BUS_FIXTURE_H
#define CXL_TEST_MODELS_BUS_FIXTURE_H

#include <check.h>
#include <stdint.h>

#include "core/engine.h"
#include "models/proto/cxl_proto.h"

enum { BFX_LA = 3000, BFX_LB = 5000 }; /* link latencies A-bus and bus-B, ps */

typedef struct bfx_log bfx_log;
struct bfx_log {
	uint64_t sent;                 /* packets sent */
	uint64_t got;                  /* packets received */
	sim_time first, last;          /* first and last arrival, ps */
	sim_time lat_min, lat_max;     /* arrival - issue, ps */
	uint32_t next[CXL_NVC];        /* next expected tag per VC */
	uint32_t bad;                  /* out of order, duplicate or wrong hops */
	uint32_t held[CXL_NVC];        /* consumed, credit not yet returned */
	uint32_t max_held[CXL_NVC];    /* most held at once */
	uint32_t in_bus[CXL_NVC];      /* sent, bus credit not yet back */
	uint32_t max_in_bus[CXL_NVC];  /* most in the bus at once */
	cxl_credits end_cr;            /* credits held towards the bus at the end */
};

/* What endpoint A (0) and B (1) saw in the last run. */
extern bfx_log bfx_ep[2];

typedef struct bfx bfx;
struct bfx {
	sim_graph g;        /* A - bus - B */
	cfg *cf;            /* simulation + bus + tep keys */
	sim_engine *e;      /* the engine */
	int32_t rank_of[3]; /* all on rank 0 */
	stats_set table;    /* statistics after the run */
	sim_rank_info info; /* run info */
};

/**
 * bfx_open - build A - bus - B with link latencies @la, @lb (@lb 0: no B,
 * the bus has one port), load the NULL-terminated --set strings @sets (at
 * most 15), create the engine and run init.  Returns init's code (@err).
 */
int bfx_open(bfx *r, sim_time la, sim_time lb, const char *const *sets, cxl_err *err);

/* bfx_run - bfx_open (init must succeed), run to completion, collect the statistics. */
void bfx_run(bfx *r, sim_time la, sim_time lb, const char *const *sets);

/* bfx_close - free what bfx_open made. */
void bfx_close(bfx *r);

/* bfx_stat - the bus's counter @name (the test fails if it does not exist). */
uint64_t bfx_stat(const bfx *r, const char *name);

/* bfx_has_stat - 1 if the bus registered a counter @name. */
int bfx_has_stat(const bfx *r, const char *name);

/* bfx_goodput_gbps - payload Gbit/s at @l between its first and last arrival. */
double bfx_goodput_gbps(const bfx_log *l, uint32_t payload);

/* bfx_assert_near - fail unless @got is within @rel (relative) of @want. */
void bfx_assert_near(double got, double want, double rel);

/* bfx_setup, bfx_teardown - the checked fixture of every engine test case. */
void bfx_setup(void);
void bfx_teardown(void);

/* bfx_case - a TCase named @name whose tests run in the fixture, @timeout s each. */
TCase *bfx_case(const char *name, double timeout);

#endif
