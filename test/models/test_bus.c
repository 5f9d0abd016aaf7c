/*
 * test/models/test_bus.c - unit tests for the bus model (models/bus.c).
 *
 * Each engine test builds A - bus - B on one rank (component ids 0, 1, 2;
 * links A.0-bus.0 and bus.1-B.0) and runs it to completion.  A and B are
 * test endpoints ("tep"): each is a SOURCE that sends tep.packets_a (A) or
 * tep.packets_b (B) packets per VC on VCs tep.vc .. tep.vc+tep.vcs-1 as
 * fast as the bus's credits allow (its own credit accounting, cxl_proto.h),
 * and a SINK that grants tep.grant credits per VC and returns one per
 * packet consumed, tep.credit_delay later (never for tep.stall_vc).  Both
 * log what they see into eplog[role] (role 0 = A, 1 = B): arrival times,
 * order per VC, hops, latency, the most packets held and in the bus.
 * The config is loaded with cfg_load against sim_schema + cxl_bus_schema
 * + the endpoints' own schema, from --set strings.
 *
 * Covered: ser_time exactness (hand-computed values, a 128-bit reference
 * up to 2^32-1 bytes); saturated goodput within 1% of the analytic rate
 * for Gen2 x1, Gen3 x4, Gen5 x16, Gen6 x16; idle latency to the ps; full
 * duplex doubles the aggregate; half duplex pays the turnaround at each
 * switch and gives at most one direction's bandwidth; back-pressure (no
 * overflow, nothing lost or duplicated, every credit home); VCs do not
 * block each other; parameters change the results; config and wiring
 * errors; a sender that ignores credits panics.
 */
#include "models/bus.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "models/cxl_proto.h"

__extension__ typedef unsigned __int128 u128;

/* --- the test endpoint ------------------------------------------------------ */

enum { TEP_EV_RETURN = CXL_EV_MODEL }; /* timer: return the credit of VC pkt.mclass */
enum { MAXTAG = 20000 };

typedef struct ep_log ep_log;
struct ep_log {
	uint64_t sent;                 /* packets sent */
	uint64_t got;                  /* packets received */
	sim_time first, last;          /* first and last arrival, ps */
	sim_time lat_min, lat_max;     /* arrival - issue, ps */
	uint32_t next[CXL_NVC];        /* next expected tag per VC */
	uint32_t bad;                  /* out of order, duplicate or wrong hops */
	uint32_t held[CXL_NVC];        /* consumed, credit not yet returned */
	uint32_t max_held[CXL_NVC];    /* most held at once */
	uint32_t in_bus[CXL_NVC];      /* sent, bus credit not yet back */
	uint32_t max_in_bus[CXL_NVC];  /* most in the bus at once */
	cxl_credits end_cr;            /* credits held towards the bus at the end */
};

static ep_log eplog[2];

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
	ep_log *log;            /* eplog[role] */
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
	t->log = &eplog[t->role];
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
	ep_log *l = t->log;
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

typedef struct brun brun;
struct brun {
	sim_graph g;        /* A - bus - B */
	cfg *cf;            /* simulation + bus + tep keys */
	sim_engine *e;      /* the engine */
	int32_t rank_of[3]; /* all on rank 0 */
	stats_set table;    /* statistics after the run */
	sim_rank_info info; /* run info */
};

static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema, &tep_schema };

enum { MAXSETS = 16 };

/*
 * brun_open - build A - bus - B (link latencies @la, @lb; @lb 0: no B, the
 * bus has one port), load "simulation.end=1s" and the NULL-terminated
 * @sets, create the engine and run init.  Returns init's code (@err).
 */
static int brun_open(brun *r, sim_time la, sim_time lb, const char *const *sets, cxl_err *err)
{
	const char *all[MAXSETS] = { "simulation.end=1s" };
	size_t n = 1;

	memset(r, 0, sizeof(*r));
	memset(eplog, 0, sizeof(eplog));
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

static void brun_close(brun *r)
{
	sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	cfg_free(r->cf);
	graph_free(&r->g);
}

/* brun_run - open (init must succeed), run to completion, collect. */
static void brun_run(brun *r, sim_time la, sim_time lb, const char *const *sets)
{
	cxl_err err = { 0 };

	ck_assert_msg(brun_open(r, la, lb, sets, &err) == 0, "%s", err.msg);
	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, &err) == 0, "%s", err.msg);
}

/* bstat - the bus's counter @name. */
static uint64_t bstat(const brun *r, const char *name)
{
	const stats_comp *sc = stats_find(&r->table, 1);
	ck_assert_ptr_nonnull(sc);
	const stats_entry *e = stats_get(sc, name);
	ck_assert_msg(e != NULL, "no statistic %s", name);
	return e->value;
}

/* goodput_gbps - payload Gbit/s between the first and the last arrival at @l. */
static double goodput_gbps(const ep_log *l, uint32_t payload)
{
	ck_assert_uint_gt(l->got, 1);
	return (double)(l->got - 1) * payload * 8.0 / (double)(l->last - l->first) * 1e3;
}

static void assert_near(double got, double want, double rel)
{
	ck_assert_msg(got > want * (1 - rel) && got < want * (1 + rel),
		      "got %.6f, want %.6f within %.2f%%", got, want, rel * 100);
}

static void setup(void)
{
	memset(eplog, 0, sizeof(eplog));
}

static void teardown(void)
{
}

enum { LA = 3000, LB = 5000 }; /* link latencies A-bus and bus-B, ps */

/* --- 1. serialisation arithmetic -------------------------------------------- */

START_TEST(test_bus_ser_time_exact)
{
	/* 84 B = 64 B payload + 20 B; 672 bits */
	ck_assert_uint_eq(bus_ser_time(1, 1, BUS_ENC_AUTO, 84), 336000);  /* 2 Gb/s */
	ck_assert_uint_eq(bus_ser_time(2, 1, BUS_ENC_AUTO, 84), 168000);  /* 4 Gb/s */
	ck_assert_uint_eq(bus_ser_time(3, 4, BUS_ENC_AUTO, 84), 21329);   /* 21328.125 */
	ck_assert_uint_eq(bus_ser_time(5, 16, BUS_ENC_AUTO, 84), 1334);   /* 1333.0078 */
	ck_assert_uint_eq(bus_ser_time(6, 16, BUS_ENC_AUTO, 84), 712);    /* 711.86 */
	ck_assert_uint_eq(bus_ser_time(6, 16, BUS_ENC_AUTO, 236), 2000);  /* one flit, 2 ns */
	ck_assert_uint_eq(bus_ser_time(6, 16, BUS_ENC_FLIT, 236), 2000);
	ck_assert_uint_eq(bus_ser_time(4, 8, BUS_ENC_AUTO, 128), 8125);   /* 8 ns x 130/128 */
	ck_assert_uint_eq(bus_ser_time(3, 1, BUS_ENC_FLIT, 236), 260000); /* 256 B x 130/128 */
	ck_assert_uint_eq(bus_ser_time(1, 2, BUS_ENC_128B130B, 3), 4875);
	ck_assert_uint_eq(bus_ser_time(2, 1, BUS_ENC_FLIT, 236), 512000); /* 256 B at 4 Gb/s */
	ck_assert_uint_eq(bus_ser_time(3, 1, BUS_ENC_8B10B, 1), 1250);
	ck_assert_uint_eq(bus_ser_time(5, 16, BUS_ENC_AUTO, 1), 16);      /* 15.87 */
	ck_assert_uint_eq(bus_ser_time(5, 16, BUS_ENC_AUTO, 0), 0);
	ck_assert_uint_eq(bus_ser_time(1, 1, BUS_ENC_8B10B, 8192), 32768000);
}
END_TEST

START_TEST(test_bus_ser_time_no_overflow)
{
	static const uint32_t sizes[] = { 1, 20, 84, 8192, 65791, 1u << 20, 123456789u,
					  UINT32_MAX };
	static const unsigned lanes[] = { 1, 2, 4, 8, 16 };

	for (unsigned gen = 1; gen <= BUS_GEN_MAX; gen++)
		for (int enc = BUS_ENC_AUTO; enc <= BUS_ENC_FLIT; enc++)
			for (size_t l = 0; l < 5; l++)
				for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
					uint32_t num, den;
					bus_efficiency(gen, (enum bus_encoding)enc, &num, &den);
					u128 top = (u128)sizes[s] * 8 * 1000000 * den;
					u128 bot = (u128)bus_lane_mts(gen) * lanes[l] * num;
					u128 want = (top + bot - 1) / bot;
					ck_assert_uint_eq(bus_ser_time(gen, lanes[l],
								       (enum bus_encoding)enc,
								       sizes[s]),
							  (uint64_t)want);
				}
}
END_TEST

START_TEST(test_bus_efficiency_table)
{
	static const struct { unsigned gen; enum bus_encoding enc; uint32_t num, den; } t[] = {
		{ 1, BUS_ENC_AUTO, 4, 5 },     { 2, BUS_ENC_AUTO, 4, 5 },
		{ 3, BUS_ENC_AUTO, 64, 65 },   { 5, BUS_ENC_AUTO, 64, 65 },
		{ 6, BUS_ENC_AUTO, 59, 64 },   { 6, BUS_ENC_FLIT, 59, 64 },
		{ 5, BUS_ENC_FLIT, 59, 65 },   { 2, BUS_ENC_FLIT, 59, 80 },
		{ 5, BUS_ENC_8B10B, 4, 5 },    { 1, BUS_ENC_128B130B, 64, 65 },
		{ 6, BUS_ENC_128B130B, 64, 65 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t num, den;
		bus_efficiency(t[i].gen, t[i].enc, &num, &den);
		ck_assert_uint_eq(num, t[i].num);
		ck_assert_uint_eq(den, t[i].den);
	}
	ck_assert_uint_eq(bus_lane_mts(1), 2500);
	ck_assert_uint_eq(bus_lane_mts(6), 64000);
	ck_assert_uint_eq(bus_lane_mts(0), 0);
	ck_assert_uint_eq(bus_lane_mts(7), 0);
}
END_TEST

START_TEST(test_bus_ser_time_bad_gen_panics)
{
	bus_ser_time(7, 16, BUS_ENC_AUTO, 64);
}
END_TEST

/* --- 2. saturated goodput ------------------------------------------------------ */

enum { NSAT = 4000 };

/* sat_goodput - A sends NSAT 64 B packets to B over a bus set by @sets; Gbit/s. */
static double sat_goodput(const char *gen, const char *lanes)
{
	const char *sets[] = { gen, lanes, "tep.packets_a=4000", NULL }; /* NSAT */
	brun r;

	brun_run(&r, LA, LB, sets);
	ck_assert_uint_eq(eplog[1].got, NSAT);
	ck_assert_uint_eq(eplog[1].bad, 0);
	ck_assert_uint_eq(bstat(&r, "pkts_d0"), NSAT);
	ck_assert_uint_eq(bstat(&r, "wire_bytes_d0"), NSAT * 84);
	ck_assert_uint_eq(bstat(&r, "payload_bytes_d0"), NSAT * 64);
	ck_assert_uint_eq(bstat(&r, "pkts_d1"), 0);
	brun_close(&r);
	return goodput_gbps(&eplog[1], 64);
}

/* Analytic values: GT/s x lanes x encoding x 64 / 84 (by hand, not from bus.c). */
START_TEST(test_bus_goodput_gen2_x1)
{
	assert_near(sat_goodput("bus.gen=2", "bus.lanes=1"), 5.0 * 0.8 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen3_x4)
{
	assert_near(sat_goodput("bus.gen=3", "bus.lanes=4"), 32.0 * 128 / 130 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen5_x16)
{
	assert_near(sat_goodput("bus.gen=5", "bus.lanes=16"), 512.0 * 128 / 130 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen6_x16)
{
	assert_near(sat_goodput("bus.gen=6", "bus.lanes=16"), 1024.0 * 236 / 256 * 64 / 84, 0.01);
}
END_TEST

/* --- 3. idle latency -------------------------------------------------------------- */

START_TEST(test_bus_idle_latency_exact)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "tep.packets_a=1", "tep.packets_b=1",
			       NULL };
	brun r;

	brun_run(&r, LA, LB, sets);
	sim_time want = LA + 21329 + 1000 + LB;
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(eplog[i].got, 1);
		ck_assert_uint_eq(eplog[i].bad, 0); /* hops == 1 */
		ck_assert_uint_eq(eplog[i].lat_min, want);
		ck_assert_uint_eq(eplog[i].lat_max, want);
	}
	ck_assert_uint_eq(bstat(&r, "busy_ps_d0"), 21329);
	ck_assert_uint_eq(bstat(&r, "busy_ps_d1"), 21329);
	brun_close(&r);
}
END_TEST

/* --- 4. duplex ------------------------------------------------------------------------ */

enum { NDUP = 2000 };

/* duplex_run - both ends send NDUP 64 B packets (gen 3 x4, equal links); aggregate Gbit/s. */
static double duplex_run(brun *r, const char *duplex, const char *pb)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", duplex, "tep.packets_a=2000", pb, NULL };

	brun_run(r, LA, LA, sets);
	sim_time first = eplog[1].first, last = eplog[1].last;
	uint64_t got = eplog[0].got + eplog[1].got;
	if (eplog[0].got) {
		first = eplog[0].first < first ? eplog[0].first : first;
		last = eplog[0].last > last ? eplog[0].last : last;
	}
	ck_assert_uint_eq(eplog[0].bad + eplog[1].bad, 0);
	return (double)(got - 1) * 512.0 / (double)(last - first) * 1e3;
}

static const double gen3x4 = 32.0 * 128 / 130 * 64 / 84; /* one direction, Gbit/s */

START_TEST(test_bus_full_duplex_doubles_aggregate)
{
	brun r;
	double agg = duplex_run(&r, "bus.duplex=full", "tep.packets_b=2000");

	assert_near(goodput_gbps(&eplog[0], 64), gen3x4, 0.01);
	assert_near(goodput_gbps(&eplog[1], 64), gen3x4, 0.01);
	assert_near(agg, 2 * gen3x4, 0.01);
	ck_assert_uint_eq(bstat(&r, "busy_ps_d0"), NDUP * 21329);
	ck_assert_uint_eq(bstat(&r, "busy_ps_d1"), NDUP * 21329);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_pays_turnaround)
{
	brun r;
	double agg = duplex_run(&r, "bus.duplex=half", "tep.packets_b=2000");

	/* equal links: both directions always have work, so the bus alternates */
	ck_assert_uint_eq(bstat(&r, "busy_ps_d0") + bstat(&r, "busy_ps_d1"),
			  2 * NDUP * 21329 + (2 * NDUP - 1) * 2000);
	ck_assert_uint_eq(bstat(&r, "pkts_d0"), NDUP);
	ck_assert_uint_eq(bstat(&r, "pkts_d1"), NDUP);
	ck_assert(agg < gen3x4);
	assert_near(agg, 512.0 / (21329 + 2000) * 1e3, 0.01);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_one_way_no_turnaround)
{
	brun r;
	double agg = duplex_run(&r, "bus.duplex=half", "tep.packets_b=0");

	ck_assert_uint_eq(bstat(&r, "busy_ps_d0"), NDUP * 21329);
	ck_assert_uint_eq(bstat(&r, "busy_ps_d1"), 0);
	assert_near(agg, gen3x4, 0.01);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_turnaround_is_a_parameter)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.duplex=half",
			       "bus.turnaround=10ns", "tep.packets_a=1", "tep.packets_b=1", NULL };
	brun r;

	/* B's packet arrives at the bus (2 x LA) while A's is on the wire: it waits,
	 * then pays the turnaround */
	brun_run(&r, LA, LA, sets);
	ck_assert_uint_eq(eplog[1].lat_max, LA + 21329 + 1000 + LA);
	ck_assert_uint_eq(eplog[0].lat_max, LA + 21329 + 10000 + 21329 + 1000 + LA);
	ck_assert_uint_eq(bstat(&r, "busy_ps_d1"), 21329 + 10000);
	brun_close(&r);
}
END_TEST

/* --- 5. back-pressure ----------------------------------------------------------------- */

START_TEST(test_bus_backpressure_slow_sink)
{
	const char *sets[] = { "bus.buffer=4", "bus.gen=5", "bus.lanes=16", "tep.vcs=2",
			       "tep.packets_a=300", "tep.grant=3", "tep.credit_delay=200ns", NULL };
	brun r;

	brun_run(&r, LA, LB, sets);
	const ep_log *a = &eplog[0], *b = &eplog[1];
	ck_assert_uint_eq(a->sent, 600);
	ck_assert_uint_eq(b->got, 600);
	ck_assert_uint_eq(b->bad, 0); /* in order per VC, no loss, no duplicate */
	for (int v = 1; v <= 2; v++) {
		ck_assert_uint_eq(b->next[v], 300);
		ck_assert_uint_eq(b->max_held[v], 3);  /* the sink's grant, reached */
		ck_assert_uint_eq(a->max_in_bus[v], 4); /* bus.buffer, reached */
		ck_assert_uint_eq(a->in_bus[v], 0);
		ck_assert_uint_eq(b->held[v], 0);
	}
	for (int v = 0; v < CXL_NVC; v++)
		ck_assert_uint_eq(a->end_cr.n[v], 4); /* every bus credit home */
	/* the sink's rate bounds the run: 3 packets per VC per 200 ns + loop */
	ck_assert_uint_gt(b->last - b->first, 99 * 200000);
	ck_assert_uint_eq(bstat(&r, "queued_at_end"), 0);
	ck_assert_uint_eq(bstat(&r, "credits_held_p0"), 3 * CXL_NVC); /* A's grant */
	ck_assert_uint_eq(bstat(&r, "credits_held_p1"), 3 * CXL_NVC); /* B's grant */
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_vc_not_blocked_by_stalled_vc)
{
	const char *sets[] = { "bus.buffer=4", "tep.vc=0", "tep.vcs=2", "tep.packets_a=100",
			       "tep.grant=3", "tep.stall_vc=0", NULL };
	brun r;

	brun_run(&r, LA, LB, sets);
	const ep_log *b = &eplog[1];
	ck_assert_uint_eq(b->next[1], 100);  /* VC 1 flows */
	ck_assert_uint_eq(b->next[0], 3);    /* VC 0 stops at the sink's grant */
	ck_assert_uint_eq(b->bad, 0);
	ck_assert_uint_eq(bstat(&r, "queued_at_end"), 4); /* VC 0's FIFO full */
	ck_assert_uint_eq(eplog[0].end_cr.n[0], 0);       /* A has no VC 0 credit */
	ck_assert_uint_eq(bstat(&r, "credits_held_p1"), 3 * CXL_NVC - 3);
	ck_assert_uint_eq(bstat(&r, "credits_held_p0"), 3 * CXL_NVC);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_sender_ignoring_credits_panics)
{
	const char *sets[] = { "bus.buffer=4", "tep.packets_a=5", "tep.rogue=true", NULL };
	brun r;

	brun_run(&r, LA, LB, sets); /* the 5th packet overflows the FIFO */
}
END_TEST

/* --- 6. parameters ---------------------------------------------------------------------- */

/* one_latency - latency of one 64 B packet A -> B under @a and @b. */
static sim_time one_latency(const char *a, const char *b)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "tep.packets_a=1", a, b, NULL };
	brun r;

	brun_run(&r, LA, LB, sets);
	ck_assert_uint_eq(eplog[1].got, 1);
	brun_close(&r);
	return eplog[1].lat_max;
}

START_TEST(test_bus_parameters_change_results)
{
	sim_time base = one_latency("bus.header_bytes=20", "bus.latency=1ns");

	ck_assert_uint_eq(base, LA + bus_ser_time(3, 4, BUS_ENC_AUTO, 84) + 1000 + LB);
	ck_assert_uint_eq(one_latency("bus.header_bytes=40", "bus.latency=1ns"),
			  LA + bus_ser_time(3, 4, BUS_ENC_AUTO, 104) + 1000 + LB);
	ck_assert_uint_eq(one_latency("bus.header_bytes=20", "bus.latency=7ns"), base + 6000);
	ck_assert_uint_eq(one_latency("bus.lanes=1", "bus.latency=1ns"),
			  LA + bus_ser_time(3, 1, BUS_ENC_AUTO, 84) + 1000 + LB);
	ck_assert_uint_eq(one_latency("bus.encoding=flit", "bus.header_bytes=16"),
			  LA + bus_ser_time(3, 4, BUS_ENC_FLIT, 80) + 1000 + LB);
}
END_TEST

START_TEST(test_bus_header_bytes_changes_goodput)
{
	const char *sets[] = { "bus.gen=2", "bus.lanes=1", "bus.header_bytes=36",
			       "tep.packets_a=500", NULL };
	brun r;

	brun_run(&r, LA, LB, sets);
	assert_near(goodput_gbps(&eplog[1], 64), 4.0 * 64 / 100, 0.01);
	ck_assert_uint_eq(bstat(&r, "wire_bytes_d0"), 500 * 100);
	brun_close(&r);
}
END_TEST

/* --- errors ------------------------------------------------------------------------------- */

START_TEST(test_bus_lanes_not_power_of_two)
{
	const char *sets[] = { "bus.lanes=3", NULL };
	cxl_err err = { 0 };
	brun r;

	ck_assert_int_eq(brun_open(&r, LA, LB, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "bus.lanes") && strstr(err.msg, "power of two"), "%s",
		      err.msg);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_needs_two_ports)
{
	const char *sets[] = { NULL };
	cxl_err err = { 0 };
	brun r;

	ck_assert_int_eq(brun_open(&r, LA, 0, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "two linked ports"), "%s", err.msg);
	brun_close(&r);
}
END_TEST

START_TEST(test_bus_schema_defaults)
{
	const char *sets[] = { "simulation.end=1us" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 3, sets, 1, &err), 0);
	ck_assert_int_eq(cfg_int(cf, "bus.gen"), 5);
	ck_assert_int_eq(cfg_int(cf, "bus.lanes"), 16);
	ck_assert_int_eq(cfg_enum(cf, "bus.encoding"), BUS_ENC_AUTO);
	ck_assert_int_eq(cfg_int(cf, "bus.header_bytes"), 20);
	ck_assert_str_eq(cfg_str(cf, "bus.duplex"), "full");
	ck_assert_uint_eq(cfg_time(cf, "bus.turnaround"), 2000);
	ck_assert_uint_eq(cfg_time(cf, "bus.latency"), 1000);
	ck_assert_int_eq(cfg_int(cf, "bus.buffer"), 32);
	ck_assert_str_eq(cxl_bus_ops.name, "bus");
	ck_assert_str_eq(cxl_bus_schema.name, "bus");
	cfg_free(cf);
}
END_TEST

/* --- suite --------------------------------------------------------------------------------- */

static TCase *fixture_case(const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, timeout);
	return tc;
}

Suite *bus_suite(void)
{
	Suite *s = suite_create("bus");
	TCase *ser = fixture_case("ser_time", 10);
	TCase *rate = fixture_case("goodput", 60);
	TCase *lat = fixture_case("latency", 10);
	TCase *dup = fixture_case("duplex", 60);
	TCase *bp = fixture_case("backpressure", 30);
	TCase *par = fixture_case("parameters", 30);
	TCase *errs = fixture_case("errors", 10);

	tcase_add_test(ser, test_bus_ser_time_exact);
	tcase_add_test(ser, test_bus_ser_time_no_overflow);
	tcase_add_test(ser, test_bus_efficiency_table);
	tcase_add_test_raise_signal(ser, test_bus_ser_time_bad_gen_panics, SIGABRT);
	tcase_add_test(rate, test_bus_goodput_gen2_x1);
	tcase_add_test(rate, test_bus_goodput_gen3_x4);
	tcase_add_test(rate, test_bus_goodput_gen5_x16);
	tcase_add_test(rate, test_bus_goodput_gen6_x16);
	tcase_add_test(lat, test_bus_idle_latency_exact);
	tcase_add_test(dup, test_bus_full_duplex_doubles_aggregate);
	tcase_add_test(dup, test_bus_half_duplex_pays_turnaround);
	tcase_add_test(dup, test_bus_half_duplex_one_way_no_turnaround);
	tcase_add_test(dup, test_bus_half_duplex_turnaround_is_a_parameter);
	tcase_add_test(bp, test_bus_backpressure_slow_sink);
	tcase_add_test(bp, test_bus_vc_not_blocked_by_stalled_vc);
	tcase_add_test_raise_signal(bp, test_bus_sender_ignoring_credits_panics, SIGABRT);
	tcase_add_test(par, test_bus_parameters_change_results);
	tcase_add_test(par, test_bus_header_bytes_changes_goodput);
	tcase_add_test(errs, test_bus_lanes_not_power_of_two);
	tcase_add_test(errs, test_bus_needs_two_ports);
	tcase_add_test(errs, test_bus_schema_defaults);
	suite_add_tcase(s, ser);
	suite_add_tcase(s, rate);
	suite_add_tcase(s, lat);
	suite_add_tcase(s, dup);
	suite_add_tcase(s, bp);
	suite_add_tcase(s, par);
	suite_add_tcase(s, errs);
	return s;
}
