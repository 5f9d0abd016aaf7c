/*
 * test/models/link/test_bus_esf.c - unit tests for the ESF-compatible bus
 * keys (models/link/bus_esf.c, the hooks in bus.c and bus_tx.c).
 *
 * Covered: ESF's frame arithmetic against hand-computed values (ESF
 * bus.hh: floor((P + f) / f) x f, whole transfers of the width);
 * bus.encoding none is 8 bits per byte; a framed bus is busy exactly the
 * framed bytes at the line rate and counts them as wire bytes; the half-
 * duplex drain keeps a direction while it has work (few turns where the
 * default alternates every packet); a write's turn costs twice with
 * esf_write_turnaround; every key is off by default; the config errors.
 * Engine runs use the A - bus - B harness of bus_fixture.h.
 */
#include "models/link/bus.h"

#include <check.h>
#include <string.h>

#include "models/proto/cxl_proto.h"
#include "test/models/link/bus_fixture.h"

START_TEST(test_bus_esf_wire_bytes_table)
{
	/* fig10: 256 B frames, 32 B transfers - every packet below 256 B is one frame */
	ck_assert_uint_eq(bus_esf_wire_bytes(0, 256, 32), 256);
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 256, 32), 256);
	ck_assert_uint_eq(bus_esf_wire_bytes(255, 256, 0), 256);
	ck_assert_uint_eq(bus_esf_wire_bytes(256, 256, 0), 512);
	/* fig1516: 8 B transfers */
	ck_assert_uint_eq(bus_esf_wire_bytes(0, 1, 8), 8);    /* 1 B -> one transfer */
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 1, 8), 72);  /* 65 B -> 9 transfers */
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 8, 8), 72);
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 16, 8), 80);
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 32, 8), 96);
	ck_assert_uint_eq(bus_esf_wire_bytes(0, 64, 8), 64);
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 64, 8), 128);
	ck_assert_uint_eq(bus_esf_wire_bytes(64, 1, 0), 65);
}
END_TEST

START_TEST(test_bus_esf_encoding_none)
{
	uint32_t num, den;

	for (unsigned gen = 1; gen <= BUS_GEN_MAX; gen++) {
		bus_efficiency(gen, BUS_ENC_NONE, &num, &den);
		ck_assert_uint_eq(num, 1);
		ck_assert_uint_eq(den, 1);
	}
	/* ESF width 256 bit x 1 ns = 16 GT/s x 16 lanes: a 256 B frame in 8 ns */
	ck_assert_uint_eq(bus_ser_time(4, 16, BUS_ENC_NONE, 256), 8000);
	/* width 64 bit: 16 GT/s x 4 lanes, 72 B in 9 ns */
	ck_assert_uint_eq(bus_ser_time(4, 4, BUS_ENC_NONE, 72), 9000);
}
END_TEST

enum { NESF = 500 };

/* One-way run of NESF packets of @payload B over gen 4 x4 uncoded with @frame. */
static void framed_run(bfx *r, const char *frame, const char *payload)
{
	const char *sets[] = { "bus.gen=4", "bus.lanes=4", "bus.encoding=none", frame,
			       "bus.esf_width=8B", payload, "tep.packets_a=500", NULL };

	bfx_run(r, BFX_LA, BFX_LA, sets);
	ck_assert_uint_eq(bfx_ep[1].got, NESF);
	ck_assert_uint_eq(bfx_ep[1].bad, 0);
}

START_TEST(test_bus_esf_frame_busy_time)
{
	bfx r;

	framed_run(&r, "bus.esf_frame=64B", "tep.payload=64"); /* 128 B = 16 ns each */
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0"), NESF * 16000);
	ck_assert_uint_eq(bfx_stat(&r, "wire_bytes_d0"), NESF * 128);
	ck_assert_uint_eq(bfx_stat(&r, "payload_bytes_d0"), NESF * 64);
	bfx_close(&r);
	framed_run(&r, "bus.esf_frame=1B", "tep.payload=0"); /* 8 B = 1 ns each */
	ck_assert_uint_eq(bfx_stat(&r, "busy_ps_d0"), NESF * 1000);
	ck_assert_uint_eq(bfx_stat(&r, "wire_bytes_d0"), NESF * 8);
	bfx_close(&r);
}
END_TEST

/* Both ends send NDUP 64 B packets over a half-duplex gen 3 x4 bus (+ @extra); the turns. */
static uint64_t half_turns(const char *drain, const char *extra)
{
	const char *sets[] = { "bus.gen=3", "bus.lanes=4", "bus.duplex=half", drain, extra,
			       "tep.packets_a=500", "tep.packets_b=500", NULL };
	bfx r;

	bfx_run(&r, BFX_LA, BFX_LA, sets);
	ck_assert_uint_eq(bfx_ep[0].got + bfx_ep[1].got, 2 * NESF);
	uint64_t busy = bfx_stat(&r, "busy_ps_d0") + bfx_stat(&r, "busy_ps_d1");
	bfx_close(&r);
	ck_assert_uint_ge(busy, 2 * NESF * 21329);
	ck_assert_uint_eq((busy - 2 * NESF * 21329) % 2000, 0);
	return (busy - 2 * NESF * 21329) / 2000; /* turns x (1 or 2) */
}

START_TEST(test_bus_esf_half_drain)
{
	/* default: alternate packet by packet under load in both directions */
	ck_assert_uint_eq(half_turns("bus.esf_half_drain=false", "bus.buffer=32"), 2 * NESF - 1);
	/* drain: A's FIFO never runs dry while it has credits, so the bus turns rarely */
	uint64_t turns = half_turns("bus.esf_half_drain=true", "bus.buffer=32");
	ck_assert_uint_ge(turns, 1);
	ck_assert_uint_lt(turns, NESF / 10);
}
END_TEST

START_TEST(test_bus_esf_write_turnaround)
{
	/* tep sends on VC 1 (M2S RwD): every turn is a write's and costs twice */
	ck_assert_uint_eq(half_turns("bus.esf_write_turnaround=true", "bus.buffer=32"),
			  2 * (2 * NESF - 1));
	/* VC 0 (M2S Req, a read): once */
	ck_assert_uint_eq(half_turns("bus.esf_write_turnaround=true", "tep.vc=0"), 2 * NESF - 1);
}
END_TEST

START_TEST(test_bus_esf_defaults_off)
{
	static const cfg_schema *const schemas[] = { &sim_schema, &cxl_bus_schema };
	const char *sets[] = { "simulation.end=1us" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, sets, 1, &err), 0);
	ck_assert_uint_eq(cfg_size(cf, "bus.esf_frame"), 0);
	ck_assert_uint_eq(cfg_size(cf, "bus.esf_width"), 0);
	ck_assert_int_eq(cfg_bool(cf, "bus.esf_half_drain"), 0);
	ck_assert_int_eq(cfg_bool(cf, "bus.esf_write_turnaround"), 0);
	ck_assert_int_eq(cfg_enum(cf, "bus.encoding"), BUS_ENC_AUTO);
	cfg_free(cf);
}
END_TEST

/* bfx_open with @a, @b set must fail at init naming @key. */
static void expect_init_error(const char *a, const char *b, const char *key)
{
	const char *sets[] = { a, b, NULL };
	cxl_err err = { 0 };
	bfx r;

	ck_assert_int_ne(bfx_open(&r, BFX_LA, BFX_LA, sets, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, key));
	bfx_close(&r);
}

START_TEST(test_bus_esf_errors)
{
	expect_init_error("bus.esf_width=8B", "bus.latency=1ns", "bus.esf_width");
	expect_init_error("bus.esf_frame=64B", "bus.replay_buffer=4", "bus.esf_frame");
}
END_TEST

Suite *bus_esf_suite(void)
{
	Suite *s = suite_create("bus_esf");
	TCase *arith = tcase_create("arithmetic");
	TCase *run = tcase_create("engine");
	TCase *cfgs = tcase_create("config");

	tcase_add_test(arith, test_bus_esf_wire_bytes_table);
	tcase_add_test(arith, test_bus_esf_encoding_none);
	tcase_add_test(run, test_bus_esf_frame_busy_time);
	tcase_add_test(run, test_bus_esf_half_drain);
	tcase_add_test(run, test_bus_esf_write_turnaround);
	tcase_set_timeout(run, 60);
	tcase_add_test(cfgs, test_bus_esf_defaults_off);
	tcase_add_test(cfgs, test_bus_esf_errors);
	suite_add_tcase(s, arith);
	suite_add_tcase(s, run);
	suite_add_tcase(s, cfgs);
	return s;
}
