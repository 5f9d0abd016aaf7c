/*
 * models/memory/dram.h - a command-level DRAM timing model (DDR4/DDR5): channels,
 * ranks, bank groups, banks, row buffers, FR-FCFS scheduling with one
 * bounded queue per channel, read/write turnaround and refresh.
 *
 * The model is pure: no component, no events, no allocation after
 * dram_init().  A caller (models/memory/mem.c) drives each channel with three calls
 * and one timer per channel:
 *   dram_advance(d, ch, now, fn, ctx)  issue every command of @ch whose clock
 *                                      edge is at or before @now; fn() is
 *                                      called once per request whose column
 *                                      command (RD/WR) issues, with the time
 *                                      its data burst ends
 *   dram_enqueue(d, line, wr, now, tag) a request arrives at @now (after
 *                                      dram_advance(d, ch, now)); it is seen
 *                                      by the scheduler from the first clock
 *                                      edge strictly after @now
 *   dram_next_time(d, ch)              when to call dram_advance next:
 *                                      SIM_TIME_MAX while the queue is empty
 * Times at the interface are picoseconds; inside, everything is in clock
 * cycles (tCK = 2e6 / rate ps, kept as an exact fraction, so DDR5-4800's
 * 416.67 ps clock does not drift).  Cycle c starts at ceil(c * tCK) ps.
 *
 * Determinism: the commands issued are a function of the arrival sequence
 * (times, lines, kinds) alone - not of how often or when dram_advance() is
 * called in between (test_dram.c checks this).  Work that produces no
 * callback (refresh, closed-page precharges) is caught up lazily at the
 * next call, so an idle channel needs no timer.
 *
 * Commands and constraints (all in nCK, see dram_params): ACT, PRE, RD, WR,
 * REF (all-bank, per rank).  tRCD, tRP, tRAS, tRC, tCL/tCWL, tBL, tCCD_S/L
 * (tCCD_L_WR for write-to-write in one bank group), tRRD_S/L, tFAW, tWTR_S/L,
 * tRTW, tWR, tRTP, tPPD, tRFC, tREFI, tRTRS (rank switch on the data bus),
 * and a command bus that takes one command per cycle (ACT/RD/WR occupy it
 * tCMD cycles: 2 on DDR5).  Data bursts on a channel never overlap, so
 * completions leave a channel in issue order.
 *
 * Scheduling (FR-FCFS, per channel), evaluated at every command slot:
 *   - refresh first: from its due time a rank takes no new request commands;
 *     its open banks are precharged, then REF; due times are tREFI apart,
 *     staggered over ranks;
 *   - read or write mode (write drain): writes wait until they fill half the
 *     queue (or no read is queued), then drain down to a quarter, to pay the
 *     bus turnaround once per batch;
 *   - among the commands of requests of the current mode, the one that can
 *     issue earliest; ties: column commands (row hits) first, then the
 *     oldest request;
 *   - a bank whose open row is still wanted by a queued request of the
 *     current mode is not precharged for a row conflict (hits first);
 *   - starvation cap: once `starve` column commands have been issued for
 *     younger requests while the oldest waited, only the oldest is served;
 *   - closed page: a bank is precharged as soon as no queued request wants
 *     its open row (an explicit PRE, lowest priority).
 * Row hit / miss / conflict is decided by the first command issued for a
 * request: RD/WR (hit), ACT (miss: bank was closed), PRE (conflict).
 *
 * Address mapping: a 64-byte line number (the device physical address / 64)
 * is split into fields by mixed radix, least significant field first, in
 * the order of dram_params.map; the most significant field wraps.
 *
 * Cost: each scheduling step scans the channel's queue (O(queue), plus the
 * banks of a rank under refresh and, in closed page, the channel's banks).
 *
 * Presets and their sources: dram_preset.c.  Reading the memory.dram.*
 * configuration: dram_cfg.c.  Checkpoints (the state commands change):
 * dram_ckpt.c.  Internals (for tests): dram_int.h.
 */
#ifndef CXL_MODELS_DRAM_H
#define CXL_MODELS_DRAM_H

#include <stddef.h>
#include <stdint.h>

#include "core/ckpt.h"
#include "core/stime.h"

#define DRAM_LINE 64 /* bytes per request (one burst) */

/* Address fields, named in mapping strings as row, rank, bg, bank, col, ch. */
enum dram_field { DRAM_F_CH, DRAM_F_COL, DRAM_F_BG, DRAM_F_BANK, DRAM_F_RANK, DRAM_F_ROW,
		  DRAM_NFIELD };

enum dram_cmd { DRAM_ACT, DRAM_PRE, DRAM_RD, DRAM_WR, DRAM_REF, DRAM_NCMD };

/* A timing parameter, index into dram_params.t (all in clock cycles, nCK). */
enum dram_timing {
	DRAM_tBL,      /* data burst on the bus (BL8: 4, BL16: 8) */
	DRAM_tCL,      /* RD to data */
	DRAM_tCWL,     /* WR to data */
	DRAM_tRCD,     /* ACT to RD/WR, same bank */
	DRAM_tRP,      /* PRE to ACT, same bank; PRE to REF */
	DRAM_tRAS,     /* ACT to PRE, same bank */
	DRAM_tRC,      /* ACT to ACT, same bank; ACT to REF */
	DRAM_tWR,      /* end of write data to PRE, same bank */
	DRAM_tRTP,     /* RD to PRE, same bank */
	DRAM_tCCD_S,   /* column to column, other bank group, same rank */
	DRAM_tCCD_L,   /* column to column, same bank group (reads; write after read) */
	DRAM_tCCD_L_WR,/* WR to WR, same bank group */
	DRAM_tRRD_S,   /* ACT to ACT, other bank group, same rank */
	DRAM_tRRD_L,   /* ACT to ACT, same bank group */
	DRAM_tFAW,     /* window holding at most 4 ACTs of a rank */
	DRAM_tWTR_S,   /* end of write data to RD, other bank group, same rank */
	DRAM_tWTR_L,   /* end of write data to RD, same bank group */
	DRAM_tRTW,     /* RD to WR, same rank */
	DRAM_tRTRS,    /* gap between bursts of two ranks on the data bus */
	DRAM_tPPD,     /* PRE to PRE, same rank (DDR5) */
	DRAM_tRFC,     /* REF to ACT/REF, same rank */
	DRAM_tREFI,    /* average refresh interval per rank */
	DRAM_tCMD,     /* command-bus cycles of ACT/RD/WR (DDR5: 2) */
	DRAM_NTIMING
};

typedef struct dram_params dram_params;
struct dram_params {
	const char *name;       /* preset name, e.g. "DDR4-3200" */
	uint32_t rate;          /* data rate, MT/s (tCK = 2e6 / rate ps) */
	uint32_t channels;      /* independent channels (DDR5: 32-bit subchannels) */
	uint32_t ranks;         /* ranks per channel */
	uint32_t bankgroups;    /* bank groups per rank */
	uint32_t banks;         /* banks per bank group */
	uint32_t rows;          /* rows per bank */
	uint32_t row_lines;     /* 64-byte lines per row (row buffer bytes / 64) */
	uint32_t queue;         /* requests per channel queue */
	uint32_t starve;        /* FR-FCFS cap: column commands for younger requests
				   before the oldest is forced; 0 = no cap */
	uint8_t closed_page;    /* 1: precharge a row once no queued request wants it */
	uint8_t refresh;        /* 1: all-bank refresh every tREFI */
	uint8_t map[DRAM_NFIELD]; /* enum dram_field, least significant first */
	uint32_t t[DRAM_NTIMING]; /* timings, nCK (enum dram_timing) */
};

/* Statistics of one channel (counts since dram_init). */
typedef struct dram_stats dram_stats;
struct dram_stats {
	uint64_t reads, writes;      /* column commands issued */
	uint64_t row_hits;           /* requests served from the open row */
	uint64_t row_misses;         /* requests that found their bank closed */
	uint64_t row_conflicts;      /* requests that found another row open */
	uint64_t activates;          /* ACT commands */
	uint64_t precharges;         /* PRE commands (also those before REF) */
	uint64_t refreshes;          /* REF commands */
	uint64_t busy_cycles;        /* data bus busy, nCK */
	uint64_t wait_ps;            /* sum over requests: column command - arrival, ps */
};

/* One issued command, as given to a trace hook. */
typedef struct dram_cmd_rec dram_cmd_rec;
struct dram_cmd_rec {
	uint64_t cycle;   /* clock cycle it issued at */
	uint32_t ch;      /* channel */
	uint8_t cmd;      /* enum dram_cmd */
	uint8_t rank;     /* rank */
	uint8_t bg;       /* bank group (not meaningful for REF) */
	uint8_t bank;     /* bank within the group (not meaningful for REF) */
	uint32_t row;     /* row (ACT, RD, WR) */
	uint64_t tag;     /* request's tag (RD, WR; ACT/PRE issued for a request) */
};

/* A request's column command issued: its data burst ends at @done_ps. */
typedef void dram_issue_fn(void *ctx, uint64_t tag, sim_time done_ps);
/* Trace hook: called for every command, in issue order. */
typedef void dram_trace_fn(void *ctx, const dram_cmd_rec *rec);

typedef struct dram dram;

/**
 * dram_create - a DRAM with parameters @p (copied), every bank closed, at
 * time 0.  @p must pass dram_params_check().  Allocates everything it will
 * ever need (queues of p->queue requests per channel).
 */
dram *dram_create(const dram_params *p);
void dram_destroy(dram *d);

/* dram_params_get - the parameters @d runs with. */
const dram_params *dram_params_get(const dram *d);

/* dram_channel_of - the channel that serves line @line. */
uint32_t dram_channel_of(const dram *d, uint64_t line);

/* dram_full - is the queue of channel @ch full (dram_enqueue would panic)? */
int dram_full(const dram *d, uint32_t ch);

/* dram_queued - requests waiting in channel @ch's queue (no column command yet). */
uint32_t dram_queued(const dram *d, uint32_t ch);

/**
 * dram_enqueue - a request for line @line arrives at @now.
 * @write: 1 for a write, 0 for a read
 * @tag:   the caller's, handed back to the issue callback
 * Its channel must have been advanced to exactly @now (dram_advance) and
 * have room (dram_full); both are checked (panic).
 */
void dram_enqueue(dram *d, uint64_t line, int write, sim_time now, uint64_t tag);

/**
 * dram_advance - issue the commands of channel @ch up to time @now.
 * @fn, @ctx: called for every request whose RD/WR issues, in issue order;
 *            @fn may be NULL only if no request can issue (panics otherwise)
 * @now must not be earlier than the previous call's.
 */
void dram_advance(dram *d, uint32_t ch, sim_time now, dram_issue_fn *fn, void *ctx);

/**
 * dram_next_time - the time of channel @ch's next command, at which
 * dram_advance() must be called to keep callbacks on time; SIM_TIME_MAX
 * if its queue is empty.  Always later than the last dram_advance() time.
 */
sim_time dram_next_time(dram *d, uint32_t ch);

/* dram_foreach_queued - call @fn(ctx, tag) for every queued request of every
 * channel (end of run: the caller frees what the tags stand for). */
void dram_foreach_queued(const dram *d, void (*fn)(void *ctx, uint64_t tag), void *ctx);

/* dram_stats_get - the statistics of channel @ch. */
const dram_stats *dram_stats_get(const dram *d, uint32_t ch);

/* dram_set_trace - call @fn(ctx, rec) for every command issued (NULL: off). */
void dram_set_trace(dram *d, dram_trace_fn *fn, void *ctx);

/* A queued request's tag in a checkpoint: save what it stands for, or restore that into *@tag. */
typedef void dram_tag_ckpt_fn(void *ctx, ckpt *k, uint64_t *tag);

/*
 * dram_ckpt - save or restore (core/ckpt.h) the state commands change, every
 * channel; @fn(@ctx, k, &tag) visits each queued request's tag (dram_ckpt.c).
 */
void dram_ckpt(dram *d, ckpt *k, dram_tag_ckpt_fn *fn, void *ctx);

/* dram_cycle_ps - the time clock cycle @c starts, ps: ceil(c * tCK). */
sim_time dram_cycle_ps(const dram *d, uint64_t c);

/* dram_preset.c: the presets and the checks of a parameter set. */

/* dram_preset - the preset called @name ("DDR4-2400", "DDR4-3200", "DDR5-4800"), or NULL. */
const dram_params *dram_preset(const char *name);

/**
 * dram_params_check - is @p usable?  Returns 0, or -1 with a reason in
 * @why (@n bytes): a zero count or timing that must be positive, a
 * bank/rank count beyond the field widths, a queue of 0.
 */
int dram_params_check(const dram_params *p, char *why, size_t n);

/**
 * dram_map_parse - parse a mapping such as "row:bank:rank:col:bg:ch" (most
 * significant field first, each of row, rank, bg, bank, col, ch exactly
 * once) into @map (least significant first).  Returns 0 or -1.
 */
int dram_map_parse(const char *s, uint8_t map[DRAM_NFIELD]);

/* dram_peak_GBps - theoretical data bandwidth of one channel, GB/s. */
double dram_peak_GBps(const dram_params *p);

#endif
