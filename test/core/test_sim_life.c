/*
 * test/core/test_sim_life.c - unit tests for the engine (core/sim.c,
 * core/sync.c) on one rank: event ownership (keep and send later, keep and
 * free, sending an event the model does not own panics), the end time is
 * exclusive, statistics and run info from sim_engine_collect, an init
 * failure is reported, per-component RNG streams depend only on (seed,
 * id).  Harness: test/core/sim_fixture.h; the
 * order of events and the sends: test_sim.c.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "test/core/panic_fixture.h"
#include "test/core/sim_fixture.h"

/* Test-model parameters, set by a test before sim_engine_init. */
static int own_mode;             /* owner: what the holder does (enum below) */
static cxl_event *kept_ptr;      /* owner: the kept event */
static uint32_t init_order[16];  /* stat/fail: components whose init ran, in order */
static size_t init_n;
static uint32_t finished[4], nfinished; /* fail: components whose finish ran */

static void setup(void)
{
	own_mode = 0;
	kept_ptr = NULL;
	init_n = 0;
	nfinished = 0;
}

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
		simt_log_event(c, ev);
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
	.name = "owner",
	.state_size = sizeof(owner_state),
	.init = owner_init,
	.event = owner_event,
};

static void owner_run(int mode, simt_run *r, sim_graph *g)
{
	own_mode = mode;
	graph_init(g);
	simt_add(g, &owner_ops, "holder");
	simt_add(g, &owner_ops, "sink");
	graph_add_link(g, 0, 0, 1, 0, 10, 1);
	simt_open(r, g, "1us", 1);
	simt_init(r);
	simt_go(r);
}

START_TEST(test_sim_keep_then_send_later)
{
	sim_graph g;
	simt_run r;

	owner_run(OWN_KEEP_SEND, &r, &g);
	ck_assert_uint_eq(simt_log_n, 1);
	ck_assert_uint_eq(simt_count((simt_rec){ 5 + 20 + 10, 1, 0, 0, 0, K_MSG, 77 }), 1);
	ck_assert_uint_eq(r.info.events, 3); /* message, timer, delivery */
	ck_assert_uint_eq(r.e->pool.live, 0);
	ck_assert_uint_eq(r.e->pool.peak, 2); /* kept message + timer */
	simt_close(&r);
	graph_free(&g);
}
END_TEST

START_TEST(test_sim_keep_then_free)
{
	sim_graph g;
	simt_run r;

	owner_run(OWN_KEEP_FREE, &r, &g);
	ck_assert_uint_eq(simt_log_n, 0);
	ck_assert_uint_eq(r.info.events, 2);
	ck_assert_uint_eq(r.e->pool.live, 0);
	simt_close(&r);
	graph_free(&g);
}
END_TEST

START_TEST(test_sim_send_handled_event_twice_panics)
{
	sim_graph g;
	simt_run r;

	panict_expect("holder sends an event it does not own (owner 2)");
	owner_run(OWN_SEND_TWICE, &r, &g);
}
END_TEST

START_TEST(test_sim_send_new_event_twice_panics)
{
	sim_graph g;
	simt_run r;

	panict_expect("holder sends an event it does not own (owner 2)");
	owner_run(OWN_NEW_SEND_TWICE, &r, &g);
}
END_TEST

START_TEST(test_sim_free_queued_event_panics)
{
	sim_graph g;
	simt_run r;

	panict_expect("assertion failed: ev->owner == CXL_OWN_MODEL || ev->owner == CXL_OWN_HANDLER");
	owner_run(OWN_FREE_QUEUED, &r, &g);
}
END_TEST

START_TEST(test_sim_keep_unhandled_event_panics)
{
	sim_graph g;
	simt_run r;

	panict_expect("assertion failed: ev->owner == CXL_OWN_HANDLER");
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
	simt_log_event(c, ev);
}

static const model_ops ender_ops = { .name = "ender", .init = ender_init, .event = ender_event };

/* ender_run - events at end + 1, end, end - 1 and 0 (tags 0..3); @tags ran. */
static void ender_run(const char *end, sim_time want_end, const uint32_t *tags,
		      const sim_time *times, size_t n)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &ender_ops, "e");
	simt_open(&r, &g, end, 1);
	simt_init(&r);
	ck_assert_uint_eq(end_at, want_end);
	simt_go(&r);
	ck_assert_uint_eq(simt_log_n, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(simt_log[i].tag, tags[i]);
		ck_assert_uint_eq(simt_log[i].t, times[i]);
	}
	ck_assert_uint_eq(r.info.events, n);
	ck_assert_uint_eq(r.info.sim_time, times[n - 1]);
	ck_assert_uint_eq(r.info.windows, 1);
	/* the events at end and end + 1 stay queued; destroy frees them */
	ck_assert_uint_eq(evq_size(&r.e->q), 2);
	simt_close(&r);
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
	.name = "stat",
	.state_size = sizeof(stat_state),
	.init = stat_init,
	.event = stat_event,
	.finish = stat_finish,
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

static const model_ops silent_ops = {
	.name = "silent",
	.init = silent_init,
	.event = silent_event,
};

START_TEST(test_sim_collect_stats_and_info)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &stat_ops, "s0");
	simt_add(&g, &stat_ops, "s1");
	simt_add(&g, &silent_ops, "quiet");
	simt_add(&g, &stat_ops, "s3");
	simt_open(&r, &g, "1us", 1);
	simt_init(&r);
	ck_assert_uint_eq(init_n, 4);
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_eq(init_order[i], i);
	simt_go(&r);

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
		ck_assert_uint_eq(*h->value, i + 1);
		ck_assert_uint_eq(*s->value, i + 1);
		ck_assert_uint_eq(*f->value, 1); /* finish ran once, before collection */
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
	simt_close(&r);
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

static void fail_finish(sim_comp *c, void *state)
{
	(void)state;
	finished[nfinished++] = c->id;
}

static const model_ops fail_ops = {
	.name = "fail",
	.init = fail_init,
	.event = silent_event,
	.finish = fail_finish,
};

START_TEST(test_sim_init_error_reported)
{
	sim_graph g;
	simt_run r;
	cxl_err err = { 0 };

	graph_init(&g);
	simt_add(&g, &fail_ops, "f0");
	simt_add(&g, &fail_ops, "f1");
	simt_add(&g, &fail_ops, "f2");
	simt_open(&r, &g, "1us", 1);
	ck_assert_int_eq(sim_engine_init(r.e, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "f1 refuses") != NULL, "%s", err.msg);
	ck_assert_uint_eq(init_n, 2); /* f2's init is not called */
	/* f0's init succeeded: its finish hook releases what init took (the
	 * config fuzzer found requesters' caches leaked when a later bus failed) */
	ck_assert_uint_eq(nfinished, 1);
	ck_assert_uint_eq(finished[0], 0);
	simt_close(&r);
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

static const model_ops dice_ops = {
	.name = "dice",
	.state_size = sizeof(dice_state),
	.init = dice_init,
	.event = dice_event,
};

static const dice_state *dice_of(const simt_run *r, uint32_t id)
{
	return r->e->local[id]->state;
}

START_TEST(test_sim_rng_depends_on_seed_and_id)
{
	enum { NC = 5 };
	sim_graph g;
	simt_run a, b, d;

	graph_init(&g);
	for (uint32_t i = 0; i < NC; i++)
		simt_add(&g, &dice_ops, "d");
	simt_open(&a, &g, "1us", 42);
	simt_open(&b, &g, "1us", 42);
	simt_open(&d, &g, "1us", 43);
	simt_init(&a);
	simt_init(&b);
	simt_init(&d);
	simt_go(&a);
	simt_go(&b);
	simt_go(&d);
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
	simt_close(&a);
	simt_close(&b);
	simt_close(&d);
	graph_free(&g);
}
END_TEST

/* --- suite ------------------------------------------------------------------- */

Suite *sim_life_suite(void)
{
	Suite *s = suite_create("sim_life");
	TCase *misuse = simt_case("misuse", setup);
	TCase *owner = simt_case("ownership", setup);
	TCase *end = simt_case("end", setup);
	TCase *collect = simt_case("collect", setup);
	TCase *rng = simt_case("rng", setup);

	tcase_add_test_raise_signal(misuse, test_sim_send_handled_event_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_send_new_event_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_free_queued_event_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_sim_keep_unhandled_event_panics, SIGABRT);
	tcase_add_test(owner, test_sim_keep_then_send_later);
	tcase_add_test(owner, test_sim_keep_then_free);
	tcase_add_test(end, test_sim_end_is_exclusive);
	tcase_add_test(end, test_sim_end_one_ps);
	tcase_add_test(collect, test_sim_collect_stats_and_info);
	tcase_add_test(collect, test_sim_init_error_reported);
	tcase_add_test(rng, test_sim_rng_depends_on_seed_and_id);
	suite_add_tcase(s, misuse);
	suite_add_tcase(s, owner);
	suite_add_tcase(s, end);
	suite_add_tcase(s, collect);
	suite_add_tcase(s, rng);
	return s;
}
