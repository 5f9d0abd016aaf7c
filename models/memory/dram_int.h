/*
 * models/memory/dram_int.h - internals of the DRAM model: the state of channels,
 * ranks, bank groups and banks, shared by dram.c (interface, queue, time)
 * and dram_sched.c (the FR-FCFS step and the command bookkeeping), and
 * readable by tests.  Callers use dram.h only.
 *
 * Every "..._ok" field is the earliest cycle the named command may issue
 * as far as that level is concerned; issuing a command raises the _ok
 * fields it constrains (never lowers them), so the earliest cycle of a
 * command is the max over its bank, bank group, rank and channel.
 *
 * A channel's queue is kept oldest first (removal shifts), so the scan
 * order is the age order and q[0] is the oldest request.  Every queued
 * request is visible to the scheduler: dram_enqueue() moves the channel's
 * decision cycle past the arrival.
 */
#ifndef CXL_MODELS_DRAM_INT_H
#define CXL_MODELS_DRAM_INT_H

#include <stdint.h>

#include "models/memory/dram.h"

#define DRAM_NEVER UINT64_MAX     /* a cycle that never comes */
#define DRAM_NO_TAG UINT64_MAX    /* trace tag of REF and of PREs for no request */

enum dram_cls { DRAM_CLS_NONE, DRAM_CLS_HIT, DRAM_CLS_MISS, DRAM_CLS_CONFLICT };

typedef struct dram_req dram_req;
struct dram_req {
	uint64_t tag;      /* caller's tag */
	sim_time arrive;   /* arrival, ps (for wait statistics) */
	uint32_t row;      /* row */
	uint32_t bank;     /* flat bank index in the channel: (rank * bgs + bg) * banks + bank */
	uint16_t bgi;      /* flat bank-group index: rank * bgs + bg */
	uint8_t rank;      /* rank */
	uint8_t write;     /* 1: write */
	uint8_t cls;       /* enum dram_cls, set by its first command */
};

typedef struct dram_bank dram_bank;
struct dram_bank {
	uint64_t act_ok;   /* tRP after PRE, tRC after ACT */
	uint64_t pre_ok;   /* tRAS after ACT, tRTP after RD, tWR after write data */
	uint64_t col_ok;   /* tRCD after ACT */
	uint32_t row;      /* open row (if open) */
	uint32_t mark_any; /* == scan generation: a queued request hits the open row */
	uint32_t mark_cand;/* == scan generation: a candidate request hits it */
	uint8_t open;      /* 1: a row is open */
};

typedef struct dram_bgrp dram_bgrp;
struct dram_bgrp {
	uint64_t act_ok;   /* tRRD_L after ACT */
	uint64_t rd_ok;    /* tCCD_L after RD, tWTR_L after write data */
	uint64_t wr_ok;    /* tCCD_L_WR after WR */
};

typedef struct dram_rank dram_rank;
struct dram_rank {
	uint64_t act_ok;   /* tRRD_S after ACT, tRFC after REF */
	uint64_t rd_ok;    /* tCCD_S after RD, tWTR_S after write data */
	uint64_t wr_ok;    /* tCCD_S after WR, tRTW after RD */
	uint64_t pre_ok;   /* tPPD after PRE */
	uint64_t ref_ok;   /* tRP after PRE, tRC after ACT, tRFC after REF */
	uint64_t faw[4];   /* cycles of the last 4 ACTs (ring) */
	uint32_t nact;     /* ACTs so far, capped at 4 (faw entries valid) */
	uint32_t faw_i;    /* ring position of the oldest of the last 4 */
	uint64_t ref_due;  /* cycle the next REF is due */
	uint32_t open;     /* banks with an open row */
	uint8_t ref_pending; /* 1: REF due, no new request commands */
};

typedef struct dram_chan dram_chan;
struct dram_chan {
	dram_req *q;       /* queue, oldest first, params.queue entries */
	uint32_t n;        /* requests queued */
	uint32_t nwrites;  /* of which writes */
	uint32_t bypass;   /* column commands for younger requests while q[0] waited */
	uint32_t gen;      /* scan generation (bank marks) */
	uint8_t write_mode;/* 1: draining writes */
	int bus_rank;      /* rank of the last data burst, -1 none */
	uint64_t bus_end;  /* cycle the last data burst ends */
	uint64_t cmd_ok;   /* command bus free from this cycle */
	uint64_t cyc;      /* first cycle the next command may issue at */
	uint64_t next;     /* cached cycle of the next command or refresh step */
	uint8_t next_ok;   /* 1: next is valid */
	sim_time upto;     /* advanced through this time, ps */
	dram_rank *rk;     /* [rank] */
	dram_bgrp *bg;     /* [rank * bgs + bg] */
	dram_bank *bk;     /* [(rank * bgs + bg) * banks + bank] */
	dram_stats st;     /* statistics */
};

struct dram {
	dram_params p;     /* parameters (copied) */
	uint64_t tck_n;    /* tCK = tck_n / tck_d ps, reduced fraction */
	uint64_t tck_d;
	uint64_t cnt[DRAM_NFIELD]; /* size of each address field */
	dram_chan *ch;     /* [channel] */
	dram_trace_fn *trace;   /* trace hook or NULL */
	void *trace_ctx;        /* its context */
};

/* A command the scheduler could issue next. */
typedef struct dram_cand dram_cand;
struct dram_cand {
	uint64_t t;        /* earliest cycle it can issue, DRAM_NEVER: none */
	uint32_t prio;     /* lower first when t ties: 0 refresh, 1 column, 2 ACT/PRE, 3 closing PRE */
	uint8_t cmd;       /* enum dram_cmd */
	uint32_t qi;       /* queue index of its request, UINT32_MAX for none */
	uint32_t rank;     /* rank */
	uint32_t bank;     /* flat bank index (ACT, PRE, RD, WR) */
};

/* dram_sched.c */
dram_cand dram__pick(dram *d, dram_chan *c);
void dram__issue(dram *d, dram_chan *c, const dram_cand *k, dram_issue_fn *fn, void *ctx);
uint64_t dram__next_refresh(const dram *d, const dram_chan *c);
void dram__refresh_due(const dram *d, dram_chan *c);

#endif
