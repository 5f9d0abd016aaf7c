/*
 * test/models/memory/mem_fixture.h - the engine harness of the memory
 * endpoint's unit tests (test_mem.c): one memory device in a small custom
 * fabric, driven by scripted requesters.
 *
 * mfx_run builds the fabric from --set strings (a custom topology: the
 * device's hosts wired straight to it, so one host gives a one-headed
 * device and two hosts a two-headed one), replaces every host's model by
 * a test requester ("mtep", mem_fixture.c) and runs the engine on one rank
 * to completion.  Requester i (in node order) plays mfx_scripts[i]: it sends
 * the requests in order, request k with tag k, each no earlier than its
 * `at`, as the bus's credits allow, and with `serial` only once every
 * earlier request is answered; it answers its k-th BISnp with the BIRsp
 * mfx_scripts[i].birsp[k] describes (no dirty data past the list).  It
 * logs into mfx_logs[i] every response and BISnp, and checks every
 * response's latency breakdown (sum == now - issue, exactly).
 *
 * Failures abort the test (Check).  mfx_scripts and mfx_logs are the shared
 * objects: each Check test runs in its own process (CK_FORK); mfx_run
 * clears the logs, the test fills the scripts first.
 */
#ifndef CXL_TEST_MODELS_MEM_FIXTURE_H
#define CXL_TEST_MODELS_MEM_FIXTURE_H

#include <check.h>
#include <stdint.h>

#include "core/engine.h"
#include "models/proto/cxl_proto.h"

enum { MFX_HOSTS = 2, MFX_MAX = 256, MFX_SETS = 24 };

typedef struct mfx_req mfx_req;
struct mfx_req {
	sim_time at;     /* send no earlier than this, ps */
	uint8_t vc;      /* CXL_VC_M2S_REQ (MemRd) or CXL_VC_M2S_RWD (MemWr) */
	uint64_t addr;   /* byte address */
	uint16_t lines;  /* lines: a MemRd's pkt.aux, a MemWr's size / 64 */
	uint8_t flags;   /* pkt.flags (CXL_PKT_CACHED, CXL_PKT_FLAG, ...) */
	uint16_t aux;    /* a MemWr's flag value (with CXL_PKT_FLAG) */
	uint8_t serial;  /* 1: wait until every earlier request is answered */
};

typedef struct mfx_birsp mfx_birsp;
struct mfx_birsp {
	uint16_t dirty;  /* dirty lines it carries */
	uint8_t flags;   /* CXL_PKT_FLAG | CXL_PKT_FLAG_AT(k), or 0 */
	uint16_t aux;    /* the flag line's value */
};

typedef struct mfx_script mfx_script;
struct mfx_script {
	mfx_req req[MFX_MAX];     /* the requests, in order */
	uint32_t nreq;            /* their number */
	mfx_birsp birsp[MFX_MAX]; /* answers to the BISnps, in arrival order */
	uint32_t nbirsp;          /* answers given; later BISnps get a clean BIRsp */
};

typedef struct mfx_log mfx_log;
struct mfx_log {
	cxl_packet resp[MFX_MAX];   /* response to request k (by tag) */
	sim_time resp_at[MFX_MAX];  /* its arrival, ps */
	sim_time sent_at[MFX_MAX];  /* when request k left, ps */
	uint32_t nresp;             /* responses received */
	cxl_packet bisnp[MFX_MAX];  /* BISnps received, in order */
	sim_time bisnp_at[MFX_MAX]; /* their arrival (= the BIRsp's departure), ps */
	uint32_t nbisnp;            /* BISnps received */
	uint32_t max_out;           /* most requests outstanding at once */
};

extern mfx_script mfx_scripts[MFX_HOSTS];
extern mfx_log mfx_logs[MFX_HOSTS];

typedef struct mfx mfx;
struct mfx {
	cfg *cf;            /* simulation + fabric keys */
	sim_graph g;        /* the fabric's graph, hosts replaced */
	void *sys;          /* the fabric (sim_system) */
	int32_t *rank_of;   /* all on rank 0 */
	sim_engine *e;      /* the engine */
	stats_set table;    /* statistics after the run */
	sim_rank_info info; /* run info */
};

/**
 * mfx_run - load "simulation.end=10ms", "topology.kind=custom", the
 * NULL-terminated @sets (at most MFX_SETS - 2; they name the nodes and
 * links), build, replace the hosts, run to completion and collect.
 */
void mfx_run(mfx *r, const char *const *sets);

/* mfx_close - free what mfx_run made. */
void mfx_close(mfx *r);

/* mfx_stat - counter @name of component @comp (the test fails if either is missing). */
uint64_t mfx_stat(const mfx *r, const char *comp, const char *name);

#endif
