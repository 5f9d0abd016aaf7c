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
 * changes (a count that only grows).  S may have more events between K_s
 * and K_L; after any one that may turn the answer to no, S's model calls
 * sim_lazy_recheck or sim_lazy_queue_port and the engine queues L, with
 * its own key.  So if L still waits at K_L, handling it there would only
 * have added to the count, and the count is all that differs.
 *
 * Applied at the send.  The engine applies L at once (lazy_absorb, +1) and
 * keeps its key, so S's count runs ahead of the true one by the events
 * applied that have not arrived yet.  S's model reads such a count only
 * through sim_lazy_early (cxl_credit_has for the credit counts): c->lazy_early
 * bounds the lead, so a count above it is known to be above 0 with no look
 * at the keys; only a count at or below it takes in the events that have
 * arrived (key before the event being handled) and subtracts the ones that
 * have not, for that port and class: the true count.  An event queued after
 * all (requeue) is taken back first (lazy_absorb, -1).  An event that has
 * arrived is dropped from the array whenever the engine looks (take): with
 * the last one arrived, all at once.  A checkpoint cut takes back those
 * after it (they are saved as queued events, ckpt_engine.c) and applies
 * them again after the write; the end takes back those after it (pending,
 * like queued ones).
 *
 * Why so.  Absorbing each lazy event just before its receiver's next event
 * needs a test of the receiver's first waiting key at every dispatch, true
 * for 297817 of the ring trace replay's 538504 events (issue 16; its
 * default 1 ms): a branch no predictor learns, then a loop of absorbs.
 * Counted at the send instead, the ring's loop is 13 % faster (core/README.md,
 * "Performance": "Credits counted at their send").
 *
 * --check-lazy (opt.check_lazy) keeps the first way, so that a wrong model
 * fails loudly: events are not applied at the send, the dispatch absorbs
 * them just before their receiver's next event, lazy_ok is asked again
 * there (S's state is then its state at K_L; a 0 means a missed recheck)
 * and a send while absorbing is a panic.  t_lazy.sh runs every system
 * kind both ways against --eager-events.  Results are identical to queuing
 * every event, on any rank count: a lazy send to another rank is an
 * ordinary message, queued where it arrives (t_lazy.sh).
 *
 * What it costs.  A waiting event is not an event: its key and payload
 * (a sim_lazy, 32 bytes, sim.h) sit in its destination's array, sorted by
 * key (most arrive in order: one sender per port, times non-decreasing;
 * the send writes them straight into the next free slot, and an
 * out-of-order one is inserted from the end).  A full array first drops
 * the events that have arrived, then grows.  The event is built from the
 * pool only if it is queued after all (requeue), and written out as one by
 * a checkpoint (sim__lazy_event).  run.events counts queued events only;
 * run.lazy_events counts these, once arrived.
 *
 * The rank profile (profile.h) logs a lazy send with PROF_LAZY on its dst;
 * the flag is cleared if the event is queued later.  Its replay counts a
 * flagged record as an event only where its link is cut (it is then a
 * message, queued at the other end), which is what a P-rank run does.
 */
#include <string.h>

#include "core/sim_int.h"
#include "core/xmalloc.h"

/* retire - @c's first waiting event (applied at its send) has arrived: drop it. */
static inline void retire(sim_engine *e, sim_comp *c)
{
	c->lazy_early -= c->lazy[c->lazy_lo++].aux;
	if (c->lazy_lo == c->lazy_n)
		c->lazy_lo = c->lazy_n = 0;
	e->lazy_events++;
}

/*
 * take - drop every event waiting with @c that has arrived (sim__lazy_due,
 * applied at its send): all at once if the last one has.  Not with
 * --check-lazy (the dispatch absorbs them there).
 */
static void take(sim_engine *e, sim_comp *c)
{
	if (!c->lazy_n || !sim__lazy_applied(e))
		return;
	if (sim__lazy_due(e, c, &c->lazy[c->lazy_n - 1])) {
		sim__lazy_drop_all(e, c);
		return;
	}
	while (sim__lazy_due(e, c, &c->lazy[c->lazy_lo]))
		retire(e, c); /* never the last: it has not arrived */
}

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
	if (to->lazy_n == to->lazy_cap)
		take(e, to); /* those before the sender's event have arrived */
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

uint64_t sim__lazy_early(sim_comp *c, uint16_t port, uint8_t mclass)
{
	uint64_t early = 0;

	take(c->eng, c);
	for (uint32_t i = c->lazy_lo; i < c->lazy_n; i++)
		if (c->lazy[i].port == port && c->lazy[i].mclass == mclass)
			early += c->lazy[i].aux;
	return early;
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
 * handle - --check-lazy: absorb @c's first waiting event (lazy_absorb: no
 * clock, no send), asking lazy_ok again.  Applied events (plain runs) are
 * only dropped (retire).
 */
static void handle(sim_engine *e, sim_comp *c)
{
	const sim_lazy *l = &c->lazy[c->lazy_lo++];

	/* c's state is the one it had at l's key: its model must still let l wait */
	if (!c->ops->lazy_ok(c, c->state, l))
		CXL_PANIC("%s: a lazy event (kind %u, port %u, %llu ps) waited while the port was "
			  "busy: its model missed a sim_lazy_recheck", c->name, l->kind, l->port,
			  (unsigned long long)l->time);
	c->ops->lazy_absorb(c, c->state, l, 1);
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

static inline void absorb_end(sim_engine *e, const sim_comp *c, const struct absorb_mark *m)
{
	e->lazy_in = 0;
	if (evq_size(&e->q) != m->queued || e->remote_out != m->posted ||
	    e->lazy_added != m->kept)
		CXL_PANIC("%s sent while it absorbed a lazy event", c->name);
}

/* --check-lazy: absorb @c's waiting events that order before @next, checked. */
void sim__lazy_before(sim_engine *e, sim_comp *c, const cxl_event *next)
{
	struct absorb_mark m = absorb_begin(e);

	do
		handle(e, c);
	while (c->lazy_n && sim__lazy_before_ev(&c->lazy[c->lazy_lo], next));
	absorb_end(e, c, &m);
}

/* queue - make waiting event @l of @c an ordinary queued event (taken back first). */
static void queue(sim_engine *e, sim_comp *c, const sim_lazy *l)
{
	if (sim__lazy_applied(e))
		sim__lazy_apply(c, l, -1);
	if (e->rec)
		e->rec->r[l->rec].dst &= ~PROF_LAZY;
	cxl_event *ev = evpool_get(&e->pool, CXL_OWN_QUEUE);
	sim__lazy_event(c, l, ev);
	sim__queue(e, ev);
}

/*
 * requeue - queue the events waiting with @c that may wait no longer: on
 * @port if it is below 65536, else those its model's lazy_ok refuses now.
 * Those that have arrived are dropped first: they are not queued in the past.
 */
static void requeue(sim_comp *c, uint32_t port)
{
	sim_engine *e = c->eng;

	if (e->lazy_in) /* absorbing a lazy event changes no answer (lazy_ok's contract) */
		return;
	take(e, c);
	uint32_t keep = c->lazy_lo;
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

/* apply_rest - lazy_absorb every event still waiting with @c with sign @dir (applied runs). */
static void apply_rest(sim_comp *c, int dir)
{
	for (uint32_t i = c->lazy_lo; i < c->lazy_n; i++)
		sim__lazy_apply(c, &c->lazy[i], dir);
}

/*
 * drain - the events waiting with @c before @until have arrived: absorb
 * them (--check-lazy) or drop them (applied), in key order; take back the
 * later ones (applied: a checkpoint saves them as queued events, the end
 * leaves them pending).
 */
static void drain(sim_engine *e, sim_comp *c, sim_time until)
{
	struct absorb_mark m = absorb_begin(e);

	while (c->lazy_n && c->lazy[c->lazy_lo].time < until) {
		sim_time t = c->lazy[c->lazy_lo].time;
		if (sim__lazy_applied(e))
			retire(e, c);
		else
			handle(e, c);
		if (t > e->last_time)
			e->last_time = t;
	}
	if (sim__lazy_applied(e))
		apply_rest(c, -1);
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

void sim__lazy_resume(sim_engine *e)
{
	if (!sim__lazy_applied(e))
		return;
	for (uint32_t n = 0; n < e->nlocal; n++)
		apply_rest(&e->comps[n], 1);
}

void sim__lazy_finish(sim_engine *e, sim_time until)
{
	sim__lazy_settle(e, until);
	for (uint32_t n = 0; n < e->nlocal; n++) {
		sim_comp *c = &e->comps[n];
		c->lazy_lo = c->lazy_n = 0; /* pending at the end, like queued ones */
	}
}

/* the earliest waiting event still on its way (not due before the last event handled) */
sim_time sim__lazy_min(const sim_engine *e)
{
	sim_time t = SIM_TIME_MAX;

	for (uint32_t n = 0; n < e->nlocal; n++) {
		const sim_comp *c = &e->comps[n];
		uint32_t i = c->lazy_lo;
		while (i < c->lazy_n && sim__lazy_due(e, c, &c->lazy[i]))
			i++;
		if (i < c->lazy_n && c->lazy[i].time < t)
			t = c->lazy[i].time;
	}
	return t;
}
