/*
 * core/sim.h - the model API: everything a model (component type) may use.
 *
 * A model includes only this header (plus cfg.h / stats.h / rng.h for the
 * types it names).  It never sees MPI, the queue or the synchroniser.
 *
 * A model is a `model_ops` table: a name, the size of its per-component
 * state, and hooks:
 *   init(c, state, cfg, err)  once per local component, in id order, before
 *                             time 0: read parameters, register statistics,
 *                             schedule the first events.  Returns 0 or a
 *                             CXL_E* code with @err filled.
 *   event(c, state, ev)       handle one event at sim_now(c) == ev->time.
 *                             Never returns errors: assert or CXL_PANIC.
 *   finish(c, state)          optional; after the run, before statistics
 *                             are collected.
 *   ckpt(c, state, k)         optional; saves or restores what the events
 *                             change (core/ckpt.h).  Without it a system
 *                             holding the model cannot be checkpointed.
 *
 * Events: a handler may re-send the event it is handling (the cheapest way
 * to forward a packet: no copy, no pool traffic); if it does not, the event
 * returns to the pool when the handler returns - unless the handler calls
 * sim_event_keep(), after which the model owns it and must later send it or
 * free it with sim_event_free().  sim_event_hold() is the same for code that
 * may meet an event again after keeping it (a request parked, retried and
 * parked again): it also accepts an event the model already owns.  New
 * events come from sim_event_new().
 *
 * Sends (each assigns src = this component and the next send sequence
 * number, which completes the ordering key; see evq.h):
 *   sim_send_port    over the link at port @port: arrives at the peer after
 *                    @delay + link latency, with dst_port = the peer's port.
 *   sim_send_self    a timer: arrives at this component after @delay (>= 0).
 *   sim_send_global  to any component, @delay >= the graph's declared
 *                    global lookahead (a smaller delay is a panic).
 * A send whose arrival time (now + @delay, + the link's latency for a port
 * send) would pass SIM_TIME_MAX - 1 is a panic, never a wrapped time.
 * Randomness: sim_rng(c) is the component's own stream (seed, id).
 * Statistics: counters and histograms over the whole run (stats.h), and,
 * with simulation.sample_period > 0, time series (series.h).
 */
#ifndef CXL_CORE_SIM_H
#define CXL_CORE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/cfg.h"
#include "core/ckpt.h"
#include "core/err.h"
#include "core/event.h"
#include "core/rng.h"
#include "core/series.h"
#include "core/stats.h"
#include "core/stime.h"

typedef struct sim_engine sim_engine;
typedef struct sim_comp sim_comp;
typedef struct model_ops model_ops;

typedef int model_init_fn(sim_comp *c, void *state, const cfg *cf, cxl_err *err);
typedef void model_event_fn(sim_comp *c, void *state, cxl_event *ev);
typedef void model_finish_fn(sim_comp *c, void *state);
typedef void model_ckpt_fn(sim_comp *c, void *state, ckpt *k);
typedef struct sim_lazy sim_lazy;
typedef int model_lazy_fn(const sim_comp *c, const void *state, const sim_lazy *l);
typedef void model_absorb_fn(sim_comp *c, void *state, const sim_lazy *l, int dir);

/*
 * A lazy event (sim_send_port_lazy) while it waits with its destination:
 * not a cxl_event but 32 bytes of its own, its key and all it carries.  As
 * an event (queued after all, sent to another rank, checkpointed) it is
 * the event with these header fields, `kind`, pkt.mclass = `mclass`,
 * pkt.aux = `aux` and everything else zero.
 */
struct sim_lazy {
	sim_time time;   /* delivery time, ps */
	uint64_t seq;    /* the sender's number for it: with time and src, its key */
	uint32_t src;    /* sending component id */
	uint16_t port;   /* the destination's port it arrives on (ev->dst_port) */
	uint16_t kind;   /* event kind */
	uint16_t aux;    /* pkt.aux */
	uint8_t mclass;  /* pkt.mclass */
	uint8_t pad_;
	uint32_t rec;    /* engine: its record in the rank profile's log (profile.h) */
};

struct model_ops {
	const char *name;         /* type name, as in components.csv */
	size_t state_size;        /* bytes of per-component state (zeroed) */
	model_init_fn *init;      /* required */
	model_event_fn *event;    /* required */
	model_finish_fn *finish;  /* optional */
	const char *cfg_groups;   /* config groups read per component, space-separated
				     ("host workload"): the per-component overrides of
				     these groups apply to it (cfg.h); NULL for none */
	model_ckpt_fn *ckpt;      /* optional: checkpoint save/restore (ckpt.h) */
	model_lazy_fn *lazy_ok;   /* optional: may the lazy event @l wait with this
				     component instead of being queued?  See
				     sim_send_port_lazy; NULL: every event is queued */
	model_absorb_fn *lazy_absorb; /* required with lazy_ok: add (@dir +1) or take back
				     (-1) the effect of a lazy event lazy_ok let wait: a
				     count that only grows, which event() would have added */
};

typedef struct sim_port sim_port;
struct sim_port {
	uint32_t peer;      /* component id at the other end */
	uint16_t peer_port; /* port number at the other end */
	sim_time latency;   /* link latency, ps */
};

/*
 * A local component (logical process).  Models treat every field as read-only.
 * Two cache lines, aligned: the first holds what the dispatch loop touches
 * before the handler and what a lazy send touches at its receiver (so a
 * cold receiver costs one line), the second what its own handler reads.
 */
struct sim_comp {
	_Alignas(64) const model_ops *ops; /* its model */
	void *state;             /* model state, ops->state_size bytes */
	sim_engine *eng;         /* owning engine */
	uint64_t send_seq;       /* sends so far: the next event's seq */
	sim_lazy *lazy;          /* lazy events waiting for it (engine-owned, sim_lazy.c):
				    [lazy_lo, lazy_n) sorted by key */
	uint32_t lazy_lo, lazy_n, lazy_cap;
	uint32_t id;             /* global component id */
	uint32_t nports;         /* ports (from the graph's links) */
	uint32_t lazy_early;     /* what the waiting ones applied at their send (sum of
				    aux; sim_lazy_early): 0 if none */
	/* second line */
	const sim_port *ports;   /* port table, index = port number */
	const sim_time *clock;   /* the engine's current time */
	size_t stats_index;      /* its entry in the rank's stats registry */
	const char *name;        /* instance name, from the graph */
	cxl_rng rng;             /* the component's random stream */
};

_Static_assert(sizeof(sim_lazy) == 32, "a waiting lazy event stays a third of an event");
_Static_assert(offsetof(sim_comp, ports) == 64, "sim_comp's hot fields fill its first line");

static inline sim_time sim_now(const sim_comp *c)
{
	return *c->clock;
}

static inline cxl_rng *sim_rng(sim_comp *c)
{
	return &c->rng;
}

cxl_event *sim_event_new(sim_comp *c);
void sim_event_keep(sim_comp *c, cxl_event *ev);
void sim_event_hold(sim_comp *c, cxl_event *ev);
void sim_event_free(sim_comp *c, cxl_event *ev);

void sim_send_port(sim_comp *c, cxl_event *ev, uint16_t port, sim_time delay);
void sim_send_self(sim_comp *c, cxl_event *ev, sim_time delay);
void sim_send_global(sim_comp *c, cxl_event *ev, uint32_t dst, sim_time delay);

/*
 * sim_send_port_seq - sim_send_port with the ordering number @seq chosen by
 * the model instead of the next send counter (the last field of the
 * ordering key, see evq.h).  For a model that sends ahead of time (an event
 * it would have sent at a later time is sent now with a longer delay): it
 * must give its sends numbers that order any two of them that reach the
 * same component at the same time as its plain sends would have been
 * ordered, and never give two such sends the same number.  The numbers
 * need not follow the counter (a model using this for its sends after init
 * keeps its own numbering; see models/link/bus_tx.c).
 */
void sim_send_port_seq(sim_comp *c, cxl_event *ev, uint16_t port, sim_time delay, uint64_t seq);

/*
 * sim_send_port_lazy, sim_send_port_lazy_seq - sim_send_port(_seq) of an
 * event of kind @kind whose packet is all zero but pkt.mclass = @mclass and
 * pkt.aux = @aux, which, while the peer's model says so, the peer can take
 * in without acting on it (a credit reaching a port with nothing waiting
 * for it).  Such an event is neither built nor queued: the engine keeps
 * its key and payload with the peer (a sim_lazy, core/sim_lazy.c) and
 * hands it at once to the peer's lazy_absorb (+1), which adds to a count;
 * the peer's model reads that count less what has not arrived yet
 * (sim_lazy_early; for credits, cxl_credit_has).  The results are exactly
 * those of a queued event.  The peer's lazy_ok(l) is asked when it is
 * sent: it must answer 1 only if handling the event at its key, given the
 * peer's state now, would send nothing and change nothing but what
 * lazy_absorb changes, whatever other lazy events come before it.  While
 * it is on its way, the peer's model must call sim_lazy_recheck or
 * sim_lazy_queue_port after any event that may turn that answer to 0; such
 * events are taken back (lazy_absorb -1) and queued with their keys, as
 * events.  A peer on another rank, a peer without lazy_ok and
 * `--eager-events` get the event itself.  `--check-lazy` checks a model's
 * side (run a new model's tests with it): the engine then absorbs each
 * lazy event just before the peer's next event with a later key instead,
 * asks lazy_ok again there, where a 0 (a missed recheck) is a panic, and
 * so is a lazy_absorb that sends.
 */
void sim_send_port_lazy(sim_comp *c, uint16_t port, sim_time delay, uint16_t kind,
			uint8_t mclass, uint16_t aux);
void sim__lazy_recheck(sim_comp *c);
void sim__lazy_queue_port(sim_comp *c, uint16_t port);
uint64_t sim__lazy_early(sim_comp *c, uint16_t port, uint8_t mclass);

/*
 * sim__lazy_waiting_at, sim__lazy_waiting - may a lazy event still be on its
 * way to @c at time @now (now)?  Not if the last one kept (the latest) is due
 * before: the rest have arrived too (the engine drops them when it next
 * looks, core/sim_lazy.c).
 */
static inline int sim__lazy_waiting_at(const sim_comp *c, sim_time now)
{
	return c->lazy_n && c->lazy[c->lazy_n - 1].time >= now;
}

static inline int sim__lazy_waiting(const sim_comp *c)
{
	return sim__lazy_waiting_at(c, *c->clock);
}

/*
 * sim_lazy_recheck - a model with lazy_ok calls this at the end of every
 * event after which lazy_ok may answer 0 for an event waiting with @c
 * (cheaply: the waiting events' ports may have work); those get queued.
 * A model that misses one finds out loudly: handling that event sends,
 * which is a panic.
 */
static inline void sim_lazy_recheck(sim_comp *c)
{
	if (sim__lazy_waiting(c))
		sim__lazy_recheck(c);
}

/*
 * sim_lazy_queue_port - the cheaper form for a model whose lazy_ok depends
 * on the port alone: lazy_ok now says 0 for every event arriving on @port,
 * so every one waiting there is queued (with its key).
 */
static inline void sim_lazy_queue_port(sim_comp *c, uint16_t port)
{
	if (sim__lazy_waiting(c))
		sim__lazy_queue_port(c, port);
}

/*
 * sim_lazy_early - how much of what lazy_absorb counted on @port for class
 * @mclass has not arrived yet: lazy events are applied at their send, so
 * a count a model with lazy_ok keeps runs ahead of the true one by this
 * (core/sim_lazy.c).  A model reads such a count only through this; since
 * c->lazy_early bounds it for every port and class, a count above
 * c->lazy_early needs no call (cxl_credit_has).  0 with --check-lazy.
 */
static inline uint64_t sim_lazy_early(sim_comp *c, uint16_t port, uint8_t mclass)
{
	return c->lazy_early && sim__lazy_waiting(c) ? sim__lazy_early(c, port, mclass) : 0;
}
void sim_send_port_lazy_seq(sim_comp *c, uint16_t port, sim_time delay, uint16_t kind,
			    uint8_t mclass, uint16_t aux, uint64_t seq);

/*
 * sim_stop_time - the time at and after which no event is executed
 * (simulation.end plus the system's drain): an event a model would send at
 * or after it never runs.
 */
sim_time sim_stop_time(const sim_comp *c);

/*
 * Statistics of this component (register in init; the name is copied).
 * sim_stat_counter_at: a counter whose value is *@where, in the model's
 * zeroed state (kept beside what updates it: one cache line fewer per
 * update than the registry's storage).
 */
uint64_t *sim_stat_counter(sim_comp *c, const char *name);
void sim_stat_counter_at(sim_comp *c, const char *name, uint64_t *where);
stats_hist *sim_stat_hist(sim_comp *c, const char *name);

/**
 * sim_progress_work - the progress line may also count work: *@done (a
 * counter the component keeps, e.g. requests issued) grows to @total by
 * the end.  Rank 0's progress then shows the larger of the time and work
 * fractions (its own components' work only: a hint, never a result).
 * Call in init; @done must live until the run ends.
 */
void sim_progress_work(sim_comp *c, const uint64_t *done, uint64_t total);

/*
 * Time series of this component (series.h), sampled every
 * simulation.sample_period: register in init (the name is copied).  With
 * sampling off (the default) they return NULL, which every series_* call
 * accepts as "do nothing"; sim_series_on() says which, for models that set
 * up more (a handle per port) only when it is on.
 *   sim_series       a series of @kind: SERIES_SUM (series_add), SERIES_MAX
 *                    (series_max), SERIES_TIME (series_span, series_level)
 *   sim_series_hist  the rank's per-period histogram @name, shared by every
 *                    component that asks for it (series_hist_add)
 */
series *sim_series(sim_comp *c, const char *name, enum series_kind kind);
series_hist *sim_series_hist(sim_comp *c, const char *name);
int sim_series_on(const sim_comp *c);

/* sim_ncomp - number of components in the whole system (all ranks). */
uint32_t sim_ncomp(const sim_comp *c);

/*
 * sim_system - the system builder's own read-only description (the fabric:
 * PBR ids, routing tables), identical on every rank; NULL for PHOLD.
 */
const void *sim_system(const sim_comp *c);

/*
 * Debugging hooks (a checker of invariants that span components, such as
 * cache coherence): sim_set_hooks() makes @after_event run after every
 * event this rank executes and @before_finish once after the run, before
 * any finish hook; each gets @c.  One set per rank (a second call is
 * ignored).  sim_state_of() gives the state of component @id if it is on
 * this rank (NULL otherwise): only hooks may read other components' state.
 */
typedef void sim_hook_fn(sim_comp *c);
void sim_set_hooks(sim_comp *c, sim_hook_fn *after_event, sim_hook_fn *before_finish);
void *sim_state_of(const sim_comp *c, uint32_t id);
const model_ops *sim_ops_of(const sim_comp *c, uint32_t id);
const char *sim_name_of(const sim_comp *c, uint32_t id);
int sim_nranks(const sim_comp *c);

/*
 * sim_fail - stop the whole run on bad input found while it runs (a damaged
 * trace): print "cxlfab: error: <message>" on this rank and exit with code
 * 2 on every rank (MPI_Abort); stats.json is not written.  Never returns.
 */
void sim_fail(sim_comp *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * sim_cfg_of - the configuration component @id (any rank's) sees: the
 * config with the overrides that apply to it (cfg_for()).  A model reads
 * its own keys from the cfg its init gets; this is for keys of a
 * neighbour (e.g. a bus asking whether the switch beyond it cuts through).
 */
const cfg *sim_cfg_of(const sim_comp *c, uint32_t id);

#endif
