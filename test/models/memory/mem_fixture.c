/*
 * test/models/memory/mem_fixture.c - the scripted requester ("mtep") and the
 * engine harness of the memory endpoint's tests; the contract is in
 * mem_fixture.h.
 *
 * The requester speaks cxl_proto.h on its one port: it grants 64 credits
 * per VC at time 0 and returns one per response or BISnp consumed, spends
 * the bus's credits for its requests and BIRsps, and addresses the memory
 * device across its bus (PBR ids from the fabric view).  It stands in for
 * models/host/ so that the device can be driven with requests the host
 * side does not make yet (several lines, flag values, BIRsps with a flag
 * line).
 */
#include "test/models/memory/mem_fixture.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_view.h"
#include "models/host/req.h"
#include "models/proto/cxl_lat.h"
#include "models/registry.h"
#include "test/models/fixture_stat.h"

enum { MTEP_EV_TIMER = CXL_EV_MODEL }; /* a request's `at` has come */

mfx_script mfx_scripts[MFX_HOSTS];
mfx_log mfx_logs[MFX_HOSTS];

typedef struct mtep mtep;
struct mtep {
	const mfx_script *sc; /* what it plays */
	mfx_log *log;         /* what it saw */
	uint16_t pbr;         /* own PBR id */
	uint16_t mem;         /* the device's PBR id (across the bus on port 0) */
	uint32_t next;        /* next request to send */
	uint32_t out;         /* requests outstanding */
	sim_time timer;       /* pending timer, SIM_TIME_MAX none */
	cxl_credits cr;       /* credits towards the bus */
};

static int mtep_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	mtep *t = state;
	const fab_view *v = fab_view_of(c);
	uint32_t i = fab_view_requester_index(v, c->id);

	(void)cf;
	(void)err;
	ck_assert_uint_lt(i, MFX_HOSTS);
	t->sc = &mfx_scripts[i];
	t->log = &mfx_logs[i];
	t->pbr = fab_view_pbr(v, c->id);
	t->mem = fab_view_peer_pbr(v, c->id, 0);
	t->timer = SIM_TIME_MAX;
	cxl_grant_all_ports(c, 64);
	return 0;
}

/* Send every request whose time, credit and predecessors allow; arm the timer. */
static void try_send(sim_comp *c, mtep *t)
{
	while (t->next < t->sc->nreq) {
		const mfx_req *q = &t->sc->req[t->next];
		if (q->at > sim_now(c)) {
			if (t->timer > q->at) {
				cxl_event *tm = sim_event_new(c);
				tm->kind = MTEP_EV_TIMER;
				t->timer = q->at;
				sim_send_self(c, tm, q->at - sim_now(c));
			}
			return;
		}
		if (!t->cr.n[q->vc] || (q->serial && t->out))
			return;
		int write = q->vc == CXL_VC_M2S_RWD;
		cxl_event *ev = sim_event_new(c);
		ev->kind = CXL_EV_PKT;
		ev->pkt = (cxl_packet){
			.addr = q->addr, .issue = sim_now(c), .tag = t->next,
			.size = write ? (uint16_t)(q->lines * CXL_LINE) : 0, .pbr_src = t->pbr,
			.pbr_dst = t->mem, .mclass = q->vc,
			.opcode = write ? CXL_OP_MEMWR : CXL_OP_MEMRD, .flags = q->flags,
			.aux = write ? q->aux : q->lines,
		};
		t->cr.n[q->vc]--;
		t->log->sent_at[t->next++] = sim_now(c);
		if (++t->out > t->log->max_out)
			t->log->max_out = t->out;
		cxl_pkt_send_port(c, ev, 0, 0, CXL_LAT_LINK);
	}
}

/* A response: check its breakdown, log it, return its credit. */
static void on_response(sim_comp *c, mtep *t, cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;
	uint64_t sum = 0;

	ck_assert_uint_lt(p->tag, t->next);
	ck_assert_uint_eq(t->log->resp_at[p->tag], 0);
	ck_assert_uint_eq(p->pbr_dst, t->pbr);
	ck_assert_uint_eq(p->flags & CXL_PKT_LATOVF, 0);
	for (int k = 0; k < CXL_LAT_N; k++)
		sum += p->lat[k];
	ck_assert_uint_eq(sum, p->lat_sum);
	ck_assert_uint_eq(sum, sim_now(c) - p->issue);
	ck_assert_uint_eq(p->issue, t->log->sent_at[p->tag]);
	t->log->resp[p->tag] = *p;
	t->log->resp_at[p->tag] = sim_now(c);
	t->log->nresp++;
	t->out--;
	cxl_grant(c, 0, p->mclass, 1);
	try_send(c, t);
}

/* A BISnp: answer with the scripted BIRsp (the event reused). */
static void on_bisnp(sim_comp *c, mtep *t, cxl_event *ev)
{
	cxl_packet *p = &ev->pkt;
	uint32_t k = t->log->nbisnp++;
	mfx_birsp a = k < t->sc->nbirsp ? t->sc->birsp[k] : (mfx_birsp){ 0 };

	ck_assert_uint_lt(k, MFX_MAX);
	ck_assert_uint_eq(p->pbr_dst, t->pbr);
	t->log->bisnp[k] = *p;
	t->log->bisnp_at[k] = sim_now(c);
	cxl_grant(c, 0, CXL_VC_S2M_BISNP, 1);
	ck_assert_uint_gt(t->cr.n[CXL_VC_M2S_BIRSP], 0);
	t->cr.n[CXL_VC_M2S_BIRSP]--;
	p->pbr_dst = p->pbr_src;
	p->pbr_src = t->pbr;
	p->mclass = CXL_VC_M2S_BIRSP;
	p->opcode = CXL_OP_BIRSPI;
	p->size = (uint16_t)(a.dirty * CXL_LINE);
	p->flags = a.flags;
	p->aux = a.aux;
	p->hops = 0;
	cxl_lat_until(p, CXL_LAT_QUEUE, sim_now(c));
	cxl_pkt_send_port(c, ev, 0, 0, CXL_LAT_LINK);
}

static void mtep_event(sim_comp *c, void *state, cxl_event *ev)
{
	mtep *t = state;

	switch (ev->kind) {
	case CXL_EV_CREDIT:
		cxl_credit_apply(&t->cr, ev);
		try_send(c, t);
		break;
	case CXL_EV_PKT:
		if (ev->pkt.mclass == CXL_VC_S2M_BISNP)
			on_bisnp(c, t, ev);
		else
			on_response(c, t, ev);
		break;
	case MTEP_EV_TIMER:
		if (t->timer == sim_now(c))
			t->timer = SIM_TIME_MAX;
		try_send(c, t);
		break;
	default:
		ck_abort_msg("mtep: event kind %u", ev->kind);
	}
}

static const model_ops mtep_ops = {
	.name = "mtep",
	.cfg_groups = "host workload",
	.state_size = sizeof(mtep),
	.init = mtep_init,
	.event = mtep_event,
};

/* --- harness ----------------------------------------------------------------- */

/**
 * mfx_run - see mem_fixture.h.
 */
void mfx_run(mfx *r, const char *const *sets)
{
	const char *all[MFX_SETS] = { "simulation.end=10ms", "topology.kind=custom" };
	const cfg_schema *schemas[32] = { &sim_schema };
	size_t n = 2, ns = 1 + sys_fabric.schemas(schemas + 1, 31);
	cxl_err err = { 0 };

	memset(r, 0, sizeof(*r));
	memset(mfx_logs, 0, sizeof(mfx_logs));
	stats_set_init(&r->table);
	while (*sets) {
		ck_assert_uint_lt(n, MFX_SETS);
		all[n++] = *sets++;
	}
	ck_assert_msg(cfg_load(&r->cf, NULL, schemas, ns, all, n, &err) == 0, "%s", err.msg);
	ck_assert_msg(sys_fabric.build(r->cf, &r->g, &r->sys, &err) == 0, "%s", err.msg);
	for (uint32_t i = 0; i < r->g.ncomp; i++)
		if (r->g.comp[i].ops == &cxl_host_ops)
			r->g.comp[i].ops = &mtep_ops;
	r->rank_of = xcalloc(r->g.ncomp, sizeof(*r->rank_of));
	sim_opts o = { .rank = 0, .nranks = 1, .seed = 1, .end = cfg_time(r->cf, "simulation.end"),
		       .system = r->sys };
	r->e = sim_engine_create(&r->g, r->rank_of, r->cf, &o, &err);
	ck_assert_msg(r->e != NULL, "%s", err.msg);
	ck_assert_msg(sim_engine_init(r->e, &err) == 0, "%s", err.msg);
	sim_engine_run(r->e);
	ck_assert_msg(sim_engine_collect(r->e, &r->table, &r->info, &err) == 0, "%s", err.msg);
}

/* mfx_close - free what mfx_run made. */
void mfx_close(mfx *r)
{
	sim_engine_destroy(r->e);
	stats_set_free(&r->table);
	free(r->rank_of);
	sys_fabric.free_sys(r->sys);
	graph_free(&r->g);
	cfg_free(r->cf);
}

/* mfx_stat - counter @name of the component called @comp. */
uint64_t mfx_stat(const mfx *r, const char *comp, const char *name)
{
	const stats_entry *e = fixture_stat(&r->g, &r->table, comp, name);

	ck_assert_msg(e != NULL, "%s: no statistic %s", comp, name);
	return *e->value;
}
