/*
 * test/models/switch/test_switch_esf.c - unit tests for the switch's
 * ESF-compatible port occupancy (switch.esf_port_busy, models/switch/switch.c).
 *
 * Covered: ESF's rule (switch.hh Switch::sched) as sw__esf_start computes
 * it - start at max(hand-over, port free), the port busy `delay` after,
 * an idle gap never reused, delay 0 never busy; and in the engine, on one
 * host - switch - memory (buses near-ideal, every component on rank 0):
 * an idle request costs exactly what the default pipeline costs; under load
 * every port is busy exactly its packets x switch.latency, the answers
 * leave the port towards the host one per switch.latency (the run takes
 * at least requests x latency, where the default pipeline does not bind),
 * and waits are counted; the key is off by default and refused with slices.
 */
#include "models/switch/switch.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "core/engine.h"
#include "core/xmalloc.h"
#include "models/registry.h"
#include "models/switch/switch_int.h"
#include "test/models/fixture_stat.h"

START_TEST(test_switch_esf_start_rule)
{
	sim_time free = 0;

	/* three packets handed over at once: served back to back */
	ck_assert_uint_eq(sw__esf_start(&free, 0, 10), 0);
	ck_assert_uint_eq(sw__esf_start(&free, 0, 10), 10);
	ck_assert_uint_eq(sw__esf_start(&free, 5, 10), 20);
	ck_assert_uint_eq(free, 30);
	/* the port idles until 100: that gap is gone, not kept for later */
	ck_assert_uint_eq(sw__esf_start(&free, 100, 10), 100);
	ck_assert_uint_eq(sw__esf_start(&free, 105, 10), 110);
	ck_assert_uint_eq(free, 120);
	/* handed over exactly when it frees */
	ck_assert_uint_eq(sw__esf_start(&free, 120, 10), 120);
	ck_assert_uint_eq(free, 130);
}
END_TEST

START_TEST(test_switch_esf_start_zero_delay)
{
	sim_time free = 0;

	/* ESF's spine-leaf core (delay 0): never busy, a packet leaves at once */
	for (sim_time t = 0; t < 5; t++) {
		ck_assert_uint_eq(sw__esf_start(&free, 7, 0), 7);
		ck_assert_uint_eq(free, 7);
	}
}
END_TEST

/* --- engine: host - switch - memory ------------------------------------------ */

typedef struct swr swr;
struct swr {
	cfg *cf;            /* the config */
	sim_graph g;        /* the fabric's graph */
	void *sys;          /* the fabric */
	int32_t *rank_of;   /* all on rank 0 */
	sim_engine *e;      /* the engine */
	stats_set table;    /* statistics after the run */
	sim_rank_info info; /* run info */
};

enum { SWR_SETS = 24 };

/*
 * swr_run - one host, one switch (latency 10 ns), one memory of fixed 10 ns
 * latency, near-ideal buses; @esf the key, @queue the host's queue, @n its
 * requests, plus the NULL-terminated @extra; run to completion on one rank.
 * Returns 0, or the build / init error's code with @err filled.
 */
static int swr_run(swr *r, int esf, int queue, int n, const char *const *extra, cxl_err *err)
{
	char q[48], k[48], m[48];
	const char *all[SWR_SETS] = {
		"simulation.end=10ms", "topology.kind=chain", "topology.switches=1",
		"topology.hosts=1", "topology.memories=1", "switch.latency=10ns",
		"memory.latency=10ns", "memory.dram.preset=simple", "bus.gen=6",
		"bus.encoding=none", "bus.header_bytes=0B", "bus.latency=0ns", "link.latency=1ps",
		"workload.pattern=stream", "host.latency=0ns", q, k, m,
	};
	const cfg_schema *schemas[32] = { &sim_schema };
	size_t ns = 1 + sys_fabric.schemas(schemas + 1, 31), na = 18;
	int rc;

	snprintf(q, sizeof(q), "workload.queue=%d", queue);
	snprintf(k, sizeof(k), "switch.esf_port_busy=%s", esf ? "true" : "false");
	snprintf(m, sizeof(m), "workload.requests=%d", n);
	while (extra && *extra) {
		ck_assert_uint_lt(na, SWR_SETS);
		all[na++] = *extra++;
	}
	memset(r, 0, sizeof(*r));
	stats_set_init(&r->table);
	ck_assert_msg(cfg_load(&r->cf, NULL, schemas, ns, all, na, err) == 0, "%s", err->msg);
	ck_assert_msg(sys_fabric.build(r->cf, &r->g, &r->sys, err) == 0, "%s", err->msg);
	r->rank_of = xcalloc(r->g.ncomp, sizeof(*r->rank_of));
	sim_opts o = { .rank = 0, .nranks = 1, .seed = 1, .end = cfg_time(r->cf, "simulation.end"),
		       .system = r->sys };
	r->e = sim_engine_create(&r->g, r->rank_of, r->cf, &o, err);
	if (!r->e)
		return err->code ? err->code : -1;
	rc = sim_engine_init(r->e, err);
	if (rc)
		return rc;
	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, err) == 0, "%s", err->msg);
	return 0;
}

static void swr_close(swr *r)
{
	if (r->e)
		sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	free(r->rank_of);
	if (r->sys)
		sys_fabric.free_sys(r->sys);
	graph_free(&r->g);
	cfg_free(r->cf);
}

/* swr_stat - counter @name of component @comp, or UINT64_MAX if it has none. */
static uint64_t swr_stat(const swr *r, const char *comp, const char *name)
{
	const stats_entry *e = fixture_stat(&r->g, &r->table, comp, name);

	return e ? *e->value : UINT64_MAX;
}

START_TEST(test_switch_esf_idle_same_as_pipeline)
{
	cxl_err err = { 0 };
	swr a, b;

	/* one request at a time: the port is always free, so the delay is the pipeline's */
	ck_assert_int_eq(swr_run(&a, 0, 1, 20, NULL, &err), 0);
	ck_assert_int_eq(swr_run(&b, 1, 1, 20, NULL, &err), 0);
	ck_assert_uint_eq(swr_stat(&a, "host0", "t_last_ps"), swr_stat(&b, "host0", "t_last_ps"));
	ck_assert_uint_eq(swr_stat(&a, "host0", "reads") + swr_stat(&a, "host0", "writes"), 20);
	ck_assert_uint_eq(swr_stat(&b, "sw0", "p0_esf_wait_ps") + swr_stat(&b, "sw0", "p1_esf_wait_ps"),
			  0);
	swr_close(&a);
	swr_close(&b);
}
END_TEST

START_TEST(test_switch_esf_port_occupancy)
{
	enum { N = 2000 };
	cxl_err err = { 0 };
	swr a, b;
	char name[32];

	ck_assert_int_eq(swr_run(&a, 0, 32, N, NULL, &err), 0);
	ck_assert_int_eq(swr_run(&b, 1, 32, N, NULL, &err), 0);
	/* every port busy exactly its packets x 10 ns; N requests and N answers */
	uint64_t pkts = 0;
	for (uint32_t p = 0; p < 2; p++) {
		snprintf(name, sizeof(name), "p%u_pkts", p);
		uint64_t n = swr_stat(&b, "sw0", name);
		snprintf(name, sizeof(name), "p%u_esf_busy_ps", p);
		ck_assert_uint_eq(swr_stat(&b, "sw0", name), n * 10000);
		pkts += n;
	}
	ck_assert_uint_eq(pkts, 2 * N);
	/* one answer per 10 ns at the host's port: N answers take >= (N - 1) x 10 ns
	 * after the first, and hardly more (the port is the bottleneck, never idle) */
	uint64_t first = swr_stat(&b, "host0", "t_first_ps"), last = swr_stat(&b, "host0", "t_last_ps");
	ck_assert_uint_ge(last - first, (uint64_t)(N - 1) * 10000);
	ck_assert_uint_le(last - first, (uint64_t)N * 10000 + 200000);
	/* packets waited for the port; the default pipeline (no occupancy) is much faster */
	ck_assert_uint_gt(swr_stat(&b, "sw0", "p0_esf_wait_ps") + swr_stat(&b, "sw0", "p1_esf_wait_ps"),
			  0);
	ck_assert_uint_lt(swr_stat(&a, "host0", "t_last_ps") * 2, last);
	ck_assert_uint_eq(swr_stat(&a, "sw0", "p0_esf_busy_ps"), UINT64_MAX); /* off: no stat */
	swr_close(&a);
	swr_close(&b);
}
END_TEST

START_TEST(test_switch_esf_defaults_off)
{
	const cfg_schema *schemas[] = { &sim_schema, &cxl_switch_schema };
	const char *sets[] = { "simulation.end=1us" };
	cxl_err err = { 0 };
	cfg *cf;

	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 2, sets, 1, &err), 0);
	ck_assert_int_eq(cfg_bool(cf, "switch.esf_port_busy"), 0);
	cfg_free(cf);
}
END_TEST

START_TEST(test_switch_esf_refuses_slices)
{
	const char *extra[] = { "switch.slices=2", NULL };
	cxl_err err = { 0 };
	swr r;

	ck_assert_int_ne(swr_run(&r, 1, 1, 1, extra, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "switch.esf_port_busy"));
	swr_close(&r);
}
END_TEST

Suite *switch_esf_suite(void)
{
	Suite *s = suite_create("switch_esf");
	TCase *rule = tcase_create("rule");
	TCase *run = tcase_create("engine");
	TCase *cfgs = tcase_create("config");

	tcase_add_test(rule, test_switch_esf_start_rule);
	tcase_add_test(rule, test_switch_esf_start_zero_delay);
	tcase_add_test(run, test_switch_esf_idle_same_as_pipeline);
	tcase_add_test(run, test_switch_esf_port_occupancy);
	tcase_set_timeout(run, 60);
	tcase_add_test(cfgs, test_switch_esf_defaults_off);
	tcase_add_test(cfgs, test_switch_esf_refuses_slices);
	suite_add_tcase(s, rule);
	suite_add_tcase(s, run);
	suite_add_tcase(s, cfgs);
	return s;
}
