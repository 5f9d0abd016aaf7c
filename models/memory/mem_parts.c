/*
 * models/memory/mem_parts.c - requests of several lines at the memory
 * endpoint (an uncacheable TLP of a host program: MemRd pkt.aux = n lines,
 * MemWr the lines its payload touches; cxl_proto.h).  Such a request is
 * kept in a parent slot and split into one-line parts, each a request of
 * its own through the DCOH and the DRAM; the last part served answers it
 * (one DRS or NDR).  With a DCOH the parts enter it one at a time, so its
 * tables, sized by the requests the credits admit, cannot overflow.  The
 * detailed DRAM path keeps at most one part of a request in its wait rings
 * (mem.c: arrive(), release()).  State in mem_int.h.
 */
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/memory/mem_int.h"
#include "models/proto/cxl_lat.h"

/*
 * Part @k (line k) of the request in parent slot @s: a one-line request of
 * the same class from the same requester (the DCOH snoops on its behalf),
 * marked internal, pkt.tag = @s.  Its own latency accounting starts now.
 */
cxl_event *mem__part_new(sim_comp *c, const mem *m, uint32_t s, uint32_t k)
{
	const cxl_packet *p = &m->parent[s].req->pkt;
	cxl_event *ev = sim_event_new(c);
	int write = p->mclass == CXL_VC_M2S_RWD;

	ev->pkt = (cxl_packet){
		.addr = (p->addr / CXL_LINE + k) * CXL_LINE, .issue = sim_now(c), .tag = s,
		.size = write ? CXL_LINE : 0, .pbr_src = p->pbr_src, .pbr_dst = m->pbr,
		.mclass = p->mclass, .opcode = p->opcode,
		.flags = (uint8_t)(MEM_PKT_INTERNAL |
				   (p->flags & (CXL_PKT_CACHED | CXL_PKT_EXCL | CXL_PKT_WB))),
	};
	return ev;
}


/*
 * mem__parents_init - the parent slots, made when the first request of
 * several lines arrives (a run without any costs nothing; a restart makes
 * them if the saved run had: mem_ckpt.c): one per request the device's
 * credits admit (memory.buffer per port and request VC), so such a
 * request always finds one.
 */
void mem__parents_init(mem *m)
{
	m->nparent = 2 * m->buffer * m->nports;
	m->parent = xcalloc(m->nparent, sizeof(*m->parent));
	m->parent_free = xmalloc(m->nparent * sizeof(*m->parent_free));
	m->next_q = xmalloc(m->nparent * sizeof(*m->next_q));
	for (uint32_t s = 0; s < m->nparent; s++)
		m->parent_free[s] = m->nparent - 1 - s; /* slot 0 is taken first */
	m->nfree = m->nparent;
}


/* Parent @s's next part may enter the DCOH (next_flush() sends it). */
static void next_push(mem *m, uint32_t s)
{
	CXL_ASSERT(m->next_n < m->nparent);
	m->next_q[(m->next_head + m->next_n++) % m->nparent] = s;
}


/* Make parent @s's next part and send it into the DCOH, or to the DRAM. */
static void next_part(sim_comp *c, mem *m, uint32_t s)
{
	cxl_event *ev = mem__part_new(c, m, s, m->parent[s].made++);

	if (m->coh)
		dcoh_request(m->coh, c, ev);
	else
		mem__to_dram(c, m, ev);
}

/* The parts whose predecessors went on enter the DCOH, in that order. */
void mem__next_flush(sim_comp *c, mem *m)
{
	while (m->next_n) {
		uint32_t s = m->next_q[m->next_head];
		m->next_head = (m->next_head + 1) % m->nparent;
		m->next_n--;
		next_part(c, m, s);
	}
}

/* Lines of request @p: a MemRd's pkt.aux, a MemWr's pkt.size / 64; at least 1. */
uint32_t mem__lines(const cxl_packet *p)
{
	/* a write's payload may start and end inside a line (a uc store of a few bytes) */
	uint32_t n = p->mclass == CXL_VC_M2S_REQ ? p->aux :
		     (uint32_t)((p->addr % CXL_LINE + p->size + CXL_LINE - 1) / CXL_LINE);

	return n > 1 ? n : 1;
}

/*
 * A request of @n > 1 lines: kept in a parent slot until its last part is
 * served.  With a DCOH its parts enter it one at a time (the next when the
 * one before goes on), so the DCOH holds at most one part per request and
 * its tables (sized by the requests the credits admit) cannot overflow;
 * without one, every part goes to the DRAM now.
 */
void mem__split(sim_comp *c, mem *m, cxl_event *ev, uint32_t n)
{
	const cxl_packet *p = &ev->pkt;
	uint64_t line = p->addr / CXL_LINE;

	CXL_ASSERT(n <= CXL_MAX_LINES);
	CXL_ASSERT(p->mclass == CXL_VC_M2S_REQ || p->size <= n * CXL_LINE);
	/* within one interleave granule when the device shares the address space */
	CXL_ASSERT(m->ways == 1 || line / m->ilv == (line + n - 1) / m->ilv);
	if (!m->parent)
		mem__parents_init(m);
	CXL_ASSERT(m->nfree > 0);
	uint32_t s = m->parent_free[--m->nfree];
	sim_event_keep(c, ev);
	m->parent[s] = (mem_parent){ .req = ev, .n = (uint16_t)n };
	do
		next_part(c, m, s);
	while (!m->coh && m->parent[s].made < n);
}


/*
 * A part was served; the last part of a request answers it.  Its time in
 * the device: what the DCOH held its parts for (COH; they enter it one at a
 * time, so the intervals do not overlap), the rest MEMORY.
 */
void mem__part_done(sim_comp *c, mem *m, cxl_event *ev)
{
	uint32_t s = ev->pkt.tag;

	CXL_ASSERT(s < m->nparent && m->parent[s].req);
	sim_event_free(c, ev);
	mem_parent *pa = &m->parent[s];
	if (++pa->done < pa->n)
		return;
	cxl_event *req = pa->req;
	uint32_t n = pa->n;
	cxl_lat_add(&req->pkt, CXL_LAT_COH, pa->coh_ps);
	cxl_lat_until(&req->pkt, CXL_LAT_MEMORY, sim_now(c));
	pa->req = NULL;
	m->parent_free[m->nfree++] = s;
	mem__reply(c, m, req, n);
}

/*
 * mem__part_went_on - the DCOH let @part go on: the time it held it is added
 * to its parent's, and the parent's next part may enter (after the DCOH
 * call in progress returns: mem__next_flush()).
 */
void mem__part_went_on(sim_comp *c, mem *m, const cxl_event *part)
{
	mem_parent *pa = &m->parent[part->pkt.tag];

	pa->coh_ps += sim_now(c) - part->pkt.issue;
	if (pa->made < pa->n)
		next_push(m, part->pkt.tag);
}

/* mem__parts_free - free the requests still in progress and the parent slots. */
void mem__parts_free(sim_comp *c, mem *m)
{
	for (uint32_t s = 0; s < m->nparent; s++)
		if (m->parent[s].req)
			sim_event_free(c, m->parent[s].req);
	free(m->parent);
	free(m->parent_free);
	free(m->next_q);
	m->parent = NULL;
}
