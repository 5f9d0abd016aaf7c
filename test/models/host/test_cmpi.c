/*
 * test/models/host/test_cmpi.c - unit tests for the cMPI generator
 * (models/host/cmpi.c, cmpi_gen.c), driven through prog_cmpi_gen with a
 * hand-made config and context:
 *   - the exact operations of one small put, get and sendrecv per coherence
 *     mode (kinds, addresses, sizes, flags, values, marks);
 *   - chunking, the head wait of a full queue, the bw ack, the barrier of
 *     the next size, the class names and iteration counts of a sweep;
 *   - the alltoall schedule, flag alignment, disjoint regions of pairs;
 *   - a small executor that runs every process of every host with flag
 *     semantics (wait_flag blocks until the value is reached) in a random
 *     interleaving: each benchmark finishes (no deadlock), every cell is
 *     read exactly once after each write, marks balance, serial numbers
 *     survive the 2^16 wrap;
 *   - O(1) memory: a 1024-host alltoall initialises with the memory of a
 *     2-host one and allocates nothing while producing operations;
 *   - config errors.
 */
#include "models/host/cmpi_int.h"

#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/proto/flagmap.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* An assertion for hot loops: Check's ck_assert writes to its pipe on every success. */
#define CHECK(cond, ...)                           \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

typedef struct tgen tgen;
struct tgen {
	cfg *cf;       /* the loaded keys */
	void *st;      /* generator state */
	prog_ctx ctx;  /* the host it generates for */
};

static const char *const kind_names[PROG_NKINDS] = {
	"load", "store", "nt_load", "nt_store", "uc_load", "uc_store", "flush", "flushopt",
	"fence", "set_flag", "wait_flag", "atomic", "compute", "mark",
};

/* Load @sets (NULL-terminated) against the cmpi schema. */
static int load(cfg **cf, const char *const *sets, cxl_err *err)
{
	const cfg_schema *const schemas[] = { &prog_cmpi_schema };
	size_t n = 0;

	while (sets && sets[n])
		n++;
	memset(err, 0, sizeof(*err));
	return cfg_load(cf, NULL, schemas, 1, sets, n, err);
}

static int gen_try(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		   uint32_t cores, cxl_err *err)
{
	memset(g, 0, sizeof(*g));
	ck_assert_msg(load(&g->cf, sets, err) == 0, "%s", err->msg);
	g->ctx = (prog_ctx){ .host = host, .nhosts = nhosts, .cores = cores, .mps = 256,
			     .ndevices = 1, .interleave = 64 };
	return prog_cmpi_gen.init(&g->st, &g->ctx, g->cf, err);
}

static void gen_open(tgen *g, const char *const *sets, uint32_t host, uint32_t nhosts,
		     uint32_t cores)
{
	cxl_err err;

	ck_assert_msg(gen_try(g, sets, host, nhosts, cores, &err) == 0, "%s", err.msg);
}

static void gen_close(tgen *g)
{
	prog_cmpi_gen.free(g->st);
	cfg_free(g->cf);
}

static const char *mode_name(uint8_t m)
{
	return m == PROG_MODE_CACHED ? "cached" : m == PROG_MODE_NT ? "nt" : "uc";
}

static void fmt(const prog_op *o, char *b, size_t n)
{
	unsigned long long a = o->addr, sz = o->size;

	switch (o->kind) {
	case PROG_FENCE:
		snprintf(b, n, "fence");
		break;
	case PROG_SET_FLAG:
		snprintf(b, n, "set_flag 0x%llx =%u %s", a, o->value, mode_name(o->mode));
		break;
	case PROG_WAIT_FLAG:
		snprintf(b, n, "wait_flag 0x%llx >=%u", a, o->value);
		break;
	case PROG_MARK:
		if (o->mode == 0)
			snprintf(b, n, "begin %u", o->mark);
		else
			snprintf(b, n, "end %u %llu", o->mark, sz);
		break;
	default:
		snprintf(b, n, "%s 0x%llx %llu", kind_names[o->kind], a, sz);
	}
}

/* Process @proc of @g must produce exactly @want (NULL-terminated), then end. */
static void expect_ops(tgen *g, uint32_t proc, const char *const *want)
{
	prog_op o;
	char got[128];
	size_t i = 0;

	for (; want[i]; i++) {
		ck_assert_msg(prog_cmpi_gen.next(g->st, proc, &o) == 1,
			      "host %u: ended after %zu ops, expected \"%s\"", g->ctx.host, i,
			      want[i]);
		fmt(&o, got, sizeof(got));
		ck_assert_msg(strcmp(got, want[i]) == 0, "host %u op %zu: got \"%s\", want \"%s\"",
			      g->ctx.host, i, got, want[i]);
	}
	if (prog_cmpi_gen.next(g->st, proc, &o) == 1) {
		fmt(&o, got, sizeof(got));
		ck_abort_msg("host %u: extra op %zu \"%s\"", g->ctx.host, i, got);
	}
}

/* Host @host of @nhosts (1 core) must produce @want with @sets. */
static void expect_host(const char *const *sets, uint32_t host, uint32_t nhosts,
			const char *const *want)
{
	tgen g;

	gen_open(&g, sets, host, nhosts, 1);
	expect_ops(&g, 0, want);
	gen_close(&g);
}

/*
 * Two hosts, one process: barrier flags at 0x0 (host 0) and 0x100 (host 1),
 * bar_bytes 4 KiB; one-sided slots of 8 KiB (4 KiB flags + a 4 KiB
 * window), so slot (0 -> 1) is at 0x3000 and its window at 0x4000.
 */
#define ONE_SIDED(op, measure, coh)                                                     \
	"workload.cmpi.op=" op, "workload.cmpi.measure=" measure,                        \
	"workload.cmpi.coherence=" coh, "workload.cmpi.min_size=64B",                    \
	"workload.cmpi.max_size=64B", "workload.cmpi.iterations=2", "workload.cmpi.warmup=1"

START_TEST(test_cmpi_put_latency_software)
{
	static const char *const sets[] = { ONE_SIDED("put", "latency", "software"), NULL };
	static const char *const origin[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1",
		"store 0x4000 64", "flushopt 0x4000 64", "fence",                  /* warm-up */
		"begin 0", "store 0x4000 64", "flushopt 0x4000 64", "fence", "end 0 64",
		"begin 0", "store 0x4000 64", "flushopt 0x4000 64", "fence", "end 0 64", NULL,
	};
	static const char *const target[] = { "set_flag 0x100 =1 nt", "wait_flag 0x0 >=1", NULL };

	expect_host(sets, 0, 2, origin);
	expect_host(sets, 1, 2, target);
}
END_TEST

START_TEST(test_cmpi_get_latency_each_mode)
{
	static const char *const sw[] = { ONE_SIDED("get", "latency", "software"), NULL };
	static const char *const uc[] = { ONE_SIDED("get", "latency", "uc"), NULL };
	static const char *const db[] = { ONE_SIDED("get", "latency", "hdmdb"), NULL };
	static const char *const want_sw[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1",
		"fence", "flushopt 0x4000 64", "fence", "load 0x4000 64", "fence",
		"begin 0", "fence", "flushopt 0x4000 64", "fence", "load 0x4000 64", "fence", "end 0 64",
		"begin 0", "fence", "flushopt 0x4000 64", "fence", "load 0x4000 64", "fence", "end 0 64",
		NULL,
	};
	static const char *const want_uc[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1", "uc_load 0x4000 64", "fence",
		"begin 0", "uc_load 0x4000 64", "fence", "end 0 64",
		"begin 0", "uc_load 0x4000 64", "fence", "end 0 64", NULL,
	};
	static const char *const want_db[] = {
		"set_flag 0x0 =1 cached", "wait_flag 0x100 >=1", "load 0x4000 64", "fence",
		"begin 0", "load 0x4000 64", "fence", "end 0 64",
		"begin 0", "load 0x4000 64", "fence", "end 0 64", NULL,
	};

	expect_host(sw, 0, 2, want_sw);
	expect_host(uc, 0, 2, want_uc);
	expect_host(db, 0, 2, want_db);
}
END_TEST

/* bw: a window of 2 puts of 128 B at offsets 0 and 128 of the window. */
#define PUT_BW(coh)                                                                      \
	"workload.cmpi.op=put", "workload.cmpi.coherence=" coh, "workload.cmpi.window=2",   \
	"workload.cmpi.min_size=128B", "workload.cmpi.max_size=128B",                    \
	"workload.cmpi.iterations=1", "workload.cmpi.warmup=0"

START_TEST(test_cmpi_put_bw_each_mode)
{
	static const char *const sw[] = { PUT_BW("software"), NULL };
	static const char *const uc[] = { PUT_BW("uc"), NULL };
	static const char *const db[] = { PUT_BW("hdmdb"), NULL };
	static const char *const want_sw[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1", "begin 0",
		"store 0x4000 128", "flushopt 0x4000 128", "fence",
		"store 0x4080 128", "flushopt 0x4080 128", "fence", "end 0 256", NULL,
	};
	static const char *const want_uc[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1", "begin 0",
		"uc_store 0x4000 128", "uc_store 0x4080 128", "fence", "end 0 256", NULL,
	};
	static const char *const want_db[] = {
		"set_flag 0x0 =1 cached", "wait_flag 0x100 >=1", "begin 0",
		"store 0x4000 128", "store 0x4080 128", "fence", "end 0 256", NULL,
	};
	static const char *const target_db[] = {
		"set_flag 0x100 =1 cached", "wait_flag 0x0 >=1", NULL,
	};

	expect_host(sw, 0, 2, want_sw);
	expect_host(uc, 0, 2, want_uc);
	expect_host(db, 0, 2, want_db);
	expect_host(db, 1, 2, target_db);
}
END_TEST

/* The second size: fence, barrier at 2, class 1; the window holds max_size. */
START_TEST(test_cmpi_sizes_barrier_and_classes)
{
	static const char *const sets[] = {
		"workload.cmpi.op=put", "workload.cmpi.measure=latency", "workload.cmpi.coherence=hdmdb",
		"workload.cmpi.min_size=64B", "workload.cmpi.max_size=128B",
		"workload.cmpi.iterations=1", "workload.cmpi.warmup=0", NULL,
	};
	static const char *const want[] = {
		"set_flag 0x0 =1 cached", "wait_flag 0x100 >=1",
		"begin 0", "store 0x4000 64", "fence", "end 0 64",
		"fence", "set_flag 0x0 =2 cached", "wait_flag 0x100 >=2",
		"begin 1", "store 0x4000 128", "fence", "end 1 128", NULL,
	};
	static const char *const dflt[] = { NULL };
	tgen g;

	expect_host(sets, 0, 2, want);
	gen_open(&g, sets, 0, 2, 1);
	ck_assert_uint_eq(prog_cmpi_gen.nclasses(g.st), 2);
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 0), "64B");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 1), "128B");
	ck_assert_ptr_null(prog_cmpi_gen.class_name(g.st, 2));
	gen_close(&g);
	gen_open(&g, dflt, 0, 2, 1);
	ck_assert_uint_eq(prog_cmpi_gen.nclasses(g.st), 24);
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 0), "1B");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 10), "1KiB");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 23), "8MiB");
	gen_close(&g);
}
END_TEST

/*
 * Two-sided, two hosts, one process, 16 KiB cells, depth 2: slots of
 * 4 KiB + 2 x 16 KiB = 0x9000; slot (0 -> 1) at 0x1000 + 0x9000 = 0xa000
 * (tail 0xa000, head 0xa100, ack 0xa200, cells 0xb000 and 0xf000), slot
 * (1 -> 0) at 0x13000 (cells 0x14000, 0x18000).  64 B messages: 128 B
 * with the header.
 */
#define TWO_SIDED(measure, coh)                                                          \
	"workload.cmpi.op=sendrecv", "workload.cmpi.measure=" measure,                   \
	"workload.cmpi.coherence=" coh, "workload.cmpi.min_size=64B",                    \
	"workload.cmpi.max_size=64B", "workload.cmpi.cell=16KiB", "workload.cmpi.depth=2",  \
	"workload.cmpi.iterations=1", "workload.cmpi.warmup=0"

START_TEST(test_cmpi_sendrecv_latency_software)
{
	static const char *const sets[] = { TWO_SIDED("latency", "software"), NULL };
	static const char *const pinger[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1", "begin 0",
		"store 0xb000 128", "flushopt 0xb000 128", "fence", "set_flag 0xa000 =1 nt",
		"wait_flag 0x13000 >=1", "fence", "flushopt 0x14000 128", "fence",
		"load 0x14000 128", "fence", "set_flag 0x13100 =1 nt", "end 0 64", NULL,
	};
	static const char *const ponger[] = {
		"set_flag 0x100 =1 nt", "wait_flag 0x0 >=1",
		"wait_flag 0xa000 >=1", "fence", "flushopt 0xb000 128", "fence",
		"load 0xb000 128", "fence", "set_flag 0xa100 =1 nt",
		"store 0x14000 128", "flushopt 0x14000 128", "fence", "set_flag 0x13000 =1 nt", NULL,
	};

	expect_host(sets, 0, 2, pinger);
	expect_host(sets, 1, 2, ponger);
}
END_TEST

START_TEST(test_cmpi_sendrecv_latency_uc)
{
	static const char *const sets[] = { TWO_SIDED("latency", "uc"), NULL };
	static const char *const pinger[] = {
		"set_flag 0x0 =1 nt", "wait_flag 0x100 >=1", "begin 0",
		"uc_store 0xb000 128", "fence", "set_flag 0xa000 =1 nt",
		"wait_flag 0x13000 >=1", "uc_load 0x14000 128", "fence", "set_flag 0x13100 =1 nt",
		"end 0 64", NULL,
	};
	static const char *const ponger[] = {
		"set_flag 0x100 =1 nt", "wait_flag 0x0 >=1",
		"wait_flag 0xa000 >=1", "uc_load 0xb000 128", "fence", "set_flag 0xa100 =1 nt",
		"uc_store 0x14000 128", "fence", "set_flag 0x13000 =1 nt", NULL,
	};

	expect_host(sets, 0, 2, pinger);
	expect_host(sets, 1, 2, ponger);
}
END_TEST

/* bw, window 3, depth 2: the third message waits for the head; then the ack. */
START_TEST(test_cmpi_sendrecv_bw_hdmdb)
{
	static const char *const sets[] = {
		TWO_SIDED("bw", "hdmdb"), "workload.cmpi.window=3", NULL,
	};
	static const char *const sender[] = {
		"set_flag 0x0 =1 cached", "wait_flag 0x100 >=1", "begin 0",
		"store 0xb000 128", "fence", "set_flag 0xa000 =1 cached",
		"store 0xf000 128", "fence", "set_flag 0xa000 =2 cached",
		"wait_flag 0xa100 >=1", "store 0xb000 128", "fence", "set_flag 0xa000 =3 cached",
		"wait_flag 0xa200 >=1", "end 0 192", NULL,
	};
	static const char *const receiver[] = {
		"set_flag 0x100 =1 cached", "wait_flag 0x0 >=1",
		"wait_flag 0xa000 >=1", "load 0xb000 128", "fence", "set_flag 0xa100 =1 cached",
		"wait_flag 0xa000 >=2", "load 0xf000 128", "fence", "set_flag 0xa100 =2 cached",
		"wait_flag 0xa000 >=3", "load 0xb000 128", "fence", "set_flag 0xa100 =3 cached",
		"set_flag 0xa200 =1 cached", NULL,
	};

	expect_host(sets, 0, 2, sender);
	expect_host(sets, 1, 2, receiver);
}
END_TEST

START_TEST(test_cmpi_chunk_arithmetic)
{
	cmpi s = { .cell = 65536, .header = 64 };

	ck_assert_uint_eq(cmpi__nchunks(&s, 100 * 1024), 2);
	ck_assert_uint_eq(cmpi__chunk_payload(&s, 100 * 1024, 0), 65472);
	ck_assert_uint_eq(cmpi__chunk_payload(&s, 100 * 1024, 1), 36928);
	ck_assert_uint_eq(cmpi__nchunks(&s, 65472), 1);
	ck_assert_uint_eq(cmpi__nchunks(&s, 65473), 2);
	ck_assert_uint_eq(cmpi__nchunks(&s, 65536), 2);  /* 64 KiB does not fit a 64 KiB cell */
	ck_assert_uint_eq(cmpi__chunk_payload(&s, 65536, 1), 64);
	ck_assert_uint_eq(cmpi__nchunks(&s, 1), 1);
	ck_assert_uint_eq(cmpi__chunk_payload(&s, 1, 0), 1);
}
END_TEST

/* A 128 KiB message in 64 KiB cells: 3 chunks of 65472, 65472 and 128 bytes. */
START_TEST(test_cmpi_chunks_in_stream)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.window=1", "workload.cmpi.coherence=hdmdb",
		"workload.cmpi.min_size=128KiB", "workload.cmpi.max_size=128KiB",
		"workload.cmpi.iterations_large=1", "workload.cmpi.warmup_large=0", NULL,
	};
	uint64_t want[] = { 65536, 65536, 192 };
	uint64_t slot_bytes = 4096 + 8 * 65536, cells = 4096 + slot_bytes + 4096;
	size_t n = 0, tails = 0;
	prog_op o;
	tgen g;

	gen_open(&g, sets, 0, 2, 1);
	while (prog_cmpi_gen.next(g.st, 0, &o)) {
		if (o.kind == PROG_STORE) {
			char b[128];
			fmt(&o, b, sizeof(b));
			ck_assert_msg(n < NELEMS(want), "extra %s", b);
			ck_assert_uint_eq(o.size, want[n]);
			ck_assert_uint_eq(o.addr, cells + n * 65536);
			n++;
		}
		if (o.kind == PROG_SET_FLAG && o.addr == 4096 + slot_bytes)
			ck_assert_uint_eq(o.value, ++tails);
		if (o.kind == PROG_MARK && o.mode == 1)
			ck_assert_uint_eq(o.size, 131072);
	}
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(tails, 3);
	gen_close(&g);
}
END_TEST

/* Slot (a, b) of the decoding below: index (p x n + a) x n + b. */
static void slot_of(uint64_t addr, uint64_t bar, uint64_t slot_bytes, uint32_t n,
		    uint32_t *a, uint32_t *b, uint64_t *off)
{
	uint64_t i = (addr - bar) / slot_bytes;

	*a = (uint32_t)(i / n % n), *b = (uint32_t)(i % n), *off = (addr - bar) % slot_bytes;
}

/* Host 1 of 4: barrier with 2, 3, 0; sends to 2, 3, 0; receives from 0, 3, 2. */
START_TEST(test_cmpi_alltoall_schedule)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.peers=alltoall", "workload.cmpi.window=1",
		"workload.cmpi.min_size=64B", "workload.cmpi.max_size=64B",
		"workload.cmpi.iterations=1", "workload.cmpi.warmup=0", NULL,
	};
	static const uint32_t bar_want[] = { 2, 3, 0 }, to[] = { 2, 3, 0 }, from[] = { 0, 3, 2 };
	uint64_t slot_bytes = 4096 + 8 * 65536;
	size_t nbar = 0, nset = 0, nwait = 0, nack = 0, nsetack = 0, nmarks = 0;
	prog_op o;
	tgen g;

	gen_open(&g, sets, 1, 4, 1);
	while (prog_cmpi_gen.next(g.st, 0, &o)) {
		uint32_t a, b;
		uint64_t off;

		if (o.kind == PROG_MARK) {
			ck_assert_uint_eq(o.mark, 0);
			ck_assert_uint_eq(o.mode, nmarks++ % 2);
		}
		if (o.kind != PROG_SET_FLAG && o.kind != PROG_WAIT_FLAG)
			continue;
		if (o.addr < 4096) {  /* barrier */
			if (o.kind == PROG_SET_FLAG)
				ck_assert_uint_eq(o.addr, 1 * 256);
			else
				ck_assert_uint_eq(o.addr, bar_want[nbar++] * 256);
			continue;
		}
		slot_of(o.addr, 4096, slot_bytes, 4, &a, &b, &off);
		if (o.kind == PROG_SET_FLAG && off == 0) {          /* tail: my send */
			ck_assert_uint_eq(a, 1);
			ck_assert_uint_eq(b, to[nset++]);
		} else if (o.kind == PROG_WAIT_FLAG && off == 0) {  /* tail: my receive */
			ck_assert_uint_eq(a, from[nwait++]);
			ck_assert_uint_eq(b, 1);
			ck_assert_uint_eq(nwait, nset);  /* each step sends before it receives */
		} else if (o.kind == PROG_WAIT_FLAG && off == 512) { /* ack of my window */
			ck_assert_uint_eq(a, 1);
			ck_assert_uint_eq(b, to[nack++]);
		} else if (o.kind == PROG_SET_FLAG && off == 512) {  /* ack of a received window */
			ck_assert_uint_eq(a, from[nsetack++]);
			ck_assert_uint_eq(b, 1);
		} else {
			ck_assert_msg(off == 256, "flag at slot offset %llu", (unsigned long long)off);
		}
	}
	ck_assert_uint_eq(nbar, 3);
	ck_assert_uint_eq(nset, 3);
	ck_assert_uint_eq(nwait, 3);
	ck_assert_uint_eq(nack, 3);
	ck_assert_uint_eq(nsetack, 3);
	ck_assert_uint_eq(nmarks, 6);
	gen_close(&g);
}
END_TEST

/* ---- all processes of all hosts together ---- */

typedef struct world world;
struct world {
	tgen g[8];        /* per host */
	uint32_t nhosts;  /* hosts */
	uint32_t procs;   /* processes per host */
};

static void world_open(world *w, const char *const *sets, uint32_t nhosts, uint32_t procs)
{
	ck_assert_uint_le(nhosts, NELEMS(w->g));
	w->nhosts = nhosts, w->procs = procs;
	for (uint32_t h = 0; h < nhosts; h++)
		gen_open(&w->g[h], sets, h, nhosts, procs);
}

static void world_close(world *w)
{
	for (uint32_t h = 0; h < w->nhosts; h++)
		gen_close(&w->g[h]);
}

static int is_data(uint8_t k)
{
	return k == PROG_LOAD || k == PROG_STORE || k == PROG_UC_LOAD || k == PROG_UC_STORE ||
	       k == PROG_FLUSHOPT;
}

static int is_write(uint8_t k)
{
	return k == PROG_STORE || k == PROG_UC_STORE;
}

/*
 * Every flag is 256-byte aligned and no data operation touches a flag's
 * 256-byte block; every data line is written by one process only and read
 * by one process only (regions of pairs are disjoint).
 */
static void check_layout(const char *const *sets, uint32_t nhosts, uint32_t procs)
{
	flagmap flags = { 0 }, writer = { 0 }, reader = { 0 };
	world w;
	prog_op o;
	uint16_t v;

	world_open(&w, sets, nhosts, procs);
	for (uint32_t h = 0; h < nhosts; h++)
		for (uint32_t p = 0; p < procs; p++)
			while (prog_cmpi_gen.next(w.g[h].st, p, &o))
				if (o.kind == PROG_SET_FLAG || o.kind == PROG_WAIT_FLAG) {
					CHECK(o.addr % PROG_FLAG_ALIGN == 0, "flag 0x%llx",
					      (unsigned long long)o.addr);
					flagmap_set(&flags, o.addr / PROG_FLAG_ALIGN, 1);
				}
	world_close(&w);
	world_open(&w, sets, nhosts, procs);
	for (uint32_t h = 0; h < nhosts; h++)
		for (uint32_t p = 0; p < procs; p++)
			while (prog_cmpi_gen.next(w.g[h].st, p, &o)) {
				if (!is_data(o.kind) || o.kind == PROG_FLUSHOPT)
					continue;
				flagmap *m = is_write(o.kind) ? &writer : &reader;
				uint16_t me = (uint16_t)(h * procs + p + 1);

				for (uint64_t l = o.addr / 64; l <= (o.addr + o.size - 1) / 64; l++) {
					CHECK(!flagmap_get(&flags, l * 64 / PROG_FLAG_ALIGN, &v),
						      "data line 0x%llx in a flag block",
						      (unsigned long long)l * 64);
					if (flagmap_get(m, l, &v))
						CHECK(v == me, "line 0x%llx shared by processes "
							      "%u and %u", (unsigned long long)l * 64,
							      v - 1u, me - 1u);
					else
						flagmap_set(m, l, me);
				}
			}
	world_close(&w);
	flagmap_free(&flags), flagmap_free(&writer), flagmap_free(&reader);
}

START_TEST(test_cmpi_layout_alignment_and_disjoint)
{
	static const char *const a2a[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.peers=alltoall", "workload.cmpi.window=2",
		"workload.cmpi.min_size=1B", "workload.cmpi.max_size=32KiB", "workload.cmpi.depth=2",
		"workload.cmpi.cell=16KiB", "workload.cmpi.iterations=1", "workload.cmpi.warmup=0",
		NULL,
	};
	static const char *const ring_put[] = {
		"workload.cmpi.op=put", "workload.cmpi.peers=ring", "workload.cmpi.window=4",
		"workload.cmpi.min_size=1B", "workload.cmpi.max_size=4KiB",
		"workload.cmpi.iterations=1", "workload.cmpi.warmup=0", "workload.cmpi.base=768B",
		NULL,
	};
	static const char *const ring_lat[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.peers=ring",
		"workload.cmpi.measure=latency", "workload.cmpi.coherence=uc",
		"workload.cmpi.min_size=1KiB", "workload.cmpi.max_size=64KiB",
		"workload.cmpi.iterations=1", "workload.cmpi.warmup=0", NULL,
	};

	check_layout(a2a, 4, 2);
	check_layout(ring_put, 5, 3);
	check_layout(ring_lat, 3, 2);
}
END_TEST

/*
 * Run every process of every host: an operation completes at once, except
 * wait_flag, which blocks its process until the flag has reached the value.
 * Processes are stepped in a random order for random lengths.  Checks: all
 * finish (no deadlock); with @cells (sendrecv), each cell is read once after
 * each write;
 * marks alternate begin / end; returns the number of marks ended.
 */
static uint64_t execute(const char *const *sets, uint32_t nhosts, uint32_t procs, unsigned seed,
		       int cells)
{
	enum { MAXP = 64 };
	flagmap mem = { 0 }, wrote = { 0 }, read = { 0 };
	prog_op pend[MAXP];
	int live[MAXP], open[MAXP];
	uint32_t np = nhosts * procs, left = np;
	uint64_t marks = 0, ops = 0;
	world w;

	ck_assert_uint_le(np, MAXP);
	world_open(&w, sets, nhosts, procs);
	for (uint32_t i = 0; i < np; i++)
		live[i] = prog_cmpi_gen.next(w.g[i / procs].st, i % procs, &pend[i]), open[i] = 0;
	for (uint32_t i = 0; i < np; i++)
		left -= !live[i];
	srand(seed);
	while (left) {
		int progress = 0;

		for (uint32_t t = 0; t < np; t++) {
			uint32_t i = (uint32_t)rand() % np, burst = 1 + (uint32_t)rand() % 40;

			for (uint32_t b = 0; b < burst && live[i]; b++) {
				prog_op *o = &pend[i];
				uint16_t v = 0, wv = 0, rv = 0;

				if (o->kind == PROG_WAIT_FLAG) {
					flagmap_get(&mem, o->addr / 64, &v);
					if (!flag_reached(v, o->value))
						break;
				} else if (o->kind == PROG_SET_FLAG) {
					flagmap_set(&mem, o->addr / 64, o->value);
				} else if (cells && is_write(o->kind)) {
					flagmap_get(&wrote, o->addr / 64, &wv);
					flagmap_get(&read, o->addr / 64, &rv);
					CHECK(wv == rv, "cell 0x%llx overwritten before read",
						      (unsigned long long)o->addr);
					flagmap_set(&wrote, o->addr / 64, (uint16_t)(wv + 1));
				} else if (cells && (o->kind == PROG_LOAD || o->kind == PROG_UC_LOAD)) {
					flagmap_get(&wrote, o->addr / 64, &wv);
					flagmap_get(&read, o->addr / 64, &rv);
					CHECK((uint16_t)(rv + 1) == wv,
						      "cell 0x%llx read before written",
						      (unsigned long long)o->addr);
					flagmap_set(&read, o->addr / 64, wv);
				} else if (o->kind == PROG_MARK) {
					CHECK(o->mode == open[i], "mark mode %u", o->mode);
					open[i] ^= 1;
					marks += o->mode;
				}
				progress = 1, ops++;
				live[i] = prog_cmpi_gen.next(w.g[i / procs].st, i % procs, o);
				left -= !live[i];
			}
		}
		if (!progress) {
			/* a whole round of random picks may miss the one runnable process */
			for (uint32_t i = 0; i < np && !progress; i++) {
				uint16_t v = 0;

				flagmap_get(&mem, pend[i].addr / 64, &v);
				progress = live[i] && (pend[i].kind != PROG_WAIT_FLAG ||
						       flag_reached(v, pend[i].value));
			}
			ck_assert_msg(progress, "deadlock after %llu ops", (unsigned long long)ops);
		}
	}
	for (uint32_t i = 0; i < np; i++)
		ck_assert_int_eq(open[i], 0);
	world_close(&w);
	flagmap_free(&mem), flagmap_free(&wrote), flagmap_free(&read);
	return marks;
}

static const char *const ops_names[] = { "put", "get", "sendrecv" };
static const char *const measure_names[] = { "bw", "latency" };
static const char *const peer_names[] = { "pairs", "ring", "alltoall" };
static const char *const coh_names[] = { "software", "uc", "hdmdb" };

/* Every benchmark runs to the end with the expected marks. */
START_TEST(test_cmpi_protocol_completes)
{
	static const uint32_t hosts[] = { 2, 3, 5 };
	char set[6][64];
	const char *sets[16];

	for (size_t op = 0; op < 3; op++)
	for (size_t me = 0; me < 2; me++)
	for (size_t pe = 0; pe < 3; pe++)
	for (size_t hi = 0; hi < NELEMS(hosts); hi++) {
		uint32_t n = hosts[hi], markers, steps = pe == 2 ? n - 1 : 1;
		size_t k = 0;

		snprintf(set[0], 64, "workload.cmpi.op=%s", ops_names[op]);
		snprintf(set[1], 64, "workload.cmpi.measure=%s", measure_names[me]);
		snprintf(set[2], 64, "workload.cmpi.peers=%s", peer_names[pe]);
		snprintf(set[3], 64, "workload.cmpi.coherence=%s", coh_names[(op + pe + hi) % 3]);
		for (; k < 4; k++)
			sets[k] = set[k];
		sets[k++] = "workload.cmpi.min_size=512B";
		sets[k++] = "workload.cmpi.max_size=32KiB";   /* 1 to 3 chunks of 16 KiB cells */
		sets[k++] = "workload.cmpi.large_size=8KiB";
		sets[k++] = "workload.cmpi.iterations=3";
		sets[k++] = "workload.cmpi.warmup=1";
		sets[k++] = "workload.cmpi.iterations_large=2";
		sets[k++] = "workload.cmpi.warmup_large=1";
		sets[k++] = "workload.cmpi.cell=16KiB";
		sets[k++] = "workload.cmpi.depth=2";
		sets[k++] = "workload.cmpi.window=5";
		sets[k] = NULL;
		markers = pe == 0 ? n / 2 : n;
		/* 512 B .. 8 KiB: 3 measured; 16, 32 KiB: 2 */
		ck_assert_uint_eq(execute(sets, n, 2, (unsigned)(op * 100 + me * 10 + pe + n), op == 2),
				  (uint64_t)markers * 2 * steps * (5 * 3 + 2 * 2));
	}
}
END_TEST

/* total() is what the processes produce, for every benchmark and host. */
START_TEST(test_cmpi_total_counts_ops)
{
	static const uint32_t hosts[] = { 2, 3, 5 };
	static const char *const depth[] = { "workload.cmpi.depth=2", "workload.cmpi.depth=1024" };
	char set[4][64];
	const char *sets[16];

	for (size_t op = 0; op < 3; op++)
	for (size_t me = 0; me < 2; me++)
	for (size_t pe = 0; pe < 3; pe++)
	for (size_t co = 0; co < 3; co++)
	for (size_t hi = 0; hi < NELEMS(hosts); hi++) {
		size_t k = 0;

		snprintf(set[0], 64, "workload.cmpi.op=%s", ops_names[op]);
		snprintf(set[1], 64, "workload.cmpi.measure=%s", measure_names[me]);
		snprintf(set[2], 64, "workload.cmpi.peers=%s", peer_names[pe]);
		snprintf(set[3], 64, "workload.cmpi.coherence=%s", coh_names[co]);
		for (; k < 4; k++)
			sets[k] = set[k];
		sets[k++] = "workload.cmpi.min_size=8KiB";
		sets[k++] = "workload.cmpi.max_size=64KiB";
		sets[k++] = "workload.cmpi.iterations=3";
		sets[k++] = "workload.cmpi.warmup=2";
		sets[k++] = "workload.cmpi.iterations_large=2";
		sets[k++] = "workload.cmpi.warmup_large=1";
		sets[k++] = "workload.cmpi.cell=16KiB";
		sets[k++] = "workload.cmpi.window=3";
		sets[k++] = depth[(op + me + pe + co + hi) % 2];
		sets[k] = NULL;
		for (uint32_t h = 0; h < hosts[hi]; h++) {
			uint64_t n = 0;
			prog_op o;
			tgen g;

			gen_open(&g, sets, h, hosts[hi], 2);
			for (uint32_t p = 0; p < 2; p++)
				while (prog_cmpi_gen.next(g.st, p, &o))
					n++;
			CHECK(prog_cmpi_gen.total(g.st) == n, "%s %s %s %s %s, host %u of %u: total "
			      "%llu, produced %llu", set[0], set[1], set[2], set[3], sets[k - 1], h,
			      hosts[hi], (unsigned long long)prog_cmpi_gen.total(g.st),
			      (unsigned long long)n);
			gen_close(&g);
		}
	}
}
END_TEST

/* 70400 chunks on one queue: the flags wrap past 2^16. */
START_TEST(test_cmpi_serial_wrap)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.coherence=hdmdb", "workload.cmpi.depth=4",
		"workload.cmpi.min_size=1B", "workload.cmpi.max_size=2B",
		"workload.cmpi.iterations=550", "workload.cmpi.warmup=0", NULL,
	};

	ck_assert_uint_eq(execute(sets, 2, 1, 3, 1), 1100);
}
END_TEST

/* The stream of one process does not depend on how the others are interleaved. */
START_TEST(test_cmpi_procs_independent)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.peers=ring", "workload.cmpi.window=3",
		"workload.cmpi.min_size=1B", "workload.cmpi.max_size=1KiB", "workload.cmpi.procs=2",
		"workload.cmpi.iterations=2", NULL,
	};
	tgen a, b;
	prog_op x, y;
	int more;

	gen_open(&a, sets, 2, 4, 3);
	gen_open(&b, sets, 2, 4, 3);
	ck_assert_int_eq(prog_cmpi_gen.next(a.st, 2, &x), 0);  /* beyond procs */
	do {
		more = prog_cmpi_gen.next(a.st, 1, &x);
		prog_cmpi_gen.next(b.st, 0, &y);   /* b interleaves process 0 */
		ck_assert_int_eq(prog_cmpi_gen.next(b.st, 1, &y), more);
		if (more)
			ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
	} while (more);
	gen_close(&a);
	gen_close(&b);
}
END_TEST

static size_t heap_used(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 0;  /* ASan keeps its own books */
#else
	return mallinfo2().uordblks;
#endif
}

/*
 * 1024 hosts alltoall, 32 processes: initialising takes the memory of 2
 * hosts, producing a million operations allocates nothing and is fast.
 */
START_TEST(test_cmpi_constant_memory)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.peers=alltoall", NULL,
	};
	size_t h0, small, big;
	uint64_t n = 0, bar = 0;
	prog_op o;
	tgen g;
	struct timespec t0, t1;

	ck_assert_int_eq(load(&g.cf, sets, &(cxl_err){ 0 }), 0);
	cfg_free(g.cf);
	h0 = heap_used();
	gen_open(&g, sets, 0, 2, 32);
	small = heap_used() - h0;
	gen_close(&g);
	h0 = heap_used();
	gen_open(&g, sets, 777, 1024, 32);
	big = heap_used() - h0;
	ck_assert_uint_eq(big, small);
	h0 = heap_used();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint32_t p = 0; p < 32 && n < 1000000; p++)
		while (n < 1000000 && prog_cmpi_gen.next(g.st, p, &o)) {
			n++;
			if (p == 0 && o.kind == PROG_WAIT_FLAG && o.addr < 1024 * 32 * 256) {
				CHECK(o.addr == ((777 + 1 + bar) % 1024) * 256, "barrier %llu",
				      (unsigned long long)bar);
				bar++;
			}
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_uint_eq(heap_used(), h0);
	ck_assert_uint_eq(n, 1000000);
	ck_assert_uint_eq(bar, 1023);
	ck_assert_double_lt((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
			    5.0);
	gen_close(&g);
}
END_TEST

/* Host @host of @nhosts with @cores fails with a message containing @want. */
static void expect_error(const char *const *sets, uint32_t host, uint32_t nhosts,
			 uint32_t cores, const char *want)
{
	tgen g;
	cxl_err err;

	ck_assert_int_eq(gen_try(&g, sets, host, nhosts, cores, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, want), "got \"%s\", want \"%s\"", err.msg, want);
	cfg_free(g.cf);
}

START_TEST(test_cmpi_config_errors)
{
	static const char *const procs[] = { "workload.cmpi.procs=5", NULL };
	static const char *const minmax[] = {
		"workload.cmpi.min_size=4KiB", "workload.cmpi.max_size=1KiB", NULL,
	};
	static const char *const min3[] = { "workload.cmpi.min_size=3B", NULL };
	static const char *const max100[] = { "workload.cmpi.max_size=100KiB", NULL };
	static const char *const cell[] = { "workload.cmpi.cell=48KiB", NULL };
	static const char *const hdr[] = { "workload.cmpi.cell_header=96B", NULL };
	static const char *const hdr_big[] = {
		"workload.cmpi.cell=16KiB", "workload.cmpi.cell_header=16KiB", NULL,
	};
	static const char *const base[] = { "workload.cmpi.base=100B", NULL };
	static const char *const none[] = { NULL };
	static const char *const four[] = { "workload.cmpi.procs=4", NULL };
	const cfg_schema *const schemas[] = { &prog_cmpi_schema };
	const char *const too_big[] = { "workload.cmpi.max_size=16MiB" };
	const char *const bad_op[] = { "workload.cmpi.op=allreduce" };
	cfg *cf;
	cxl_err err;
	tgen g;

	expect_error(procs, 0, 2, 4,
		     "workload.cmpi.procs: 5 processes, more than host.cores (4)");
	expect_error(minmax, 0, 2, 1,
		     "workload.cmpi.min_size: 4096 bytes is more than max_size (1024)");
	expect_error(min3, 0, 2, 1, "workload.cmpi.min_size: 3 bytes is not a power of two");
	expect_error(max100, 0, 2, 1,
		     "workload.cmpi.max_size: 102400 bytes is not a power of two");
	expect_error(cell, 0, 2, 1, "workload.cmpi.cell: 49152 bytes is not a power of two");
	expect_error(hdr, 0, 2, 1, "workload.cmpi.cell_header: 96 bytes: a multiple of 64");
	expect_error(hdr_big, 0, 2, 1, "workload.cmpi.cell_header: 16384 bytes");
	expect_error(base, 0, 2, 1, "workload.cmpi.base: 100 is not a multiple of 256 bytes");
	expect_error(none, 0, 1, 1, "workload.cmpi.peers: needs at least 2 hosts");
	gen_open(&g, four, 0, 2, 4);  /* procs = cores is fine */
	gen_close(&g);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 1, too_big, 1, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of range"));
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 1, bad_op, 1, &err), CXL_EINVAL);
}
END_TEST

/* A region beyond 2^63 bytes is refused. */
START_TEST(test_cmpi_layout_overflow)
{
	static const char *const high[] = { "workload.cmpi.base=8589934591GiB", NULL };
	static const char *const big[] = {
		"workload.cmpi.peers=alltoall", "workload.cmpi.window=4096", NULL,
	};
	tgen g;

	/* 2 hosts: 4 slots of 512 MiB past 2^63 - 1 GiB */
	expect_error(high, 0, 2, 1, "does not fit in 2^63 bytes");
	/* 65536 hosts^2 x 64 processes x (4 KiB + 4096 x 8 MiB) overflows */
	expect_error(big, 0, 65536, 64, "does not fit in 2^63 bytes");
	gen_open(&g, big, 0, 1024, 1);   /* 2^20 slots x 32 GiB = 2^55: fits */
	gen_close(&g);
}
END_TEST

Suite *cmpi_suite(void)
{
	Suite *s = suite_create("cmpi");
	TCase *ops = tcase_create("operations");
	TCase *layout = tcase_create("layout");
	TCase *run = tcase_create("protocol");
	TCase *cfgs = tcase_create("config");

	tcase_add_test(ops, test_cmpi_put_latency_software);
	tcase_add_test(ops, test_cmpi_get_latency_each_mode);
	tcase_add_test(ops, test_cmpi_put_bw_each_mode);
	tcase_add_test(ops, test_cmpi_sizes_barrier_and_classes);
	tcase_add_test(ops, test_cmpi_sendrecv_latency_software);
	tcase_add_test(ops, test_cmpi_sendrecv_latency_uc);
	tcase_add_test(ops, test_cmpi_sendrecv_bw_hdmdb);
	tcase_add_test(ops, test_cmpi_chunk_arithmetic);
	tcase_add_test(ops, test_cmpi_chunks_in_stream);
	tcase_add_test(ops, test_cmpi_procs_independent);
	suite_add_tcase(s, ops);
	tcase_add_test(layout, test_cmpi_alltoall_schedule);
	tcase_add_test(layout, test_cmpi_layout_alignment_and_disjoint);
	tcase_add_test(layout, test_cmpi_constant_memory);
	tcase_set_timeout(layout, 60);
	suite_add_tcase(s, layout);
	tcase_add_test(run, test_cmpi_protocol_completes);
	tcase_add_test(run, test_cmpi_serial_wrap);
	tcase_add_test(run, test_cmpi_total_counts_ops);
	tcase_set_timeout(run, 120);
	suite_add_tcase(s, run);
	tcase_add_test(cfgs, test_cmpi_config_errors);
	tcase_add_test(cfgs, test_cmpi_layout_overflow);
	suite_add_tcase(s, cfgs);
	return s;
}
