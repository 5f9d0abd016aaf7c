/*
 * models/mem.c - the memory endpoint (type-3 expander) with the simple DRAM
 * service model: a device controller latency, then one of `channels` DRAM
 * channels (line L on channel L mod channels), each serving one 64-byte
 * line per 64 B / channel_GBps, then a fixed DRAM latency.
 *
 *   request arrives at t:  start = max(t + memory.latency, channel free)
 *                          channel free = start + service
 *                          response ready at start + service + dram_latency
 * A read answers with S2M DRS (64 B), a write with S2M NDR.  The detailed
 * DRAM model and the DCOH come later behind the same model.
 *
 * Flow control (cxl_proto.h): `memory.buffer` credits per VC; a request's
 * slot is freed (its credit returned) when its response leaves, so the
 * buffer bounds the requests in the device.  Responses wait per VC for the
 * bus's credits, in order.
 *
 * Statistics: reads, writes, queue_ps (time waiting for a channel),
 * busy_ps (channel service time), and at the end responses_waiting and
 * credits_held for conservation checks.
 */
#include "models/mem.h"

#include "core/xmalloc.h"
#include "models/cxl_proto.h"
#include "models/evring.h"
#include "models/fabric.h"

enum { MEM_EV_DONE = CXL_EV_MODEL };

typedef struct mem mem;
struct mem {
	cxl_credits cr;         /* credits towards the bus */
	uint16_t pbr;           /* own PBR id */
	sim_time latency;       /* device controller latency, ps */
	sim_time dram_latency;  /* DRAM access latency, ps */
	sim_time service;       /* channel occupancy per line, ps */
	uint32_t nch;           /* channels */
	sim_time *ch_free;      /* [channel] time it is free again */
	evring resp[2];         /* responses waiting for credits: NDR, DRS */
	cxl_event **slots;      /* storage of both rings */
	uint64_t *reads, *writes, *queue_ps, *busy_ps, *waiting_end, *credits_end;
};

static const cfg_key mem_keys[] = {
	{ "memory.latency", CFG_TIME, "40ns", "0ps", NULL, NULL,
	  "device controller latency (ESF Table III: 40 ns)" },
	{ "memory.dram_latency", CFG_TIME, "40ns", "0ps", NULL, NULL,
	  "simple DRAM model: fixed access latency after the channel's service" },
	{ "memory.channels", CFG_INT, "2", "1", "64", NULL,
	  "simple DRAM model: channels, lines interleaved over them" },
	{ "memory.channel_GBps", CFG_FLOAT, "25.6", "0.001", NULL, NULL,
	  "simple DRAM model: bandwidth of one channel, GB/s (25.6: DDR4-3200)" },
	{ "memory.buffer", CFG_INT, "32", "1", "4096", NULL,
	  "requests the device holds per VC (credits it grants)" },
};

const cfg_schema cxl_memory_schema = {
	"memory", mem_keys, sizeof(mem_keys) / sizeof(mem_keys[0]),
};

static int mem_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	mem *m = state;
	uint32_t buf = (uint32_t)cfg_int(cf, "memory.buffer");

	(void)err;
	const fabric *f = sim_system(c);
	CXL_ASSERT(f && c->nports == 1);
	m->pbr = f->node[fab_node_of(f, c->id)].pbr;
	m->latency = cfg_time(cf, "memory.latency");
	m->dram_latency = cfg_time(cf, "memory.dram_latency");
	m->nch = (uint32_t)cfg_int(cf, "memory.channels");
	/* ps per line = 64 B / (GB/s) * 1000, rounded up */
	double ps = (double)CXL_LINE * 1000.0 / cfg_float(cf, "memory.channel_GBps");
	m->service = (sim_time)ps + ((double)(sim_time)ps < ps);
	m->ch_free = xcalloc(m->nch, sizeof(*m->ch_free));
	m->slots = xmalloc(2 * (size_t)buf * sizeof(*m->slots));
	evring_init(&m->resp[0], buf, m->slots);
	evring_init(&m->resp[1], buf, m->slots + buf);
	m->reads = sim_stat_counter(c, "reads");
	m->writes = sim_stat_counter(c, "writes");
	m->queue_ps = sim_stat_counter(c, "queue_ps");
	m->busy_ps = sim_stat_counter(c, "busy_ps");
	m->waiting_end = sim_stat_counter(c, "responses_waiting");
	m->credits_end = sim_stat_counter(c, "credits_held");
	cxl_grant_all_ports(c, (uint16_t)buf);
	return 0;
}

static void on_request(sim_comp *c, mem *m, cxl_event *ev)
{
	uint32_t ch = (uint32_t)((ev->pkt.addr / CXL_LINE) % m->nch);
	sim_time ready = sim_now(c) + m->latency;
	sim_time start = ready > m->ch_free[ch] ? ready : m->ch_free[ch];

	CXL_ASSERT(ev->pkt.mclass == CXL_VC_M2S_REQ || ev->pkt.mclass == CXL_VC_M2S_RWD);
	CXL_ASSERT(ev->pkt.pbr_dst == m->pbr);
	m->ch_free[ch] = start + m->service;
	*m->queue_ps += start - ready;
	*m->busy_ps += m->service;
	(*(ev->pkt.mclass == CXL_VC_M2S_REQ ? m->reads : m->writes))++;
	ev->kind = MEM_EV_DONE;
	sim_send_self(c, ev, start + m->service + m->dram_latency - sim_now(c));
}

/* Send the oldest waiting responses while the bus has credits for them. */
static void drain(sim_comp *c, mem *m)
{
	for (int k = 0; k < 2; k++) {
		evring *q = &m->resp[k];
		while (evring_peek(q) && m->cr.n[evring_peek(q)->pkt.mclass]) {
			cxl_event *ev = evring_pop(q);
			uint8_t vc = ev->pkt.mclass;
			m->cr.n[vc]--;
			cxl_grant(c, 0, vc == CXL_VC_S2M_DRS ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD, 1);
			sim_send_port(c, ev, 0, 0);
		}
	}
}

/* Turn the request in @ev into its response and queue it. */
static void respond(sim_comp *c, mem *m, cxl_event *ev)
{
	cxl_packet *p = &ev->pkt;
	int read = p->mclass == CXL_VC_M2S_REQ;
	uint16_t src = p->pbr_src;

	p->pbr_src = p->pbr_dst;
	p->pbr_dst = src;
	p->mclass = read ? CXL_VC_S2M_DRS : CXL_VC_S2M_NDR;
	p->opcode = read ? CXL_OP_MEMDATA : CXL_OP_CMP;
	p->size = read ? CXL_LINE : 0;
	ev->kind = CXL_EV_PKT;
	sim_event_keep(c, ev);
	evring_push(&m->resp[read], ev);
	drain(c, m);
}

static void mem_event(sim_comp *c, void *state, cxl_event *ev)
{
	mem *m = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		on_request(c, m, ev);
		break;
	case MEM_EV_DONE:
		respond(c, m, ev);
		break;
	case CXL_EV_CREDIT:
		cxl_credit_apply(&m->cr, ev);
		drain(c, m);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
}

static void mem_finish(sim_comp *c, void *state)
{
	mem *m = state;

	*m->waiting_end = evring_free_all(c, &m->resp[0]) + evring_free_all(c, &m->resp[1]);
	*m->credits_end = cxl_credits_total(&m->cr);
	free(m->ch_free);
	free(m->slots);
	m->ch_free = NULL;
	m->slots = NULL;
}

const model_ops cxl_memory_ops = {
	.name = "memory",
	.cfg_groups = "memory",
	.state_size = sizeof(mem),
	.init = mem_init,
	.event = mem_event,
	.finish = mem_finish,
};
