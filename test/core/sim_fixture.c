/*
 * test/core/sim_fixture.c - the engine tests' one-rank harness and log
 * (contract in sim_fixture.h).
 */
#include "test/core/sim_fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"

static const cfg_schema *const schemas[] = { &sim_schema };

/* simt_open - load a cfg with simulation.end=@end, .seed=@seed; create the engine. */
void simt_open(simt_run *r, const sim_graph *g, const char *end, uint64_t seed)
{
	char es[64], ss[64];
	const char *sets[] = { es, ss };
	cxl_err err = { 0 };

	*r = (simt_run){ .g = g };
	stats_set_init(&r->table);
	snprintf(es, sizeof(es), "simulation.end=%s", end);
	snprintf(ss, sizeof(ss), "simulation.seed=%llu", (unsigned long long)seed);
	ck_assert_msg(cfg_load(&r->cf, NULL, schemas, 1, sets, 2, &err) == 0, "%s", err.msg);
	r->rank_of = xcalloc(g->ncomp ? g->ncomp : 1, sizeof(*r->rank_of));
	sim_opts o = {
		.rank = 0, .nranks = 1,
		.seed = (uint64_t)cfg_int(r->cf, "simulation.seed"),
		.end = cfg_time(r->cf, "simulation.end"),
	};
	r->e = sim_engine_create(g, r->rank_of, r->cf, &o, &err);
	ck_assert_msg(r->e != NULL, "%s", err.msg);
	ck_assert_ptr_null(r->e->xp); /* one rank: no transport, no MPI */
}

void simt_init(simt_run *r)
{
	cxl_err err = { 0 };

	ck_assert_msg(sim_engine_init(r->e, &err) == 0, "%s", err.msg);
}

/* simt_go - run to the end and collect statistics and run info. */
void simt_go(simt_run *r)
{
	cxl_err err = { 0 };

	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, &err) == 0, "%s", err.msg);
}

void simt_close(simt_run *r)
{
	sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	cfg_free(r->cf);
	free(r->rank_of);
}

uint32_t simt_add(sim_graph *g, const model_ops *ops, const char *name)
{
	return graph_add_comp(g, ops, name, 1);
}

/* --- the log the test models write --------------------------------------- */

simt_rec simt_log[SIMT_LOG_MAX];
size_t simt_log_n;

/* Handlers check with if + ck_abort_msg: each ck_assert costs a pipe write. */
void simt_log_event(const sim_comp *c, const cxl_event *ev)
{
	if (simt_log_n == SIMT_LOG_MAX)
		ck_abort_msg("test log full");
	if (ev->time != sim_now(c) || ev->dst != c->id || ev->owner != CXL_OWN_HANDLER)
		ck_abort_msg("%s: event time %llu dst %u owner %d at now %llu",
			     c->name, (unsigned long long)ev->time, ev->dst, ev->owner,
			     (unsigned long long)sim_now(c));
	simt_log[simt_log_n++] = (simt_rec){ ev->time, c->id, ev->src, ev->seq,
					     ev->dst_port, ev->kind, ev->pkt.tag };
}

void simt_log_mark(const sim_comp *c, uint32_t tag)
{
	if (simt_log_n == SIMT_LOG_MAX)
		ck_abort_msg("test log full");
	simt_log[simt_log_n++] = (simt_rec){ .t = sim_now(c), .comp = c->id, .kind = K_MARK,
					     .tag = tag };
}

/* simt_count - log entries equal to @want in every field but seq. */
size_t simt_count(simt_rec want)
{
	size_t n = 0;

	for (size_t i = 0; i < simt_log_n; i++) {
		const simt_rec *x = &simt_log[i];
		n += x->t == want.t && x->comp == want.comp && x->src == want.src &&
		     x->port == want.port && x->kind == want.kind && x->tag == want.tag;
	}
	return n;
}

static void reset_log(void)
{
	simt_log_n = 0;
}

TCase *simt_case(const char *name, void (*setup)(void))
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, reset_log, NULL);
	if (setup)
		tcase_add_checked_fixture(tc, setup, NULL);
	return tc;
}
