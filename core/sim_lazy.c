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
 * contract are checked with --check-lazy (opt.check_lazy), so a wrong model
 * fails loudly: lazy_ok is asked again at the absorb (the state then is
 * the state at K_L; a 0 means a recheck was missed), and a send while
 * absorbing is a panic.  The checks cost 3.8 % of the ring trace replay's
 * loop, so a plain run skips them; t_lazy.sh runs every system kind with
 * them, and --eager-events gives the reference results.  Results
 * are therefore identical to queuing every event (--eager-events), on any
 * rank count: a lazy send to another rank is an ordinary message, queued
 * where it arrives (t_lazy.sh).
 *
 * What it costs.  A waiting event is not an event: its key and payload
 * (a sim_lazy, 32 bytes, sim.h) sit in its destination's array, sorted by
 * key (most arrive in order: one sender per port, times non-decreasing;
 * the send writes them straight into the next free slot, and an
 * out-of-order one is inserted from the end).  The event is built from the
 * pool only if it is queued after all (requeue), and written out as one
 * by a checkpoint (sim__lazy_event).  The dispatch loop tests one count
 * per event; a lazy event costs an array slot and an absorb (a credit
 * count) instead of a pool event, a queue push, a pop and a handler.  It
 * stays until its destination's next event, so many wait at once (on
 * rack-4096 more than the queued events; models/fabric/fab_estimate.c),
 * a third of the memory they took as events.  run.events counts queued
 * events only; run.lazy_events counts these.
 *
 * The rank profile (profile.h) logs a lazy send with PROF_LAZY on its dst;
 * the flag is cleared if the event is queued later.  Its replay counts a
 * flagged record as an event only where its link is cut (it is then a
 * message, queued at the other end), which is what a P-rank run does.
 */
#include <string.h>

#include "core/sim_int.h"
#include "core/xmalloc.h"

void sim__lazy_add(sim_engine *e, sim_comp *to, sim_lazy *l)
{
	if (e->rec) {
		CXL_ASSERT(e->rec->n <= UINT32_MAX);
		l->rec = (uint32_t)e->rec->n;
		prof_log_add(e->rec, l->time, e->window_end ? e->now : PROF_SENT_INIT,
			     to->id | PROF_LAZY, l->src);
	}
	if (sim__lazy_push(e, to, l))
		return;
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
	while (i > to->lazy_lo && sim__lazy_lt(l, &to->lazy[i - 1])) {
		to->lazy[i] = to->lazy[i - 1];
		i--;
	}
	to->lazy[i] = *l;
}

void sim__lazy_event(const sim_comp *to, const sim_lazy *l, cxl_event *ev)
{
	ev->time = l->time;
	ev->seq = l->seq;
	ev->dst = to->id;
	ev->src = l->src;
	ev->dst_port = l->port;
	ev->kind = l->kind;
	ev->pkt.mclass = l->mclass;
	ev->pkt.aux = l->aux;
}

/*
 * handle - absorb @c's first waiting event (lazy_absorb: no clock, no send);
 * @check (--check-lazy, a constant where it is inlined): ask lazy_ok again.
 */
static inline __attribute__((always_inline)) void handle(sim_engine *e, sim_comp *c, int check)
{
	const sim_lazy *l = &c->lazy[c->lazy_lo++];

	/* c's state is the one it had at l's key: its model must still let l wait */
	if (check && !c->ops->lazy_ok(c, c->state, l))
		CXL_PANIC("%s: a lazy event (kind %u, port %u, %llu ps) waited while the port was "
			  "busy: its model missed a sim_lazy_recheck", c->name, l->kind, l->port,
			  (unsigned long long)l->time);
	c->ops->lazy_absorb(c, c->state, l);
	if (c->lazy_lo == c->lazy_n)
		c->lazy_lo = c->lazy_n = 0;
	e->lazy_events++;
}

/*
 * The send check of an absorb (--check-lazy): absorbing changes a count and
 * sends nothing (requeue is off meanwhile), so the rank's send counters must
 * not move.  Compared once per run of absorbs, not per event.
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

static inline void absorb_end(sim_engine *e, const sim_comp *c, const struct absorb_mark *m,
			      int check)
{
	e->lazy_in = 0;
	if (check && (evq_size(&e->q) != m->queued || e->remote_out != m->posted ||
		      e->lazy_added != m->kept))
		CXL_PANIC("%s sent while it absorbed a lazy event", c->name);
}

/* absorb_before - sim__lazy_before, checked if @check (a constant: two copies) */
static inline __attribute__((always_inline)) void absorb_before(sim_engine *e, sim_comp *c,
								const cxl_event *next, int check)
{
	struct absorb_mark m = absorb_begin(e);

	do
		handle(e, c, check);
	while (c->lazy_n && sim__lazy_before_ev(&c->lazy[c->lazy_lo], next));
	absorb_end(e, c, &m, check);
}

/* noinline: the unchecked path then saves fewer registers */
static __attribute__((noinline)) void absorb_before_checked(sim_engine *e, sim_comp *c,
							    const cxl_event *next)
{
	absorb_before(e, c, next, 1);
}

/*
 * The checks cost the ring trace replay 3.8 % of its loop instructions (450.8
 * -> 433.7 M at its default 1 ms), so they run with --check-lazy only
 * (t_lazy.sh runs every system kind with it).
 */
void sim__lazy_before(sim_engine *e, sim_comp *c, const cxl_event *next)
{
	if (e->opt.check_lazy)
		absorb_before_checked(e, c, next);
	else
		absorb_before(e, c, next, 0);
}

/* queue - make waiting event @l of @c an ordinary queued event. */
static void queue(sim_engine *e, const sim_comp *c, const sim_lazy *l)
{
	if (e->rec)
		e->rec->r[l->rec].dst &= ~PROF_LAZY;
	cxl_event *ev = evpool_get(&e->pool, CXL_OWN_QUEUE);
	sim__lazy_event(c, l, ev);
	sim__queue(e, ev);
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
		const sim_lazy *l = &c->lazy[i];
		if (port <= UINT16_MAX ? l->port != port : c->ops->lazy_ok(c, c->state, l))
			c->lazy[keep++] = *l;
		else
			queue(e, c, l);
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

	while (c->lazy_n && c->lazy[c->lazy_lo].time < until) {
		sim_time t = c->lazy[c->lazy_lo].time;
		handle(e, c, e->opt.check_lazy);
		if (t > e->last_time)
			e->last_time = t;
	}
	absorb_end(e, c, &m, e->opt.check_lazy);
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
		c->lazy_lo = c->lazy_n = 0; /* pending at the end, like queued ones */
	}
}

sim_time sim__lazy_min(const sim_engine *e)
{
	sim_time t = SIM_TIME_MAX;

	for (uint32_t n = 0; n < e->nlocal; n++) {
		const sim_comp *c = &e->comps[n];
		if (c->lazy_n && c->lazy[c->lazy_lo].time < t)
			t = c->lazy[c->lazy_lo].time;
	}
	return t;
}
