/*
 * test/core/test_sim.c - unit tests for the engine (core/sim.c, core/sync.c)
 * on one rank.
 *
 * With opts.nranks == 1 the engine creates no transport and takes the
 * one-rank paths of init, run and collect, so no MPI call is made and these
 * tests run in the ordinary forked Check runner.  Each test builds a small
 * graph of test models (static model_ops defined here whose hooks record what
 * they see in a static log or in their state), loads a cfg with the engine's
 * schema only, and drives create -> init -> run -> collect -> destroy.
 *
 * Covered: the ordering key (time, dst, src, seq) whatever the send order;
 * port sends (delay + latency, the peer's port, both directions, several
 * ports); zero-delay self sends run after the current event at the same
 * time; global sends and their lookahead panics; event ownership (re-send
 * reuses the event, keep/send later, keep/free, sending an event the model
 * does not own panics); the end time is exclusive; statistics and run info
 * from sim_engine_collect; per-component RNG streams depend only on (seed,
 * id); an init failure is reported; a link of latency 0 is refused.
 */
#include "core/sim_int.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

/* --- harness --------------------------------------------------------------- */

typedef struct run run;
struct run {
	const sim_graph *g; /* the graph (owned by the test) */
	int32_t *rank_of;   /* every component on rank 0 */
	cfg *cf;            /* engine schema only */
	sim_engine *e;      /* the engine under test */
	stats_set table;    /* from sim_engine_collect */
	sim_rank_info info; /* from sim_engine_collect */
};

static const cfg_schema *const schemas[] = { &sim_schema };

/* run_open - load a cfg with simulation.end=@end, .seed=@seed; create the engine. */
static void run_open(run *r, const sim_graph *g, const char *end, uint64_t seed)
{
	char es[64], ss[64];
	const char *sets[] = { es, ss };
	cxl_err err = { 0 };

	*r = (run){ .g = g };
	stats_set_init(&r->table);
	snprintf(es, sizeof(es), "simulation.end=%s", end);
	snprintf(ss, sizeof(ss), "simulation.seed=%llu", (unsigned long long)seed);
	ck_assert_msg(cfg_load(&r->cf, NULL, schemas, 1, sets, 2, &err) == 0, "%s", err.msg);
	r->rank_of = xcalloc(g->ncomp ? g->ncomp : 1, sizeof(*r->rank_of));
	sim_opts o = {
		.rank = 0, .nranks = 1,
		.seed = (uint64_t)cfg_int(r->cf, "simulation.seed"),
		.end = cfg_time(r->cf, "simulation.end"),
	};
	r->e = sim_engine_create(g, r->rank_of, r->cf, &o, &err);
	ck_assert_msg(r->e != NULL, "%s", err.msg);
	ck_assert_ptr_null(r->e->xp); /* one rank: no transport, no MPI */
}

static void run_init(run *r)
{
	cxl_err err = { 0 };

	ck_assert_msg(sim_engine_init(r->e, &err) == 0, "%s", err.msg);
}

/* run_go - run to the end and collect statistics and run info. */
static void run_go(run *r)
{
	cxl_err err = { 0 };

	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, &err) == 0, "%s", err.msg);
}

static void run_close(run *r)
{
	sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	cfg_free(r->cf);
	free(r->rank_of);
}

static uint32_t add(sim_graph *g, const model_ops *ops, const char *name)
{
	return graph_add_comp(g, ops, name, 1);
}

/* --- the log the test models write --------------------------------------- */

typedef struct rec rec;
struct rec {
	sim_time t;     /* sim_now() in the handler */
	uint32_t comp;  /* handling component */
	uint32_t src;   /* ev->src */
	uint64_t seq;   /* ev->seq */
	uint16_t port;  /* ev->dst_port */
	uint16_t kind;  /* ev->kind (or a marker) */
	uint32_t tag;   /* ev->pkt.tag */
};

#define LOG_MAX 4096
static rec tlog[LOG_MAX];
static size_t tlog_n;

enum { K_TIMER = 1, K_MSG, K_REPLY, K_LATE, K_MARK = 100 };

/* Handlers check with if + ck_abort_msg: each ck_assert costs a pipe write. */
static void log_event(const sim_comp *c, const cxl_event *ev)
{
	if (tlog_n == LOG_MAX)
		ck_abort_msg("test log full");
	if (ev->time != sim_now(c) || ev->dst != c->id || ev->owner != CXL_OWN_HANDLER)
		ck_abort_msg("%s: event time %llu dst %u owner %d at now %llu",
			     c->name, (unsigned long long)ev->time, ev->dst, ev->owner,
			     (unsigned long long)sim_now(c));
	tlog[tlog_n++] = (rec){ ev->time, c->id, ev->src, ev->seq, ev->dst_port,
				ev->kind, ev->pkt.tag };
}

static void log_mark(const sim_comp *c, uint32_t tag)
{
	if (tlog_n == LOG_MAX)
		ck_abort_msg("test log full");
	tlog[tlog_n++] = (rec){ .t = sim_now(c), .comp = c->id, .kind = K_MARK, .tag = tag };
}

/* count_rec - log entries equal to @want in every field but seq. */
static size_t count_rec(rec want)
{
	size_t n = 0;

	for (size_t i = 0; i < tlog_n; i++) {
		const rec *x = &tlog[i];
		n += x->t == want.t && x->comp == want.comp && x->src == want.src &&
		     x->port == want.port && x->kind == want.kind && x->tag == want.tag;
	}
	return n;
}

/* Test-model parameters, set by a test before sim_engine_init. */
static uint32_t order_perm[8];   /* order: first timer of component i at perm[i] + 1 */
static sim_time glob_delay;      /* glob: delay of component 0's first global send */
static uint32_t glob_dst;        /* glob: its destination */
static int own_mode;             /* owner: what the holder does (enum below) */
static int ping_fresh;           /* ping: send a new event instead of re-sending */
static cxl_event *kept_ptr;      /* owner: the kept event */
static uint32_t init_order[16];  /* stat/fail: components whose init ran, in order */
static size_t init_n;

static void setup(void)
{
	tlog_n = 0;
	memset(order_perm, 0, sizeof(order_perm));
	glob_delay = 0;
	glob_dst = 0;
	own_mode = 0;
	ping_fresh = 0;
	kept_ptr = NULL;
	init_n = 0;
}

static void teardown(void)
{
}

/* --- order: equal times at one component --------------------------------- */

enum { ORDER_N = 6, ORDER_K = 3, ORDER_AT = 1000 };
static const uint32_t order_targets[2] = { 1, 3 };

typedef struct order_state order_state;
struct order_state {
	uint32_t fired; /* timer firings so far */
};

static int order_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	cxl_event *ev = sim_event_new(c);
	ev->kind = K_TIMER;
	sim_send_self(c, ev, order_perm[c->id] + 1);
	return 0;
}

/*
 * Timer k of component i fires at perm[i] + 1 + 10k and sends one message to
 * each target, arriving at ORDER_AT: messages are queued round-robin in perm
 * order, not in (src, seq) order.
 */
static void order_event(sim_comp *c, void *state, cxl_event *ev)
{
	order_state *st = state;

	if (ev->kind == K_MSG) {
		log_event(c, ev);
		return;
	}
	for (int t = 0; t < 2; t++) {
		cxl_event *m = sim_event_new(c);
		m->kind = K_MSG;
		m->pkt.tag = st->fired;
		sim_send_global(c, m, order_targets[t], ORDER_AT - sim_now(c));
	}
	if (++st->fired < ORDER_K)
		sim_send_self(c, ev, 10);
}

static const model_ops order_ops = {
	"order", sizeof(order_state), order_init, order_event, NULL, NULL,
};

START_TEST(test_sim_equal_times_in_src_seq_order)
{
	static const uint32_t perms[][ORDER_N] = {
		{ 0, 1, 2, 3, 4, 5 }, { 5, 4, 3, 2, 1, 0 }, { 2, 5, 0, 3, 1, 4 },
	};

	for (size_t p = 0; p < sizeof(perms) / sizeof(perms[0]); p++) {
		sim_graph g;
		run r;
		char name[16];

		graph_init(&g);
		for (uint32_t i = 0; i < ORDER_N; i++) {
			snprintf(name, sizeof(name), "o%u", i);
			add(&g, &order_ops, name);
		}
		g.global_lookahead = 1;
		memcpy(order_perm, perms[p], sizeof(perms[p]));
		tlog_n = 0;
		run_open(&r, &g, "1us", 1);
		run_init(&r);
		run_go(&r);
		ck_assert_uint_eq(tlog_n, 2 * ORDER_N * ORDER_K);
		for (size_t i = 0; i < tlog_n; i++) {
			const rec *x = &tlog[i];
			size_t j = i % (ORDER_N * ORDER_K);
			ck_assert_uint_eq(x->t, ORDER_AT);
			/* dst first: every event of target 1, then of target 3 */
			ck_assert_uint_eq(x->comp, order_targets[i / (ORDER_N * ORDER_K)]);
			ck_assert_uint_eq(x->src, j / ORDER_K);
			ck_assert_uint_eq(x->tag, j % ORDER_K);
			if (j % ORDER_K)
				ck_assert_uint_gt(x->seq, tlog[i - 1].seq);
		}
		run_close(&r);
		graph_free(&g);
	}
}
END_TEST

/* --- probe: port sends ----------------------------------------------------- */

static sim_time probe_delay(uint32_t id, uint16_t port)
{
	return 100 * ((sim_time)id + 1) + port;
}

static int probe_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	for (uint16_t p = 0; p < c->nports; p++) {
		cxl_event *ev = sim_event_new(c);
		ev->kind = K_MSG;
		ev->pkt.tag = c->id * 16 + p;
		sim_send_port(c, ev, p, probe_delay(c->id, p));
	}
	return 0;
}

/* A message is answered on the port it arrived on, after 7 ps. */
static void probe_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	log_event(c, ev);
	if (ev->kind == K_MSG) {
		ev->kind = K_REPLY;
		sim_send_port(c, ev, ev->dst_port, 7);
	}
}

static const model_ops probe_ops = { "probe", 0, probe_init, probe_event, NULL, NULL };

START_TEST(test_sim_port_send_delay_latency_peer_port)
{
	/* A.0-B.0 10ps, A.1-C.1 20ps, C.0-D.0 30ps, A.2-B.1 40ps (two A-B links) */
	static const struct { uint32_t a, ap, b, bp; sim_time lat; } L[] = {
		{ 0, 0, 1, 0, 10 }, { 0, 1, 2, 1, 20 }, { 2, 0, 3, 0, 30 }, { 0, 2, 1, 1, 40 },
	};
	static const uint32_t nports[] = { 3, 2, 2, 1 };
	sim_graph g;
	run r;

	graph_init(&g);
	add(&g, &probe_ops, "A");
	add(&g, &probe_ops, "B");
	add(&g, &probe_ops, "C");
	add(&g, &probe_ops, "D");
	for (size_t i = 0; i < 4; i++)
		graph_add_link(&g, L[i].a, (uint16_t)L[i].ap, L[i].b, (uint16_t)L[i].bp, L[i].lat, 1);
	run_open(&r, &g, "1us", 1);
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_eq(r.e->local[i]->nports, nports[i]);
	ck_assert_uint_eq(r.e->local[0]->ports[1].peer, 2);
	ck_assert_uint_eq(r.e->local[0]->ports[1].peer_port, 1);
	ck_assert_uint_eq(r.e->local[0]->ports[1].latency, 20);
	ck_assert_uint_eq(r.e->local[1]->ports[1].peer, 0);
	ck_assert_uint_eq(r.e->local[1]->ports[1].peer_port, 2);
	run_init(&r);
	run_go(&r);
	ck_assert_uint_eq(tlog_n, 16); /* 4 links x 2 directions x (message + reply) */
	for (size_t i = 0; i < 4; i++) {
		for (int dir = 0; dir < 2; dir++) {
			uint32_t x = dir ? L[i].b : L[i].a, xp = dir ? L[i].bp : L[i].ap;
			uint32_t y = dir ? L[i].a : L[i].b, yp = dir ? L[i].ap : L[i].bp;
			sim_time t1 = probe_delay(x, (uint16_t)xp) + L[i].lat;
			rec msg = { t1, y, x, 0, (uint16_t)yp, K_MSG, x * 16 + xp };
			rec reply = { t1 + 7 + L[i].lat, x, y, 0, (uint16_t)xp, K_REPLY, x * 16 + xp };
			ck_assert_msg(count_rec(msg) == 1, "link %zu dir %d: message", i, dir);
			ck_assert_msg(count_rec(reply) == 1, "link %zu dir %d: reply", i, dir);
		}
	}
	run_close(&r);
	graph_free(&g);
}
END_TEST

/* --- selfy: zero-delay self sends ------------------------------------------ */

enum { SELF_CHAIN = 4 };

static int selfy_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	cxl_event *late = sim_event_new(c);
	late->kind = K_LATE;
	sim_send_self(c, late, 51);
	cxl_event *ev = sim_event_new(c);
	ev->kind = K_TIMER;
	sim_send_self(c, ev, 50);
	return 0;
}

/* The timer at 50 sends a zero-delay event that re-sends itself SELF_CHAIN times. */
static void selfy_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	log_event(c, ev);
	if (ev->kind == K_TIMER) {
		cxl_event *m = sim_event_new(c);
		m->kind = K_MSG;
		sim_send_self(c, m, 0);
		log_mark(c, 0); /* the handler goes on after the send */
	} else if (ev->kind == K_MSG && ev->pkt.tag < SELF_CHAIN) {
		ev->pkt.tag++;
		sim_send_self(c, ev, 0);
	}
}

static const model_ops selfy_ops = { "selfy", 0, selfy_init, selfy_event, NULL, NULL };

START_TEST(test_sim_self_send_zero_delay_after_current)
{
	sim_graph g;
	run r;

	graph_init(&g);
	add(&g, &selfy_ops, "s");
	run_open(&r, &g, "1us", 1);
	run_init(&r);
	run_go(&r);
	ck_assert_uint_eq(tlog_n, 1 + 1 + (SELF_CHAIN + 1) + 1);
	ck_assert_uint_eq(tlog[0].kind, K_TIMER);
	ck_assert_uint_eq(tlog[0].t, 50);
	ck_assert_uint_eq(tlog[1].kind, K_MARK);
	ck_assert_uint_eq(tlog[1].t, 50);
	for (uint32_t k = 0; k <= SELF_CHAIN; k++) {
		ck_assert_uint_eq(tlog[2 + k].kind, K_MSG);
		ck_assert_uint_eq(tlog[2 + k].t, 50);
		ck_assert_uint_eq(tlog[2 + k].tag, k);
		ck_assert_uint_eq(tlog[2 + k].src, 0);
	}
	ck_assert_uint_eq(tlog[tlog_n - 1].kind, K_LATE);
	ck_assert_uint_eq(tlog[tlog_n - 1].t, 51);
	ck_assert_uint_eq(r.info.events, tlog_n - 1);
	run_close(&r);
	graph_free(&g);
}
END_TEST

/* --- glob: global sends ----------------------------------------------------- */

static int glob_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	if (c->id != 0)
		return 0;
	cxl_event *ev = sim_event_new(c);
	ev->kind = K_MSG;
	sim_send_global(c, ev, glob_dst, glob_delay);
	ev = sim_event_new(c);
	ev->kind = K_MSG;
	sim_send_global(c, ev, 1, 250);
	return 0;
}

/* Component 2 answers with a global send of exactly the lookahead. */
static void glob_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	log_event(c, ev);
	if (c->id == 2 && ev->kind == K_MSG) {
		ev->kind = K_REPLY;
		sim_send_global(c, ev, 0, c->eng->g->global_lookahead);
	}
}

static const model_ops glob_ops = { "glob", 0, glob_init, glob_event, NULL, NULL };

static void glob_graph(sim_graph *g, sim_time lookahead)
{
	graph_init(g);
	add(g, &glob_ops, "g0");
	add(g, &glob_ops, "g1");
	add(g, &glob_ops, "g2");
	g->global_lookahead = lookahead;
}

START_TEST(test_sim_global_send_at_lookahead)
{
	sim_graph g;
	run r;

	glob_graph(&g, 100);
	glob_delay = 100;
	glob_dst = 2;
	run_open(&r, &g, "1us", 1);
	run_init(&r);
	run_go(&r);
	ck_assert_uint_eq(tlog_n, 3);
	ck_assert_uint_eq(count_rec((rec){ 100, 2, 0, 0, 0, K_MSG, 0 }), 1);
	ck_assert_uint_eq(count_rec((rec){ 200, 0, 2, 0, 0, K_REPLY, 0 }), 1);
	ck_assert_uint_eq(count_rec((rec){ 250, 1, 0, 0, 0, K_MSG, 0 }), 1);
	run_close(&r);
	graph_free(&g);
}
END_TEST

static void glob_expect_panic(sim_time lookahead, sim_time delay, uint32_t dst)
{
	sim_graph g;
	run r;

	glob_graph(&g, lookahead);
	glob_delay = delay;
	glob_dst = dst;
	run_open(&r, &g, "1us", 1);
	run_init(&r); /* panics */
}

START_TEST(test_sim_global_send_below_lookahead_panics)
{
	glob_expect_panic(100, 99, 2);
}
END_TEST

START_TEST(test_sim_global_send_without_lookahead_panics)
{
	glob_expect_panic(0, 1000, 2);
}
END_TEST

START_TEST(test_sim_global_send_unknown_dst_panics)
{
	glob_expect_panic(100, 100, 3);
}
END_TEST

/* --- ping: re-sending the handled event ------------------------------------ */

static int ping_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	sim_send_port(c, sim_event_new(c), 0, 0);
	return 0;
}

static void ping_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	if (ping_fresh) {
		sim_send_port(c, sim_event_new(c), 0, 2);
		return; /* ev goes back to the pool */
	}
	sim_send_port(c, ev, 0, 2);
}

static const model_ops ping_ops = { "ping", 0, ping_init, ping_event, NULL, NULL };

/* Two components bounce one event each over a 3 ps link for 100 ns. */
static void ping_run(uint64_t want_peak)
{
	sim_graph g;
	run r;

	graph_init(&g);
	add(&g, &ping_ops, "p0");
	add(&g, &ping_ops, "p1");
	graph_add_link(&g, 0, 0, 1, 0, 3, 1);
	run_open(&r, &g, "100ns", 1);
	run_init(&r);
	run_go(&r);
	/* each handles events at 3 + 5k < 100000: k = 0 .. 19999 */
	ck_assert_uint_eq(r.info.events, 40000);
	ck_assert_uint_eq(r.info.sim_time, 3 + 5 * 19999);
	ck_assert_uint_eq(r.e->pool.live, 2); /* the two still in the queue */
	ck_assert_uint_eq(r.e->pool.peak, want_peak);
	ck_assert_uint_eq(r.info.peak_events, want_peak);
	ck_assert_uint_eq(evq_size(&r.e->q), 2);
	run_close(&r);
	graph_free(&g);
}

START_TEST(test_sim_resend_reuses_event)
{
	ping_run(2);
}
END_TEST

START_TEST(test_sim_unsent_event_returns_to_pool)
{
	ping_fresh = 1;
	ping_run(3); /* a new event is taken before the handled one is returned */
}
END_TEST

/* --- owner: keep, free, misuse --------------------------------------------- */

enum { OWN_KEEP_SEND, OWN_KEEP_FREE, OWN_SEND_TWICE, OWN_NEW_SEND_TWICE,
       OWN_FREE_QUEUED, OWN_KEEP_NEW };

typedef struct owner_state owner_state;
struct owner_state {
	cxl_event *kept; /* the event the model holds */
};

static int owner_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	if (c->id != 0)
		return 0;
	cxl_event *ev = sim_event_new(c);
	ev->kind = K_MSG;
	ev->pkt.tag = 77;
	sim_send_self(c, ev, 5);
	return 0;
}

/*
 * Component 0 gets its message at 5, acts on it per own_mode and (keep
 * modes) sets a timer for 20 ps later, when it sends or frees the kept event.
 * Component 1 (over a 10 ps link) logs what arrives.
 */
static void owner_event(sim_comp *c, void *state, cxl_event *ev)
{
	owner_state *st = state;

	if (c->id == 1) {
		log_event(c, ev);
		if (ev != kept_ptr)
			ck_abort_msg("the sent event is not the kept one");
		return;
	}
	if (ev->kind == K_MSG) {
		switch (own_mode) {
		case OWN_KEEP_SEND:
		case OWN_KEEP_FREE: {
			sim_event_keep(c, ev);
			st->kept = kept_ptr = ev;
			cxl_event *t = sim_event_new(c);
			t->kind = K_TIMER;
			sim_send_self(c, t, 20);
			break;
		}
		case OWN_SEND_TWICE:
			sim_send_port(c, ev, 0, 0);
			sim_send_port(c, ev, 0, 1); /* panics */
			break;
		case OWN_NEW_SEND_TWICE: {
			cxl_event *m = sim_event_new(c);
			sim_send_self(c, m, 1);
			sim_send_self(c, m, 2); /* panics */
			break;
		}
		case OWN_FREE_QUEUED: {
			cxl_event *m = sim_event_new(c);
			sim_send_self(c, m, 1);
			sim_event_free(c, m); /* panics */
			break;
		}
		case OWN_KEEP_NEW:
			sim_event_keep(c, sim_event_new(c)); /* panics */
			break;
		}
		return;
	}
	/* K_TIMER, 20 ps after the keep */
	if (own_mode == OWN_KEEP_SEND)
		sim_send_port(c, st->kept, 0, 0);
	else
		sim_event_free(c, st->kept);
	st->kept = NULL;
}

static const model_ops owner_ops = {
	"owner", sizeof(owner_state), owner_init, owner_event, NULL, NULL,
};

static void owner_run(int mode, run *r, sim_graph *g)
{
	own_mode = mode;
	graph_init(g);
	add(g, &owner_ops, "holder");
	add(g, &owner_ops, "sink");
	graph_add_link(g, 0, 0, 1, 0, 10, 1);
	run_open(r, g, "1us", 1);
	run_init(r);
	run_go(r);
}

START_TEST(test_sim_keep_then_send_later)
{
	sim_graph g;
	run r;

	owner_run(OWN_KEEP_SEND, &r, &g);
	ck_assert_uint_eq(tlog_n, 1);
	ck_assert_uint_eq(count_rec((rec){ 5 + 20 + 10, 1, 0, 0, 0, K_MSG, 77 }), 1);
	ck_assert_uint_eq(r.info.events, 3); /* message, timer, delivery */
	ck_assert_uint_eq(r.e->pool.live, 0);
	ck_assert_uint_eq(r.e->pool.peak, 2); /* kept message + timer */
	run_close(&r);
	graph_free(&g);
}
END_TEST

START_TEST(test_sim_keep_then_free)
{
	sim_graph g;
	run r;

	owner_run(OWN_KEEP_FREE, &r, &g);
	ck_assert_uint_eq(tlog_n, 0);
	ck_assert_uint_eq(r.info.events, 2);
	ck_assert_uint_eq(r.e->pool.live, 0);
	run_close(&r);
	graph_free(&g);
}
END_TEST

START_TEST(test_sim_send_handled_event_twice_panics)
{
	sim_graph g;
	run r;

	owner_run(OWN_SEND_TWICE, &r, &g);
}
END_TEST

START_TEST(test_sim_send_new_event_twice_panics)
{
	sim_graph g;
	run r;

	owner_run(OWN_NEW_SEND_TWICE, &r, &g);
}
END_TEST

START_TEST(test_sim_free_queued_event_panics)
{
	sim_graph g;
	run r;

	owner_run(OWN_FREE_QUEUED, &r, &g);
}
END_TEST

START_TEST(test_sim_keep_unhandled_event_panics)
{
	sim_graph g;
	run r;

	owner_run(OWN_KEEP_NEW, &r, &g);
}
END_TEST

/* --- ender: the end time is exclusive -------------------------------------- */

static sim_time end_at; /* the run's end, for the model */

static int ender_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)err;
	end_at = cfg_time(cf, "simulation.end");
	const sim_time at[] = { end_at + 1, end_at, end_at - 1, 0 };
	for (uint32_t i = 0; i < 4; i++) {
		cxl_event *ev = sim_event_new(c);
		ev->pkt.tag = i;
		sim_send_self(c, ev, at[i]);
	}
	return 0;
}

static void ender_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	log_event(c, ev);
}

static const model_ops ender_ops = { "ender", 0, ender_init, ender_event, NULL, NULL };

/* ender_run - events at end + 1, end, end - 1 and 0 (tags 0..3); @tags ran. */
static void ender_run(const char *end, sim_time want_end, const uint32_t *tags,
		      const sim_time *times, size_t n)
{
	sim_graph g;
	run r;

	graph_init(&g);
	add(&g, &ender_ops, "e");
	run_open(&r, &g, end, 1);
	run_init(&r);
	ck_assert_uint_eq(end_at, want_end);
	run_go(&r);
	ck_assert_uint_eq(tlog_n, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(tlog[i].tag, tags[i]);
		ck_assert_uint_eq(tlog[i].t, times[i]);
	}
	ck_assert_uint_eq(r.info.events, n);
	ck_assert_uint_eq(r.info.sim_time, times[n - 1]);
	ck_assert_uint_eq(r.info.windows, 1);
	/* the events at end and end + 1 stay queued; destroy frees them */
	ck_assert_uint_eq(evq_size(&r.e->q), 2);
	run_close(&r);
	graph_free(&g);
}

START_TEST(test_sim_end_is_exclusive)
{
	static const uint32_t tags[] = { 3, 2 };
	static const sim_time times[] = { 0, 999 };

	ender_run("1000ps", 1000, tags, times, 2);
}
END_TEST

START_TEST(test_sim_end_one_ps)
{
	/* end - 1 = 0: both events at time 0 run, in send (seq) order */
	static const uint32_t tags[] = { 2, 3 };
	static const sim_time times[] = { 0, 0 };

	ender_run("1ps", 1, tags, times, 2);
}
END_TEST

/* --- stat: statistics and run info ------------------------------------------ */

typedef struct stat_state stat_state;
struct stat_state {
	uint64_t *handled, *sent, *finished;
	stats_hist *when;
};

static int stat_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	stat_state *st = state;

	(void)cf, (void)err;
	init_order[init_n++] = c->id;
	st->handled = sim_stat_counter(c, "handled");
	st->sent = sim_stat_counter(c, "sent");
	st->when = sim_stat_hist(c, "when");
	st->finished = sim_stat_counter(c, "finished");
	for (uint32_t j = 0; j <= c->id; j++) {
		sim_send_self(c, sim_event_new(c), 10 * ((sim_time)j + 1));
		(*st->sent)++;
	}
	return 0;
}

static void stat_event(sim_comp *c, void *state, cxl_event *ev)
{
	stat_state *st = state;

	(*st->handled)++;
	stats_hist_add(st->when, sim_now(c));
	(void)ev;
}

static void stat_finish(sim_comp *c, void *state)
{
	stat_state *st = state;

	(void)c;
	(*st->finished)++;
}

static const model_ops stat_ops = {
	"stat", sizeof(stat_state), stat_init, stat_event, stat_finish, NULL,
};

static int silent_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	init_order[init_n++] = c->id;
	return 0;
}

static void silent_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)c, (void)state, (void)ev;
	ck_abort_msg("silent got an event");
}

static const model_ops silent_ops = { "silent", 0, silent_init, silent_event, NULL, NULL };

START_TEST(test_sim_collect_stats_and_info)
{
	sim_graph g;
	run r;

	graph_init(&g);
	add(&g, &stat_ops, "s0");
	add(&g, &stat_ops, "s1");
	add(&g, &silent_ops, "quiet");
	add(&g, &stat_ops, "s3");
	run_open(&r, &g, "1us", 1);
	run_init(&r);
	ck_assert_uint_eq(init_n, 4);
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_eq(init_order[i], i);
	run_go(&r);

	ck_assert_uint_eq(r.table.n, 4);
	for (uint32_t i = 0; i < 4; i++) {
		const stats_comp *sc = &r.table.c[i];
		ck_assert_uint_eq(sc->id, i);
		ck_assert_ptr_eq(stats_find(&r.table, i), sc);
		if (i == 2) {
			ck_assert_uint_eq(sc->n, 0);
			continue;
		}
		ck_assert_uint_eq(sc->n, 4);
		const stats_entry *h = stats_get(sc, "handled"), *s = stats_get(sc, "sent");
		const stats_entry *f = stats_get(sc, "finished"), *w = stats_get(sc, "when");
		ck_assert_ptr_nonnull(h);
		ck_assert_ptr_nonnull(s);
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(w);
		ck_assert_int_eq(h->kind, STATS_COUNTER);
		ck_assert_int_eq(w->kind, STATS_HIST);
		ck_assert_uint_eq(h->value, i + 1);
		ck_assert_uint_eq(s->value, i + 1);
		ck_assert_uint_eq(f->value, 1); /* finish ran once, before collection */
		ck_assert_uint_eq(w->h.count, i + 1);
		ck_assert_uint_eq(w->h.sum, 10 * (i + 1) * (i + 2) / 2);
		ck_assert_uint_eq(w->h.min, 10);
		ck_assert_uint_eq(w->h.max, 10 * (i + 1));
	}
	ck_assert_uint_eq(r.info.events, 1 + 2 + 4);
	ck_assert_uint_eq(r.info.sim_time, 40);
	ck_assert_uint_eq(r.info.components, 4);
	ck_assert_uint_eq(r.info.windows, 1);
	ck_assert_uint_eq(r.info.remote_out, 0);
	ck_assert_uint_eq(r.info.peak_events, 7);
	ck_assert_uint_eq(sim_engine_edge_cut(r.e), 0);
	ck_assert_uint_eq(sim_engine_lookahead(r.e), SIM_TIME_MAX);
	run_close(&r);
	graph_free(&g);
}
END_TEST

/* --- fail: an init error ------------------------------------------------------ */

static int fail_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state;
	init_order[init_n++] = c->id;
	if (c->id == 1)
		return cfg_error_at(cf, "simulation.end", err, "%s refuses", c->name);
	return 0;
}

static const model_ops fail_ops = { "fail", 0, fail_init, silent_event, NULL, NULL };

START_TEST(test_sim_init_error_reported)
{
	sim_graph g;
	run r;
	cxl_err err = { 0 };

	graph_init(&g);
	add(&g, &fail_ops, "f0");
	add(&g, &fail_ops, "f1");
	add(&g, &fail_ops, "f2");
	run_open(&r, &g, "1us", 1);
	ck_assert_int_eq(sim_engine_init(r.e, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "f1 refuses") != NULL, "%s", err.msg);
	ck_assert_uint_eq(init_n, 2); /* f2's init is not called */
	run_close(&r);
	graph_free(&g);
}
END_TEST

/* --- dice: RNG streams ------------------------------------------------------ */

enum { DICE_N = 8 };

typedef struct dice_state dice_state;
struct dice_state {
	uint64_t draw[DICE_N];
};

static int dice_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	dice_state *st = state;

	(void)cf, (void)err;
	for (int i = 0; i < DICE_N / 2; i++)
		st->draw[i] = rng_u64(sim_rng(c));
	sim_send_self(c, sim_event_new(c), 5 + rng_below(sim_rng(c), 100));
	return 0;
}

static void dice_event(sim_comp *c, void *state, cxl_event *ev)
{
	dice_state *st = state;

	(void)ev;
	for (int i = DICE_N / 2; i < DICE_N; i++)
		st->draw[i] = rng_u64(sim_rng(c));
}

static const model_ops dice_ops = { "dice", sizeof(dice_state), dice_init, dice_event, NULL, NULL };

static const dice_state *dice_of(const run *r, uint32_t id)
{
	return r->e->local[id]->state;
}

START_TEST(test_sim_rng_depends_on_seed_and_id)
{
	enum { NC = 5 };
	sim_graph g;
	run a, b, d;

	graph_init(&g);
	for (uint32_t i = 0; i < NC; i++)
		add(&g, &dice_ops, "d");
	run_open(&a, &g, "1us", 42);
	run_open(&b, &g, "1us", 42);
	run_open(&d, &g, "1us", 43);
	run_init(&a);
	run_init(&b);
	run_init(&d);
	run_go(&a);
	run_go(&b);
	run_go(&d);
	for (uint32_t i = 0; i < NC; i++) {
		const dice_state *x = dice_of(&a, i), *y = dice_of(&b, i), *z = dice_of(&d, i);
		cxl_rng ref;

		rng_seed(&ref, 42, i);
		ck_assert_mem_eq(x->draw, y->draw, sizeof(x->draw));
		for (int k = 0; k < DICE_N / 2; k++)
			ck_assert_uint_eq(x->draw[k], rng_at(&ref, (uint64_t)k));
		for (int k = 0; k < DICE_N; k++) {
			ck_assert_uint_ne(x->draw[k], z->draw[k]);
			for (uint32_t j = 0; j < i; j++)
				ck_assert_uint_ne(x->draw[k], dice_of(&a, j)->draw[k]);
		}
	}
	run_close(&a);
	run_close(&b);
	run_close(&d);
	graph_free(&g);
}
END_TEST

/* --- create: link latency 0 ------------------------------------------------ */

START_TEST(test_sim_create_rejects_zero_latency)
{
	sim_graph g;
	run r = { 0 };
	cxl_err err = { 0 };
	const char *sets[] = { "simulation.end=1us" };

	graph_init(&g);
	add(&g, &probe_ops, "alpha");
	add(&g, &probe_ops, "beta");
	add(&g, &probe_ops, "gamma");
	graph_add_link(&g, 0, 0, 2, 0, 5, 1);
	graph_add_link(&g, 1, 0, 0, 1, 5, 1);
	g.link[1].latency = 0; /* graph_add_link itself refuses 0 */
	ck_assert_int_eq(cfg_load(&r.cf, NULL, schemas, 1, sets, 1, &err), 0);
	int32_t rank_of[3] = { 0 };
	sim_opts o = { .rank = 0, .nranks = 1, .seed = 1, .end = SIM_US };
	ck_assert_ptr_null(sim_engine_create(&g, rank_of, r.cf, &o, &err));
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "beta") && strstr(err.msg, "alpha") &&
		      strstr(err.msg, "latency 0") && !strstr(err.msg, "gamma"),
		      "%s", err.msg);
	cfg_free(r.cf);
	graph_free(&g);
}
END_TEST

/* --- suite ------------------------------------------------------------------- */

static TCase *fixture_case(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	return tc;
}

Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *order = fixture_case("order");
	TCase *sends = fixture_case("sends");
	TCase *misuse = fixture_case("misuse");
	TCase *owner = fixture_case("ownership");
	TCase *end = fixture_case("end");
	TCase *collect = fixture_case("collect");
	TCase *rng = fixture_case("rng");
	TCase *create = fixture_case("create");

	tcase_add_test(order, test_sim_equal_times_in_src_seq_order);
	tcase_add_test(sends, test_sim_port_send_delay_latency_peer_port);
	tcase_add_test(sends, test_sim_self_send_zero_delay_after_current);
	tcase_add_test(sends, test_sim_global_send_at_lookahead);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_below_lookahead_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_without_lookahead_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_unknown_dst_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_send_handled_event_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_send_new_event_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_free_queued_event_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_keep_unhandled_event_panics, SIGABRT);
	tcase_add_test(owner, test_sim_resend_reuses_event);
	tcase_add_test(owner, test_sim_unsent_event_returns_to_pool);
	tcase_add_test(owner, test_sim_keep_then_send_later);
	tcase_add_test(owner, test_sim_keep_then_free);
	tcase_add_test(end, test_sim_end_is_exclusive);
	tcase_add_test(end, test_sim_end_one_ps);
	tcase_add_test(collect, test_sim_collect_stats_and_info);
	tcase_add_test(collect, test_sim_init_error_reported);
	tcase_add_test(rng, test_sim_rng_depends_on_seed_and_id);
	tcase_add_test(create, test_sim_create_rejects_zero_latency);
	suite_add_tcase(s, order);
	suite_add_tcase(s, sends);
	suite_add_tcase(s, misuse);
	suite_add_tcase(s, owner);
	suite_add_tcase(s, end);
	suite_add_tcase(s, collect);
	suite_add_tcase(s, rng);
	suite_add_tcase(s, create);
	return s;
}
