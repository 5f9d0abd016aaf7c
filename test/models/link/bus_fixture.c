/*
 * test/models/link/bus_fixture.c - the test endpoint ("tep") and the engine
 * harness shared by the bus unit tests; the contract is in bus_fixture.h.
 *
 * The endpoint is a model of its own (tep_ops, keys tep.*): a source that
 * respects the bus's credits (or ignores them: tep.rogue, to test the
 * bus's overflow panic) and a sink that returns its credits after a delay.
 * Its checks: packets per VC arrive with consecutive tags (so nothing is
 * lost, duplicated or reordered) and hops == 1 (one bus crossed).
 */
#include "test/models/link/bus_fixture.h"

#include <check.h>
#include <string.h>

#include "models/link/bus.h"

/* --- the test endpoint ------------------------------------------------------ */

enum { TEP_EV_RETURN = CXL_EV_MODEL }; /* timer: return the credit of VC pkt.mclass */

bfx_log bfx_ep[2];

typedef struct tep tep;
struct tep {
	int role;               /* 0 = A, 1 = B */
	uint32_t quota;         /* packets to send per VC */
	uint32_t sent[CXL_NVC]; /* sent per VC */
	uint32_t vc, vcs;       /* VCs used: vc .. vc + vcs - 1 */
	uint16_t payload;       /* payload bytes per packet */
	sim_time credit_delay;  /* consumption to credit return, ps */
	int stall_vc;           /* VC whose credits are never returned, -1 none */
	int rogue;              /* 1: ignore credits */
	cxl_credits cr;         /* credits held towards the bus */
	bfx_log *log;           /* bfx_ep[role] */
};

static const cfg_key tep_keys[] = {
	{ "tep.packets_a", CFG_INT, "0", "0", "20000", NULL, "packets per VC from A" },
	{ "tep.packets_b", CFG_INT, "0", "0", "20000", NULL, "packets per VC from B" },
	{ "tep.payload", CFG_INT, "64", "0", "4096", NULL, "payload bytes per packet" },
	{ "tep.vc", CFG_INT, "1", "0", "5", NULL, "first VC used" },
	{ "tep.vcs", CFG_INT, "1", "1", "6", NULL, "number of VCs used" },
	{ "tep.grant", CFG_INT, "64", "1", "4096", NULL, "credits per VC an endpoint grants" },
	{ "tep.credit_delay", CFG_TIME, "0ps", "0ps", NULL, NULL, "consumption to credit return" },
	{ "tep.stall_vc", CFG_INT, "-1", "-1", "5", NULL, "VC whose credits never return" },
	{ "tep.rogue", CFG_BOOL, "false", NULL, NULL, NULL, "A ignores credits" },
};

static const cfg_schema tep_schema = { "tep", tep_keys, sizeof(tep_keys) / sizeof(tep_keys[0]) };

/* tep_send_all - send, VC by VC in turn, every packet a credit allows. */
static void tep_send_all(sim_comp *c, tep *t)
{
	for (int progress = 1; progress;) {
		progress = 0;
		for (uint32_t v = t->vc; v < t->vc + t->vcs; v++) {
			if (t->sent[v] == t->quota || (!t->rogue && !t->cr.n[v]))
				continue;
			cxl_event *ev = sim_event_new(c);
			ev->kind = CXL_EV_PKT;
			ev->pkt = (cxl_packet){ .issue = sim_now(c), .tag = t->sent[v]++,
						.size = t->payload, .mclass = (uint8_t)v };
			if (!t->rogue)
				t->cr.n[v]--;
			if (++t->log->in_bus[v] > t->log->max_in_bus[v])
				t->log->max_in_bus[v] = t->log->in_bus[v];
			t->log->sent++;
			sim_send_port(c, ev, 0, 0);
			progress = 1;
		}
	}
}

static int tep_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	tep *t = state;

	(void)err;
	t->role = c->id == 0 ? 0 : 1;
	t->log = &bfx_ep[t->role];
	t->quota = (uint32_t)cfg_int(cf, t->role ? "tep.packets_b" : "tep.packets_a");
	t->payload = (uint16_t)cfg_int(cf, "tep.payload");
	t->vc = (uint32_t)cfg_int(cf, "tep.vc");
	t->vcs = (uint32_t)cfg_int(cf, "tep.vcs");
	t->credit_delay = cfg_time(cf, "tep.credit_delay");
	t->stall_vc = (int)cfg_int(cf, "tep.stall_vc");
	t->rogue = t->role == 0 && cfg_bool(cf, "tep.rogue");
	ck_assert_uint_le(t->vc + t->vcs, CXL_NVC);
	cxl_grant_all_ports(c, (uint16_t)cfg_int(cf, "tep.grant"));
	if (t->rogue)
		tep_send_all(c, t);
	return 0;
}

/* tep_consume - log a packet's arrival and schedule (or skip) its credit. */
static void tep_consume(sim_comp *c, tep *t, cxl_event *ev)
{
	bfx_log *l = t->log;
	uint8_t v = ev->pkt.mclass;
	sim_time lat = sim_now(c) - ev->pkt.issue;

	if (!l->got++) {
		l->first = sim_now(c);
		l->lat_min = lat;
	}
	l->last = sim_now(c);
	l->lat_min = lat < l->lat_min ? lat : l->lat_min;
	l->lat_max = lat > l->lat_max ? lat : l->lat_max;
	l->bad += v >= CXL_NVC || ev->pkt.tag != l->next[v] || ev->pkt.hops != 1;
	if (v >= CXL_NVC)
		return;
	l->next[v] = ev->pkt.tag + 1;
	if (++l->held[v] > l->max_held[v])
		l->max_held[v] = l->held[v];
	if ((int)v == t->stall_vc)
		return;
	ev->kind = TEP_EV_RETURN;
	sim_send_self(c, ev, t->credit_delay);
}

static void tep_event(sim_comp *c, void *state, cxl_event *ev)
{
	tep *t = state;

	switch (ev->kind) {
	case CXL_EV_CREDIT:
		if (ev->pkt.mclass != CXL_VC_ALL)
			t->log->in_bus[ev->pkt.mclass]--;
		cxl_credit_apply(&t->cr, ev);
		tep_send_all(c, t);
		break;
	case CXL_EV_PKT:
		tep_consume(c, t, ev);
		break;
	case TEP_EV_RETURN:
		t->log->held[ev->pkt.mclass]--;
		cxl_grant(c, 0, ev->pkt.mclass, 1);
		break;
	default:
		ck_abort_msg("tep: event kind %u", ev->kind);
	}
}

static void tep_finish(sim_comp *c, void *state)
{
	tep *t = state;

	(void)c;
	t->log->end_cr = t->cr;
}

static const model_ops tep_ops = {
	.name = "tep",
	.state_size = sizeof(tep),
	.init = tep_init,
	.event = tep_event,
	.finish = tep_finish,
};

/* --- harness ----------------------------------------------------------------- */

static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema, &tep_schema };

enum { MAXSETS = 16 };

/**
 * bfx_open - build A - bus - B (link latencies @la, @lb; @lb 0: no B, the
 * bus has one port), load "simulation.end=1s" and the NULL-terminated
 * @sets, create the engine and run init.  Returns init's code (@err).
 */
int bfx_open(bfx *r, sim_time la, sim_time lb, const char *const *sets, cxl_err *err)
{
	const char *all[MAXSETS] = { "simulation.end=1s" };
	size_t n = 1;

	memset(r, 0, sizeof(*r));
	memset(bfx_ep, 0, sizeof(bfx_ep));
	stats_set_init(&r->table);
	while (*sets && n < MAXSETS)
		all[n++] = *sets++;
	ck_assert_msg(cfg_load(&r->cf, NULL, schemas, 3, all, n, err) == 0, "%s", err->msg);
	graph_init(&r->g);
	graph_add_comp(&r->g, &tep_ops, "A", 1);
	graph_add_comp(&r->g, &cxl_bus_ops, "bus", 1);
	graph_add_link(&r->g, 0, 0, 1, 0, la, 1);
	if (lb) {
		graph_add_comp(&r->g, &tep_ops, "B", 1);
		graph_add_link(&r->g, 1, 1, 2, 0, lb, 1);
	}
	sim_opts o = { .rank = 0, .nranks = 1, .seed = 1, .end = cfg_time(r->cf, "simulation.end") };
	r->e = sim_engine_create(&r->g, r->rank_of, r->cf, &o, err);
	ck_assert_msg(r->e != NULL, "%s", err->msg);
	return sim_engine_init(r->e, err);
}

/* bfx_close - free what bfx_open made. */
void bfx_close(bfx *r)
{
	sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	cfg_free(r->cf);
	graph_free(&r->g);
}

/* bfx_run - open (init must succeed), run to completion, collect. */
void bfx_run(bfx *r, sim_time la, sim_time lb, const char *const *sets)
{
	cxl_err err = { 0 };

	ck_assert_msg(bfx_open(r, la, lb, sets, &err) == 0, "%s", err.msg);
	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, &err) == 0, "%s", err.msg);
}

/* bfx_stat - the bus's counter @name. */
uint64_t bfx_stat(const bfx *r, const char *name)
{
	const stats_comp *sc = stats_find(&r->table, 1);
	ck_assert_ptr_nonnull(sc);
	const stats_entry *e = stats_get(sc, name);
	ck_assert_msg(e != NULL, "no statistic %s", name);
	return *e->value;
}

/* bfx_has_stat - 1 if the bus registered @name. */
int bfx_has_stat(const bfx *r, const char *name)
{
	const stats_comp *sc = stats_find(&r->table, 1);
	ck_assert_ptr_nonnull(sc);
	return stats_get(sc, name) != NULL;
}

/* bfx_goodput_gbps - payload Gbit/s between the first and the last arrival at @l. */
double bfx_goodput_gbps(const bfx_log *l, uint32_t payload)
{
	ck_assert_uint_gt(l->got, 1);
	return (double)(l->got - 1) * payload * 8.0 / (double)(l->last - l->first) * 1e3;
}

/* bfx_assert_near - @got within @rel of @want. */
void bfx_assert_near(double got, double want, double rel)
{
	ck_assert_msg(got > want * (1 - rel) && got < want * (1 + rel),
		      "got %.6f, want %.6f within %.2f%%", got, want, rel * 100);
}

/* bfx_setup - every engine test starts with clean endpoint logs. */
void bfx_setup(void)
{
	memset(bfx_ep, 0, sizeof(bfx_ep));
}

/* bfx_teardown - nothing to undo (bfx_close frees each run). */
void bfx_teardown(void)
{
}

TCase *bfx_case(const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, bfx_setup, bfx_teardown);
	tcase_set_timeout(tc, timeout);
	return tc;
}
