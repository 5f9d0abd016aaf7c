/*
 * test/models/host/test_cmpi_world.c - the cMPI generator with every process
 * of every host together (one host at a time: test_cmpi.c):
 *   - flag alignment, disjoint regions of pairs;
 *   - a small executor that runs every process of every host with flag
 *     semantics (wait_flag blocks until the value is reached) in a random
 *     interleaving: each benchmark finishes (no deadlock), every cell is
 *     read exactly once after each write, marks balance, serial numbers
 *     survive the 2^16 wrap, total() counts the operations;
 *   - processes of one host are independent;
 *   - O(1) memory: a 1024-host alltoall initialises with the memory of a
 *     2-host one and allocates nothing while producing operations.
 */
#include "test/models/host/cmpi_fixture.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/proto/flagmap.h"

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
		cfx_gen_open(&w->g[h], sets, h, nhosts, procs);
}

static void world_close(world *w)
{
	for (uint32_t h = 0; h < w->nhosts; h++)
		cfx_gen_close(&w->g[h]);
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

			cfx_gen_open(&g, sets, h, hosts[hi], 2);
			for (uint32_t p = 0; p < 2; p++)
				while (prog_cmpi_gen.next(g.st, p, &o))
					n++;
			CHECK(prog_cmpi_gen.total(g.st) == n, "%s %s %s %s %s, host %u of %u: total "
			      "%llu, produced %llu", set[0], set[1], set[2], set[3], sets[k - 1], h,
			      hosts[hi], (unsigned long long)prog_cmpi_gen.total(g.st),
			      (unsigned long long)n);
			cfx_gen_close(&g);
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

	cfx_gen_open(&a, sets, 2, 4, 3);
	cfx_gen_open(&b, sets, 2, 4, 3);
	ck_assert_int_eq(prog_cmpi_gen.next(a.st, 2, &x), 0);  /* beyond procs */
	do {
		more = prog_cmpi_gen.next(a.st, 1, &x);
		prog_cmpi_gen.next(b.st, 0, &y);   /* b interleaves process 0 */
		ck_assert_int_eq(prog_cmpi_gen.next(b.st, 1, &y), more);
		if (more)
			ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
	} while (more);
	cfx_gen_close(&a);
	cfx_gen_close(&b);
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

	ck_assert_int_eq(cfx_load(&g.cf, sets, &(cxl_err){ 0 }), 0);
	cfg_free(g.cf);
	h0 = heap_used();
	cfx_gen_open(&g, sets, 0, 2, 32);
	small = heap_used() - h0;
	cfx_gen_close(&g);
	h0 = heap_used();
	cfx_gen_open(&g, sets, 777, 1024, 32);
	big = heap_used() - h0;
	/* equal but for malloc's slack: a chunk it reuses whole may be up to 32 B larger than
	   asked, and which chunks are free depends on the runner's heap when it forked this
	   test; storage per host would differ by 1022 x its size */
	ck_assert_uint_le(big, small + 64);
	ck_assert_uint_le(small, big + 64);
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
	cfx_gen_close(&g);
}
END_TEST

Suite *cmpi_world_suite(void)
{
	Suite *s = suite_create("cmpi_world");
	TCase *layout = tcase_create("layout");
	TCase *run = tcase_create("protocol");

	tcase_add_test(layout, test_cmpi_layout_alignment_and_disjoint);
	tcase_add_test(layout, test_cmpi_constant_memory);
	tcase_add_test(layout, test_cmpi_procs_independent);
	tcase_set_timeout(layout, 60);
	suite_add_tcase(s, layout);
	tcase_add_test(run, test_cmpi_protocol_completes);
	tcase_add_test(run, test_cmpi_serial_wrap);
	tcase_add_test(run, test_cmpi_total_counts_ops);
	tcase_set_timeout(run, 120);
	suite_add_tcase(s, run);
	return s;
}
