/*
 * models/host/rpc.c - the "rpc" generator (workload.pattern = "rpc"): each
 * process of a host calls a device (models/device/dev.h) over one of the
 * three transports of seed 004, workload.rpc.count measured calls per
 * payload size of workload.rpc.sizes (after workload.rpc.warmup unmeasured
 * ones), one call at a time.  A call of S bytes sends S bytes and gets S
 * bytes back; its latency is the mark class rpc_<S> (mark_rpc_64B_ps, ...).
 *
 * The operations of call n (n = 0, 1, ... over all sizes of the process;
 * slot = requester index x host.cores + process, dev.h's layout):
 *   pio       uc_store BAR request area, S bytes (posted, write-combined);
 *             uc_store PIO doorbell (posted, value S);
 *             uc_load  BAR reply area of parity (n + 1), S bytes (non-posted
 *                      reads of host.mmio_read bytes, one at a time; the
 *                      first waits at the device until the reply is computed)
 *   dma       compute  workload.rpc.dma_setup (the driver's work, if any);
 *             nt_store host memory request buffer, S bytes;
 *             nt_store the descriptor (a line); fence (both are in memory
 *                      before the doorbell);
 *             uc_store DMA doorbell (posted, value S);
 *             wait_flag the completion record reaches n + 1;
 *             nt_load  the reply buffer, S bytes
 *             (workload.rpc.completion = interrupt: the doorbell that asks
 *             for an interrupt, and wait_irq n + 1 instead of wait_flag)
 *   coherent  per 64-byte line j of the payload: store line j of homed area
 *             n mod 2 (the request: a hit if the host holds the line
 *             Exclusive from the previous call's reply), fence, load line j
 *             of area (n + 1) mod 2 (the reply: the device takes the request
 *             line back, computes and answers), fence.  Needs a host cache.
 */
#include "models/host/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "core/xmalloc.h"
#include "models/device/dev.h"
#include "models/proto/cxl_proto.h"

enum { RPC_PIO, RPC_DMA, RPC_COHERENT };

static const cfg_key rpc_keys[] = {
	{ "workload.rpc.transport", CFG_ENUM, "pio", NULL, NULL, "pio|dma|coherent",
	  "rpc: how a call reaches the device: pio (PCIe BAR writes and reads), dma "
	  "(descriptor DMA through host memory), coherent (device-homed lines)" },
	{ "workload.rpc.sizes", CFG_LIST, "64B", NULL, NULL, NULL,
	  "rpc: payload sizes, bytes each way (\"8B\", \"4KiB\", ...; 1 B to 16 KiB), in order" },
	{ "workload.rpc.count", CFG_INT, "100", "1", "100000000", NULL,
	  "rpc: measured calls per size and process" },
	{ "workload.rpc.warmup", CFG_INT, "10", "0", "100000000", NULL,
	  "rpc: calls per size before the measured ones (not measured)" },
	{ "workload.rpc.device", CFG_INT, "0", "0", "255", NULL,
	  "rpc: which of the devices the host reaches it calls (PBR order)" },
	{ "workload.rpc.dma_base", CFG_SIZE, "0B", "0B", NULL, NULL,
	  "rpc: host memory of the DMA slots: slot s at dma_base + s x 64 KiB (the device "
	  "reads the same key)" },
	{ "workload.rpc.completion", CFG_ENUM, "poll", NULL, NULL, "poll|interrupt",
	  "rpc, dma: how the host learns a call is done: poll (it reads the completion "
	  "record every workload.poll_interval) or interrupt (the device raises an MSI after "
	  "the completion record; the host's handler takes host.irq_latency)" },
	{ "workload.rpc.dma_setup", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "rpc, dma: host software time per call before the request is written (driver, "
	  "descriptor bookkeeping)" },
};

const cfg_schema prog_rpc_schema = { "rpc", rpc_keys, sizeof(rpc_keys) / sizeof(rpc_keys[0]) };

typedef struct rpc_proc rpc_proc;
struct rpc_proc {
	uint32_t size; /* index in sizes */
	uint64_t call; /* call within that size (warm-up included) */
	uint32_t step; /* operation within the call */
	uint64_t n;    /* calls done before this one, all sizes */
	int ended;     /* the call's operations (and end mark) are given */
};

typedef struct rpc rpc;
struct rpc {
	int transport;
	int irq;       /* workload.rpc.completion = interrupt */
	uint64_t *sizes;
	char (*names)[SIZE_FMT_LEN + 8];
	uint32_t nsizes;
	uint64_t count, warmup;
	uint32_t dev, cores, requester;
	uint64_t dma_base;
	sim_time setup;
	rpc_proc *proc;
};

static int rpc_init(void **state, const prog_ctx *ctx, const cfg *cf, cxl_err *err)
{
	rpc *s = xcalloc(1, sizeof(*s));
	size_t n = 0;
	const char *const *l = cfg_list(cf, "workload.rpc.sizes", &n);
	char buf[SIZE_FMT_LEN];

	*state = s;
	s->transport = cfg_enum(cf, "workload.rpc.transport");
	s->irq = cfg_enum(cf, "workload.rpc.completion") == 1;
	s->count = (uint64_t)cfg_int(cf, "workload.rpc.count");
	s->warmup = (uint64_t)cfg_int(cf, "workload.rpc.warmup");
	s->dev = (uint32_t)cfg_int(cf, "workload.rpc.device");
	s->dma_base = cfg_size(cf, "workload.rpc.dma_base");
	s->setup = cfg_time(cf, "workload.rpc.dma_setup");
	s->cores = ctx->cores;
	s->requester = ctx->requester;
	if (s->dev >= ctx->ndevs)
		return cfg_error_at(cf, "workload.rpc.device", err,
				    "device %u: the host reaches %u device%s (topology kind "
				    "\"device\")", s->dev, ctx->ndevs, ctx->ndevs == 1 ? "" : "s");
	if (s->transport == RPC_COHERENT && !ctx->cached)
		return cfg_error_at(cf, "workload.rpc.transport", err,
				    "coherent calls go through the host's cache: set host.cache.size");
	if (s->transport == RPC_DMA && !ctx->ndevices)
		return cfg_error_at(cf, "workload.rpc.transport", err,
				    "dma needs host memory: the host reaches no memory device");
	if (s->dma_base % DEV_SLOT_BYTES)
		return cfg_error_at(cf, "workload.rpc.dma_base", err, "not a multiple of 64KiB");
	if (!n)
		return cfg_error_at(cf, "workload.rpc.sizes", err, "no size given");
	s->sizes = xcalloc(n, sizeof(*s->sizes));
	s->names = xcalloc(n, sizeof(*s->names));
	s->nsizes = (uint32_t)n;
	for (size_t k = 0; k < n; k++) {
		if (size_parse(l[k], &s->sizes[k], err) || !s->sizes[k] ||
		    s->sizes[k] > DEV_AREA_BYTES)
			return cfg_error_at(cf, "workload.rpc.sizes", err,
					    "\"%s\": a payload is 1 B to 16 KiB", l[k]);
		snprintf(s->names[k], sizeof(s->names[k]), "rpc_%s", size_format(s->sizes[k], buf));
		for (size_t j = 0; j < k; j++)
			if (s->sizes[j] == s->sizes[k])
				return cfg_error_at(cf, "workload.rpc.sizes", err,
						    "\"%s\" is given twice", l[k]);
	}
	s->proc = xcalloc(ctx->cores, sizeof(*s->proc));
	return 0;
}

static prog_op op_of(enum prog_kind kind, uint64_t addr, uint64_t size, uint16_t value)
{
	return (prog_op){ .addr = addr, .size = size, .value = value, .kind = (uint8_t)kind };
}

/* Operation @step of a call of @S bytes numbered @n by slot @slot (no marks); 0: past its end. */
static int call_op(const rpc *s, uint32_t slot, uint64_t S, uint64_t n, uint32_t step,
		   prog_op *op)
{
	uint64_t host = s->dma_base + (uint64_t)slot * DEV_SLOT_BYTES;
	uint16_t seq = (uint16_t)(n + 1);

	switch (s->transport) {
	case RPC_PIO: {
		const prog_op ops[] = {
			op_of(PROG_UC_STORE, dev_bar_addr(s->dev, slot, DEV_BAR_REQ), S, 0),
			op_of(PROG_UC_STORE, dev_bar_addr(s->dev, slot, DEV_BAR_BELL_PIO), 8,
			      (uint16_t)S),
			op_of(PROG_UC_LOAD, dev_bar_addr(s->dev, slot, DEV_BAR_REPLY(seq & 1)), S, 0),
		};
		if (step >= sizeof(ops) / sizeof(ops[0]))
			return 0;
		*op = ops[step];
		return 1;
	}
	case RPC_DMA: {
		const prog_op ops[] = {
			op_of(PROG_COMPUTE, s->setup, 0, 0),
			op_of(PROG_NT_STORE, host + DEV_DMA_REQ, S, 0),
			op_of(PROG_NT_STORE, host + DEV_DMA_DESC, CXL_LINE, 0),
			op_of(PROG_FENCE, 0, 0, 0),
			op_of(PROG_UC_STORE, dev_bar_addr(s->dev, slot, s->irq ? DEV_BAR_BELL_DMA_IRQ :
								   DEV_BAR_BELL_DMA), 8, (uint16_t)S),
			s->irq ? op_of(PROG_WAIT_IRQ, 0, 0, seq) :
				 op_of(PROG_WAIT_FLAG, host + DEV_DMA_DONE, 0, seq),
			op_of(PROG_NT_LOAD, host + DEV_DMA_REPLY, S, 0),
		};
		step += !s->setup; /* no driver time: no compute */
		if (step >= sizeof(ops) / sizeof(ops[0]))
			return 0;
		*op = ops[step];
		return 1;
	}
	default: {
		uint64_t lines = (S + CXL_LINE - 1) / CXL_LINE, j = step / 4;
		uint64_t area = n & 1;
		if (j >= lines)
			return 0;
		switch (step % 4) {
		case 0:
			*op = op_of(PROG_STORE, dev_homed_addr(s->dev, slot, DEV_HOMED_AREA(area) +
							       j * CXL_LINE), CXL_LINE, 0);
			break;
		case 2:
			*op = op_of(PROG_LOAD, dev_homed_addr(s->dev, slot, DEV_HOMED_AREA(1 - area) +
							      j * CXL_LINE), CXL_LINE, 0);
			break;
		default:
			*op = op_of(PROG_FENCE, 0, 0, 0);
		}
		return 1;
	}
	}
}

static int rpc_next(void *state, uint32_t proc, prog_op *op)
{
	rpc *s = state;
	rpc_proc *P = &s->proc[proc];
	uint32_t slot = s->requester * s->cores + proc;

	while (P->size < s->nsizes) {
		int measured = P->call >= s->warmup;
		uint64_t S = s->sizes[P->size];
		uint32_t st = P->step++;
		if (measured && st == 0) {
			*op = (prog_op){ .mark = P->size, .kind = PROG_MARK, .mode = 0 };
			return 1;
		}
		if (!P->ended && call_op(s, slot, S, P->n, st - (uint32_t)measured, op))
			return 1;
		if (measured && !P->ended) {
			P->ended = 1;
			*op = (prog_op){ .size = S, .mark = P->size, .kind = PROG_MARK, .mode = 1 };
			return 1;
		}
		P->ended = 0; /* the next call */
		P->step = 0;
		P->n++;
		if (++P->call == s->warmup + s->count) {
			P->call = 0;
			P->size++;
		}
	}
	return 0;
}

static uint32_t rpc_nclasses(const void *state)
{
	return ((const rpc *)state)->nsizes;
}

static const char *rpc_class_name(const void *state, uint32_t k)
{
	return ((const rpc *)state)->names[k];
}

static uint64_t rpc_total(const void *state)
{
	(void)state;
	return 0;
}

static void rpc_free(void *state)
{
	rpc *s = state;

	free(s->sizes);
	free(s->names);
	free(s->proc);
	free(s);
}

/* Checkpoint: each process's place in its calls (sizes and names are the config's). */
static void rpc_ckpt(void *state, ckpt *k)
{
	rpc *s = state;
	uint32_t n = ckpt_count(k, s->cores, s->cores);

	if (ckpt_loading(k) && n != s->cores)
		ckpt_fail(k, "rpc: %u processes saved, %u configured", n, s->cores);
	for (uint32_t i = 0; i < n; i++) {
		rpc_proc *P = &s->proc[i];
		CKPT(k, P->size);
		CKPT(k, P->call);
		CKPT(k, P->step);
		CKPT(k, P->n);
		CKPT(k, P->ended);
		if (ckpt_loading(k) && P->size > s->nsizes)
			ckpt_fail(k, "rpc: process %u at size %u of %u", i, P->size, s->nsizes);
	}
}

const prog_gen prog_rpc_gen = {
	.name = "rpc",
	.init = rpc_init,
	.next = rpc_next,
	.nclasses = rpc_nclasses,
	.class_name = rpc_class_name,
	.total = rpc_total,
	.free = rpc_free,
	.ckpt = rpc_ckpt,
};
