/*
 * test/models/memory/test_dram.c - unit tests for the DRAM model (models/memory/dram*.c).
 *
 * A driver plays the memory endpoint's part (mem.c): it advances every
 * channel to the current time, enqueues requests, and jumps to the
 * earliest dram_next_time() or arrival.  Requests come closed-loop (each
 * channel's queue kept full: peak bandwidth) or at timed arrivals, from a
 * pattern (stream = consecutive lines, random = uniform over a footprint)
 * with a share of writes, all drawn from a seeded xorshift.  Every command
 * is recorded through the trace hook and checked by dram_check.c, which
 * knows the JEDEC rules but not the scheduler.
 *
 * Covered: presets, time conversion, mapping strings, parameter checks;
 * the checker itself (accepts a legal hand trace, catches each rule in a
 * bad one, catches a mutated model trace); no violation on streaming,
 * random and mixed traffic, open and closed page, 1 and 2 ranks, every
 * preset; streaming-read bandwidth per channel within 10% of the
 * theoretical (25.6 / 19.2 / 19.2 GB/s) with its row-hit rate, random lower;
 * write batching; results independent of how often the caller advances;
 * lazy refresh catch-up over an idle stretch; the FR-FCFS starvation cap;
 * a full queue panics.  The configuration keys: test_dram_cfg.c.
 */
#include "models/memory/dram.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/panic_fixture.h"
#include "test/models/memory/dram_check.h"
#include "test/models/memory/dram_drive.h"

static dram_params preset(const char *name)
{
	const dram_params *p = dram_preset(name);

	ck_assert_ptr_nonnull(p);
	return *p;
}

static void print_run(const char *what, const dram_params *p, const run *r)
{
	dram_stats s = drv_totals(r->d);
	uint64_t n = s.reads + s.writes;

	printf("dram %s %s: %.2f GB/s per channel (peak %.2f, %.1f%%), row hits %.1f%%, "
	       "misses %.1f%%, conflicts %.1f%%, %llu ACT, %llu REF\n", p->name, what,
	       drv_bandwidth(r) / p->channels, dram_peak_GBps(p),
	       100.0 * drv_bandwidth(r) / p->channels / dram_peak_GBps(p),
	       100.0 * (double)s.row_hits / (double)n, 100.0 * (double)s.row_misses / (double)n,
	       100.0 * (double)s.row_conflicts / (double)n, (unsigned long long)s.activates,
	       (unsigned long long)s.refreshes);
}

/* --- presets, time, mapping, parameter checks ------------------------------- */

START_TEST(test_dram_preset_peak_bandwidth)
{
	dram_params d4 = preset("DDR4-3200"), d5 = preset("DDR5-4800"), d2 = preset("DDR4-2400");

	ck_assert_double_eq_tol(dram_peak_GBps(&d4), 25.6, 1e-9);
	ck_assert_double_eq_tol(dram_peak_GBps(&d5), 19.2, 1e-9);
	ck_assert_double_eq_tol(dram_peak_GBps(&d2), 19.2, 1e-9);
	ck_assert_ptr_null(dram_preset("simple"));
	ck_assert_ptr_null(dram_preset("DDR3-1600"));
	ck_assert_int_eq(dram_params_check(&d4, NULL, 0), 0);
	ck_assert_int_eq(dram_params_check(&d5, NULL, 0), 0);
	ck_assert_int_eq(dram_params_check(&d2, NULL, 0), 0);
}
END_TEST

START_TEST(test_dram_cycle_time_exact)
{
	dram_params d5 = preset("DDR5-4800"), d4 = preset("DDR4-3200"), d2 = preset("DDR4-2400");
	dram *a = dram_create(&d5), *b = dram_create(&d4), *c = dram_create(&d2);

	/* tCK = 1250/3 ps: cycle c starts at ceil(c * 1250 / 3) */
	ck_assert_uint_eq(dram_cycle_ps(a, 0), 0);
	ck_assert_uint_eq(dram_cycle_ps(a, 1), 417);
	ck_assert_uint_eq(dram_cycle_ps(a, 3), 1250);
	ck_assert_uint_eq(dram_cycle_ps(a, 2400000000ull), 1000000000000ull); /* 1 s */
	ck_assert_uint_eq(dram_cycle_ps(a, 3000000000000001ull), 1250000000000000417ull);
	ck_assert_uint_eq(dram_cycle_ps(b, 7), 4375);
	/* DDR4-2400: tCK = 5000/6 ps */
	ck_assert_uint_eq(dram_cycle_ps(c, 1), 834);
	ck_assert_uint_eq(dram_cycle_ps(c, 6), 5000);
	ck_assert_uint_eq(dram_cycle_ps(c, 1200000000ull), 1000000000000ull); /* 1 s */
	dram_destroy(a);
	dram_destroy(b);
	dram_destroy(c);
}
END_TEST

START_TEST(test_dram_map_parse)
{
	uint8_t m[DRAM_NFIELD];
	static const char *const bad[] = { "", "row", "row:bank:rank:col:bg", "row:bank:rank:col:bg:ch:x",
					   "row:row:rank:col:bg:ch", "row:bank:rank:col:bg:chan",
					   "row:bank:rank:col:bg:", ":row:bank:rank:col:bg:ch" };

	ck_assert_int_eq(dram_map_parse("row:bank:rank:col:bg:ch", m), 0);
	ck_assert_uint_eq(m[0], DRAM_F_CH);
	ck_assert_uint_eq(m[1], DRAM_F_BG);
	ck_assert_uint_eq(m[2], DRAM_F_COL);
	ck_assert_uint_eq(m[5], DRAM_F_ROW);
	ck_assert_int_eq(dram_map_parse("ch:row:col:bank:bg:rank", m), 0);
	ck_assert_uint_eq(m[0], DRAM_F_RANK);
	ck_assert_uint_eq(m[5], DRAM_F_CH);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(dram_map_parse(bad[i], m) == -1, "accepted \"%s\"", bad[i]);
}
END_TEST

START_TEST(test_dram_map_decodes_fields)
{
	dram_params p = preset("DDR4-3200");
	dram *d = dram_create(&p);

	/* row:bank:rank:col:bg:ch, 2 channels: lines alternate channels */
	ck_assert_uint_eq(dram_channel_of(d, 0), 0);
	ck_assert_uint_eq(dram_channel_of(d, 1), 1);
	ck_assert_uint_eq(dram_channel_of(d, 2), 0);
	dram_destroy(d);
	ck_assert_int_eq(dram_map_parse("ch:row:bank:rank:col:bg", p.map), 0);
	d = dram_create(&p);
	ck_assert_uint_eq(dram_channel_of(d, 1), 0);
	/* the channel is the top field: above 65536 rows x 4 banks x 128 cols x 4 bgs */
	ck_assert_uint_eq(dram_channel_of(d, 65536ull * 4 * 128 * 4), 1);
	ck_assert_uint_eq(dram_channel_of(d, 2 * 65536ull * 4 * 128 * 4), 0); /* wraps */
	dram_destroy(d);
}
END_TEST

START_TEST(test_dram_params_check_rejects)
{
	dram_params p = preset("DDR4-3200");
	char why[128];

	p.channels = 0;
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "channels must be positive");
	p = preset("DDR4-3200");
	p.t[DRAM_tRCD] = 0;
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "tRCD must be positive");
	p = preset("DDR4-3200");
	p.t[DRAM_tREFI] = 600;
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), -1);
	p.refresh = 0;
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), 0);
	p = preset("DDR4-3200");
	p.map[0] = p.map[1];
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), -1);
	p = preset("DDR4-3200");
	p.ranks = 256;
	ck_assert_int_eq(dram_params_check(&p, why, sizeof(why)), -1);
}
END_TEST

/* --- the checker ------------------------------------------------------------- */

#define R(c_, cmd_, rk_, g_, b_, row_) { .cycle = (c_), .cmd = DRAM_##cmd_, .rank = (rk_), \
					.bg = (g_), .bank = (b_), .row = (row_) }

typedef struct bad_trace bad_trace;
struct bad_trace {
	const char *rule;         /* text the first violation must contain */
	int tweak;                /* 0, or which parameter tweak: 1 tRC 80, 2 tPPD 2, 3 ranks 2 */
	dram_cmd_rec r[6];        /* the commands */
	size_t n;                 /* how many */
	uint64_t end;             /* end cycle */
};

/* DDR4-3200: CL 22, CWL 16, BL 4, tRCD = tRP 22, tRAS 52, tRC 74, tWR 24,
 * tRTP 12, tCCD_S/L 4/8, tRRD_S/L 4/8, tFAW 34, tWTR_S/L 4/12, tRTW 12,
 * tRTRS 2, tRFC 560, tREFI 12480. */
static const bad_trace bad_traces[] = {
	{ "tRCD", 0, { R(0, ACT, 0, 0, 0, 1), R(21, RD, 0, 0, 0, 1) }, 2, 100 },
	{ "tRAS", 0, { R(0, ACT, 0, 0, 0, 1), R(51, PRE, 0, 0, 0, 1) }, 2, 100 },
	{ "tRP", 0, { R(0, ACT, 0, 0, 0, 1), R(52, PRE, 0, 0, 0, 1), R(73, ACT, 0, 0, 0, 2) }, 3, 100 },
	{ "tRC", 1, { R(0, ACT, 0, 0, 0, 1), R(52, PRE, 0, 0, 0, 1), R(74, ACT, 0, 0, 0, 2) }, 3, 100 },
	{ "tRTP", 0, { R(0, ACT, 0, 0, 0, 1), R(41, RD, 0, 0, 0, 1), R(52, PRE, 0, 0, 0, 1) }, 3, 100 },
	{ "tWR", 0, { R(0, ACT, 0, 0, 0, 1), R(22, WR, 0, 0, 0, 1), R(65, PRE, 0, 0, 0, 1) }, 3, 100 },
	{ "tRRD_S", 0, { R(0, ACT, 0, 0, 0, 1), R(3, ACT, 0, 1, 0, 1) }, 2, 100 },
	{ "tRRD_L", 0, { R(0, ACT, 0, 0, 0, 1), R(7, ACT, 0, 0, 1, 1) }, 2, 100 },
	{ "tFAW", 0, { R(0, ACT, 0, 0, 0, 1), R(4, ACT, 0, 1, 0, 1), R(8, ACT, 0, 2, 0, 1),
		       R(12, ACT, 0, 3, 0, 1), R(33, ACT, 0, 0, 1, 1) }, 5, 100 },
	{ "tCCD_S", 0, { R(0, ACT, 0, 0, 0, 1), R(4, ACT, 0, 1, 0, 1), R(26, RD, 0, 0, 0, 1),
			 R(29, RD, 0, 1, 0, 1) }, 4, 100 },
	{ "tCCD_L", 0, { R(0, ACT, 0, 0, 0, 1), R(8, ACT, 0, 0, 1, 1), R(23, RD, 0, 0, 0, 1),
			 R(30, RD, 0, 0, 1, 1) }, 4, 100 },
	{ "tCCD_L_WR", 0, { R(0, ACT, 0, 0, 0, 1), R(8, ACT, 0, 0, 1, 1), R(23, WR, 0, 0, 0, 1),
			    R(30, WR, 0, 0, 1, 1) }, 4, 100 },
	{ "tWTR_L", 0, { R(0, ACT, 0, 0, 0, 1), R(22, WR, 0, 0, 0, 1), R(53, RD, 0, 0, 0, 1) }, 3, 100 },
	{ "tWTR_S", 0, { R(0, ACT, 0, 0, 0, 1), R(4, ACT, 0, 1, 0, 1), R(22, WR, 0, 0, 0, 1),
			 R(45, RD, 0, 1, 0, 1) }, 4, 100 },
	{ "tRTW", 0, { R(0, ACT, 0, 0, 0, 1), R(22, RD, 0, 0, 0, 1), R(33, WR, 0, 0, 0, 1) }, 3, 100 },
	{ "tPPD", 2, { R(0, ACT, 0, 0, 0, 1), R(4, ACT, 0, 1, 0, 1), R(55, PRE, 0, 0, 0, 1),
		       R(56, PRE, 0, 1, 0, 1) }, 4, 100 },
	{ "tRFC", 0, { R(0, REF, 0, 0, 0, 0), R(559, ACT, 0, 0, 0, 1) }, 2, 600 },
	{ "tRP (PRE->REF)", 0, { R(0, ACT, 0, 0, 0, 1), R(52, PRE, 0, 0, 0, 1),
				 R(73, REF, 0, 0, 0, 0) }, 3, 100 },
	{ "RD@0 to row 1, open: none", 0, { R(0, RD, 0, 0, 0, 1) }, 1, 100 },
	{ "to row 2, open: row 1", 0, { R(0, ACT, 0, 0, 0, 1), R(22, RD, 0, 0, 0, 2) }, 2, 100 },
	{ "ACT@74 to an open bank", 0, { R(0, ACT, 0, 0, 0, 1), R(74, ACT, 0, 0, 0, 2) }, 2, 100 },
	{ "PRE@0 to a closed bank", 0, { R(0, PRE, 0, 0, 0, 0) }, 1, 100 },
	{ "REF@100 with bank 0 open", 0, { R(0, ACT, 0, 0, 0, 1), R(100, REF, 0, 0, 0, 0) }, 2, 200 },
	{ "command bus", 0, { R(0, ACT, 0, 0, 0, 1), R(0, ACT, 0, 1, 0, 1) }, 2, 100 },
	{ "data bus", 3, { R(0, ACT, 0, 0, 0, 1), R(1, ACT, 1, 0, 0, 1), R(22, RD, 0, 0, 0, 1),
			   R(27, RD, 1, 0, 0, 1) }, 4, 100 },
	{ "REF interval", 0, { R(100, REF, 0, 0, 0, 0), R(15000, REF, 0, 0, 0, 0) }, 2, 15000 },
	{ "first REF late", 0, { R(14000, REF, 0, 0, 0, 0) }, 1, 14000 },
	{ "no REF from", 0, { R(100, REF, 0, 0, 0, 0) }, 1, 30000 },
};

static dram_params checker_params(int tweak)
{
	dram_params p = preset("DDR4-3200");

	p.channels = 1;
	p.t[DRAM_tRC] = tweak == 1 ? 80 : p.t[DRAM_tRC];
	p.t[DRAM_tPPD] = tweak == 2 ? 2 : p.t[DRAM_tPPD];
	p.ranks = tweak == 3 ? 2 : 1;
	return p;
}

START_TEST(test_dram_checker_accepts_legal_trace)
{
	/* every separation at its minimum, both directions of turnaround, a refresh */
	static const dram_cmd_rec good[] = {
		R(0, ACT, 0, 0, 0, 5), R(4, ACT, 0, 1, 0, 5), R(22, RD, 0, 0, 0, 5),
		R(26, RD, 0, 1, 0, 5), R(30, RD, 0, 0, 0, 5), R(52, PRE, 0, 0, 0, 5),
		R(74, ACT, 0, 0, 0, 6), R(96, WR, 0, 0, 0, 6), R(128, RD, 0, 0, 0, 6),
		R(140, PRE, 0, 0, 0, 6), R(141, PRE, 0, 1, 0, 5), R(163, REF, 0, 0, 0, 0),
		R(723, ACT, 0, 0, 0, 7),
	};
	dram_params p = checker_params(0);
	dck_result res;

	dck_run(&p, good, sizeof(good) / sizeof(good[0]), 723, &res);
	ck_assert_msg(res.violations == 0, "%s", res.first);
	ck_assert_uint_eq(res.refs, 1);
}
END_TEST

START_TEST(test_dram_checker_catches_each_rule)
{
	const bad_trace *b = &bad_traces[_i];
	dram_params p = checker_params(b->tweak);
	dck_result res;

	dck_run(&p, b->r, b->n, b->end, &res);
	ck_assert_msg(res.violations >= 1, "%s: not caught", b->rule);
	ck_assert_msg(strstr(res.first, b->rule), "%s: first violation is \"%s\"", b->rule, res.first);
}
END_TEST

START_TEST(test_dram_checker_catches_mutated_model_trace)
{
	dram_params p = preset(_i ? "DDR4-2400" : "DDR4-3200");
	gen g = { .pattern = PAT_RANDOM, .footprint = 1u << 16, .wr_pct = 30, .rng = 7 };
	run r;
	dck_result res;
	uint64_t caught = 0, tried = 0;

	p.ranks = 2;
	drv_start(&r, &p, 600);
	drv_closed(&r, &g);
	drv_assert_clean(&p, &r);
	/* commands moved one cycle early, one at a time (a sample of 200) */
	for (size_t i = 1; i < r.ntr; i += r.ntr / 200) {
		r.tr[i].cycle--;
		dck_run(&p, r.tr, r.ntr, drv_end_cycle(&r), &res);
		caught += res.violations > 0;
		tried++;
		r.tr[i].cycle++;
	}
	printf("dram checker, %s: %llu of %llu model commands moved one cycle early are caught\n",
	       p.name, (unsigned long long)caught, (unsigned long long)tried);
	ck_assert_uint_ge(caught * 10, tried * 9);
	drv_end(&r);
}
END_TEST

/* --- bandwidth, row hits, legality under load --------------------------------- */

/* Streaming reads on one channel, closed loop: within 10% of the peak. */
static void stream_peak(const char *name, uint64_t n)
{
	dram_params p = preset(name);
	gen g = { .pattern = PAT_STREAM, .rng = 1 };
	run r;

	p.channels = 1;
	drv_start(&r, &p, n);
	drv_closed(&r, &g);
	drv_assert_clean(&p, &r);
	print_run("stream reads", &p, &r);
	dram_stats s = drv_totals(r.d);
	double bw = drv_bandwidth(&r);
	ck_assert_msg(bw >= 0.9 * dram_peak_GBps(&p) && bw <= dram_peak_GBps(&p), "%f GB/s", bw);
	ck_assert_uint_eq(s.reads, n);
	ck_assert_uint_ge(s.row_hits * 100, n * 95);
	ck_assert_uint_eq(s.row_hits + s.row_misses + s.row_conflicts, n);
	ck_assert_uint_gt(s.refreshes, 0);
	drv_end(&r);
}

START_TEST(test_dram_stream_read_peak_ddr4)
{
	stream_peak("DDR4-3200", 20000);
}
END_TEST

START_TEST(test_dram_stream_read_peak_ddr5)
{
	stream_peak("DDR5-4800", 20000);
}
END_TEST

START_TEST(test_dram_stream_read_peak_ddr4_2400)
{
	stream_peak("DDR4-2400", 20000);
}
END_TEST

/* Random reads over 4 GiB: mostly conflicts, well below streaming. */
static void random_lower(const char *name)
{
	dram_params p = preset(name);
	gen g = { .pattern = PAT_RANDOM, .footprint = 1ull << 26, .rng = 99 };
	run r;

	p.channels = 1;
	drv_start(&r, &p, 8000);
	drv_closed(&r, &g);
	drv_assert_clean(&p, &r);
	print_run("random reads", &p, &r);
	dram_stats s = drv_totals(r.d);
	ck_assert_double_lt(drv_bandwidth(&r), 0.75 * dram_peak_GBps(&p));
	ck_assert_uint_lt(s.row_hits * 10, 8000);
	ck_assert_uint_eq(s.row_hits + s.row_misses + s.row_conflicts, 8000);
	drv_end(&r);
}

START_TEST(test_dram_random_read_lower_ddr4)
{
	random_lower("DDR4-3200");
}
END_TEST

START_TEST(test_dram_random_read_lower_ddr5)
{
	random_lower("DDR5-4800");
}
END_TEST

START_TEST(test_dram_random_read_lower_ddr4_2400)
{
	random_lower("DDR4-2400");
}
END_TEST

/*
 * Mixed traffic legality matrix: _i picks preset (bit 0: DDR4-3200 or
 * DDR5-4800; bit 4: DDR4-2400, bit 0 then only changes the seed), closed
 * page (bit 1), 2 ranks (bit 2), random (bit 3); 2 channels, 40% writes.
 */
START_TEST(test_dram_mixed_traffic_is_legal)
{
	dram_params p = preset(_i & 16 ? "DDR4-2400" : _i & 1 ? "DDR5-4800" : "DDR4-3200");
	gen g = { .pattern = _i & 8 ? PAT_RANDOM : PAT_STREAM, .footprint = 1u << 20,
		  .wr_pct = 40, .rng = 5 + (uint64_t)_i };
	run r;

	p.closed_page = !!(_i & 2);
	p.ranks = _i & 4 ? 2 : 1;
	drv_start(&r, &p, 4000);
	drv_closed(&r, &g);
	drv_assert_clean(&p, &r);
	dram_stats s = drv_totals(r.d);
	ck_assert_uint_eq(s.reads + s.writes, 4000);
	ck_assert_uint_gt(s.writes, 1200);
	ck_assert_uint_eq(s.row_hits + s.row_misses + s.row_conflicts, 4000);
	if (p.closed_page)
		ck_assert_uint_ge(s.precharges + p.ranks * p.bankgroups * p.banks * p.channels,
				  s.activates);
	drv_end(&r);
}
END_TEST

/* Write drain: reads and writes alternate on the bus in batches, not one by one. */
START_TEST(test_dram_writes_are_batched)
{
	dram_params p = preset("DDR4-3200");
	gen g = { .pattern = PAT_RANDOM, .footprint = 1u << 20, .wr_pct = 50, .rng = 3 };
	run r;
	uint64_t switches = 0;
	int last = -1;

	p.channels = 1;
	drv_start(&r, &p, 4000);
	drv_closed(&r, &g);
	for (size_t i = 0; i < r.ntr; i++)
		if (r.tr[i].cmd == DRAM_RD || r.tr[i].cmd == DRAM_WR) {
			switches += last >= 0 && last != r.tr[i].cmd;
			last = r.tr[i].cmd;
		}
	printf("dram write drain: %llu bus turnarounds for 4000 requests\n",
	       (unsigned long long)switches);
	ck_assert_uint_lt(switches, 4000 / 6);
	drv_end(&r);
}
END_TEST

/* --- determinism: results do not depend on how often the caller advances ----- */

START_TEST(test_dram_independent_of_advance_calls)
{
	dram_params p = preset(_i == 2 ? "DDR4-2400" : _i ? "DDR5-4800" : "DDR4-3200");
	run a, b;

	p.ranks = 2;
	p.queue = 8;
	p.closed_page = _i == 1;
	for (int extra = 0; extra < 2; extra++) {
		gen g = { .pattern = PAT_RANDOM, .footprint = 1u << 14, .wr_pct = 35, .rng = 11 };
		run *r = extra ? &b : &a;
		drv_start(r, &p, 3000);
		drv_timed(r, &g, 1500, extra, 42);
	}
	drv_assert_clean(&p, &a);
	ck_assert_uint_eq(a.ntr, b.ntr);
	/* per channel the same commands; channels interleave differently in the
	 * trace, as work without a callback is caught up lazily */
	for (uint32_t ch = 0; ch < p.channels; ch++)
		for (size_t i = 0, j = 0; i < a.ntr; i++, j++) {
			for (; i < a.ntr && a.tr[i].ch != ch; i++)
				;
			for (; j < b.ntr && b.tr[j].ch != ch; j++)
				;
			ck_assert_uint_eq(i < a.ntr, j < b.ntr);
			if (i < a.ntr)
				ck_assert_int_eq(memcmp(&a.tr[i], &b.tr[j], sizeof(*a.tr)), 0);
		}
	ck_assert_int_eq(memcmp(a.done, b.done, 3000 * sizeof(*a.done)), 0);
	ck_assert_int_eq(memcmp(a.order, b.order, 3000 * sizeof(*a.order)), 0);
	drv_end(&a);
	drv_end(&b);
}
END_TEST

/* An idle channel needs no timer; its refreshes are caught up at the next call. */
START_TEST(test_dram_idle_refresh_caught_up)
{
	dram_params p = preset("DDR4-3200");
	gen g = { .pattern = PAT_STREAM, .rng = 1 };
	run r;

	p.channels = 1;
	drv_start(&r, &p, 2);
	dram_enqueue(r.d, 0, 0, 0, 0);
	while (r.ndone < 1) {
		r.now = dram_next_time(r.d, 0);
		drv_advance_all(&r);
	}
	ck_assert_uint_eq(dram_next_time(r.d, 0), SIM_TIME_MAX);
	r.now = SIM_MS;
	drv_advance_all(&r);
	/* 1 ms / 7.8 us = 128.2 refreshes by now */
	ck_assert_uint_eq(dram_stats_get(r.d, 0)->refreshes, 128);
	g.i = 1;
	uint64_t line;
	int wr;
	drv_gen_next(&g, &line, &wr);
	dram_enqueue(r.d, line, wr, r.now, 1);
	while (r.ndone < 2) {
		r.now = dram_next_time(r.d, 0);
		drv_advance_all(&r);
	}
	drv_assert_clean(&p, &r);
	ck_assert_uint_eq(r.done[1] - SIM_MS >= 22 * 625, 1);
	drv_end(&r);
}
END_TEST

/* FR-FCFS cap: a row conflict behind a stream of hits to the same bank. */
static uint64_t conflict_position(uint32_t starve)
{
	dram_params p = preset("DDR4-3200");
	uint64_t lines[102], pos = 0;
	/* bank 0 of bank group 0: row stride 4 banks x 128 cols x 4 bgs, col stride 4 */
	const uint64_t row = 4 * 128 * 4, col = 4;

	p.channels = 1;
	p.starve = starve;
	lines[0] = 0;
	lines[1] = row;
	for (int i = 2; i < 102; i++)
		lines[i] = (uint64_t)(i - 1) * col;
	gen g = { .list = lines, .rng = 1 };
	run r;
	drv_start(&r, &p, 102);
	drv_closed(&r, &g);
	drv_assert_clean(&p, &r);
	while (r.order[pos] != 1)
		pos++;
	drv_end(&r);
	return pos;
}

START_TEST(test_dram_starvation_cap)
{
	uint64_t none = conflict_position(0), cap4 = conflict_position(4);

	printf("dram FR-FCFS: the conflicting request is served %lluth without a cap, "
	       "%lluth with a cap of 4\n", (unsigned long long)none, (unsigned long long)cap4);
	ck_assert_uint_eq(none, 101);
	ck_assert_uint_le(cap4, 6);
}
END_TEST

START_TEST(test_dram_full_queue_panics)
{
	dram_params p = preset("DDR4-3200");

	p.queue = 1;
	dram *d = dram_create(&p);
	dram_enqueue(d, 0, 0, 0, 0);
	ck_assert_int_eq(dram_full(d, 0), 1);
	panict_expect("assertion failed: c->n < p->queue");
	dram_enqueue(d, 2, 0, 0, 1);
}
END_TEST

START_TEST(test_dram_enqueue_without_advance_panics)
{
	dram_params p = preset("DDR4-3200");
	dram *d = dram_create(&p);

	panict_expect("assertion failed: c->upto == now");
	dram_enqueue(d, 0, 0, 1000, 0);
}
END_TEST

Suite *dram_suite(void)
{
	Suite *s = suite_create("dram");
	TCase *basic = tcase_create("presets_time_mapping");
	TCase *chk = tcase_create("checker");
	TCase *load_ = tcase_create("bandwidth_and_legality");
	TCase *det = tcase_create("determinism_refresh_policy");

	tcase_add_test(basic, test_dram_preset_peak_bandwidth);
	tcase_add_test(basic, test_dram_cycle_time_exact);
	tcase_add_test(basic, test_dram_map_parse);
	tcase_add_test(basic, test_dram_map_decodes_fields);
	tcase_add_test(basic, test_dram_params_check_rejects);
	tcase_add_test(chk, test_dram_checker_accepts_legal_trace);
	tcase_add_loop_test(chk, test_dram_checker_catches_each_rule, 0,
			    (int)(sizeof(bad_traces) / sizeof(bad_traces[0])));
	tcase_add_loop_test(chk, test_dram_checker_catches_mutated_model_trace, 0, 2);
	tcase_set_timeout(chk, 30);
	tcase_add_test(load_, test_dram_stream_read_peak_ddr4);
	tcase_add_test(load_, test_dram_stream_read_peak_ddr5);
	tcase_add_test(load_, test_dram_stream_read_peak_ddr4_2400);
	tcase_add_test(load_, test_dram_random_read_lower_ddr4);
	tcase_add_test(load_, test_dram_random_read_lower_ddr5);
	tcase_add_test(load_, test_dram_random_read_lower_ddr4_2400);
	tcase_add_loop_test(load_, test_dram_mixed_traffic_is_legal, 0, 32);
	tcase_add_test(load_, test_dram_writes_are_batched);
	tcase_set_timeout(load_, 30);
	tcase_add_loop_test(det, test_dram_independent_of_advance_calls, 0, 3);
	tcase_add_test(det, test_dram_idle_refresh_caught_up);
	tcase_add_test(det, test_dram_starvation_cap);
	tcase_add_test_raise_signal(det, test_dram_full_queue_panics, SIGABRT);
	tcase_add_test_raise_signal(det, test_dram_enqueue_without_advance_panics, SIGABRT);
	tcase_set_timeout(det, 30);
	suite_add_tcase(s, basic);
	suite_add_tcase(s, chk);
	suite_add_tcase(s, load_);
	suite_add_tcase(s, det);
	return s;
}
