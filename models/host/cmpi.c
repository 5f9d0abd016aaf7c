/*
 * models/host/cmpi.c - the "cmpi" program generator: MPI point-to-point
 * traffic through a shared CXL pool as cMPI does it (seed 001, Wang et al.,
 * SC '25), driven by the knobs of the OSU micro-benchmarks.  Keys
 * `workload.cmpi.*`; this file reads and checks them, lays out the pool and
 * owns the generator's lifecycle; cmpi_gen.c produces the operations.
 *
 * Benchmarks (workload.cmpi.op x measure):
 *   put, get   one-sided: the origin writes (reads) the target's window in
 *              the pool, one copy; the target is passive.
 *     bw       osu_put_bw: per iteration a window of `window` operations
 *              back to back, message m at window offset m x size (as OSU),
 *              then a fence (MPI_Win_flush); one mark per window, bytes =
 *              window x size.
 *     latency  osu_put_latency: each operation and its fence timed alone;
 *              mark bytes = size.
 *   sendrecv   two-sided through SPSC queues of message cells, two copies
 *              (sender -> cell, cell -> receiver).
 *     bw       osu_bw: the sender sends `window` messages back to back,
 *              then waits for the receiver's ack flag (the receiver sets
 *              it after the last); one mark per window, bytes = window x
 *              size.
 *     latency  osu_latency: ping-pong; the mark covers the ROUND TRIP and
 *              its bytes are `size`: the one-way latency OSU reports is
 *              half the mark's time (the analysis halves it).
 *
 * Peers: the n = ctx.nhosts hosts of this host's memory group, those that
 * reach exactly the memory devices it reaches (fab_view_mem_group: every
 * host of a switched pool; in an Octopus pod the heads of one device, so
 * every pair of hosts sharing a device talks through it, on their ports
 * to it).  A host alone in its group idles.  Process p of a host only
 * ever talks to process p of other hosts:
 *   pairs      host 2k is the origin / sender / pinger, 2k + 1 the target /
 *              receiver / ponger (cMPI: half origins, half targets); with
 *              n odd the last host has no partner and idles (no operations).
 *   ring       host h sends to h + 1 mod n and receives from h - 1.
 *   alltoall   n - 1 steps per iteration: at distance d = 1 .. n - 1, host
 *              h sends to h + d and receives from h - d, all at once (a
 *              shift, so every queue has one sender and one receiver).
 * In ring and alltoall every host marks (latency: each pings its out peer
 * and pongs its in peer in the same step).
 *
 * Coherence (workload.cmpi.coherence) of the shared data:
 *   software   cMPI: write = store, flushopt the range, fence; read =
 *              fence, flushopt the range (drops stale lines), fence, load.
 *              The second fence keeps the loads behind the invalidations.
 *   uc         uc_store / uc_load of the range (the engine cuts it into
 *              TLPs of at most bus.max_payload, one at a time).
 *   hdmdb      plain cached loads and stores: the device's back-
 *              invalidation keeps the copies coherent.
 * A flag is set only after the data it releases is complete (a fence
 * before set_flag), in every mode.  Flags are written nt for software and
 * uc (cMPI's non-temporal flags) and cached for hdmdb; wait_flag polls.
 *
 * Two-sided protocol (cMPI's matrix of SPSC queues, one per (receiver,
 * sender) pair and process index).  A message of S bytes is cut into
 * ceil(S / (cell - cell_header)) chunks; chunk c carries the payload
 * min(cell - cell_header, S - c x payload) after the header.  Chunks of a
 * queue are numbered seq = 1, 2, ... across messages, iterations and sizes
 * (flags hold seq mod 2^16, compared as serial numbers) and chunk seq goes
 * to cell (seq - 1) mod depth:
 *   sender     if seq > depth: wait_flag(head >= seq - depth) (the cell's
 *              previous chunk has been read); write header + chunk into the
 *              cell (copy 1); fence; set_flag(tail = seq)
 *   receiver   wait_flag(tail >= seq); read header + chunk (copy 2); fence;
 *              set_flag(head = seq)
 * head counts chunks consumed, so all `depth` cells are usable (no slot is
 * kept empty: the numbers are not reduced mod depth).  bw ack: the
 * receiver sets ack = the number of windows received on the queue so far
 * (iterations of all sizes, warm-up included); the sender waits for it.
 *
 * Barrier (cMPI's initialisation barrier array): before each size every
 * process fences (from the second size on), sets its own flag to the
 * size's index + 1 and waits until each of its peers' flags reached it.
 * Peers are the hosts it exchanges with: the partner (pairs), both
 * neighbours (ring), every other host (alltoall: n - 1 polls per process
 * and size, O(n^2) in all, as cMPI's array).  So a size's traffic between
 * two hosts ends before their next size begins; hosts that do not talk may
 * drift apart by a size (ring).  Warm-up iterations come after the barrier.
 *
 * Address layout (workload.cmpi.base = B; n hosts, P = procs, 4 KiB = K):
 *   B                      barrier flags: process p of host h at
 *                          B + (p x n + h) x 256; P x n x 256 bytes,
 *                          rounded up to K (= bar_bytes)
 *   B + bar_bytes          slots, one per (sender host a, receiver host b,
 *                          process p): slot (a, b, p) at index
 *                          (p x n + a) x n + b, each slot_bytes long:
 *     +0                   tail flag (written by a)
 *     +256                 head flag (written by b)
 *     +512                 ack flag (written by b)
 *     +K                   two-sided: depth cells of `cell` bytes;
 *                          one-sided: b's window for a, msgs x max_size
 *                          bytes rounded up to K (msgs = window for bw, 1
 *                          for latency)
 * Every flag is alone in its 256-byte block (PROG_FLAG_ALIGN), and regions
 * of different (a, b, p) are disjoint.  Addresses are computed, never
 * stored: 1024 hosts alltoall cost what 2 hosts cost (the slots of pairs
 * that never talk are simply not touched).
 *
 * Iterations: OSU's bandwidth counts (osu_bw, osu_put_bw): 100 measured +
 * 10 warm-up up to large_size = 8 KiB, 20 + 2 above; latency uses the same
 * counts (OSU's latency tests run 10000 / 1000, which a simulation, with
 * no noise to average, does not need).  Sizes: powers of two from min_size
 * to max_size, one mark class per size named by its size ("1B", "64KiB",
 * "8MiB").  Defaults follow cMPI's runs: 1 B - 8 MiB, 64 KiB cells with a
 * 64 B header.  depth is not published; 8 cells (512 KiB of 64 KiB cells
 * in flight per queue) is several times the bandwidth-delay product of a
 * PCIe 4.0 x8 link (~16 GB/s x ~2 us).
 *
 * Memory: one cursor per taking-part process (cmpi_int.h); nothing grows
 * with hosts, sizes or iterations.
 */
#include "models/host/prog.h"

#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/cmpi_int.h"

#define K4 4096u

static const cfg_key cmpi_keys[] = {
	{ "workload.cmpi.op", CFG_ENUM, "put", NULL, NULL, "put|get|sendrecv",
	  "put, get: one-sided into the target's window (one copy); sendrecv: two-sided "
	  "through message cells (two copies)" },
	{ "workload.cmpi.measure", CFG_ENUM, "bw", NULL, NULL, "bw|latency",
	  "bw: windows of back-to-back messages, one mark per window (bytes = window x size); "
	  "latency: one-sided each operation and its fence alone, two-sided ping-pong (the "
	  "mark is the round trip, bytes = size: one way is half of it)" },
	{ "workload.cmpi.peers", CFG_ENUM, "pairs", NULL, NULL, "pairs|ring|alltoall",
	  "pairs: host 2k sends to 2k+1 (an odd last host idles); ring: h sends to h+1; "
	  "alltoall: h sends to h+d and receives from h-d for d = 1 .. n-1" },
	{ "workload.cmpi.coherence", CFG_ENUM, "software", NULL, NULL, "software|uc|hdmdb",
	  "software: flushopt + fence after writes, fence + flushopt before reads (cMPI); "
	  "uc: uncacheable loads and stores; hdmdb: cached, the device back-invalidates" },
	{ "workload.cmpi.min_size", CFG_SIZE, "1B", "1B", "8MiB", NULL,
	  "smallest message, a power of two" },
	{ "workload.cmpi.max_size", CFG_SIZE, "8MiB", "1B", "8MiB", NULL,
	  "largest message, a power of two (sizes double from min_size)" },
	{ "workload.cmpi.iterations", CFG_INT, "100", "1", "1000000000", NULL,
	  "measured iterations per size up to large_size (OSU bw: 100)" },
	{ "workload.cmpi.warmup", CFG_INT, "10", "0", "1000000000", NULL,
	  "warm-up iterations per size up to large_size, not marked (OSU bw: 10)" },
	{ "workload.cmpi.iterations_large", CFG_INT, "20", "1", "1000000000", NULL,
	  "measured iterations per size above large_size (OSU bw: 20)" },
	{ "workload.cmpi.warmup_large", CFG_INT, "2", "0", "1000000000", NULL,
	  "warm-up iterations per size above large_size (OSU bw: 2)" },
	{ "workload.cmpi.large_size", CFG_SIZE, "8KiB", "1B", "8MiB", NULL,
	  "sizes above it use iterations_large and warmup_large (OSU: 8 KiB)" },
	{ "workload.cmpi.window", CFG_INT, "64", "1", "4096", NULL,
	  "bw: messages per window, sent back to back (OSU: 64)" },
	{ "workload.cmpi.procs", CFG_INT, "0", "0", "65535", NULL,
	  "processes per host taking part (the first ones), at most host.cores; 0: all" },
	{ "workload.cmpi.cell", CFG_SIZE, "64KiB", "16KiB", "64KiB", NULL,
	  "two-sided: bytes of a message cell, header included: 16KiB, 32KiB or 64KiB" },
	{ "workload.cmpi.cell_header", CFG_SIZE, "64B", "0B", "60KiB", NULL,
	  "two-sided: bytes of a cell's header (a multiple of 64, less than the cell)" },
	{ "workload.cmpi.depth", CFG_INT, "8", "1", "1024", NULL,
	  "two-sided: cells per SPSC queue" },
	{ "workload.cmpi.base", CFG_SIZE, "0B", "0B", NULL, NULL,
	  "first byte of the cMPI region in the pool (a multiple of 256)" },
};

const cfg_schema prog_cmpi_schema = {
	"workload.cmpi", cmpi_keys, sizeof(cmpi_keys) / sizeof(cmpi_keys[0]),
};

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint32_t log2u(uint64_t v)
{
	uint32_t k = 0;

	while (v >>= 1)
		k++;
	return k;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static int check_pow2(const cfg *cf, const char *path, cxl_err *err)
{
	uint64_t v = cfg_size(cf, path);

	if (!is_pow2(v))
		return cfg_error_at(cf, path, err, "%llu bytes is not a power of two",
				    (unsigned long long)v);
	return 0;
}

/* The sweep, the iteration counts and the cells. */
static int read_sizes(cmpi *s, const cfg *cf, cxl_err *err)
{
	uint64_t max = cfg_size(cf, "workload.cmpi.max_size");

	if (check_pow2(cf, "workload.cmpi.min_size", err) ||
	    check_pow2(cf, "workload.cmpi.max_size", err) ||
	    check_pow2(cf, "workload.cmpi.cell", err))
		return CXL_EINVAL;
	s->min_size = cfg_size(cf, "workload.cmpi.min_size");
	if (s->min_size > max)
		return cfg_error_at(cf, "workload.cmpi.min_size", err,
				    "%llu bytes is more than max_size (%llu)",
				    (unsigned long long)s->min_size, (unsigned long long)max);
	s->nsizes = log2u(max) - log2u(s->min_size) + 1;
	s->large_size = cfg_size(cf, "workload.cmpi.large_size");
	s->iters = (uint32_t)cfg_int(cf, "workload.cmpi.iterations");
	s->warm = (uint32_t)cfg_int(cf, "workload.cmpi.warmup");
	s->iters_large = (uint32_t)cfg_int(cf, "workload.cmpi.iterations_large");
	s->warm_large = (uint32_t)cfg_int(cf, "workload.cmpi.warmup_large");
	s->window = (uint32_t)cfg_int(cf, "workload.cmpi.window");
	s->depth = (uint32_t)cfg_int(cf, "workload.cmpi.depth");
	s->cell = cfg_size(cf, "workload.cmpi.cell");
	s->header = cfg_size(cf, "workload.cmpi.cell_header");
	if (s->header % 64 || s->header >= s->cell)
		return cfg_error_at(cf, "workload.cmpi.cell_header", err,
				    "%llu bytes: a multiple of 64 less than the cell (%llu) expected",
				    (unsigned long long)s->header, (unsigned long long)s->cell);
	return 0;
}

/* Hosts, processes and the address layout. */
static int read_layout(cmpi *s, const prog_ctx *ctx, const cfg *cf, cxl_err *err)
{
	uint64_t n = ctx->nhosts, slots, bytes, end;
	int64_t procs = cfg_int(cf, "workload.cmpi.procs");

	s->host = ctx->host, s->nhosts = ctx->nhosts;
	if (procs > (int64_t)ctx->cores)
		return cfg_error_at(cf, "workload.cmpi.procs", err,
				    "%lld processes, more than host.cores (%u)", (long long)procs,
				    ctx->cores);
	/* a host alone in its memory group has no peer: none of its processes takes part */
	s->procs = n < 2 ? 0 : procs ? (uint32_t)procs : ctx->cores;
	s->base = cfg_size(cf, "workload.cmpi.base");
	if (s->base % PROG_FLAG_ALIGN)
		return cfg_error_at(cf, "workload.cmpi.base", err,
				    "%llu is not a multiple of %d bytes",
				    (unsigned long long)s->base, PROG_FLAG_ALIGN);
	s->bar_bytes = round_up(n * s->procs * PROG_FLAG_ALIGN, K4);
	if (s->op == CMPI_SENDRECV)
		bytes = (uint64_t)s->depth * s->cell;
	else
		bytes = round_up(cmpi_msgs(s) * cmpi_size(s, s->nsizes - 1), K4);
	s->slot_bytes = CMPI_HDR_BYTES + bytes;
	if (__builtin_mul_overflow(n * n, (uint64_t)s->procs, &slots) ||
	    __builtin_mul_overflow(slots, s->slot_bytes, &bytes) ||
	    __builtin_add_overflow(bytes, s->base + s->bar_bytes, &end) || end > SIZE_BYTES_MAX)
		return cfg_error_at(cf, "workload.cmpi.base", err,
				    "the region of %llu hosts x %u processes does not fit in 2^63 "
				    "bytes", (unsigned long long)n, s->procs);
	return 0;
}

/* cmpi__iters - iterations of size @k, warm-up included; *@warm (may be NULL) of them. */
uint32_t cmpi__iters(const cmpi *s, uint32_t k, uint32_t *warm)
{
	int large = cmpi_size(s, k) > s->large_size;

	if (warm)
		*warm = large ? s->warm_large : s->warm;
	return large ? s->iters_large + s->warm_large : s->iters + s->warm;
}

/* cmpi__nchunks - cells a two-sided message of @bytes (>= 1) takes. */
uint64_t cmpi__nchunks(const cmpi *s, uint64_t bytes)
{
	uint64_t payload = s->cell - s->header;

	return (bytes + payload - 1) / payload;
}

/* cmpi__chunk_payload - bytes of a message of @bytes that chunk @c carries. */
uint64_t cmpi__chunk_payload(const cmpi *s, uint64_t bytes, uint64_t c)
{
	uint64_t payload = s->cell - s->header, off = c * payload;

	return bytes - off < payload ? bytes - off : payload;
}

/* cmpi__chunks - chunks (cells) of a message of size @k; 1 for one-sided. */
uint64_t cmpi__chunks(const cmpi *s, uint32_t k)
{
	return s->op == CMPI_SENDRECV ? cmpi__nchunks(s, cmpi_size(s, k)) : 1;
}

/* cmpi__bar_flag - the barrier flag of process @p of host @h. */
uint64_t cmpi__bar_flag(const cmpi *s, uint32_t h, uint32_t p)
{
	return s->base + ((uint64_t)p * s->nhosts + h) * PROG_FLAG_ALIGN;
}

/* cmpi__slot - the slot of sender @a, receiver @b, process @p. */
uint64_t cmpi__slot(const cmpi *s, uint32_t a, uint32_t b, uint32_t p)
{
	uint64_t n = s->nhosts;

	return s->base + s->bar_bytes + (((uint64_t)p * n + a) * n + b) * s->slot_bytes;
}

/*
 * cmpi_init - prog_gen.init: read workload.cmpi.* for the host of @ctx.
 * Errors (CXL_EINVAL, at the key): procs > host.cores,
 * sizes or cell not powers of two, min_size > max_size, a header that is
 * not a multiple of 64 or fills the cell, a base not 256-aligned, a layout
 * beyond 2^63 bytes.
 */
static int cmpi_init(void **state, const prog_ctx *ctx, const cfg *cf, cxl_err *err)
{
	cmpi *s = xcalloc(1, sizeof(*s));
	int rc;

	s->op = (uint8_t)cfg_enum(cf, "workload.cmpi.op");
	s->measure = (uint8_t)cfg_enum(cf, "workload.cmpi.measure");
	s->peers = (uint8_t)cfg_enum(cf, "workload.cmpi.peers");
	s->coh = (uint8_t)cfg_enum(cf, "workload.cmpi.coherence");
	rc = read_sizes(s, cf, err);
	if (!rc)
		rc = read_layout(s, ctx, cf, err);
	if (rc) {
		free(s);
		return rc;
	}
	for (uint32_t k = 0; k < s->nsizes; k++)
		size_format(cmpi_size(s, k), s->names[k]);
	s->cur = xcalloc(s->procs, sizeof(*s->cur));
	for (uint32_t p = 0; p < s->procs; p++)
		cmpi__start(s, &s->cur[p]);
	*state = s;
	return 0;
}

static int cmpi_next(void *state, uint32_t proc, prog_op *op)
{
	return cmpi__next(state, proc, op);
}

static uint32_t cmpi_nclasses(const void *state)
{
	return ((const cmpi *)state)->nsizes;
}

static const char *cmpi_class_name(const void *state, uint32_t k)
{
	const cmpi *s = state;

	return k < s->nsizes ? s->names[k] : NULL;
}

static uint64_t cmpi_total(const void *state)
{
	return cmpi__total(state);
}

static void cmpi_free(void *state)
{
	cmpi *s = state;

	if (!s)
		return;
	free(s->cur);
	free(s);
}

/* Checkpoint: each taking-part process's cursor (everything else is the config's). */
static void cmpi_ckpt(void *state, ckpt *k)
{
	cmpi *s = state;
	uint32_t n = ckpt_count(k, s->procs, s->procs);

	if (ckpt_loading(k) && n != s->procs)
		ckpt_fail(k, "cmpi: %u processes saved, %u configured", n, s->procs);
	for (uint32_t p = 0; p < n; p++)
		cmpi__cur_ckpt(s, &s->cur[p], k);
}

const prog_gen prog_cmpi_gen = {
	.name = "cmpi",
	.shares_memory = 1,
	.init = cmpi_init,
	.next = cmpi_next,
	.nclasses = cmpi_nclasses,
	.class_name = cmpi_class_name,
	.total = cmpi_total,
	.free = cmpi_free,
	.ckpt = cmpi_ckpt,
};
