/*
 * models/fabric/fab_estimate.c - the memory a fabric's components will hold,
 * from the config alone, before any init allocates (fab_int.h,
 * fab_estimate_comp(); --check prints it and a run refuses what cannot fit:
 * core/memest.h).
 *
 * One formula per component kind, each term mirroring one allocation of the
 * model's init with the same config key (per-component overrides applied,
 * cfg_for()).  The models' private structs are out of reach (their _int.h
 * belong to their folders), so their sizes on x86-64 are repeated here with
 * the struct they mirror; test_fab_estimate.c holds the public ones
 * (cxl_event, evring, cxl_credits, stats_entry) to sizeof.  Small fixed
 * parts (a model's own struct, a few counters) are left to the engine's
 * per-component constant (core/memest.c).  The terms:
 *   switch  per port: CXL_NVC FIFOs x switch.buffer slots (an 8-byte event
 *           pointer + a 2-byte output port each, switch.c alloc_state), the
 *           FIFO rings, credits and per-port arrays, 3 per-port counters
 *   bus     2 x CXL_NVC x bus.buffer event pointers (bus.c), 2 x
 *           bus.replay_buffer replay entries (bus_replay.c)
 *   memory  2 x ports x memory.buffer response slots, the wait queues
 *           (mem.c wait_cap), and with memory.dcoh.entries > 0 the DCOH's
 *           transactions and BISnp ring (dcoh.c) and the snoop filter
 *           (sf.c sf_create: 56 B per entry, a 16-byte index slot per entry
 *           rounded up to a power of two >= 2 x entries, LFI and InvBlk
 *           extras)
 *   host    workload.queue slots (req.c), the cache's lines (hcache.c: tag,
 *           LRU stamp, state per line of host.cache.size)
 * The buffers hold pointers; the events themselves come from the engine's
 * pool, and as many are in flight as requests are open: each requester's
 * workload.queue requests, a few events each (the request, its answer, the
 * credits), counted with the requester.
 *
 * The figure is what the allocations add up to: the peak RSS once every
 * page has been touched.  Large zeroed arrays (the snoop filter's entries,
 * a switch's FIFO storage) stay untouched until traffic reaches them, so a
 * short run or --check resides in less; a long run grows towards the
 * estimate.  Measured errors: models/fabric/README.md ("Memory estimate").
 */
#include <string.h>

#include "core/stats.h"
#include "models/fabric/fab_int.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"

/* Sizes of the models' private structs on x86-64 (checked when written, 2026-11). */
enum {
	SZ_SF_ENTRY = 32,   /* sf_int.h sf_entry */
	SZ_SF_LINK = 8,     /* sf_int.h sf_link (ins and use lists) */
	SZ_SF_SET = 36,     /* sf_int.h sf_set */
	SZ_SF_SLOT = 16,    /* sf_int.h sf_slot (the index) */
	SZ_SF_GRP = 56,     /* sf_int.h sf_grp (InvBlk groups) */
	SZ_DCOH_TXN = 64,   /* dcoh_int.h dcoh_txn */
	SZ_REQ_SLOT = 40,   /* req_int.h req_slot */
	SZ_BUS_RBENT = 16,  /* bus_int.h bus_rbent */
	SZ_SW_PORT = 64,    /* switch_int.h sw_port (one cache line) */
	SF_MAX_OWNERS_ = 8, /* sf.h SF_MAX_OWNERS */
	SF_BLOCK_ = 4,      /* sf.h SF_BLOCK */
	STAT_BYTES = (int)sizeof(stats_entry) + 8 + 8 + 32, /* entry, value, pointer, copied name */
};

/* A buffer slot: an event pointer (the event is the pool's, counted with the requester). */
#define EV_SLOT ((uint64_t)sizeof(void *))
/*
 * Events alive per open request: the request, its answer and its credits.
 * Measured on rack-4096 --end 2us (32768 open requests): the pool peaks at
 * 66726 events queuing every credit, 39011 with lazy credits (2.0, 1.2).
 */
#define EV_PER_REQ 3
/*
 * Lazy credits (core/sim_lazy.c) wait with their receivers as 32-byte
 * sim_lazy entries, in arrays that double: on the same run the arrays hold
 * 381920 entries at the end (11.7 per open request) with --check-lazy,
 * 329888 counted at their send (the default).
 */
#define LAZY_PER_REQ 12

static uint64_t switch_bytes(const cfg *cf, uint64_t ports, const char **key)
{
	uint64_t buf = (uint64_t)cfg_int(cf, "switch.buffer");

	*key = "switch.buffer";
	/* alloc_state: slots + out (per FIFO slot), in (rings) and next (per FIFO), the
	   port records (switch_int.h sw_port), todo, port_queue; register_stats */
	return ports * (CXL_NVC * buf * (EV_SLOT + 2) + CXL_NVC * (sizeof(evring) + 4) +
			SZ_SW_PORT + 2 + 8 + 3 * STAT_BYTES);
}

static uint64_t bus_bytes(const cfg *cf, const char **key)
{
	uint64_t buf = (uint64_t)cfg_int(cf, "bus.buffer");
	uint64_t rb = (uint64_t)cfg_int(cf, "bus.replay_buffer");

	*key = rb * SZ_BUS_RBENT > CXL_NVC * buf * EV_SLOT ? "bus.replay_buffer" : "bus.buffer";
	return 2 * CXL_NVC * buf * EV_SLOT + 2 * rb * SZ_BUS_RBENT;
}

/* sf_create(): entries, links, sequence numbers, sets, the index, policy extras. */
static uint64_t sf_bytes(const cfg *cf, uint64_t n)
{
	uint64_t assoc = (uint64_t)cfg_int(cf, "memory.dcoh.assoc"), idx = 2;
	uint64_t ways = assoc ? assoc : n, b;

	while (idx < 2 * n)
		idx *= 2;
	b = n * (SZ_SF_ENTRY + 8 + 2 * SZ_SF_LINK) + (n / ways) * SZ_SF_SET + idx * SZ_SF_SLOT;
	if (!strcmp(cfg_str(cf, "memory.dcoh.policy"), "lfi"))
		b += n * 3 * 4 + n * 12; /* lcount, heap, hpos; the count table at its start */
	if (cfg_int(cf, "memory.dcoh.invblk_max") > 1)
		b += n * (SZ_SF_GRP + 3 * 4); /* grp, grec, gheap, ghpos */
	return b;
}

static uint64_t memory_bytes(const cfg *cf, uint64_t ports, const char **key)
{
	uint64_t buf = (uint64_t)cfg_int(cf, "memory.buffer");
	uint64_t nch = (uint64_t)cfg_int(cf, "memory.channels");
	uint64_t n = (uint64_t)cfg_int(cf, "memory.dcoh.entries");
	uint64_t wait = 2 * buf * ports * (n ? 1 + SF_BLOCK_ * SF_MAX_OWNERS_ : 1);
	uint64_t b = 2 * ports * buf * EV_SLOT + 2 * ports * sizeof(evring) + nch * wait * 8 +
		     ports * (sizeof(cxl_credits) + 2);

	*key = "memory.buffer";
	if (n) {
		uint64_t ntxn = 2 * buf * ports, sf = sf_bytes(cf, n);
		b += ntxn * (SZ_DCOH_TXN + 8 + SF_MAX_OWNERS_ * 8) + sf;
		if (sf > b / 2)
			*key = "memory.dcoh.entries";
	}
	return b;
}

static uint64_t host_bytes(const cfg *cf, const char **key)
{
	uint64_t q = (uint64_t)cfg_int(cf, "workload.queue");
	uint64_t lines = cfg_size(cf, "host.cache.size") / CXL_LINE;
	uint64_t slots = q * (SZ_REQ_SLOT + 4 + 8 + 8 + EV_PER_REQ * sizeof(cxl_event) +
			      LAZY_PER_REQ * sizeof(sim_lazy));
	uint64_t cache = lines * (8 + 8 + 1);

	*key = cache > slots ? "host.cache.size" : "workload.queue";
	return slots + cache;
}

/**
 * fab_estimate_comp - the bytes component @comp of @f's graph @g will hold at
 * its peak, beyond the engine's per-component constant.
 * @cf:  the component's config view (cfg_for(), overrides applied)
 * @key: OUT the config key that sizes most of it (never NULL)
 * Returns 0 for a kind this file has no formula for (accelerators and
 * kinds added to models/kinds.c: their state is small or their own).  A
 * sliced switch's slice gets its share of the ports plus its internal ones.
 */
uint64_t fab_estimate_comp(const fabric *f, const cfg *cf, const sim_graph *g, uint32_t comp,
			   const char **key)
{
	uint32_t n = fab_node_of(f, comp);
	uint64_t ports;

	(void)g;
	*key = "";
	if (n == UINT32_MAX)
		return bus_bytes(cf, key);
	ports = f->node[n].nports;
	if (fab_has(&f->node[n], FAB_ROLE_SWITCH))
		return switch_bytes(cf, (ports + fab_slices(&f->node[n]) - 1) /
					fab_slices(&f->node[n]) + fab_slices(&f->node[n]) - 1, key);
	switch (f->node[n].kind) {
	case FAB_MEMORY:
		return memory_bytes(cf, ports, key);
	case FAB_HOST:
		return host_bytes(cf, key);
	default:
		return 0;
	}
}

/* fab_estimate_shared - the bytes every rank holds whatever it runs: fabric and routing tables. */
uint64_t fab_estimate_shared(const fabric *f)
{
	return fab_route_bytes(&f->route) + (uint64_t)f->nnode * (sizeof(fab_node) + 16) +
	       (uint64_t)f->nconn * (sizeof(fab_conn) + 2 * sizeof(uint32_t)) +
	       (uint64_t)f->ncomp * 2 * sizeof(uint32_t);
}
