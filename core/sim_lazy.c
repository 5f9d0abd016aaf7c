/*
 * core/sim_lazy.c - lazy events: events that wait with their destination
 * instead of in the queue (sim.h, sim_send_port_lazy; core/README.md,
 * "Lazy events").  The models send their per-packet credits this way.
 *
 * Why it is exact.  Take a lazy event L for component S with key K_L
 * (time, S, src, seq), sent at key K_s < K_L.  Every one of S's events
 * before K_s has run, so S's model answers lazy_ok(L) from the state S has
 * after its last event before K_s.  Yes means: handling L at K_L from that
 * state would send nothing and change nothing but what lazy_absorb
 * changes (a credit count).  S may have more events between K_s and K_L;
 * after any one that may turn the answer to no, S's model calls
 * sim_lazy_recheck or sim_lazy_queue_port and the engine queues L, with
 * its own key.  So if L still waits at K_L, S's state then is the one it
 * had after its last event before K_L, and absorbing L at any point before
 * S's next event has the same effect as handling it at K_L: the engine
 * absorbs it just before that event (sim__lazy_before: every waiting event
 * whose key orders before it), or at the end of the run
 * (sim__lazy_finish), or at a checkpoint cut (sim__lazy_settle; the later
 * ones keep waiting, and the checkpoint saves them as queued events,
 * ckpt_engine.c).  They are never queued there: the run may be in its
 * last stretch, where only credits are left, and the loop has decided
 * from the queue alone whether to go on.  Other components see no difference: absorbing
 * sends nothing and models read only their own state.  Both halves of the
 * contract are checked where it is cheap, so a wrong model fails loudly,
 * never silently: lazy_ok is asked again at the absorb (the state then is
 * the state at K_L; a 0 means a recheck was missed), and a send while
 * absorbing is a panic.  Results
 * are therefore identical to queuing every event (--eager-events), on any
 * rank count: a lazy send to another rank is an ordinary message, queued
 * where it arrives (t_lazy.sh).
 *
 * What it costs.  A waiting event sits in its destination's array, sorted
 * by key (most arrive in order: one sender per port, times non-decreasing;
 * an out-of-order one is inserted from the end).  The dispatch loop tests
 * one count per event; a lazy event costs an array slot and an absorb
 * (a credit count) instead of a queue push, a pop and a handler.  It stays
 * alive until its destination's next event, so more events are alive at
 * once (models/fabric/fab_estimate.c).  run.events counts queued events
 * only; run.lazy_events counts these.
 *
 * The rank profile (profile.h) logs a lazy send with PROF_LAZY on its dst;
 * the flag is cleared if the event is queued later.  Its replay counts a
 * flagged record as an event only where its link is cut (it is then a
 * message, queued at the other end), which is what a P-rank run does.
 */
#include <string.h>

#include "core/sim_int.h"
#include "core/xmalloc.h"

void sim__lazy_add(sim_engine *e, sim_comp *to, cxl_event *ev)
{
	size_t rec = 0;

	if (e->rec) {
		rec = e->rec->n;
		prof_log_add(e->rec, ev->time, e->window_end ? e->now : PROF_SENT_INIT,
			     ev->dst | PROF_LAZY, ev->src);
	}
	if (sim__lazy_push(e, to, ev, rec))
		return;
	ev->owner = CXL_OWN_LAZY;
	e->lazy_added++;
	if (to->lazy_n == to->lazy_cap) {
		if (to->lazy_lo) { /* slide the live part down */
			memmove(to->lazy, to->lazy + to->lazy_lo,
				(to->lazy_n - to->lazy_lo) * sizeof(*to->lazy));
			to->lazy_n -= to->lazy_lo;
			to->lazy_lo = 0;
		} else {
			to->lazy_cap = to->lazy_cap ? 2 * to->lazy_cap : 8;
			to->lazy = xrealloc(to->lazy, to->lazy_cap * sizeof(*to->lazy));
		}
	}
	uint32_t i = to->lazy_n++;
	while (i > to->lazy_lo && sim__lazy_lt(ev, to->lazy[i - 1].ev)) {
		to->lazy[i] = to->lazy[i - 1];
		i--;
	}
	to->lazy[i] = (struct sim_lazy){ ev, rec };
}

/* handle - absorb @c's first waiting event (lazy_absorb: no clock, no send). */
static inline __attribute__((always_inline)) void handle(sim_engine *e, sim_comp *c)
{
	cxl_event *ev = c->lazy[c->lazy_lo++].ev;

	if (c->lazy_lo == c->lazy_n)
		c->lazy_lo = c->lazy_n = 0;
	/* c's state is the one it had at ev's key: its model must still let ev wait */
	if (!c->ops->lazy_ok(c, c->state, ev))
		CXL_PANIC("%s: a lazy event (kind %u, port %u, %llu ps) waited while the port was "
			  "busy: its model missed a sim_lazy_recheck", c->name, ev->kind, ev->dst_port,
			  (unsigned long long)ev->time);
	c->ops->lazy_absorb(c, c->state, ev);
	evpool_put(&e->pool, ev);
	e->lazy_events++;
}

/*
 * The send check of an absorb: absorbing changes a count and sends nothing
 * (requeue is off meanwhile), so the rank's send counters must not move.
 * Compared once per run of absorbs, not per event.
 */
struct absorb_mark {
	size_t queued;   /* evq_size() */
	uint64_t posted; /* remote_out */
	uint64_t kept;   /* lazy_added */
};

static inline struct absorb_mark absorb_begin(sim_engine *e)
{
	e->lazy_in = 1;
	return (struct absorb_mark){ evq_size(&e->q), e->remote_out, e->lazy_added };
}

static inline void absorb_end(sim_engine *e, const sim_comp *c, const struct absorb_mark *m)
{
	e->lazy_in = 0;
	if (evq_size(&e->q) != m->queued || e->remote_out != m->posted || e->lazy_added != m->kept)
		CXL_PANIC("%s sent while it absorbed a lazy event", c->name);
}

void sim__lazy_before(sim_engine *e, sim_comp *c, const cxl_event *next)
{
	struct absorb_mark m = absorb_begin(e);

	do
		handle(e, c);
	while (c->lazy_n && sim__lazy_lt(c->lazy[c->lazy_lo].ev, next));
	absorb_end(e, c, &m);
}

/* queue - make waiting event @k of @c an ordinary queued event. */
static void queue(sim_engine *e, const struct sim_lazy *k)
{
	if (e->rec)
		e->rec->r[k->rec].dst &= ~PROF_LAZY;
	sim__queue(e, k->ev);
}

/*
 * requeue - queue the events waiting with @c that may wait no longer: on
 * @port if it is below 65536, else those its model's lazy_ok refuses now.
 */
static void requeue(sim_comp *c, uint32_t port)
{
	sim_engine *e = c->eng;
	uint32_t keep = c->lazy_lo;

	if (e->lazy_in) /* absorbing a lazy event changes no answer (lazy_ok's contract) */
		return;
	for (uint32_t i = c->lazy_lo; i < c->lazy_n; i++) {
		struct sim_lazy k = c->lazy[i];
		if (port <= UINT16_MAX ? k.ev->dst_port != port : c->ops->lazy_ok(c, c->state, k.ev))
			c->lazy[keep++] = k;
		else
			queue(e, &k);
	}
	c->lazy_n = keep;
	if (c->lazy_lo == c->lazy_n)
		c->lazy_lo = c->lazy_n = 0;
}

void sim__lazy_recheck(sim_comp *c)
{
	requeue(c, UINT32_MAX);
}

void sim__lazy_queue_port(sim_comp *c, uint16_t port)
{
	requeue(c, port);
}

/* drain - handle every waiting event of @c before @until, in key order. */
static void drain(sim_engine *e, sim_comp *c, sim_time until)
{
	struct absorb_mark m = absorb_begin(e);

	while (c->lazy_n && c->lazy[c->lazy_lo].ev->time < until) {
		sim_time t = c->lazy[c->lazy_lo].ev->time;
		handle(e, c);
		if (t > e->last_time)
			e->last_time = t;
	}
	absorb_end(e, c, &m);
}

void sim__lazy_settle(sim_engine *e, sim_time until)
{
	/* the later ones stay: sim_engine_save writes them as queued */
	for (uint32_t n = 0; n < e->nlocal; n++)
		drain(e, &e->comps[n], until);
	if (e->last_time > e->now)
		e->now = e->last_time; /* the last event's time, as queued */
}

void sim__lazy_finish(sim_engine *e, sim_time until)
{
	sim__lazy_settle(e, until);
	for (uint32_t n = 0; n < e->nlocal; n++) {
		sim_comp *c = &e->comps[n];
		for (uint32_t i = c->lazy_lo; i < c->lazy_n; i++)
			evpool_put(&e->pool, c->lazy[i].ev); /* pending at the end, like queued ones */
		c->lazy_lo = c->lazy_n = 0;
	}
}

sim_time sim__lazy_min(const sim_engine *e)
{
	sim_time t = SIM_TIME_MAX;

	for (uint32_t n = 0; n < e->nlocal; n++) {
		const sim_comp *c = &e->comps[n];
		if (c->lazy_n && c->lazy[c->lazy_lo].ev->time < t)
			t = c->lazy[c->lazy_lo].ev->time;
	}
	return t;
}
