/*
 * test/core/test_sim.c - unit tests for the engine (core/sim.c, core/sync.c)
 * on one rank: the order of events and the sends.  The harness is
 * test/core/sim_fixture.h; ownership, the end time, statistics, init
 * errors, RNG streams and create are in test_sim_life.c.
 *
 * Each test builds a small graph of test models (static model_ops defined
 * here whose hooks record what they see in the fixture's log or in their
 * state) and drives create -> init -> run -> collect -> destroy.
 *
 * Covered: the ordering key (time, dst, src, seq) whatever the send order;
 * port sends (delay + latency, the peer's port, both directions, several
 * ports; a delay + latency past 2^64 ps panics instead of wrapping);
 * zero-delay self sends run after the current event at the same time;
 * global sends and their lookahead panics; re-sending the handled event
 * reuses it, an unsent one returns to the pool; a link of latency 0 is
 * refused; sends numbered by the model (sim_send_port_seq) order same-time
 * arrivals by those numbers, not by when they were sent; sim_stop_time.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/panic_fixture.h"
#include "test/core/sim_fixture.h"

/* Test-model parameters, set by a test before sim_engine_init. */
static uint32_t order_perm[8];   /* order: first timer of component i at perm[i] + 1 */
static sim_time glob_delay;      /* glob: delay of component 0's first global send */
static uint32_t glob_dst;        /* glob: its destination */
static int ping_fresh;           /* ping: send a new event instead of re-sending */

static void setup(void)
{
	memset(order_perm, 0, sizeof(order_perm));
	glob_delay = 0;
	glob_dst = 0;
	ping_fresh = 0;
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
		simt_log_event(c, ev);
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
	.name = "order",
	.state_size = sizeof(order_state),
	.init = order_init,
	.event = order_event,
};

START_TEST(test_sim_equal_times_in_src_seq_order)
{
	static const uint32_t perms[][ORDER_N] = {
		{ 0, 1, 2, 3, 4, 5 }, { 5, 4, 3, 2, 1, 0 }, { 2, 5, 0, 3, 1, 4 },
	};

	for (size_t p = 0; p < sizeof(perms) / sizeof(perms[0]); p++) {
		sim_graph g;
		simt_run r;
		char name[16];

		graph_init(&g);
		for (uint32_t i = 0; i < ORDER_N; i++) {
			snprintf(name, sizeof(name), "o%u", i);
			simt_add(&g, &order_ops, name);
		}
		g.global_lookahead = 1;
		memcpy(order_perm, perms[p], sizeof(perms[p]));
		simt_log_n = 0;
		simt_open(&r, &g, "1us", 1);
		simt_init(&r);
		simt_go(&r);
		ck_assert_uint_eq(simt_log_n, 2 * ORDER_N * ORDER_K);
		for (size_t i = 0; i < simt_log_n; i++) {
			const simt_rec *x = &simt_log[i];
			size_t j = i % (ORDER_N * ORDER_K);
			ck_assert_uint_eq(x->t, ORDER_AT);
			/* dst first: every event of target 1, then of target 3 */
			ck_assert_uint_eq(x->comp, order_targets[i / (ORDER_N * ORDER_K)]);
			ck_assert_uint_eq(x->src, j / ORDER_K);
			ck_assert_uint_eq(x->tag, j % ORDER_K);
			if (j % ORDER_K)
				ck_assert_uint_gt(x->seq, simt_log[i - 1].seq);
		}
		simt_close(&r);
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
	simt_log_event(c, ev);
	if (ev->kind == K_MSG) {
		ev->kind = K_REPLY;
		sim_send_port(c, ev, ev->dst_port, 7);
	}
}

static const model_ops probe_ops = { .name = "probe", .init = probe_init, .event = probe_event };

/* --- ahead: sends numbered by the model ----------------------------------- */

/*
 * Component 0 sends four events to component 1 arriving at one time: tags
 * 0..3 in that send order, numbered 30, 10, 40, 20 (a model sending ahead
 * numbers its sends by when its plain form would have sent them).
 */
static int ahead_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	static const uint64_t seq[4] = { 30, 10, 40, 20 };

	(void)state, (void)cf, (void)err;
	if (c->id != 0)
		return 0;
	ck_assert_uint_eq(sim_stop_time(c), 1000000); /* simulation.end 1us, no drain */
	for (uint32_t k = 0; k < 4; k++) {
		cxl_event *ev = sim_event_new(c);
		ev->kind = K_MSG;
		ev->pkt.tag = k;
		sim_send_port_seq(c, ev, 0, 100, seq[k]);
	}
	return 0;
}

static void ahead_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	simt_log_event(c, ev);
}

static const model_ops ahead_ops = { .name = "ahead", .init = ahead_init, .event = ahead_event };

START_TEST(test_sim_send_port_seq_orders_same_time_arrivals)
{
	static const uint32_t want_tag[4] = { 1, 3, 0, 2 }; /* by number: 10, 20, 30, 40 */
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &ahead_ops, "A");
	simt_add(&g, &ahead_ops, "B");
	graph_add_link(&g, 0, 0, 1, 0, 5, 1);
	simt_open(&r, &g, "1us", 1);
	simt_init(&r);
	simt_go(&r);
	ck_assert_uint_eq(simt_log_n, 4);
	for (size_t i = 0; i < 4; i++) {
		ck_assert_uint_eq(simt_log[i].t, 105);
		ck_assert_uint_eq(simt_log[i].tag, want_tag[i]);
	}
	simt_close(&r);
	graph_free(&g);
}
END_TEST

START_TEST(test_sim_port_send_delay_latency_peer_port)
{
	/* A.0-B.0 10ps, A.1-C.1 20ps, C.0-D.0 30ps, A.2-B.1 40ps (two A-B links) */
	static const struct { uint32_t a, ap, b, bp; sim_time lat; } L[] = {
		{ 0, 0, 1, 0, 10 }, { 0, 1, 2, 1, 20 }, { 2, 0, 3, 0, 30 }, { 0, 2, 1, 1, 40 },
	};
	static const uint32_t nports[] = { 3, 2, 2, 1 };
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &probe_ops, "A");
	simt_add(&g, &probe_ops, "B");
	simt_add(&g, &probe_ops, "C");
	simt_add(&g, &probe_ops, "D");
	for (size_t i = 0; i < 4; i++)
		graph_add_link(&g, L[i].a, (uint16_t)L[i].ap, L[i].b, (uint16_t)L[i].bp, L[i].lat, 1);
	simt_open(&r, &g, "1us", 1);
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_eq(r.e->local[i]->nports, nports[i]);
	ck_assert_uint_eq(r.e->local[0]->ports[1].peer, 2);
	ck_assert_uint_eq(r.e->local[0]->ports[1].peer_port, 1);
	ck_assert_uint_eq(r.e->local[0]->ports[1].latency, 20);
	ck_assert_uint_eq(r.e->local[1]->ports[1].peer, 0);
	ck_assert_uint_eq(r.e->local[1]->ports[1].peer_port, 2);
	simt_init(&r);
	simt_go(&r);
	ck_assert_uint_eq(simt_log_n, 16); /* 4 links x 2 directions x (message + reply) */
	for (size_t i = 0; i < 4; i++) {
		for (int dir = 0; dir < 2; dir++) {
			uint32_t x = dir ? L[i].b : L[i].a, xp = dir ? L[i].bp : L[i].ap;
			uint32_t y = dir ? L[i].a : L[i].b, yp = dir ? L[i].ap : L[i].bp;
			sim_time t1 = probe_delay(x, (uint16_t)xp) + L[i].lat;
			simt_rec msg = { t1, y, x, 0, (uint16_t)yp, K_MSG, x * 16 + xp };
			simt_rec reply = { t1 + 7 + L[i].lat, x, y, 0, (uint16_t)xp, K_REPLY, x * 16 + xp };
			ck_assert_msg(simt_count(msg) == 1, "link %zu dir %d: message", i, dir);
			ck_assert_msg(simt_count(reply) == 1, "link %zu dir %d: reply", i, dir);
		}
	}
	simt_close(&r);
	graph_free(&g);
}
END_TEST

/* A port send whose delay + link latency passes 2^64 ps panics instead of wrapping. */
static int far_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	if (c->id == 0)
		sim_send_port(c, sim_event_new(c), 0, SIM_TIME_MAX - 5); /* + 10: wraps to 4 */
	return 0;
}

static const model_ops far_ops = { .name = "far", .init = far_init, .event = probe_event };

START_TEST(test_sim_port_send_overflow_panics)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &far_ops, "near");
	simt_add(&g, &far_ops, "far");
	graph_add_link(&g, 0, 0, 1, 0, 10, 1);
	simt_open(&r, &g, "1us", 1);
	panict_expect("near sends on port 0 with delay 18446744073709551610 ps + link latency "
		      "10 ps: the time would overflow");
	simt_init(&r);
	simt_go(&r); /* before the fix: "far" got the message at 4 ps */
	ck_abort_msg("no panic; %zu events logged, the first at %llu ps", simt_log_n,
		     simt_log_n ? (unsigned long long)simt_log[0].t : 0ULL);
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
	simt_log_event(c, ev);
	if (ev->kind == K_TIMER) {
		cxl_event *m = sim_event_new(c);
		m->kind = K_MSG;
		sim_send_self(c, m, 0);
		simt_log_mark(c, 0); /* the handler goes on after the send */
	} else if (ev->kind == K_MSG && ev->pkt.tag < SELF_CHAIN) {
		ev->pkt.tag++;
		sim_send_self(c, ev, 0);
	}
}

static const model_ops selfy_ops = { .name = "selfy", .init = selfy_init, .event = selfy_event };

START_TEST(test_sim_self_send_zero_delay_after_current)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &selfy_ops, "s");
	simt_open(&r, &g, "1us", 1);
	simt_init(&r);
	simt_go(&r);
	ck_assert_uint_eq(simt_log_n, 1 + 1 + (SELF_CHAIN + 1) + 1);
	ck_assert_uint_eq(simt_log[0].kind, K_TIMER);
	ck_assert_uint_eq(simt_log[0].t, 50);
	ck_assert_uint_eq(simt_log[1].kind, K_MARK);
	ck_assert_uint_eq(simt_log[1].t, 50);
	for (uint32_t k = 0; k <= SELF_CHAIN; k++) {
		ck_assert_uint_eq(simt_log[2 + k].kind, K_MSG);
		ck_assert_uint_eq(simt_log[2 + k].t, 50);
		ck_assert_uint_eq(simt_log[2 + k].tag, k);
		ck_assert_uint_eq(simt_log[2 + k].src, 0);
	}
	ck_assert_uint_eq(simt_log[simt_log_n - 1].kind, K_LATE);
	ck_assert_uint_eq(simt_log[simt_log_n - 1].t, 51);
	ck_assert_uint_eq(r.info.events, simt_log_n - 1);
	simt_close(&r);
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
	simt_log_event(c, ev);
	if (c->id == 2 && ev->kind == K_MSG) {
		ev->kind = K_REPLY;
		sim_send_global(c, ev, 0, c->eng->g->global_lookahead);
	}
}

static const model_ops glob_ops = { .name = "glob", .init = glob_init, .event = glob_event };

static void glob_graph(sim_graph *g, sim_time lookahead)
{
	graph_init(g);
	simt_add(g, &glob_ops, "g0");
	simt_add(g, &glob_ops, "g1");
	simt_add(g, &glob_ops, "g2");
	g->global_lookahead = lookahead;
}

START_TEST(test_sim_global_send_at_lookahead)
{
	sim_graph g;
	simt_run r;

	glob_graph(&g, 100);
	glob_delay = 100;
	glob_dst = 2;
	simt_open(&r, &g, "1us", 1);
	simt_init(&r);
	simt_go(&r);
	ck_assert_uint_eq(simt_log_n, 3);
	ck_assert_uint_eq(simt_count((simt_rec){ 100, 2, 0, 0, 0, K_MSG, 0 }), 1);
	ck_assert_uint_eq(simt_count((simt_rec){ 200, 0, 2, 0, 0, K_REPLY, 0 }), 1);
	ck_assert_uint_eq(simt_count((simt_rec){ 250, 1, 0, 0, 0, K_MSG, 0 }), 1);
	simt_close(&r);
	graph_free(&g);
}
END_TEST

static void glob_expect_panic(sim_time lookahead, sim_time delay, uint32_t dst,
			      const char *what)
{
	sim_graph g;
	simt_run r;

	panict_expect(what);
	glob_graph(&g, lookahead);
	glob_delay = delay;
	glob_dst = dst;
	simt_open(&r, &g, "1us", 1);
	simt_init(&r); /* panics */
}

START_TEST(test_sim_global_send_below_lookahead_panics)
{
	glob_expect_panic(100, 99, 2, "g0: global send with delay 99 ps below the declared "
			  "global lookahead 100 ps");
}
END_TEST

START_TEST(test_sim_global_send_without_lookahead_panics)
{
	glob_expect_panic(0, 1000, 2, "g0: global send, but the system declares no global lookahead");
}
END_TEST

START_TEST(test_sim_global_send_unknown_dst_panics)
{
	glob_expect_panic(100, 100, 3, "g0: global send to component 3 of 3");
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

static const model_ops ping_ops = { .name = "ping", .init = ping_init, .event = ping_event };

/* Two components bounce one event each over a 3 ps link for 100 ns. */
static void ping_run(uint64_t want_peak)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &ping_ops, "p0");
	simt_add(&g, &ping_ops, "p1");
	graph_add_link(&g, 0, 0, 1, 0, 3, 1);
	simt_open(&r, &g, "100ns", 1);
	simt_init(&r);
	simt_go(&r);
	/* each handles events at 3 + 5k < 100000: k = 0 .. 19999 */
	ck_assert_uint_eq(r.info.events, 40000);
	ck_assert_uint_eq(r.info.sim_time, 3 + 5 * 19999);
	ck_assert_uint_eq(r.e->pool.live, 2); /* the two still in the queue */
	ck_assert_uint_eq(r.e->pool.peak, want_peak);
	ck_assert_uint_eq(r.info.peak_events, want_peak);
	ck_assert_uint_eq(evq_size(&r.e->q), 2);
	simt_close(&r);
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

/* --- create: link latency 0 ------------------------------------------------ */

START_TEST(test_sim_create_rejects_zero_latency)
{
	sim_graph g;
	simt_run r = { 0 };
	cxl_err err = { 0 };
	const char *sets[] = { "simulation.end=1us" };

	graph_init(&g);
	simt_add(&g, &probe_ops, "alpha");
	simt_add(&g, &probe_ops, "beta");
	simt_add(&g, &probe_ops, "gamma");
	graph_add_link(&g, 0, 0, 2, 0, 5, 1);
	graph_add_link(&g, 1, 0, 0, 1, 5, 1);
	g.link[1].latency = 0; /* graph_add_link itself refuses 0 */
	const cfg_schema *const schemas[] = { &sim_schema };

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

Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *order = simt_case("order", setup);
	TCase *sends = simt_case("sends", setup);
	TCase *misuse = simt_case("misuse", setup);
	TCase *owner = simt_case("ownership", setup);
	TCase *create = simt_case("create", setup);

	tcase_add_test(order, test_sim_equal_times_in_src_seq_order);
	tcase_add_test(sends, test_sim_port_send_delay_latency_peer_port);
	tcase_add_test(sends, test_sim_send_port_seq_orders_same_time_arrivals);
	tcase_add_test(sends, test_sim_self_send_zero_delay_after_current);
	tcase_add_test(sends, test_sim_global_send_at_lookahead);
	tcase_add_test_raise_signal(misuse, test_sim_port_send_overflow_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_below_lookahead_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_without_lookahead_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_global_send_unknown_dst_panics, SIGABRT);
	tcase_add_test(owner, test_sim_resend_reuses_event);
	tcase_add_test(owner, test_sim_unsent_event_returns_to_pool);
	tcase_add_test(create, test_sim_create_rejects_zero_latency);
	suite_add_tcase(s, order);
	suite_add_tcase(s, sends);
	suite_add_tcase(s, misuse);
	suite_add_tcase(s, owner);
	suite_add_tcase(s, create);
	return s;
}
