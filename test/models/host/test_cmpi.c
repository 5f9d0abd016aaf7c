/*
 * test/models/host/test_cmpi.c - unit tests for the cMPI generator
 * (models/host/cmpi.c, cmpi_gen.c), driven through prog_cmpi_gen with a
 * hand-made config and context (cmpi_fixture.h), one host at a time:
 *   - the exact operations of one small put, get and sendrecv per coherence
 *     mode (kinds, addresses, sizes, flags, values, marks);
 *   - chunking, the head wait of a full queue, the bw ack, the barrier of
 *     the next size, the class names and iteration counts of a sweep;
 *   - the alltoall schedule;
 *   - config errors;
 *   - a checkpoint of the cursors resumes the same operations.
 * Every process of every host together: test_cmpi_world.c.
 */
#include "test/models/host/cmpi_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[PROG_NKINDS] = {
	"load", "store", "nt_load", "nt_store", "uc_load", "uc_store", "flush", "flushopt",
	"fence", "set_flag", "wait_flag", "atomic", "compute", "mark",
};

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

	cfx_gen_open(&g, sets, host, nhosts, 1);
	expect_ops(&g, 0, want);
	cfx_gen_close(&g);
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
	cfx_gen_open(&g, sets, 0, 2, 1);
	ck_assert_uint_eq(prog_cmpi_gen.nclasses(g.st), 2);
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 0), "64B");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 1), "128B");
	ck_assert_ptr_null(prog_cmpi_gen.class_name(g.st, 2));
	cfx_gen_close(&g);
	cfx_gen_open(&g, dflt, 0, 2, 1);
	ck_assert_uint_eq(prog_cmpi_gen.nclasses(g.st), 24);
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 0), "1B");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 10), "1KiB");
	ck_assert_str_eq(prog_cmpi_gen.class_name(g.st, 23), "8MiB");
	cfx_gen_close(&g);
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

/*
 * Checkpoint (prog_gen.ckpt): a generator restored from another's cursors at
 * any point of a sweep gives the same operations from there to the end; a
 * checkpoint of another process count is refused.
 */
START_TEST(test_cmpi_ckpt_resumes)
{
	static const char *const sets[] = {
		"workload.cmpi.op=sendrecv", "workload.cmpi.measure=bw",
		"workload.cmpi.min_size=64B", "workload.cmpi.max_size=128KiB",
		"workload.cmpi.iterations=2", "workload.cmpi.warmup=1", "workload.cmpi.window=2",
		"workload.cmpi.cell=16KiB", NULL,
	};
	static const uint32_t cuts[] = { 0, 1, 7, 100, 1000 };
	tgen a, b, c3;
	prog_op oa, ob;

	for (size_t i = 0; i < NELEMS(cuts); i++) {
		pack_w w = { 0 };
		cfx_gen_open(&a, sets, 1, 2, 2);
		cfx_gen_open(&b, sets, 1, 2, 2);
		for (uint32_t n = 0; n < cuts[i]; n++)
			for (uint32_t p = 0; p < 2; p++)
				prog_cmpi_gen.next(a.st, p, &oa);
		ckpt save = { .loading = 0, .w = &w };
		prog_cmpi_gen.ckpt(a.st, &save);
		pack_r r = { .p = w.p, .n = w.n };
		ckpt load = { .loading = 1, .r = &r };
		prog_cmpi_gen.ckpt(b.st, &load);
		ck_assert_msg(!ckpt_failed(&load), "%s", load.why);
		ck_assert_uint_eq(r.off, r.n);
		for (uint32_t p = 0; p < 2; p++) {
			uint64_t n = 0;
			int ra, rb;
			do {
				ra = prog_cmpi_gen.next(a.st, p, &oa);
				rb = prog_cmpi_gen.next(b.st, p, &ob);
				CHECK(ra == rb && (!ra || !memcmp(&oa, &ob, sizeof(oa))),
				      "cut %u, process %u: operation %llu differs", cuts[i], p,
				      (unsigned long long)n);
				n++;
			} while (ra);
		}
		cfx_gen_open(&c3, sets, 1, 2, 3);
		r = (pack_r){ .p = w.p, .n = w.n };
		load = (ckpt){ .loading = 1, .r = &r };
		prog_cmpi_gen.ckpt(c3.st, &load);
		ck_assert(ckpt_failed(&load));
		cfx_gen_close(&c3);
		cfx_gen_close(&a);
		cfx_gen_close(&b);
		free(w.p);
	}
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

	cfx_gen_open(&g, sets, 0, 2, 1);
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
	cfx_gen_close(&g);
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

	cfx_gen_open(&g, sets, 1, 4, 1);
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
	cfx_gen_close(&g);
}
END_TEST

/* Host @host of @nhosts with @cores fails with a message containing @want. */
static void expect_error(const char *const *sets, uint32_t host, uint32_t nhosts,
			 uint32_t cores, const char *want)
{
	tgen g;
	cxl_err err;

	ck_assert_int_eq(cfx_gen_try(&g, sets, host, nhosts, cores, &err), CXL_EINVAL);
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
	cfx_gen_open(&g, four, 0, 2, 4);  /* procs = cores is fine */
	cfx_gen_close(&g);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 1, too_big, 1, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of range"));
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cfg_load(&cf, NULL, schemas, 1, bad_op, 1, &err), CXL_EINVAL);
}
END_TEST

/* A host alone in its memory group (an Octopus device with one head) has no peer: it idles. */
START_TEST(test_cmpi_lone_host_idles)
{
	tgen g;

	static const char *const alone[][2] = {
		{ "workload.cmpi.peers=pairs", NULL }, { "workload.cmpi.peers=ring", NULL },
		{ "workload.cmpi.peers=alltoall", NULL },
	};
	for (size_t i = 0; i < NELEMS(alone); i++) {
		prog_op op;
		cfx_gen_open(&g, alone[i], 0, 1, 2);
		ck_assert_uint_eq(prog_cmpi_gen.total(g.st), 0);
		ck_assert_int_eq(prog_cmpi_gen.next(g.st, 0, &op), 0);
		ck_assert_int_eq(prog_cmpi_gen.next(g.st, 1, &op), 0);
		cfx_gen_close(&g);
	}
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
	cfx_gen_open(&g, big, 0, 1024, 1);   /* 2^20 slots x 32 GiB = 2^55: fits */
	cfx_gen_close(&g);
}
END_TEST

Suite *cmpi_suite(void)
{
	Suite *s = suite_create("cmpi");
	TCase *ops = tcase_create("operations");
	TCase *layout = tcase_create("layout");
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
	tcase_add_test(ops, test_cmpi_ckpt_resumes);
	suite_add_tcase(s, ops);
	tcase_add_test(layout, test_cmpi_alltoall_schedule);
	tcase_add_test(layout, test_cmpi_lone_host_idles);
	suite_add_tcase(s, layout);
	tcase_add_test(cfgs, test_cmpi_config_errors);
	tcase_add_test(cfgs, test_cmpi_layout_overflow);
	suite_add_tcase(s, cfgs);
	return s;
}
