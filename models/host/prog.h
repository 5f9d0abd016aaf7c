/*
 * models/host/prog.h - host programs: the operations a host's processes
 * execute (prog.c runs them), and the generators that produce them
 * (prog_script.c: a list of operations in the config; cmpi.c: MPI over a
 * shared pool).
 *
 * A host runs `host.cores` processes.  Each executes its operations in
 * order; a process keeps several independent loads and stores of the
 * cache, nt and flushopt kinds outstanding (up to workload.queue), while the
 * others wait for what they must (below).  Processes of one host share its
 * cache, its slots and its link.
 *
 * Addresses are byte addresses of the pooled memory, the same for every
 * host: line L lives on memory device (L / interleave) mod M of the M
 * memory devices in PBR order (workload.interleave), so two hosts that
 * name one address name one line.
 *
 * Operations (what each costs on the fabric; "lines" = the 64-byte lines
 * of [addr, addr + size)):
 *   load, store       through the host cache, line by line (a miss is a
 *                     MemRd, exclusive for a store; a dirty victim a
 *                     write-back); pipelined
 *   nt_load, nt_store non-temporal: one uncached MemRd / full-line MemWr
 *                     per line, bypassing the cache (an nt_store drops the
 *                     line from the cache: its data is in the write);
 *                     pipelined
 *   uc_load, uc_store uncacheable: TLPs of at most bus.max_payload bytes
 *                     (never crossing an interleave granule), strictly one
 *                     at a time, each waiting for the one before.  To a
 *                     device's BAR (models/proto/devwin.h): a uc_load's
 *                     TLPs are at most host.mmio_read bytes; a uc_store or
 *                     nt_store is posted, pieces of host.write_combine
 *                     bytes carrying `value` (a doorbell's argument) that
 *                     leave as credits allow, nothing answers them, and
 *                     the operation retires when the last leaves
 *   flush             clflush: each line, one at a time, written back if
 *                     dirty and invalidated (a clean line: no traffic)
 *   flushopt          clflushopt: the same, pipelined
 *   fence             waits until every earlier operation of the process
 *                     is done (answered by the fabric)
 *   set_flag          stores `value` to the flag line at addr: through the
 *                     cache (mode cached: visible at the memory once written
 *                     back), or as an nt / uc write
 *   wait_flag         polls the flag line with uncached one-line reads, one
 *                     every workload.poll_interval after the previous
 *                     answer, until the value at the memory has reached
 *                     `value` (serial numbers mod 2^16, flagmap.h)
 *   atomic            waits for earlier operations, then reads the line
 *                     for ownership and modifies it in the cache (a hit on
 *                     a dirty line costs host.cache.latency); without a
 *                     cache, a uc read then a uc write
 *   wait_irq          waits until the interrupts delivered to the process
 *                     (a device's MSIs whose vector is the process's RPC
 *                     slot, models/device/dev.h; each delivered
 *                     host.irq_latency after it arrived: the handler) have
 *                     reached `value` (serial numbers mod 2^16)
 *   compute           the process thinks for `addr` ps
 *   mark              measurement: mode 0 begins class `mark` now; mode 1
 *                     waits for earlier operations, then ends it, adding
 *                     the interval and `size` bytes to the class
 * Flag lines must be 256-byte aligned, so one back-invalidation block (at
 * most 4 lines) never covers two of them (flagmap.h).
 */
#ifndef CXL_MODELS_PROG_H
#define CXL_MODELS_PROG_H

#include <stdint.h>

#include "core/sim.h"

enum prog_kind {
	PROG_LOAD, PROG_STORE, PROG_NT_LOAD, PROG_NT_STORE, PROG_UC_LOAD, PROG_UC_STORE,
	PROG_FLUSH, PROG_FLUSHOPT, PROG_FENCE, PROG_SET_FLAG, PROG_WAIT_FLAG, PROG_ATOMIC,
	PROG_COMPUTE, PROG_MARK, PROG_WAIT_IRQ, PROG_NKINDS
};

/* set_flag's store */
enum prog_mode { PROG_MODE_CACHED, PROG_MODE_NT, PROG_MODE_UC };

#define PROG_FLAG_ALIGN 256 /* bytes: flag lines are aligned to this */

typedef struct prog_op prog_op;
struct prog_op {
	uint64_t addr;  /* byte address; compute: think time, ps */
	uint64_t size;  /* bytes (loads, stores, flushes); mark end: bytes the interval moved */
	uint32_t mark;  /* mark: its class (< the generator's nclasses) */
	uint16_t value; /* set_flag, wait_flag: the value, mod 2^16 */
	uint8_t kind;   /* enum prog_kind */
	uint8_t mode;   /* set_flag: enum prog_mode; mark: 0 begin, 1 end */
};

/* What a generator knows of the host it generates for. */
typedef struct prog_ctx prog_ctx;
struct prog_ctx {
	uint32_t host;       /* the host's index in its memory group (fab_view_mem_group:
				the hosts reaching the same devices, node order) */
	uint32_t nhosts;     /* the group's hosts */
	uint32_t cores;      /* processes of this host (host.cores) */
	uint32_t mps;        /* bus.max_payload of its link, bytes */
	uint32_t ndevices;   /* memory devices of the address map */
	uint64_t interleave; /* bytes per device before the next (workload.interleave) */
	uint32_t requester;  /* the host's index among all requesters */
	uint32_t ndevs;      /* devices it reaches (device window, models/proto/devwin.h) */
	int cached;          /* 1: the host has a cache (host.cache.size > 0) */
};

/*
 * A generator: the operations of every process of one host, produced on
 * demand (a program of millions of operations costs no memory).  It must
 * depend only on the configuration and the context, never on timing, so
 * runs stay deterministic on any rank count.  Its ckpt hook saves or
 * restores, with visitor @k (core/ckpt.h), what next() changes (the
 * processes' cursors), never what init() read from the configuration: on
 * a restart init() has run first, as in a fresh run.
 */
typedef void prog_ckpt_fn(void *state, ckpt *k);

typedef struct prog_gen prog_gen;
struct prog_gen {
	const char *name; /* workload.pattern that selects it */
	int shares_memory; /* 1: its hosts talk through memory they share (refused without) */
	/* set up for one host; *state is its own.  Return 0 or a config error. */
	int (*init)(void **state, const prog_ctx *ctx, const cfg *cf, cxl_err *err);
	/* the next operation of process @proc into *op: 1, or 0 when it is done */
	int (*next)(void *state, uint32_t proc, prog_op *op);
	/* measurement classes (mark ops): their number and names */
	uint32_t (*nclasses)(const void *state);
	const char *(*class_name)(const void *state, uint32_t k);
	/* operations of all the host's processes in total (progress), 0 unknown */
	uint64_t (*total)(const void *state);
	void (*free)(void *state);
	prog_ckpt_fn *ckpt; /* checkpoint: the cursors (above) */
};

extern const prog_gen prog_script_gen; /* "program": workload.program (prog_script.c) */
extern const prog_gen prog_cmpi_gen;   /* "cmpi": MPI over a shared pool (cmpi.c) */
extern const prog_gen prog_rpc_gen;    /* "rpc": RPCs to a device (rpc.c) */

extern const cfg_schema prog_schema;      /* workload.program, poll_interval, host.cores */
extern const cfg_schema prog_cmpi_schema; /* workload.cmpi.* */
extern const cfg_schema prog_rpc_schema;  /* workload.rpc.* */

/* prog_kind_name - "load", "uc_store", ...; prog_kind_parse - the reverse, -1 if none. */
const char *prog_kind_name(enum prog_kind k);
int prog_kind_parse(const char *s);

#endif
