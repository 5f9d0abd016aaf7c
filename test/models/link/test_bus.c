/*
 * test/models/link/test_bus.c - unit tests for the bus model (models/link/bus.c,
 * bus_tx.c) without its data-link layer (test_bus_replay.c has those).
 *
 * Each engine test builds A - bus - B on one rank with the harness of
 * bus_fixture.h and runs it to completion: A and B are test endpoints
 * that send as fast as the bus's credits allow and return credits after a
 * delay, and log what they see into bfx_ep[role] (role 0 = A, 1 = B).
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
#include "models/link/bus.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/proto/cxl_proto.h"
#include "test/core/panic_fixture.h"
#include "test/models/link/bus_fixture.h"

__extension__ typedef unsigned __int128 u128;

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
	panict_expect("bus_ser_time: gen 7 lanes 16 (gen 1..6, lanes >= 1)");
	bus_ser_time(7, 16, BUS_ENC_AUTO, 64);
}
END_TEST

/* --- 2. saturated goodput ------------------------------------------------------ */

enum { NSAT = 4000 };

/* sat_goodput - A sends NSAT 64 B packets to B over a bus set by @sets; Gbit/s. */
static double sat_goodput(const char *gen, const char *lanes)
{
	const char *sets[] = { gen, lanes, "tep.packets_a=4000", NULL }; /* NSAT */
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	ck_assert_uint_eq(bfx_ep[1].got, NSAT);
	ck_assert_uint_eq(bfx_ep[1].bad, 0);
	ck_assert_uint_eq(bfx_stat(&r, "pkts_d0"), NSAT);
	ck_assert_uint_eq(bfx_stat(&r, "wire_bytes_d0"), NSAT * 84);
	ck_assert_uint_eq(bfx_stat(&r, "payload_bytes_d0"), NSAT * 64);
	ck_assert_uint_eq(bfx_stat(&r, "pkts_d1"), 0);
	bfx_close(&r);
	return bfx_goodput_gbps(&bfx_ep[1], 64);
}

/* Analytic values: GT/s x lanes x encoding x 64 / 84 (by hand, not from bus.c). */
START_TEST(test_bus_goodput_gen2_x1)
{
	bfx_assert_near(sat_goodput("bus.gen=2", "bus.lanes=1"), 5.0 * 0.8 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen3_x4)
{
	bfx_assert_near(sat_goodput("bus.gen=3", "bus.lanes=4"), 32.0 * 128 / 130 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen5_x16)
{
	bfx_assert_near(sat_goodput("bus.gen=5", "bus.lanes=16"), 512.0 * 128 / 130 * 64 / 84, 0.01);
}
END_TEST

START_TEST(test_bus_goodput_gen6_x16)
{
	bfx_assert_near(sat_goodput("bus.gen=6", "bus.lanes=16"), 1024.0 * 236 / 256 * 64 / 84, 0.01);
}
END_TEST

/* --- 3. idle latency -------------------------------------------------------------- */

START_TEST(test_bus_idle_latency_exact)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "tep.packets_a=1", "tep.packets_b=1",
			       NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	sim_time want = BFX_LA + 21329 + 1000 + BFX_LB;
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(bfx_ep[i].got, 1);
		ck_assert_uint_eq(bfx_ep[i].bad, 0); /* hops == 1 */
		ck_assert_uint_eq(bfx_ep[i].lat_min, want);
		ck_assert_uint_eq(bfx_ep[i].lat_max, want);
	}
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0"), 21329);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), 21329);
	bfx_close(&r);
}
END_TEST

/* --- 4. duplex ------------------------------------------------------------------------ */

enum { NDUP = 2000 };

/* duplex_run - both ends send NDUP 64 B packets (gen 3 x4, equal links); aggregate Gbit/s. */
static double duplex_run(bfx *r, const char *duplex, const char *pb)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", duplex, "tep.packets_a=2000", pb, NULL };

	bfx_run(r, BFX_LA, BFX_LA, sets);
	sim_time first = bfx_ep[1].first, last = bfx_ep[1].last;
	uint64_t got = bfx_ep[0].got + bfx_ep[1].got;
	if (bfx_ep[0].got) {
		first = bfx_ep[0].first < first ? bfx_ep[0].first : first;
		last = bfx_ep[0].last > last ? bfx_ep[0].last : last;
	}
	ck_assert_uint_eq(bfx_ep[0].bad + bfx_ep[1].bad, 0);
	return (double)(got - 1) * 512.0 / (double)(last - first) * 1e3;
}

static const double gen3x4 = 32.0 * 128 / 130 * 64 / 84; /* one direction, Gbit/s */

START_TEST(test_bus_full_duplex_doubles_aggregate)
{
	bfx r;
	double agg = duplex_run(&r, "bus.duplex=full", "tep.packets_b=2000");

	bfx_assert_near(bfx_goodput_gbps(&bfx_ep[0], 64), gen3x4, 0.01);
	bfx_assert_near(bfx_goodput_gbps(&bfx_ep[1], 64), gen3x4, 0.01);
	bfx_assert_near(agg, 2 * gen3x4, 0.01);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0"), NDUP * 21329);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), NDUP * 21329);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_pays_turnaround)
{
	bfx r;
	double agg = duplex_run(&r, "bus.duplex=half", "tep.packets_b=2000");

	/* equal links: both directions always have work, so the bus alternates */
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0") + bfx_stat(&r, "busy_ps_d1"),
			  2 * NDUP * 21329 + (2 * NDUP - 1) * 2000);
	ck_assert_uint_eq(bfx_stat(&r, "pkts_d0"), NDUP);
	ck_assert_uint_eq(bfx_stat(&r, "pkts_d1"), NDUP);
	ck_assert(agg < gen3x4);
	bfx_assert_near(agg, 512.0 / (21329 + 2000) * 1e3, 0.01);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_one_way_no_turnaround)
{
	bfx r;
	double agg = duplex_run(&r, "bus.duplex=half", "tep.packets_b=0");

	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0"), NDUP * 21329);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), 0);
	bfx_assert_near(agg, gen3x4, 0.01);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_half_duplex_turnaround_is_a_parameter)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.duplex=half",
			       "bus.turnaround=10ns", "tep.packets_a=1", "tep.packets_b=1", NULL };
	bfx r;

	/* B's packet arrives at the bus (2 x BFX_LA) while A's is on the wire: it waits,
	 * then pays the turnaround */
	bfx_run(&r, BFX_LA, BFX_LA, sets);
	ck_assert_uint_eq(bfx_ep[1].lat_max, BFX_LA + 21329 + 1000 + BFX_LA);
	ck_assert_uint_eq(bfx_ep[0].lat_max, BFX_LA + 21329 + 10000 + 21329 + 1000 + BFX_LA);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), 21329 + 10000);
	bfx_close(&r);
}
END_TEST

/* --- 5. back-pressure ----------------------------------------------------------------- */

START_TEST(test_bus_backpressure_slow_sink)
{
	const char *sets[] = { "bus.buffer=4", "bus.gen=5", "bus.lanes=16", "tep.vcs=2",
			       "tep.packets_a=300", "tep.grant=3", "tep.credit_delay=200ns", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	const bfx_log *a = &bfx_ep[0], *b = &bfx_ep[1];
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
	ck_assert_uint_eq(bfx_stat(&r, "queued_at_end"), 0);
	ck_assert_uint_eq(bfx_stat(&r, "credits_held_p0"), 3 * CXL_NVC); /* A's grant */
	ck_assert_uint_eq(bfx_stat(&r, "credits_held_p1"), 3 * CXL_NVC); /* B's grant */
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_vc_not_blocked_by_stalled_vc)
{
	const char *sets[] = { "bus.buffer=4", "tep.vc=0", "tep.vcs=2", "tep.packets_a=100",
			       "tep.grant=3", "tep.stall_vc=0", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	const bfx_log *b = &bfx_ep[1];
	ck_assert_uint_eq(b->next[1], 100);  /* VC 1 flows */
	ck_assert_uint_eq(b->next[0], 3);    /* VC 0 stops at the sink's grant */
	ck_assert_uint_eq(b->bad, 0);
	ck_assert_uint_eq(bfx_stat(&r, "queued_at_end"), 4); /* VC 0's FIFO full */
	ck_assert_uint_eq(bfx_ep[0].end_cr.n[0], 0);       /* A has no VC 0 credit */
	ck_assert_uint_eq(bfx_stat(&r, "credits_held_p1"), 3 * CXL_NVC - 3);
	ck_assert_uint_eq(bfx_stat(&r, "credits_held_p0"), 3 * CXL_NVC);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_sender_ignoring_credits_panics)
{
	const char *sets[] = { "bus.buffer=4", "tep.packets_a=5", "tep.rogue=true", NULL };
	bfx r;

	panict_expect("bus: packet on port 0 VC 1 with its buffer full (4): the sender ignored its credits");
	bfx_run(&r, BFX_LA, BFX_LB, sets); /* the 5th packet overflows the FIFO */
}
END_TEST

/* --- 6. parameters ---------------------------------------------------------------------- */

/* one_latency - latency of one 64 B packet A -> B under @a and @b. */
static sim_time one_latency(const char *a, const char *b)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "tep.packets_a=1", a, b, NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	ck_assert_uint_eq(bfx_ep[1].got, 1);
	bfx_close(&r);
	return bfx_ep[1].lat_max;
}

START_TEST(test_bus_parameters_change_results)
{
	sim_time base = one_latency("bus.header_bytes=20", "bus.latency=1ns");

	ck_assert_uint_eq(base, BFX_LA + bus_ser_time(3, 4, BUS_ENC_AUTO, 84) + 1000 + BFX_LB);
	ck_assert_uint_eq(one_latency("bus.header_bytes=40", "bus.latency=1ns"),
			  BFX_LA + bus_ser_time(3, 4, BUS_ENC_AUTO, 104) + 1000 + BFX_LB);
	ck_assert_uint_eq(one_latency("bus.header_bytes=20", "bus.latency=7ns"), base + 6000);
	ck_assert_uint_eq(one_latency("bus.lanes=1", "bus.latency=1ns"),
			  BFX_LA + bus_ser_time(3, 1, BUS_ENC_AUTO, 84) + 1000 + BFX_LB);
	ck_assert_uint_eq(one_latency("bus.encoding=flit", "bus.header_bytes=16"),
			  BFX_LA + bus_ser_time(3, 4, BUS_ENC_FLIT, 80) + 1000 + BFX_LB);
}
END_TEST

START_TEST(test_bus_header_bytes_changes_goodput)
{
	const char *sets[] = { "bus.gen=2", "bus.lanes=1", "bus.header_bytes=36",
			       "tep.packets_a=500", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	bfx_assert_near(bfx_goodput_gbps(&bfx_ep[1], 64), 4.0 * 64 / 100, 0.01);
	ck_assert_uint_eq(bfx_stat(&r, "wire_bytes_d0"), 500 * 100);
	bfx_close(&r);
}
END_TEST

/* --- errors ------------------------------------------------------------------------------- */

START_TEST(test_bus_lanes_not_power_of_two)
{
	const char *sets[] = { "bus.lanes=3", NULL };
	cxl_err err = { 0 };
	bfx r;

	ck_assert_int_eq(bfx_open(&r, BFX_LA, BFX_LB, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "bus.lanes") && strstr(err.msg, "power of two"), "%s",
		      err.msg);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_max_payload_not_power_of_two)
{
	const char *sets[] = { "bus.max_payload=384B", NULL };
	cxl_err err = { 0 };
	bfx r;

	ck_assert_int_eq(bfx_open(&r, BFX_LA, BFX_LB, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "bus.max_payload") && strstr(err.msg, "384 bytes") &&
		      strstr(err.msg, "power of two"), "%s", err.msg);
	bfx_close(&r);
}
END_TEST

/* bus.max_payload outside 128 B - 4 KiB: refused by the schema (cfg_load). */
START_TEST(test_bus_max_payload_range)
{
	static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema };
	const char *small[] = { "simulation.end=1us", "bus.max_payload=64B" };
	const char *big[] = { "simulation.end=1us", "bus.max_payload=8KiB" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, small, 2, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "bus.max_payload"), "%s", err.msg);
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, big, 2, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "bus.max_payload"), "%s", err.msg);
}
END_TEST

/* Every power of two from 128 B to 4 KiB runs, and the plain timing ignores it. */
START_TEST(test_bus_max_payload_keeps_timing)
{
	const char *dflt[] = { "tep.packets_a=200", NULL };
	const char *big[] = { "tep.packets_a=200", "bus.max_payload=4KiB", NULL };
	const char *small[] = { "tep.packets_a=200", "bus.max_payload=128B", NULL };
	sim_time last[3];
	const char *const *sets[3] = { dflt, big, small };
	bfx r;

	for (int i = 0; i < 3; i++) {
		bfx_run(&r, BFX_LA, BFX_LB, sets[i]);
		ck_assert_uint_eq(bfx_ep[1].got, 200);
		last[i] = bfx_ep[1].last;
		bfx_close(&r);
	}
	ck_assert_uint_eq(last[1], last[0]);
	ck_assert_uint_eq(last[2], last[0]);
}
END_TEST

START_TEST(test_bus_needs_two_ports)
{
	const char *sets[] = { NULL };
	cxl_err err = { 0 };
	bfx r;

	ck_assert_int_eq(bfx_open(&r, BFX_LA, 0, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "two linked ports"), "%s", err.msg);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_schema_defaults)
{
	static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema };
	const char *sets[] = { "simulation.end=1us" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, sets, 1, &err), 0);
	ck_assert_int_eq(cfg_int(cf, "bus.gen"), 5);
	ck_assert_int_eq(cfg_int(cf, "bus.lanes"), 16);
	ck_assert_int_eq(cfg_enum(cf, "bus.encoding"), BUS_ENC_AUTO);
	ck_assert_uint_eq(cfg_size(cf, "bus.header_bytes"), 20);
	ck_assert_str_eq(cfg_str(cf, "bus.duplex"), "full");
	ck_assert_uint_eq(cfg_time(cf, "bus.turnaround"), 2000);
	ck_assert_uint_eq(cfg_time(cf, "bus.latency"), 1000);
	ck_assert_int_eq(cfg_int(cf, "bus.buffer"), 32);
	ck_assert_int_eq(cfg_int(cf, "bus.replay_buffer"), 0); /* the data-link layer is off */
	ck_assert_int_eq(cfg_bool(cf, "bus.refuse_on_full"), 0);
	ck_assert(cfg_float(cf, "bus.error_rate") == 0);
	ck_assert_uint_eq(cfg_size(cf, "bus.max_payload"), 256);
	ck_assert_uint_eq(bus_max_payload(cf), 256);
	ck_assert_str_eq(cxl_bus_ops.name, "bus");
	ck_assert_str_eq(cxl_bus_schema.name, "bus");
	cfg_free(cf);
}
END_TEST

/* bus_data_GBps of the bus keys @sets (each "KEY=VALUE"), defaults otherwise. */
static double data_GBps(const char *const *sets, size_t nsets)
{
	static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema };
	const char *all[4] = { "simulation.end=1us" };
	cxl_err err = { 0 };
	cfg *cf;

	for (size_t i = 0; i < nsets; i++)
		all[i + 1] = sets[i];
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, all, nsets + 1, &err), 0);
	double gbps = bus_data_GBps(cf);
	cfg_free(cf);
	return gbps;
}

START_TEST(test_bus_data_GBps_from_config)
{
	const char *g2x1[] = { "bus.gen=2", "bus.lanes=1" };
	const char *g6[] = { "bus.gen=6" };
	const char *g3x4_8b[] = { "bus.gen=3", "bus.lanes=4", "bus.encoding=8b10b" };

	/* gen 5 x16, 128b/130b: 32000 MT/s x 16 x 64/65 / 8 bits */
	ck_assert_double_eq_tol(data_GBps(NULL, 0), 63.0153846153846, 1e-9);
	ck_assert_double_eq_tol(data_GBps(g2x1, 2), 0.5, 1e-12);
	ck_assert_double_eq_tol(data_GBps(g6, 1), 118.0, 1e-9);  /* flit: 59/64 */
	ck_assert_double_eq_tol(data_GBps(g3x4_8b, 3), 3.2, 1e-12);
	/* the serialiser agrees: 64 B at gen 2 x1 take 128 ns = 64 B / 0.5 GB/s */
	ck_assert_uint_eq(bus_ser_time(2, 1, BUS_ENC_AUTO, 64), 128000);
}
END_TEST

/* bus_max_payload reads the key with its units and the config's value. */
START_TEST(test_bus_max_payload_getter)
{
	static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema };
	const char *sets[] = { "simulation.end=1us", "bus.max_payload=4KiB" };
	const char *plain[] = { "simulation.end=1us", "bus.max_payload=512" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, sets, 2, &err), 0);
	ck_assert_uint_eq(bus_max_payload(cf), 4096);
	cfg_free(cf);
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, plain, 2, &err), 0);
	ck_assert_uint_eq(bus_max_payload(cf), 512);
	cfg_free(cf);
}
END_TEST

/* --- suite --------------------------------------------------------------------------------- */

Suite *bus_suite(void)
{
	Suite *s = suite_create("bus");
	TCase *ser = bfx_case("ser_time", 10);
	TCase *rate = bfx_case("goodput", 60);
	TCase *lat = bfx_case("latency", 10);
	TCase *dup = bfx_case("duplex", 60);
	TCase *bp = bfx_case("backpressure", 30);
	TCase *par = bfx_case("parameters", 30);
	TCase *errs = bfx_case("errors", 10);

	tcase_add_test(ser, test_bus_ser_time_exact);
	tcase_add_test(ser, test_bus_ser_time_no_overflow);
	tcase_add_test(ser, test_bus_efficiency_table);
	tcase_add_test(ser, test_bus_data_GBps_from_config);
	tcase_add_test(ser, test_bus_max_payload_getter);
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
	tcase_add_test(errs, test_bus_max_payload_not_power_of_two);
	tcase_add_test(errs, test_bus_max_payload_range);
	tcase_add_test(par, test_bus_max_payload_keeps_timing);
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
