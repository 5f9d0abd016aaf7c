/*
 * test/models/link/test_bus_replay.c - unit tests for the bus's data-link layer
 * (models/link/bus_replay.c: ACK/NAK, replay buffer, replay and ACK timers,
 * error injection, refuse-on-full) and its timer arithmetic (bus.c).
 *
 * Engine tests use bus_fixture.h: A - bus - B on one rank, endpoints that
 * check every packet arrives once, in order per VC, having crossed one bus.
 * Hand-computed constants for gen 3 x4 (128b/130b, bus.latency 1 ns):
 *   ser(84 B) = ceil(84 x 8 x 10^6 x 65 / (8000 x 4 x 64)) = 21329 ps
 *   ser(8 B)  = ceil(2031.25)                                =  2032 ps
 *   replay timeout = 3 x (floor(92 x 1.4 / 4) + 115) = 441 symbols
 *                  = 441 x 1015.625 ps = 447890.625 -> 447891 ps
 *   ACK timer = 447891 / 3 = 149297 ps
 *   one TLP + its immediate ACK: P0 = 21329 + 1000 + 2032 + 1000 = 25361 ps
 *
 * Covered: the timer formulas against the spec's Ack latency tables and
 * hand values; the layer off registers nothing; the window limit with
 * replay_buffer = 1 (immediate ACKs: one TLP per P0; ACK timer: one per
 * ACK timer period) and its absence with 4; DLLP wire time exactly
 * accounted; errors -> NAKs and replays, every packet exactly once and in
 * order, in full and half duplex; REPLAY_NUM rollovers counted; refuse-on-
 * full with a slow receiver -> refusals and timeouts, exactly once, every
 * credit home, and no replays at all with credits instead; flit mode's
 * free DLLPs; config errors.
 */
#include "models/link/bus.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/proto/cxl_proto.h"
#include "test/models/link/bus_fixture.h"

enum {
	SER84 = 21329,                 /* gen 3 x4, ps */
	SER8 = 2032,                   /* gen 3 x4, ps */
	P0 = SER84 + 1000 + SER8 + 1000, /* TLP + immediate ACK round, ps */
	ACKT = 149297,                 /* default ACK timer at gen 3 x4, ps */
};

/* conserved - every packet of both endpoints arrived once and in order; nothing held. */
static void conserved(const bfx *r, uint32_t per_vc_a, uint32_t per_vc_b, uint32_t vcs)
{
	ck_assert_uint_eq(bfx_ep[1].got, (uint64_t)per_vc_a * vcs);
	ck_assert_uint_eq(bfx_ep[0].got, (uint64_t)per_vc_b * vcs);
	ck_assert_uint_eq(bfx_ep[0].bad + bfx_ep[1].bad, 0);
	ck_assert_uint_eq(bfx_stat(r, "queued_at_end"), 0);
	ck_assert_uint_eq(bfx_stat(r, "replay_held_at_end"), 0);
	for (int d = 0; d < 2; d++) {
		char tl[32], rp[32], pk[32];
		snprintf(tl, sizeof(tl), "tlps_d%d", d);
		snprintf(rp, sizeof(rp), "replays_d%d", d);
		snprintf(pk, sizeof(pk), "pkts_d%d", d);
		ck_assert_uint_eq(bfx_stat(r, tl), (uint64_t)(d ? per_vc_b : per_vc_a) * vcs);
		ck_assert_uint_eq(bfx_stat(r, pk), bfx_stat(r, tl) + bfx_stat(r, rp));
	}
}

/* credits_home - the bus holds each endpoint's grant, each endpoint the bus's. */
static void credits_home(const bfx *r, uint32_t grant, uint32_t buffer)
{
	ck_assert_uint_eq(bfx_stat(r, "credits_held_p0"), (uint64_t)grant * CXL_NVC);
	ck_assert_uint_eq(bfx_stat(r, "credits_held_p1"), (uint64_t)grant * CXL_NVC);
	for (int v = 0; v < CXL_NVC; v++) {
		ck_assert_uint_eq(bfx_ep[0].end_cr.n[v], buffer);
		ck_assert_uint_eq(bfx_ep[1].end_cr.n[v], buffer);
	}
}

/* --- 1. arithmetic ------------------------------------------------------------ */

/* The spec's maximum Ack latency tables (link-reference §4, r6.3 Tables 3-10..12). */
START_TEST(test_bus_replay_acknak_matches_spec_tables)
{
	static const uint32_t mps[6] = { 128, 256, 512, 1024, 2048, 4096 };
	static const unsigned lanes[5] = { 1, 2, 4, 8, 16 };
	static const unsigned gen[3] = { 1, 2, 3 }; /* 2.5, 5, >= 8 GT/s */
	static const uint32_t want[6][3][5] = {
		{ { 237, 128, 73, 67, 48 }, { 288, 179, 124, 118, 99 }, { 333, 224, 169, 163, 144 } },
		{ { 416, 217, 118, 107, 72 }, { 467, 268, 169, 158, 123 }, { 512, 313, 214, 203, 168 } },
		{ { 559, 289, 154, 86, 86 }, { 610, 340, 205, 137, 137 }, { 655, 385, 250, 182, 182 } },
		{ { 1071, 545, 282, 150, 150 }, { 1122, 596, 333, 201, 201 },
		  { 1167, 641, 378, 246, 246 } },
		{ { 2095, 1057, 538, 278, 278 }, { 2146, 1108, 589, 329, 329 },
		  { 2191, 1153, 634, 374, 374 } },
		{ { 4143, 2081, 1050, 534, 534 }, { 4194, 2132, 1101, 585, 585 },
		  { 4239, 2177, 1146, 630, 630 } },
	};

	for (int m = 0; m < 6; m++)
		for (int g = 0; g < 3; g++)
			for (int l = 0; l < 5; l++)
				ck_assert_msg(bus_acknak_symbols(mps[m], gen[g], lanes[l], -1) ==
						      want[m][g][l],
					      "MPS %u gen %u x%u: %u, spec %u", mps[m], gen[g],
					      lanes[l], bus_acknak_symbols(mps[m], gen[g], lanes[l], -1),
					      want[m][g][l]);
	ck_assert_uint_eq(bus_acknak_symbols(128, 5, 16, -1), 144); /* >= 8 GT/s */
	ck_assert_uint_eq(bus_acknak_symbols(128, 2, 8, 0), 48);    /* no internal delay */
	ck_assert_uint_eq(bus_acknak_symbols(64, 2, 8, -1), 98);    /* 92 x 2.5 / 8 = 28.75 */
}
END_TEST

/* The default bus.credit_timer: UpdateFC latency for 64 B (link-reference §4). */
START_TEST(test_bus_updatefc_latency_hand_values)
{
	/* floor(92 x 1.4) + 115 = 243 symbols of 1.015625 ns, rounded up */
	ck_assert_uint_eq(bus_updatefc_latency(3, 1, BUS_ENC_AUTO, -1), 246797);
	/* floor(17.25) + 115 = 132 symbols of 0.25390625 ns */
	ck_assert_uint_eq(bus_updatefc_latency(5, 16, BUS_ENC_AUTO, -1), 33516);
	/* flit mode: the Ack/Nak target */
	ck_assert_uint_eq(bus_updatefc_latency(6, 16, BUS_ENC_AUTO, -1), 50000);
}
END_TEST

/* Replay timeouts for 64 B payloads, by hand from link-reference §4. */
START_TEST(test_bus_replay_timeout_hand_values)
{
	/* 3 x (floor(92 x 1.4) + 19) = 441 symbols of 4 ns */
	ck_assert_uint_eq(bus_replay_timeout(1, 1, BUS_ENC_AUTO, -1), 1764000);
	/* 3 x (128 + 70) = 594 symbols of 2 ns */
	ck_assert_uint_eq(bus_replay_timeout(2, 1, BUS_ENC_AUTO, -1), 1188000);
	/* 3 x (floor(32.2) + 70) = 306; 3 x (floor(28.75) + 70) = 294 */
	ck_assert_uint_eq(bus_replay_timeout(2, 4, BUS_ENC_AUTO, -1), 612000);
	ck_assert_uint_eq(bus_replay_timeout(2, 8, BUS_ENC_AUTO, -1), 588000);
	/* the PCIe seed's model: no internal delay, 3 x 28 symbols */
	ck_assert_uint_eq(bus_replay_timeout(2, 8, BUS_ENC_AUTO, 0), 168000);
	/* 441 symbols of 1.015625 ns, rounded up */
	ck_assert_uint_eq(bus_replay_timeout(3, 4, BUS_ENC_AUTO, -1), 447891);
	/* 3 x (floor(17.25) + 115) = 396 symbols of 0.25390625 ns */
	ck_assert_uint_eq(bus_replay_timeout(5, 16, BUS_ENC_AUTO, -1), 100547);
	/* an explicit line code at gen 5: 8b/10b symbols of 0.3125 ns */
	ck_assert_uint_eq(bus_replay_timeout(5, 16, BUS_ENC_8B10B, -1), 123750);
	/* flit mode: 3 x the Ack/Nak target 50 ns (x16) ... 80 ns (x1) */
	ck_assert_uint_eq(bus_replay_timeout(6, 16, BUS_ENC_AUTO, -1), 150000);
	ck_assert_uint_eq(bus_replay_timeout(6, 8, BUS_ENC_AUTO, -1), 156000);
	ck_assert_uint_eq(bus_replay_timeout(6, 1, BUS_ENC_AUTO, -1), 240000);
	ck_assert_uint_eq(bus_replay_timeout(3, 4, BUS_ENC_FLIT, -1), 168000);
}
END_TEST

/* --- 2. off is the plain bus ------------------------------------------------------ */

START_TEST(test_bus_replay_off_registers_nothing)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "tep.packets_a=100", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	ck_assert_uint_eq(bfx_ep[1].got, 100);
	ck_assert(!bfx_has_stat(&r, "tlps_d0"));
	ck_assert(!bfx_has_stat(&r, "acks_d0"));
	ck_assert(!bfx_has_stat(&r, "replay_held_at_end"));
	ck_assert_uint_eq(bfx_ep[1].last - bfx_ep[1].first, 99 * SER84);
	bfx_close(&r);
}
END_TEST

/* --- 3. the window ------------------------------------------------------------------- */

/* window_run - A sends @n packets over gen 3 x4 with replay buffer @rb and ACK timer @ack. */
static void window_run(bfx *r, const char *n, const char *rb, const char *ack)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", n, rb, ack, NULL };

	bfx_run(r, BFX_LA, BFX_LB, sets);
}

START_TEST(test_bus_replay_window_one_immediate_acks)
{
	bfx r;

	window_run(&r, "tep.packets_a=500", "bus.replay_buffer=1", "bus.ack_timer=1ps");
	conserved(&r, 500, 0, 1);
	/* each TLP waits for the ACK of the one before: one per P0, exactly */
	ck_assert_uint_eq(bfx_ep[1].last - bfx_ep[1].first, 499 * (sim_time)P0);
	ck_assert_uint_eq(bfx_stat(&r, "acks_d0"), 500);
	ck_assert_uint_eq(bfx_stat(&r, "dllp_bytes_d0"), 500 * 8);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), 500 * SER8); /* DLLPs on the other wire */
	ck_assert_uint_eq(bfx_stat(&r, "replays_d0"), 0);
	ck_assert_uint_eq(bfx_stat(&r, "replay_timeouts_d0"), 0);
	bfx_assert_near(bfx_goodput_gbps(&bfx_ep[1], 64), 512.0 / P0 * 1e3, 0.001);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_window_one_ack_timer)
{
	bfx r;

	/* the first TLP is ACKed at once; every later one waits for the ACK
	 * timer, so TLP k (k >= 2) arrives at first + (k - 2) x ACKT + P0 */
	window_run(&r, "tep.packets_a=200", "bus.replay_buffer=1", "bus.ack_timer=0ps");
	conserved(&r, 200, 0, 1);
	ck_assert_uint_eq(bfx_ep[1].last - bfx_ep[1].first, 198 * (sim_time)ACKT + P0);
	ck_assert_uint_eq(bfx_stat(&r, "acks_d0"), 200);
	ck_assert_uint_eq(bfx_stat(&r, "replay_timeouts_d0"), 0);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_window_four_keeps_line_rate)
{
	bfx r;

	/* the ACK comes back after P0 < 4 x SER84: the window never closes */
	window_run(&r, "tep.packets_a=2000", "bus.replay_buffer=4", "bus.ack_timer=1ps");
	conserved(&r, 2000, 0, 1);
	ck_assert_uint_eq(bfx_ep[1].last - bfx_ep[1].first, 1999 * (sim_time)SER84);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_ack_timer_coalesces)
{
	bfx r;

	/* a window of 32 at line rate: one ACK per ACK timer period, not per TLP */
	window_run(&r, "tep.packets_a=2000", "bus.replay_buffer=32", "bus.ack_timer=0ps");
	conserved(&r, 2000, 0, 1);
	ck_assert_uint_eq(bfx_ep[1].last - bfx_ep[1].first, 1999 * (sim_time)SER84);
	uint64_t periods = (bfx_ep[1].last - bfx_ep[1].first) / ACKT;
	ck_assert_uint_ge(bfx_stat(&r, "acks_d0"), periods);
	ck_assert_uint_le(bfx_stat(&r, "acks_d0"), periods + 2);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_dllp_time_exact_both_ways)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.replay_buffer=8",
			       "tep.packets_a=1000", "tep.packets_b=1000", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LA, sets);
	conserved(&r, 1000, 1000, 1);
	for (int w = 0; w < 2; w++) {
		const char *busy = w ? "busy_ps_d1" : "busy_ps_d0";
		const char *acks = w ? "acks_d0" : "acks_d1"; /* DLLPs on wire w acknowledge 1-w */
		ck_assert_uint_eq(bfx_stat(&r, busy), 1000 * SER84 + bfx_stat(&r, acks) * SER8);
	}
	bfx_close(&r);
}
END_TEST

/* --- 4. errors ------------------------------------------------------------------------- */

/* error_run - both ends send 600 packets on 2 VCs with error rate @rate over @duplex. */
static void error_run(bfx *r, const char *rate, const char *duplex)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.replay_buffer=4", rate, duplex,
			       "tep.vcs=2", "tep.packets_a=600", "tep.packets_b=600", NULL };

	bfx_run(r, BFX_LA, BFX_LA, sets);
	conserved(r, 600, 600, 2);
	credits_home(r, 64, 32);
	for (int v = 1; v <= 2; v++)
		ck_assert_uint_eq(bfx_ep[0].next[v] + bfx_ep[1].next[v], 1200);
}

START_TEST(test_bus_replay_errors_naked_and_replayed_full_duplex)
{
	bfx r;

	error_run(&r, "bus.error_rate=0.05", "bus.duplex=full");
	for (int d = 0; d < 2; d++) {
		char s[4][32];
		snprintf(s[0], 32, "corrupted_d%d", d);
		snprintf(s[1], 32, "naks_d%d", d);
		snprintf(s[2], 32, "replays_d%d", d);
		snprintf(s[3], 32, "replayed_tlps_d%d", d);
		ck_assert_uint_gt(bfx_stat(&r, s[0]), 20); /* ~5% of ~1260 transmissions */
		ck_assert_uint_gt(bfx_stat(&r, s[1]), 0);
		ck_assert_uint_le(bfx_stat(&r, s[1]), bfx_stat(&r, s[0]));
		ck_assert_uint_ge(bfx_stat(&r, s[2]), bfx_stat(&r, s[0])); /* each one sent again */
		ck_assert_uint_le(bfx_stat(&r, s[3]), bfx_stat(&r, s[2]));
	}
	ck_assert_uint_eq(bfx_stat(&r, "dllp_bytes_d0"),
			  8 * (bfx_stat(&r, "acks_d0") + bfx_stat(&r, "naks_d0")));
	uint64_t all = bfx_stat(&r, "pkts_d0");
	ck_assert_uint_eq(bfx_stat(&r, "replayed_ppm_d0"),
			  bfx_stat(&r, "replays_d0") * 1000000 / all);
	ck_assert_uint_eq(bfx_stat(&r, "payload_bytes_d0"), 1200 * 64); /* first sends only */
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_errors_half_duplex)
{
	bfx r;

	error_run(&r, "bus.error_rate=0.05", "bus.duplex=half");
	ck_assert_uint_gt(bfx_stat(&r, "naks_d0") + bfx_stat(&r, "naks_d1"), 0);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_errors_change_with_the_rate)
{
	bfx r;

	error_run(&r, "bus.error_rate=0.01", "bus.duplex=full");
	uint64_t low = bfx_stat(&r, "corrupted_d0");
	bfx_close(&r);
	error_run(&r, "bus.error_rate=0.2", "bus.duplex=full");
	ck_assert_uint_gt(bfx_stat(&r, "corrupted_d0"), 4 * low);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_rollover_counts_retrains)
{
	bfx r;

	/* half the TLPs corrupted: a head TLP often fails 4 replays in a row */
	error_run(&r, "bus.error_rate=0.5", "bus.duplex=full");
	ck_assert_uint_gt(bfx_stat(&r, "retrains_d0"), 0);
	ck_assert_uint_gt(bfx_stat(&r, "replay_timeouts_d0"), 0); /* NAK_SCHEDULED held */
	bfx_close(&r);
}
END_TEST

/* --- 5. refuse on full ----------------------------------------------------------------- */

/* slow_sink - gen 5 x16 into a sink of 2 credits returned 500 ns later; @refuse, @to. */
static void slow_sink(bfx *r, const char *refuse, const char *to)
{
	const char *sets[] = { "bus.gen=5", "bus.lanes=16", "bus.replay_buffer=4", refuse, to,
			       "tep.vcs=2", "tep.packets_a=150", "tep.grant=2",
			       "tep.credit_delay=500ns", NULL };

	bfx_run(r, BFX_LA, BFX_LB, sets);
	conserved(r, 150, 0, 2);
	ck_assert_uint_le(bfx_ep[1].max_held[1], 2); /* the sink never overflowed */
	ck_assert_uint_le(bfx_ep[1].max_held[2], 2);
	credits_home(r, 2, 32);
}

START_TEST(test_bus_replay_refuse_on_full_times_out)
{
	bfx r;

	slow_sink(&r, "bus.refuse_on_full=true", "bus.replay_timeout=0ps");
	ck_assert_uint_gt(bfx_stat(&r, "refused_d0"), 0);
	ck_assert_uint_gt(bfx_stat(&r, "replay_timeouts_d0"), 0);
	ck_assert_uint_gt(bfx_stat(&r, "replays_d0"), bfx_stat(&r, "replay_timeouts_d0"));
	ck_assert_uint_eq(bfx_stat(&r, "naks_d0"), 0);
	ck_assert_uint_gt(bfx_stat(&r, "replayed_ppm_d0"), 0);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_credits_instead_never_replay)
{
	bfx r;

	slow_sink(&r, "bus.refuse_on_full=false", "bus.replay_timeout=0ps");
	ck_assert_uint_eq(bfx_stat(&r, "refused_d0"), 0);
	ck_assert_uint_eq(bfx_stat(&r, "replays_d0"), 0);
	ck_assert_uint_eq(bfx_stat(&r, "replay_timeouts_d0"), 0);
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_timeout_is_a_parameter)
{
	bfx r;

	slow_sink(&r, "bus.refuse_on_full=true", "bus.replay_timeout=20ns");
	uint64_t fast = bfx_stat(&r, "replay_timeouts_d0");
	bfx_close(&r);
	slow_sink(&r, "bus.refuse_on_full=true", "bus.replay_timeout=200ns");
	ck_assert_uint_gt(fast, 3 * bfx_stat(&r, "replay_timeouts_d0"));
	bfx_close(&r);
}
END_TEST

START_TEST(test_bus_replay_refuse_with_errors)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.replay_buffer=3",
			       "bus.refuse_on_full=true", "bus.error_rate=0.1", "tep.vcs=3",
			       "tep.packets_a=200", "tep.packets_b=200", "tep.grant=1",
			       "tep.credit_delay=100ns", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	conserved(&r, 200, 200, 3);
	credits_home(&r, 1, 32);
	ck_assert_uint_gt(bfx_stat(&r, "refused_d0") + bfx_stat(&r, "refused_d1"), 0);
	ck_assert_uint_gt(bfx_stat(&r, "naks_d0") + bfx_stat(&r, "naks_d1"), 0);
	bfx_close(&r);
}
END_TEST

/* --- 6. flit mode and errors ------------------------------------------------------------ */

START_TEST(test_bus_replay_flit_dllps_are_free)
{
	const char *sets[] = { "bus.gen=6", "bus.lanes=16", "bus.replay_buffer=8",
			       "bus.ack_timer=1ps", "tep.packets_a=1000", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LB, sets);
	conserved(&r, 1000, 0, 1);
	ck_assert_uint_eq(bfx_stat(&r, "acks_d0"), 1000);
	ck_assert_uint_eq(bfx_stat(&r, "dllp_bytes_d0"), 0);
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d1"), 0);
	bfx_assert_near(bfx_goodput_gbps(&bfx_ep[1], 64), 1024.0 * 236 / 256 * 64 / 84, 0.01);
	bfx_close(&r);
}
END_TEST

/* open_error - bfx_open with @set must fail with CXL_EINVAL naming @key. */
static void open_error(const char *set, const char *key)
{
	const char *sets[] = { set, NULL };
	cxl_err err = { 0 };
	bfx r;

	ck_assert_int_eq(bfx_open(&r, BFX_LA, BFX_LB, sets, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, key) && strstr(err.msg, "replay_buffer"), "%s", err.msg);
	bfx_close(&r);
}

START_TEST(test_bus_replay_needs_a_buffer)
{
	open_error("bus.refuse_on_full=true", "bus.refuse_on_full");
	open_error("bus.error_rate=0.01", "bus.error_rate");
}
END_TEST

/* --- suite ------------------------------------------------------------------------------- */

Suite *bus_replay_suite(void)
{
	Suite *s = suite_create("bus_replay");
	TCase *ar = bfx_case("arithmetic", 10);
	TCase *off = bfx_case("off", 10);
	TCase *win = bfx_case("window", 30);
	TCase *err = bfx_case("errors", 60);
	TCase *ref = bfx_case("refuse_on_full", 60);
	TCase *misc = bfx_case("flit_and_config", 30);

	tcase_add_test(ar, test_bus_replay_acknak_matches_spec_tables);
	tcase_add_test(ar, test_bus_replay_timeout_hand_values);
	tcase_add_test(ar, test_bus_updatefc_latency_hand_values);
	tcase_add_test(off, test_bus_replay_off_registers_nothing);
	tcase_add_test(win, test_bus_replay_window_one_immediate_acks);
	tcase_add_test(win, test_bus_replay_window_one_ack_timer);
	tcase_add_test(win, test_bus_replay_window_four_keeps_line_rate);
	tcase_add_test(win, test_bus_replay_ack_timer_coalesces);
	tcase_add_test(win, test_bus_replay_dllp_time_exact_both_ways);
	tcase_add_test(err, test_bus_replay_errors_naked_and_replayed_full_duplex);
	tcase_add_test(err, test_bus_replay_errors_half_duplex);
	tcase_add_test(err, test_bus_replay_errors_change_with_the_rate);
	tcase_add_test(err, test_bus_replay_rollover_counts_retrains);
	tcase_add_test(ref, test_bus_replay_refuse_on_full_times_out);
	tcase_add_test(ref, test_bus_replay_credits_instead_never_replay);
	tcase_add_test(ref, test_bus_replay_timeout_is_a_parameter);
	tcase_add_test(ref, test_bus_replay_refuse_with_errors);
	tcase_add_test(misc, test_bus_replay_flit_dllps_are_free);
	tcase_add_test(misc, test_bus_replay_needs_a_buffer);
	suite_add_tcase(s, ar);
	suite_add_tcase(s, off);
	suite_add_tcase(s, win);
	suite_add_tcase(s, err);
	suite_add_tcase(s, ref);
	suite_add_tcase(s, misc);
	return s;
}
