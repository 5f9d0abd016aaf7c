/*
 * core/sim.c - the engine's local half: instantiating this rank's
 * components, the model API (sends, event ownership, statistics), and the
 * dispatch loop that executes events in key order (see sim.h, engine.h).
 *
 * Invariants: an event in the queue has owner QUEUE and time >= now; an
 * event sent to another rank has time >= window_end (guaranteed by the
 * lookahead; checked); the handler's event is freed after the handler
 * unless it was re-sent or kept.
 */
#include "core/sim_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xmalloc.h"

double sim__wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- set-up ------------------------------------------------------------- */

/* Port tables of local components: one CSR array, filled from the links. */
static void build_ports(sim_engine *e)
{
	const sim_graph *g = e->g;
	uint32_t *np = xcalloc(g->ncomp ? g->ncomp : 1, sizeof(*np));
	size_t *first = xcalloc(g->ncomp ? g->ncomp : 1, sizeof(*first));
	size_t total = 0;

	for (uint32_t i = 0; i < g->nlink; i++) {
		const graph_link *l = &g->link[i];
		if (np[l->a] < (uint32_t)l->aport + 1u)
			np[l->a] = (uint32_t)l->aport + 1u;
		if (np[l->b] < (uint32_t)l->bport + 1u)
			np[l->b] = (uint32_t)l->bport + 1u;
	}
	for (uint32_t k = 0; k < e->nlocal; k++) {
		first[e->comps[k].id] = total;
		total += np[e->comps[k].id];
	}
	e->ports = xcalloc(total ? total : 1, sizeof(*e->ports));
	for (uint32_t i = 0; i < g->nlink; i++) {
		const graph_link *l = &g->link[i];
		if (e->local[l->a])
			e->ports[first[l->a] + l->aport] = (sim_port){ l->b, l->bport, l->latency };
		if (e->local[l->b])
			e->ports[first[l->b] + l->bport] = (sim_port){ l->a, l->aport, l->latency };
	}
	for (uint32_t k = 0; k < e->nlocal; k++) {
		sim_comp *c = &e->comps[k];
		c->ports = e->ports + first[c->id];
		c->nports = np[c->id];
	}
	free(first);
	free(np);
}

static uint8_t *neighbours(const sim_engine *e)
{
	uint8_t *nb = xcalloc((size_t)e->nranks, 1);
	const sim_graph *g = e->g;

	if (g->global_lookahead) {
		memset(nb, 1, (size_t)e->nranks);
		return nb;
	}
	for (uint32_t i = 0; i < g->nlink; i++) {
		int ra = e->rank_of[g->link[i].a], rb = e->rank_of[g->link[i].b];
		if (ra == e->rank && rb != ra)
			nb[rb] = 1;
		if (rb == e->rank && ra != rb)
			nb[ra] = 1;
	}
	return nb;
}

static void compute_lookahead(sim_engine *e)
{
	e->lookahead = graph_lookahead(e->g, e->rank_of, e->nranks, &e->edge_cut);
}

/* States of local components sit in one block, in id order, 64-byte aligned. */
static size_t state_stride(const model_ops *ops)
{
	return (ops->state_size + 63) & ~(size_t)63;
}

static size_t state_bytes(const sim_engine *e)
{
	size_t n = 0;

	for (uint32_t i = 0; i < e->g->ncomp; i++)
		if (e->rank_of[i] == e->rank)
			n += state_stride(e->g->comp[i].ops);
	return n;
}

sim_engine *sim_engine_create(const sim_graph *g, const int32_t *rank_of,
			      const cfg *cf, const sim_opts *o, cxl_err *err)
{
	for (uint32_t i = 0; i < g->nlink; i++) {
		if (g->link[i].latency == 0) {
			cxl_err_set(err, CXL_EINVAL,
				    "link %s-%s has latency 0 (a link latency is > 0; it is the lookahead)",
				    g->comp[g->link[i].a].name, g->comp[g->link[i].b].name);
			return NULL;
		}
	}
	sim_engine *e = xcalloc(1, sizeof(*e));
	e->rank = o->rank;
	e->nranks = o->nranks;
	e->g = g;
	e->rank_of = rank_of;
	e->cf = cf;
	e->opt = *o;
	e->sent_min = SIM_TIME_MAX;
	evq_init(&e->q);
	evpool_init(&e->pool);
	stats_set_init(&e->stats);
	series_set_init(&e->series, o->sample_period);
	e->stats.owns_names = 1; /* models may build names (per-port statistics) */
	compute_lookahead(e);
	e->local = xcalloc(g->ncomp ? g->ncomp : 1, sizeof(*e->local));
	for (uint32_t i = 0; i < g->ncomp; i++)
		e->nlocal += rank_of[i] == o->rank;
	/* on cache lines: sim_comp is 64-aligned, and a large calloc is 16 mod 64
	   (every 64-byte state straddled two lines) */
	e->comps = xcalloc_lines(e->nlocal, sizeof(*e->comps));
	e->states = xcalloc_lines(1, state_bytes(e));
	char *st = e->states;
	for (uint32_t i = 0, k = 0; i < g->ncomp; i++) {
		if (rank_of[i] != o->rank)
			continue;
		sim_comp *c = &e->comps[k++];
		c->id = i;
		c->ops = g->comp[i].ops;
		c->eng = e;
		c->clock = &e->now;
		c->name = g->comp[i].name;
		c->state = st;
		st += state_stride(c->ops);
		rng_seed(&c->rng, o->seed, i);
		c->stats_index = stats_comp_add(&e->stats, i);
		e->local[i] = c;
	}
	build_ports(e);
	if (e->nranks > 1) {
		uint8_t *nb = neighbours(e);
		e->xp = xport_create(e->rank, e->nranks, nb);
		free(nb);
	}
	return e;
}

/*
 * The finish hooks of the first @n local components: after a failed init,
 * the components that did initialise release what their init took (the
 * one that failed cleans up after itself).
 */
static void finish_first(sim_engine *e, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		sim_comp *c = &e->comps[k];
		if (c->ops->finish)
			c->ops->finish(c, c->state);
	}
}

/* Every local component's init hook; the ranks agree on the outcome. */
static int init_models(sim_engine *e, cxl_err *err)
{
	int rc = 0;
	uint32_t k;
	cxl_err local = { 0 };

	e->now = 0;
	for (k = 0; k < e->nlocal && !rc; k++) {
		sim_comp *c = &e->comps[k];
		rc = c->ops->init(c, c->state, sim__comp_cfg(e->cf, &e->g->comp[c->id]), &local);
	}
	uint32_t done = rc ? k - 1 : k; /* components whose init succeeded */
	if (e->nranks > 1) {
		/* the lowest failing rank reports; every rank returns the worst code */
		int bad = xport_max_int(rc ? e->nranks - e->rank : 0);
		if (!bad)
			return 0;
		finish_first(e, done);
		int code = -xport_max_int(-rc);
		if (!rc || e->nranks - e->rank != bad)
			return code;
		cxl_err_set(err, local.code, "%s", local.msg);
		return code;
	}
	if (rc) {
		finish_first(e, done);
		return cxl_err_set(err, local.code, "%s", local.msg);
	}
	return 0;
}

/*
 * The time series registered on every rank must fit SERIES_MAX_CELLS at
 * rank 0 (which merges them all) for any run up to simulation.end: series
 * summed over ranks, aggregates counted once (every rank's have the same
 * names).  Every rank computes the same totals; rank 0 reports.
 */
static int check_series(sim_engine *e, cxl_err *err)
{
	uint64_t ns, nh;
	sim_time period = e->series.period, minp;
	char a[STIME_FMT_LEN], b[STIME_FMT_LEN], m[STIME_FMT_LEN];

	if (!period)
		return 0;
	series_count(&e->series, &ns, &nh);
	if (e->nranks > 1) {
		ns = xport_sum_u64(ns);
		nh = ~xport_min_u64(~nh);
	}
	uint64_t cells = series_cells(period, e->opt.end, ns, nh, &minp);
	if (cells <= SERIES_MAX_CELLS)
		return 0;
	if (e->rank != 0)
		return CXL_EINVAL;
	return cfg_error_at(e->cf, "simulation.sample_period",
			    err, "%s over simulation.end %s: %llu periods x (%llu series + %llu "
			    "latency histograms) would take up to %llu cells, more than %u (%u MB); "
			    "%s%s, or a shorter simulation.end", stime_format(period, a),
			    stime_format(e->opt.end, b),
			    (unsigned long long)(e->opt.end / period + (e->opt.end % period != 0)),
			    (unsigned long long)ns, (unsigned long long)nh, (unsigned long long)cells,
			    SERIES_MAX_CELLS, SERIES_MAX_CELLS * 8u / 1000000u,
			    minp ? "use a sample period of at least " : "too many series even for one period",
			    minp ? stime_format(minp, m) : "");
}

int sim_engine_init(sim_engine *e, cxl_err *err)
{
	int rc = init_models(e, err);

	if (!rc && (rc = check_series(e, err)))
		finish_first(e, e->nlocal);
	return rc;
}

int sim_engine_interrupted(const sim_engine *e)
{
	return e->interrupted;
}

sim_time sim_engine_lookahead(const sim_engine *e)
{
	return e->lookahead;
}

uint64_t sim_engine_edge_cut(const sim_engine *e)
{
	return e->edge_cut;
}

uint64_t sim_engine_events(const sim_engine *e)
{
	return e->events;
}

void sim_engine_record(sim_engine *e, prof_log *log)
{
	e->rec = log;
}

void sim_engine_destroy(sim_engine *e)
{
	if (!e)
		return;
	while (evq_size(&e->q))
		evpool_put(&e->pool, evq_pop(&e->q));
	for (uint32_t k = 0; k < e->nlocal; k++)
		free(e->comps[k].lazy);
	free(e->states);
	xport_destroy(e->xp);
	stats_set_free(&e->stats);
	series_set_free(&e->series);
	evq_destroy(&e->q);
	evpool_destroy(&e->pool);
	free(e->comps);
	free(e->local);
	free(e->ports);
	free(e->work_done);
	free(e);
}

/* --- model API: events and sends --------------------------------------- */

cxl_event *sim_event_new(sim_comp *c)
{
	return evpool_get(&c->eng->pool, CXL_OWN_MODEL);
}

void sim_event_keep(sim_comp *c, cxl_event *ev)
{
	(void)c;
	CXL_ASSERT(ev->owner == CXL_OWN_HANDLER);
	ev->owner = CXL_OWN_MODEL;
}

void sim_event_hold(sim_comp *c, cxl_event *ev)
{
	(void)c;
	CXL_ASSERT(ev->owner == CXL_OWN_HANDLER || ev->owner == CXL_OWN_MODEL);
	ev->owner = CXL_OWN_MODEL;
}

void sim_event_free(sim_comp *c, cxl_event *ev)
{
	CXL_ASSERT(ev->owner == CXL_OWN_MODEL || ev->owner == CXL_OWN_HANDLER);
	evpool_put(&c->eng->pool, ev);
}

/* log_send - the rank profile's record of @ev's send (--profile-ranks). */
__attribute__((noinline)) static void log_send(sim_engine *e, const cxl_event *ev)
{
	/* window_end is 0 only before the first window */
	prof_log_add(e->rec, ev->time, e->window_end ? e->now : PROF_SENT_INIT, ev->dst, ev->src);
}

/* post_remote - hand @ev (addressed to rank @r) to the transport and free it. */
__attribute__((noinline)) static void post_remote(sim_comp *c, cxl_event *ev, int32_t r)
{
	sim_engine *e = c->eng;

	if (ev->time < e->window_end)
		CXL_PANIC("%s sends to %s on rank %d at %llu ps, inside the window ending %llu ps (lookahead violated)",
			  c->name, e->g->comp[ev->dst].name, r, (unsigned long long)ev->time,
			  (unsigned long long)e->window_end);
	xport_post(e->xp, r, ev);
	e->remote_out++;
	if (ev->time < e->sent_min)
		e->sent_min = ev->time;
	evpool_put(&e->pool, ev);
}

/* queue_local - @ev (for a component of this rank) into the pending-event set. */
static inline void queue_local(sim_engine *e, cxl_event *ev)
{
	ev->owner = CXL_OWN_QUEUE;
	evq_push(&e->q, ev);
}

void sim__queue(sim_engine *e, cxl_event *ev)
{
	queue_local(e, ev);
}

/*
 * send_slow - the rest of a send under the rank profile or to another rank:
 * log it, then the transport or the local queue.
 */
__attribute__((noinline)) static void send_slow(sim_comp *c, cxl_event *ev)
{
	sim_engine *e = c->eng;

	if (e->rec)
		log_send(e, ev);
	int32_t r = e->rank_of[ev->dst];
	if (r != e->rank) {
		post_remote(c, ev, r);
		return;
	}
	queue_local(e, ev);
}

/*
 * The one path of every send: the key, then the local queue or the
 * transport.  Inline into each sim_send_*; the rank profile and remote
 * sends are out of line in one call (send_slow), so a local send makes no
 * call but the tail call to evq_push and saves no registers.
 */
/* send_time - now + @delay, the delivery time of a send by @c (a panic if it would overflow) */
static inline sim_time send_time(const sim_comp *c, sim_time delay)
{
	const sim_engine *e = c->eng;

	if (delay > SIM_TIME_MAX - 1 - e->now)
		CXL_PANIC("%s sends with delay %llu ps: the time would overflow", c->name,
			  (unsigned long long)delay);
	return e->now + delay;
}

static inline void set_key(sim_comp *c, cxl_event *ev, uint32_t dst, sim_time delay,
			   uint64_t seq)
{
	if (ev->owner != CXL_OWN_HANDLER && ev->owner != CXL_OWN_MODEL)
		CXL_PANIC("%s sends an event it does not own (owner %d)", c->name, ev->owner);
	ev->time = send_time(c, delay);
	ev->dst = dst;
	ev->src = c->id;
	ev->seq = seq;
}

static inline void enqueue_seq(sim_comp *c, cxl_event *ev, uint32_t dst, sim_time delay,
			       uint64_t seq)
{
	sim_engine *e = c->eng;

	set_key(c, ev, dst, delay, seq);
	if (e->rec || (e->xp && e->rank_of[dst] != e->rank)) { /* one rank: no look-up */
		send_slow(c, ev);
		return;
	}
	queue_local(e, ev);
}

static inline void enqueue(sim_comp *c, cxl_event *ev, uint32_t dst, sim_time delay)
{
	enqueue_seq(c, ev, dst, delay, c->send_seq++);
}

/* port_link - @c's @port, checked; @delay plus its link's latency in *@d. */
static inline __attribute__((always_inline)) const sim_port *port_link(const sim_comp *c,
									uint16_t port,
									sim_time delay,
									sim_time *d)
{
	if (port >= c->nports)
		CXL_PANIC("%s sends on port %u, it has %u", c->name, port, c->nports);
	const sim_port *p = &c->ports[port];
	if (!p->latency)
		CXL_PANIC("%s sends on port %u, which no link connects", c->name, port);
	if (__builtin_add_overflow(delay, p->latency, d))
		CXL_PANIC("%s sends on port %u with delay %llu ps + link latency %llu ps: the time "
			  "would overflow", c->name, port, (unsigned long long)delay,
			  (unsigned long long)p->latency);
	return p;
}

/* port_delay - @delay plus the latency of @port's link; sets ev->dst_port. */
static inline __attribute__((always_inline)) sim_time port_delay(sim_comp *c, cxl_event *ev,
								   uint16_t port, sim_time delay)
{
	sim_time d;

	ev->dst_port = port_link(c, port, delay, &d)->peer_port;
	return d;
}

void sim_send_port(sim_comp *c, cxl_event *ev, uint16_t port, sim_time delay)
{
	sim_time d = port_delay(c, ev, port, delay);

	enqueue(c, ev, c->ports[port].peer, d);
}

void sim_send_port_seq(sim_comp *c, cxl_event *ev, uint16_t port, sim_time delay, uint64_t seq)
{
	sim_time d = port_delay(c, ev, port, delay);

	enqueue_seq(c, ev, c->ports[port].peer, d, seq);
}

/*
 * send_lazy - a lazy send (sim.h): kept with the peer, as a sim_lazy, if it
 * is on this rank and its model lets the event wait; else built as an
 * event, queued or posted.
 */
/* always_inline: a call from each of its two wrappers cost the ring 0.6 % of its loop */
static inline __attribute__((always_inline)) void send_lazy(sim_comp *c, uint16_t port,
							    sim_time delay, uint64_t seq,
							    uint16_t kind, uint8_t mclass,
							    uint16_t aux)
{
	sim_engine *e = c->eng;
	sim_time d;
	const sim_port *p = port_link(c, port, delay, &d);
	sim_comp *to = e->local[p->peer];

	if (to && to->ops->lazy_ok && !e->opt.eager) {
		sim__lazy_drop(e, to);
		/* written where it will most likely stay: the slot after the last one */
		sim_lazy tmp, *l = to->lazy_n < to->lazy_cap ? &to->lazy[to->lazy_n] : &tmp;
		*l = (sim_lazy){ .time = send_time(c, d), .seq = seq, .src = c->id,
				 .port = p->peer_port, .kind = kind, .aux = aux, .mclass = mclass };
		if (to->ops->lazy_ok(to, to->state, l)) {
			if (e->rec || !sim__lazy_push(e, to, l)) {
				tmp = *l;
				sim__lazy_add(e, to, &tmp);
				l = &tmp;
			}
			/* applied now, once kept (sim__lazy_add may drop those arrived) */
			if (sim__lazy_applied(e))
				sim__lazy_apply(to, l, 1);
			return;
		}
	}
	cxl_event *ev = evpool_get(&e->pool, CXL_OWN_MODEL);
	ev->kind = kind;
	ev->pkt.mclass = mclass;
	ev->pkt.aux = aux;
	ev->dst_port = p->peer_port;
	enqueue_seq(c, ev, p->peer, d, seq);
}

void sim_send_port_lazy(sim_comp *c, uint16_t port, sim_time delay, uint16_t kind,
			uint8_t mclass, uint16_t aux)
{
	send_lazy(c, port, delay, c->send_seq++, kind, mclass, aux);
}

void sim_send_port_lazy_seq(sim_comp *c, uint16_t port, sim_time delay, uint16_t kind,
			    uint8_t mclass, uint16_t aux, uint64_t seq)
{
	send_lazy(c, port, delay, seq, kind, mclass, aux);
}

sim_time sim_stop_time(const sim_comp *c)
{
	return stime_add_sat(c->eng->opt.end, c->eng->opt.drain);
}

void sim_send_self(sim_comp *c, cxl_event *ev, sim_time delay)
{
	enqueue(c, ev, c->id, delay);
}

void sim_send_global(sim_comp *c, cxl_event *ev, uint32_t dst, sim_time delay)
{
	const sim_graph *g = c->eng->g;

	if (!g->global_lookahead)
		CXL_PANIC("%s: global send, but the system declares no global lookahead", c->name);
	if (delay < g->global_lookahead)
		CXL_PANIC("%s: global send with delay %llu ps below the declared global lookahead %llu ps",
			  c->name, (unsigned long long)delay,
			  (unsigned long long)g->global_lookahead);
	if (dst >= g->ncomp)
		CXL_PANIC("%s: global send to component %u of %u", c->name, dst, g->ncomp);
	enqueue(c, ev, dst, delay);
}

uint64_t *sim_stat_counter(sim_comp *c, const char *name)
{
	return stats_counter(&c->eng->stats, c->stats_index, name);
}

void sim_stat_counter_at(sim_comp *c, const char *name, uint64_t *where)
{
	stats_counter_at(&c->eng->stats, c->stats_index, name, where);
}

stats_hist *sim_stat_hist(sim_comp *c, const char *name)
{
	return stats_histogram(&c->eng->stats, c->stats_index, name);
}

void sim_progress_work(sim_comp *c, const uint64_t *done, uint64_t total)
{
	sim_engine *e = c->eng;

	if (e->nwork == e->cap_work) {
		e->cap_work = e->cap_work ? 2 * e->cap_work : 16;
		e->work_done = xrealloc(e->work_done, e->cap_work * sizeof(*e->work_done));
	}
	e->work_done[e->nwork++] = done;
	e->work_total += total;
}

/**
 * sim_series - register series @name (copied) of @kind for @c (in init);
 * NULL when sampling is off.  Panics on a name registered twice.
 */
series *sim_series(sim_comp *c, const char *name, enum series_kind kind)
{
	series_set *s = &c->eng->series;

	return s->period ? series_new(s, c->id, name, kind) : NULL;
}

/* sim_series_hist - the rank's aggregate @name (shared); NULL when sampling is off. */
series_hist *sim_series_hist(sim_comp *c, const char *name)
{
	series_set *s = &c->eng->series;

	return s->period ? series_hist_get(s, name) : NULL;
}

/* sim_series_on - 1 if simulation.sample_period > 0. */
int sim_series_on(const sim_comp *c)
{
	return c->eng->series.period != 0;
}

uint32_t sim_ncomp(const sim_comp *c)
{
	return c->eng->g->ncomp;
}

const void *sim_system(const sim_comp *c)
{
	return c->eng->opt.system;
}

/*
 * The name overrides match for component @gc: its name, up to a ':' if
 * there is one ("leaf0:2", a slice of switch leaf0, is configured as leaf0).
 */
static const char *override_name(const graph_comp *gc, char *buf, size_t n)
{
	const char *colon = strchr(gc->name, ':');

	if (!colon)
		return gc->name;
	snprintf(buf, n, "%.*s", (int)(colon - gc->name), gc->name);
	return buf;
}

/* sim__comp_cfg - the configuration component @gc sees (also core/memest.c). */
const cfg *sim__comp_cfg(const cfg *cf, const graph_comp *gc)
{
	char buf[256];

	return cfg_for(cf, override_name(gc, buf, sizeof(buf)), gc->ops->cfg_groups);
}

int sim_override_applies(const cfg *cf, size_t i, const graph_comp *gc)
{
	char buf[256];

	return cfg_override_applies(cf, i, override_name(gc, buf, sizeof(buf)),
				    gc->ops->cfg_groups);
}

void sim_set_hooks(sim_comp *c, sim_hook_fn *after_event, sim_hook_fn *before_finish)
{
	sim_engine *e = c->eng;

	if (e->hook_comp)
		return;
	e->hook_comp = c;
	e->after_event = after_event;
	e->before_finish = before_finish;
}

void *sim_state_of(const sim_comp *c, uint32_t id)
{
	const sim_engine *e = c->eng;

	return id < e->g->ncomp && e->local[id] ? e->local[id]->state : NULL;
}

const model_ops *sim_ops_of(const sim_comp *c, uint32_t id)
{
	CXL_ASSERT(id < c->eng->g->ncomp);
	return c->eng->g->comp[id].ops;
}

const char *sim_name_of(const sim_comp *c, uint32_t id)
{
	CXL_ASSERT(id < c->eng->g->ncomp);
	return c->eng->g->comp[id].name;
}

int sim_nranks(const sim_comp *c)
{
	return c->eng->nranks;
}

void sim_fail(sim_comp *c, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("cxlfab: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	if (c->eng->nranks > 1)
		xport_abort(2);
	exit(2);
}

const cfg *sim_cfg_of(const sim_comp *c, uint32_t id)
{
	const sim_graph *g = c->eng->g;

	CXL_ASSERT(id < g->ncomp);
	return sim__comp_cfg(c->eng->cf, &g->comp[id]);
}

int sim_check_overrides(const sim_graph *g, const cfg *cf, cxl_err *err)
{
	for (size_t i = 0; i < cfg_overrides(cf); i++) {
		uint32_t k = 0;
		while (k < g->ncomp && !sim_override_applies(cf, i, &g->comp[k]))
			k++;
		if (k < g->ncomp)
			continue;
		enum { MAX_TYPES = 16 };
		const model_ops *seen[MAX_TYPES];
		int nseen = 0;
		char types[256] = "";
		size_t len = 0;
		for (uint32_t j = 0; j < g->ncomp && len < sizeof(types) - 1; j++) {
			const model_ops *o = g->comp[j].ops;
			int s = 0;
			while (s < nseen && seen[s] != o)
				s++;
			if (!o->cfg_groups || s < nseen || nseen == MAX_TYPES)
				continue;
			seen[nseen++] = o;
			len += (size_t)snprintf(types + len, sizeof(types) - len, "%s%s reads %s",
						len ? "; " : "", o->name, o->cfg_groups);
		}
		return cfg_override_error(cf, i, err,
					  "applies to no component (its glob must match the name "
					  "of a component whose type reads this group: %s)",
					  len ? types : "no type takes overrides");
	}
	return 0;
}

/* --- dispatch ----------------------------------------------------------- */

void sim__deliver(void *ctx, const cxl_event *in)
{
	sim_engine *e = ctx;
	cxl_event *ev = evpool_get(&e->pool, CXL_OWN_QUEUE);

	*ev = *in;
	if (!e->local[ev->dst])
		CXL_PANIC("event for component %u arrived at rank %d, which does not own it",
			  ev->dst, e->rank);
	queue_local(e, ev);
}

#ifdef CXL_EVPROF
/* evprof_count - count one event of @kind handled by a component of type @ops. */
static void evprof_count(sim_engine *e, const model_ops *ops, unsigned kind)
{
	unsigned t = 0;

	while (t < SIM_EVPROF_TYPES - 1 && e->evprof_ops[t] && e->evprof_ops[t] != ops)
		t++;
	e->evprof_ops[t] = e->evprof_ops[t] ? e->evprof_ops[t] : ops;
	e->evprof[t][kind < SIM_EVPROF_KINDS ? kind : SIM_EVPROF_KINDS - 1]++;
}
#else
static inline void evprof_count(sim_engine *e, const model_ops *ops, unsigned kind)
{
	(void)e, (void)ops, (void)kind;
}
#endif

/*
 * prefetch_next - start loading the next event's component and model state
 * while this event runs (the queue knows its destination without touching
 * the event).  Measured against the same loop without it, medians of the
 * pairs' ratios of alternating runs on 2 shared cores (load 2-3.5): PHOLD
 * 1.16x and 1.12x (11 and 9 pairs; per user-CPU second 9.4 -> 11.1 M
 * events), rack-4096 --end 2us 1.25x (4 pairs); 8 more instructions per event.
 */
/* always_inline: as a call, GCC 12's IPA found it pure and dropped it whole */
__attribute__((always_inline)) static inline void prefetch_next(const sim_engine *e)
{
	uint32_t next = evq_peek_dst(&e->q);

	if (next != UINT32_MAX) {
		const sim_comp *nc = e->local[next];
		__builtin_prefetch(nc);
		__builtin_prefetch(nc->state);
	}
}

/* lazy_first - does @c's first waiting lazy event order before @next (sim_lazy.c)? */
static inline int lazy_first(const sim_comp *c, const cxl_event *next)
{
	return sim__lazy_before_ev(&c->lazy[c->lazy_lo], next);
}

void sim__process(sim_engine *e, sim_time until)
{
	e->window_end = until;
	while (evq_peek_time(&e->q) < until) {
		cxl_event *ev = evq_pop(&e->q);
		sim_comp *c = e->local[ev->dst];
		prefetch_next(e);
		/* lazy events are applied at their send (sim_lazy.c); --check-lazy
		   absorbs them here instead, before their receiver's next event */
		if (!sim__lazy_applied(e) && c->lazy_n && lazy_first(c, ev))
			sim__lazy_before(e, c, ev);
		e->now = ev->time;
		e->cur_tie = (uint64_t)ev->dst << 32 | ev->src;
		e->cur_seq = ev->seq;
		ev->owner = CXL_OWN_HANDLER;
		evprof_count(e, c->ops, ev->kind);
		c->ops->event(c, c->state, ev);
		if (ev->owner == CXL_OWN_HANDLER)
			evpool_put(&e->pool, ev);
		if (e->after_event)
			e->after_event(e->hook_comp);
		if (!(++e->events & SIM_PROGRESS_MASK)) {
			if (e->show_progress)
				sim__progress(e);
			if (!e->xp && e->opt.stop && *e->opt.stop && !e->interrupted) {
				/* finish this time's events: the state is then a clean cut */
				e->interrupted = *e->opt.stop;
				if (e->now + 1 < until)
					until = e->window_end = e->now + 1;
			}
		}
	}
	if (e->events)
		e->last_time = e->now;
}

/* --- the engine's own config keys ---------------------------------------- */

static const cfg_key sim_keys[] = {
	{ "simulation.end", CFG_TIME, NULL, "1ps", NULL, NULL,
	  "simulated time to stop at: events at or after it are not executed" },
	{ "simulation.seed", CFG_INT, "1", "0", NULL, NULL,
	  "run seed: component i draws from the stream (seed, i)" },
	{ "simulation.checkpoint_period", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "write a checkpoint every this much simulated time into OUT/checkpoint-<t>ps/ "
	  "(continue one with --restart; see also --checkpoint-at); 0ps = off" },
	{ "simulation.mem_per_rank", CFG_SIZE, "0B", "0B", NULL, NULL,
	  "memory a rank may use (a batch job's share, e.g. --mem-per-cpu x cpus per task): "
	  "a run and --check refuse when the estimate of a rank's peak exceeds it; 0B = "
	  "MemAvailable of /proc/meminfo shared by the job's ranks on the node" },
	{ "simulation.sample_period", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "statistics over time: every component's time series per period of this length in "
	  "timeseries.csv, fabric totals in timeseries_summary.csv; 0ps = off" },
};

const cfg_schema sim_schema = {
	"simulation", sim_keys, sizeof(sim_keys) / sizeof(sim_keys[0]),
};
