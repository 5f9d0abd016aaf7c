/*
 * core/sim_int.h - the engine's struct body, shared by sim.c (components,
 * sends, dispatch), sync.c (the window loop) and sim_report.c (progress,
 * collection at the end).  Not for models.
 */
#ifndef CXL_CORE_SIM_INT_H
#define CXL_CORE_SIM_INT_H

#include "core/engine.h"
#include "core/evpool.h"
#include "core/evq.h"
#include "core/profile.h"
#include "core/sim.h"
#include "core/xport.h"

/*
 * Debug event profile (build with EXTRA_CFLAGS=-DCXL_EVPROF): every executed
 * event is counted by its component's type and its kind (cxl_event.kind,
 * up to SIM_EVPROF_KINDS - 1; larger kinds share the last slot), and
 * sim_engine_collect prints the table of each rank to stderr.  Off by
 * default: the loop is unchanged.
 */
#define SIM_EVPROF_TYPES 16
#define SIM_EVPROF_KINDS 64

struct sim_engine {
	int rank, nranks;        /* this rank, ranks in the job */
	const sim_graph *g;      /* the whole system */
	const int32_t *rank_of;  /* partition */
	const cfg *cf;           /* configuration for init hooks */
	sim_opts opt;            /* options */
	sim_time now;            /* time of the event being handled, ps */
	sim_time window_end;     /* events before this time may run now, ps */
	sim_time lookahead;      /* cross-rank lookahead, ps (MAX: none) */
	uint64_t edge_cut;       /* links cut by the partition */
	evq q;                   /* pending events of local components */
	evpool pool;             /* event free list */
	sim_comp *comps;         /* local components, ascending id (64-aligned) */
	uint32_t nlocal;         /* number of local components */
	sim_comp **local;        /* by global id: local component or NULL */
	void *states;            /* model states of local components, one block */
	sim_port *ports;         /* port tables of local components (CSR) */
	stats_set stats;         /* this rank's statistics registry */
	series_set series;       /* this rank's time series (period 0: off) */
	xport *xp;               /* transport (NULL with one rank) */
	uint64_t events;         /* events executed */
	uint64_t lazy_events;    /* lazy events handled without the queue (sim_lazy.c) */
	uint64_t lazy_added;     /* lazy events kept with their destination so far */
	int lazy_in;             /* 1 while a lazy event is handled (sim_lazy.c) */
	uint64_t cur_tie;        /* the key of the event being handled (with now): */
	uint64_t cur_seq;        /* (dst << 32 | src, seq), as evq.h's; sim__lazy_due */
	uint64_t windows;        /* windows completed */
	uint64_t remote_out;     /* events posted to other ranks */
	sim_time sent_min;       /* earliest event posted to another rank this window */
	double loop_s;           /* wall time in the loop */
	double wait_s;           /* wall time in MPI calls */
	sim_time last_time;      /* time of the last executed event */
	int interrupted;         /* signal that stopped the run early (agreed), 0 if none */
	sim_time ckpt_next;      /* next checkpoint cut (SIM_TIME_MAX: none) */
	uint64_t ckpt_window;    /* e->windows when the last checkpoint was written, + 1 */
	int last_idle;           /* sync.c, delayed minimum: the last window ran no event
				    on any rank (agreed) */
	int ckpt_rc;             /* a checkpoint write failed: its code (run stopped) */
	cxl_err ckpt_err;        /* and its message */
	sim_time resumed_at;     /* restarted from a checkpoint cut at this time (0: not) */
	int show_progress;       /* this rank prints progress lines */
	double run_start;        /* wall clock when the run started, s */
	double progress_last;    /* wall clock of the last progress line, s */
	prof_log *rec;           /* rank profile: every send is logged here; NULL: off */
	sim_hook_fn *after_event; /* debug hook after every event, NULL if none */
	sim_hook_fn *before_finish; /* hook before the finish hooks, NULL if none */
	sim_comp *hook_comp;     /* the component that set the hooks */
	const uint64_t **work_done; /* progress: counters of work done (sim_progress_work) */
	uint64_t work_total;     /* progress: the work those counters reach at the end */
	uint32_t nwork, cap_work; /* entries of work_done, capacity */
#ifdef CXL_EVPROF
	const model_ops *evprof_ops[SIM_EVPROF_TYPES]; /* component types seen, in order */
	uint64_t evprof[SIM_EVPROF_TYPES][SIM_EVPROF_KINDS]; /* events by type and kind */
#endif
};

/* Events between two looks at the wall clock for the progress line. */
#define SIM_PROGRESS_MASK 0xffffu

/*
 * Lazy events (sim_lazy.c; sim.h sim_send_port_lazy).  The send keeps @l
 * (its key set) with @to (sim__lazy_push inline, else sim__lazy_add) and,
 * in plain runs, applies it there (sim__lazy_apply); with --check-lazy
 * sim__lazy_before absorbs @to's lazy events that order before @next, the
 * event it is about to handle.  sim__lazy_settle handles every lazy event
 * before @until and takes back the rest (a checkpoint cut: sim_engine_save
 * writes them as queued events, sim__lazy_event; sim__lazy_resume applies
 * them again); sim__lazy_finish handles those before @until and drops the
 * rest (the end); sim__lazy_min is the earliest time of one still on its
 * way (SIM_TIME_MAX: none).
 */

/* sim__key_lt - the rest of evq.h's key for one destination: (time, src, seq) a < b? */
static inline int sim__key_lt(sim_time ta, uint32_t sa, uint64_t qa, sim_time tb, uint32_t sb,
			      uint64_t qb)
{
	return ta < tb || (ta == tb && (sa < sb || (sa == sb && qa < qb)));
}

/* sim__lazy_lt - does lazy event @a order before lazy event @b (same destination)? */
static inline int sim__lazy_lt(const sim_lazy *a, const sim_lazy *b)
{
	return sim__key_lt(a->time, a->src, a->seq, b->time, b->src, b->seq);
}

/* sim__lazy_before_ev - does lazy event @a order before the event @b (same destination)? */
static inline int sim__lazy_before_ev(const sim_lazy *a, const cxl_event *b)
{
	return sim__key_lt(a->time, a->src, a->seq, b->time, b->src, b->seq);
}

/*
 * sim__lazy_due - does lazy event @l, waiting with @to, order before the
 * event being handled (evq.h's whole key: time, dst, src, seq)?  Outside a
 * handler: before the last one handled.
 */
static inline int sim__lazy_due(const sim_engine *e, const sim_comp *to, const sim_lazy *l)
{
	uint64_t tie = (uint64_t)to->id << 32 | l->src;

	if (l->time != e->now)
		return l->time < e->now;
	return tie != e->cur_tie ? tie < e->cur_tie : l->seq < e->cur_seq;
}

/* sim__lazy_applied - are lazy events applied at their send (not --check-lazy)? */
static inline int sim__lazy_applied(const sim_engine *e)
{
	return !e->opt.check_lazy;
}

/* sim__lazy_drop_all - every event waiting with @to (applied) has arrived: drop them. */
static inline void sim__lazy_drop_all(sim_engine *e, sim_comp *to)
{
	e->lazy_events += to->lazy_n - to->lazy_lo;
	to->lazy_lo = to->lazy_n = to->lazy_early = 0;
}

/*
 * sim__lazy_drop - the events waiting with @to, applied at their send, have
 * all arrived if none is on its way (sim__lazy_waiting_at: the latest is
 * due before now): dropped at once, before a send writes the next one's
 * slot.  Now is the engine's (to->clock is in to's second line).
 */
static inline void sim__lazy_drop(sim_engine *e, sim_comp *to)
{
	if (to->lazy_n && !sim__lazy_waiting_at(to, e->now) && sim__lazy_applied(e))
		sim__lazy_drop_all(e, to);
}

/*
 * sim__lazy_push - keep @l with @to if it comes after every event waiting
 * there and there is room: the common case, inline in the send.  @l may be
 * the free slot after the last (the send writes it there), which is then
 * not copied.  0: neither, sim__lazy_add does it.
 */
static inline int sim__lazy_push(sim_engine *e, sim_comp *to, const sim_lazy *l)
{
	uint32_t n = to->lazy_n;

	if (n == to->lazy_cap || (n > to->lazy_lo && sim__lazy_lt(l, &to->lazy[n - 1])))
		return 0;
	e->lazy_added++;
	if (l != &to->lazy[n])
		to->lazy[n] = *l;
	to->lazy_n = n + 1;
	return 1;
}

void sim__lazy_add(sim_engine *e, sim_comp *to, sim_lazy *l);
/*
 * sim__lazy_apply - lazy_absorb @l into @to's state with sign @dir (+1 at
 * the send of an event @to lets wait, -1 to take it back), and count it in
 * to->lazy_early.
 */
static inline void sim__lazy_apply(sim_comp *to, const sim_lazy *l, int dir)
{
	to->ops->lazy_absorb(to, to->state, l, dir);
	to->lazy_early += dir > 0 ? l->aux : -(uint32_t)l->aux;
}
/* sim__lazy_before: --check-lazy; call only if the first waiting event orders before @next */
void sim__lazy_before(sim_engine *e, sim_comp *c, const cxl_event *next);
/* sim__lazy_settle: a cut at @until (those before: arrived; the rest taken back),
   sim__lazy_resume: after the checkpoint's write, apply the rest again */
void sim__lazy_settle(sim_engine *e, sim_time until);
void sim__lazy_resume(sim_engine *e);
void sim__lazy_finish(sim_engine *e, sim_time until);
sim_time sim__lazy_min(const sim_engine *e);
/* sim__lazy_event - make the zeroed @ev the event lazy event @l of @to stands for (owner kept). */
void sim__lazy_event(const sim_comp *to, const sim_lazy *l, cxl_event *ev);
/* sim__queue - @ev (for a component of this rank, key set) into the pending-event set. */
void sim__queue(sim_engine *e, cxl_event *ev);

/* sim__process - execute every local event with time < @until. */
void sim__process(sim_engine *e, sim_time until);
/* sim__deliver - xport callback: queue an event received from another rank. */
void sim__deliver(void *ctx, const cxl_event *ev);
/* sim__comp_cfg - the config component @gc sees: cfg_for() with its overrides. */
const cfg *sim__comp_cfg(const cfg *cf, const graph_comp *gc);
/* sim__progress - print a progress line if a second has passed since the last. */
void sim__progress(sim_engine *e);
/* sim__wall - monotonic wall clock, seconds. */
double sim__wall(void);

#endif
