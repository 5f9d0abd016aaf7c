/*
 * test/core/test_sim_lazy.c - unit tests for lazy events (core/sim_lazy.c,
 * sim.h sim_send_port_lazy) on one rank.
 *
 * The model: a sender (component 0) sends a lazy message every 7 ps to a
 * receiver (component 1) that is busy or idle in turns of its own 13-ps
 * timer.  An idle receiver lets a message wait (lazy_ok) and absorbs it
 * into a sum; a busy one handles it as an event and answers (a send), and
 * its timers log the sum it has seen.  Queuing every event
 * (opt.eager) is the reference.  Plain runs apply a waiting message to the
 * sum at its send, so the receiver reads the sum less what has not arrived
 * (sim_lazy_early), as the models read their credit counts; --check-lazy
 * (opt.check_lazy) absorbs it just before the receiver's next event.
 *
 * Covered, both ways: the same log (every sum at every timer, every answer at its
 * time, the final sum) lazy and eager, with fewer queued events and every
 * send counted once (events + lazy_events = eager events); the events
 * still waiting when the run ends are taken in before the finish hooks; a model that forgets to recheck when it turns
 * busy, and an absorb that sends, are panics, not silent differences.
 */
#include <check.h>
#include <signal.h>
#include <string.h>

#include "core/sim_int.h"
#include "test/core/panic_fixture.h"
#include "test/core/sim_fixture.h"

/* LZ_QUIET: the receiver's last flip (to idle) comes after it; the messages after
   that wait until the end of the run */
enum { LZ_SENDS = 150, LZ_PERIOD = 7, LZ_FLIP = 13, LZ_QUIET = 600 };

typedef struct lz_state lz_state;
struct lz_state {
	uint32_t step;  /* sender: messages sent */
	uint64_t sum;   /* receiver: tags taken in so far (lz_sum) */
	int busy;       /* receiver: messages act now (not lazy) */
};

static int lz_recheck = 1;    /* the receiver calls sim_lazy_recheck when it turns busy */
static int lz_absorb_sends;   /* a wrong absorb that sends */
static int lz_check = 1;      /* opt.check_lazy (--check-lazy) */

/* lz_sum - the receiver's sum: what has arrived (sim_lazy_early: applied, not yet arrived) */
static uint32_t lz_sum(sim_comp *c, const lz_state *s)
{
	return (uint32_t)(s->sum - sim_lazy_early(c, 0, 0));
}

static void setup(void)
{
	lz_recheck = 1;
	lz_absorb_sends = 0;
	lz_check = 1;
}

static int lz_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state, (void)cf, (void)err;
	cxl_event *t = sim_event_new(c);
	t->kind = K_TIMER;
	sim_send_self(c, t, c->id ? 5 : 1);
	return 0;
}

static void lz_event(sim_comp *c, void *state, cxl_event *ev)
{
	lz_state *s = state;

	if (c->id == 0) { /* sender */
		if (ev->kind == K_REPLY) {
			simt_log_event(c, ev);
			return;
		}
		sim_send_port_lazy(c, 0, s->step % 3, K_MSG, 0, (uint16_t)(s->step + 1));
		if (++s->step < LZ_SENDS)
			sim_send_self(c, ev, LZ_PERIOD);
		return;
	}
	if (ev->kind == K_MSG) { /* a busy receiver answers; an idle one only adds */
		s->sum += ev->pkt.aux;
		if (!s->busy)
			return;
		cxl_event *r = sim_event_new(c);
		r->kind = K_REPLY;
		r->pkt.tag = lz_sum(c, s);
		sim_send_port(c, r, 0, 0);
		return;
	}
	s->busy = !s->busy;
	simt_log_mark(c, lz_sum(c, s));
	if (sim_now(c) < LZ_QUIET || s->busy) /* then idle, with no event of its own */
		sim_send_self(c, ev, LZ_FLIP);
	if (s->busy && lz_recheck)
		sim_lazy_recheck(c);
}

/* lz_finish - the receiver logs the sum it ends with. */
static void lz_finish(sim_comp *c, void *state)
{
	const lz_state *s = state;

	if (c->id == 1)
		simt_log_mark(c, (uint32_t)s->sum);
}

static int lz_ok(const sim_comp *c, const void *state, const sim_lazy *l)
{
	const lz_state *s = state;

	(void)c, (void)l;
	return !s->busy;
}

static void lz_absorb(sim_comp *c, void *state, const sim_lazy *l, int dir)
{
	lz_state *s = state;

	s->sum += dir > 0 ? l->aux : -(uint64_t)l->aux;
	if (lz_absorb_sends) {
		cxl_event *r = sim_event_new(c);
		r->kind = K_REPLY;
		sim_send_port(c, r, 0, 0);
	}
}

static const model_ops lz_ops = {
	.name = "lz",
	.state_size = sizeof(lz_state),
	.init = lz_init,
	.event = lz_event,
	.finish = lz_finish,
	.lazy_ok = lz_ok,
	.lazy_absorb = lz_absorb,
};

/* lz_run - run the pair (eager or lazy); copy the log into @log, the info into @info. */
static size_t lz_run(int eager, simt_rec *log, sim_rank_info *info)
{
	sim_graph g;
	simt_run r;

	graph_init(&g);
	simt_add(&g, &lz_ops, "tx");
	simt_add(&g, &lz_ops, "rx");
	graph_add_link(&g, 0, 0, 1, 0, 10, 1);
	simt_open(&r, &g, "10us", 1);
	r.e->opt.eager = eager;
	r.e->opt.check_lazy = lz_check;
	simt_log_n = 0;
	simt_init(&r);
	simt_go(&r);
	size_t n = simt_log_n;
	memcpy(log, simt_log, n * sizeof(*log));
	*info = r.info;
	simt_close(&r);
	graph_free(&g);
	return n;
}

static simt_rec log_eager[SIMT_LOG_MAX], log_lazy[SIMT_LOG_MAX];

/* lz_same_as_eager - the lazy run's log equals the eager one's (opt.check_lazy = lz_check) */
static void lz_same_as_eager(void)
{
	sim_rank_info ie, il;
	size_t ne = lz_run(1, log_eager, &ie), nl = lz_run(0, log_lazy, &il);

	ck_assert_uint_gt(ne, 40);
	ck_assert_uint_eq(nl, ne);
	for (size_t i = 0; i < ne; i++)
		ck_assert_msg(!memcmp(&log_eager[i], &log_lazy[i], sizeof(log_eager[i])),
			      "entry %zu differs: eager t %llu tag %u, lazy t %llu tag %u", i,
			      (unsigned long long)log_eager[i].t, log_eager[i].tag,
			      (unsigned long long)log_lazy[i].t, log_lazy[i].tag);
	ck_assert_uint_eq(ie.lazy_events, 0);
	ck_assert_uint_gt(il.lazy_events, LZ_SENDS / 4);      /* idle half the time */
	ck_assert_uint_lt(il.lazy_events, LZ_SENDS);          /* busy the other half */
	ck_assert_uint_eq(il.events + il.lazy_events, ie.events);
	/* the messages after the receiver's last event waited for the end: all taken in */
	ck_assert_uint_eq(log_lazy[nl - 1].tag, LZ_SENDS * (LZ_SENDS + 1) / 2);
}

/* applied at the send (plain runs) */
START_TEST(test_lazy_same_log_as_eager)
{
	lz_check = 0;
	lz_same_as_eager();
}
END_TEST

/* absorbed before the receiver's next event, checked (--check-lazy) */
START_TEST(test_lazy_same_log_as_eager_checked)
{
	lz_same_as_eager();
}
END_TEST

START_TEST(test_lazy_missed_recheck_panics)
{
	sim_rank_info info;

	lz_recheck = 0;
	panict_expect("rx: a lazy event (kind 2, port 0, ");
	lz_run(0, log_lazy, &info);
	ck_abort_msg("no panic");
}
END_TEST

/*
 * Without --check-lazy the contract is not checked: the same wrong model runs
 * to its end with results that differ from queuing every event, which is
 * what the option (and t_lazy.sh, which runs with it) is there to catch.
 */
START_TEST(test_lazy_checks_off_without_option)
{
	sim_rank_info ie, il;

	size_t ne = lz_run(1, log_eager, &ie);
	lz_recheck = 0;
	lz_check = 0;
	size_t nl = lz_run(0, log_lazy, &il);
	ck_assert_uint_gt(il.lazy_events, 0);
	ck_assert(nl != ne || memcmp(log_eager, log_lazy, ne * sizeof(*log_lazy)));
}
END_TEST

START_TEST(test_lazy_absorb_that_sends_panics)
{
	sim_rank_info info;

	lz_absorb_sends = 1;
	panict_expect("rx sent while it absorbed a lazy event");
	lz_run(0, log_lazy, &info);
	ck_abort_msg("no panic");
}
END_TEST

Suite *sim_lazy_suite(void)
{
	Suite *s = suite_create("sim_lazy");
	TCase *tc = simt_case("lazy", setup);

	tcase_add_test(tc, test_lazy_same_log_as_eager);
	tcase_add_test(tc, test_lazy_same_log_as_eager_checked);
	tcase_add_test_raise_signal(tc, test_lazy_missed_recheck_panics, SIGABRT);
	tcase_add_test_raise_signal(tc, test_lazy_absorb_that_sends_panics, SIGABRT);
	tcase_add_test(tc, test_lazy_checks_off_without_option);
	suite_add_tcase(s, tc);
	return s;
}
