/*
 * test/bench/trace_bench.c - decode throughput of the .cxt reader, and the
 * encode side for reference.
 *
 * Without arguments: writes synthetic traces (trc_gen: stream, random over
 * 64 MiB, hotcold over 1 GiB; 70% reads; one record per ns) of --records
 * records each to a temporary directory, then times reading each back with
 * trc_reader_next (one call per record: the requester's way) and with
 * trc_reader_read (batches of 256).  With FILE.cxt arguments: times those
 * instead (each pass re-opens the file; a pass is repeated until it has
 * read at least 2 M records, so small traces are measured over several).
 *
 * Each measurement is repeated --reps times (default 5) and the median is
 * printed with the min and max, in records per second of wall time on one
 * core, file reads from the page cache included, and the median per second
 * of the process's CPU time (the one-core figure on a busy machine).  Correctness first: every
 * pass must return the header's record count without error, and the
 * synthetic traces must decode to exactly what was generated (checked once,
 * untimed).  Target (traces/README.md): >= 20 M records/s.
 *
 * Usage: trace_bench [--records N] [--reps R] [FILE.cxt ...]
 * Built by the Makefile as build/<variant>/bench/trace_bench.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "traces/trc.h"
#include "traces/trc_ops.h"

#define BATCH 256
#define MIN_PASS_RECORDS 2000000

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void die(const cxl_err *err)
{
	fprintf(stderr, "trace_bench: %s\n", err->msg);
	exit(1);
}

/* Read @path once; returns the records read (the header's count, or exit). */
static uint64_t pass(const char *path, int batch, uint64_t *sink)
{
	static trc_rec buf[BATCH];
	cxl_err err = { 0 };
	trc_reader *r;
	trc_rec rec;
	uint64_t n = 0;
	long k;
	int rc;

	if (trc_reader_open(&r, path, &err))
		die(&err);
	if (batch) {
		while ((k = trc_reader_read(r, buf, BATCH, &err)) > 0) {
			n += (uint64_t)k;
			*sink += buf[k - 1].addr;
		}
		rc = (int)k;
	} else {
		while ((rc = trc_reader_next(r, &rec, &err)) > 0) {
			n++;
			*sink += rec.addr;
		}
	}
	if (rc < 0 || n != trc_reader_count(r))
		die(&err);
	trc_reader_close(r);
	return n;
}

/*
 * Median, min and max records/s over @reps timed runs, per wall second and
 * per CPU second of this process: on a shared machine the second is what
 * one core does while it runs the decoder.
 */
static void measure(const char *label, const char *path, int batch, int reps)
{
	double *rate = calloc((size_t)reps, sizeof(*rate));
	double *cpu = calloc((size_t)reps, sizeof(*cpu));
	uint64_t sink = 0;

	pass(path, batch, &sink); /* warm the page cache */
	for (int i = 0; i < reps; i++) {
		uint64_t n = 0;
		double t0 = now(), c0 = cpu_now();
		while (n < MIN_PASS_RECORDS)
			n += pass(path, batch, &sink);
		rate[i] = (double)n / (now() - t0);
		cpu[i] = (double)n / (cpu_now() - c0);
	}
	qsort(rate, (size_t)reps, sizeof(*rate), cmp_double);
	qsort(cpu, (size_t)reps, sizeof(*cpu), cmp_double);
	printf("%-28s %-6s %8.2f M records/s wall (min %.2f, max %.2f), %.2f M per CPU-s\n",
	       label, batch ? "batch" : "next", rate[reps / 2] / 1e6, rate[0] / 1e6,
	       rate[reps - 1] / 1e6, cpu[reps / 2] / 1e6);
	free(rate);
	free(cpu);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

/* Write a synthetic trace; check it decodes to what was generated. */
static void make_trace(const char *path, const trc_gen_opts *o)
{
	cxl_err err = { 0 };
	trc_reader *r;
	trc_gen g;
	trc_rec a, b;
	double t0 = now();

	if (trc_gen_write(path, o, 0, &err))
		die(&err);
	double enc = now() - t0;
	if (trc_gen_init(&g, o, &err) || trc_reader_open(&r, path, &err))
		die(&err);
	for (uint64_t i = 0; i < o->records; i++) {
		trc_gen_next(&g, &a);
		if (trc_reader_next(r, &b, &err) != 1 || memcmp(&a, &b, sizeof(a))) {
			fprintf(stderr, "trace_bench: %s: record %" PRIu64 " differs\n", path, i);
			exit(1);
		}
	}
	if (trc_reader_next(r, &b, &err) != 0)
		die(&err);
	trc_reader_close(r);
	printf("%-28s encode %10.2f M records/s, %.3f bytes/record\n", strrchr(path, '/') + 1,
	       (double)o->records / enc / 1e6,
	       (double)file_size(path) / (double)o->records);
}

static void synthetic(uint64_t records, int reps)
{
	static const struct { const char *name; int pattern; uint64_t footprint; } set[] = {
		{ "stream.cxt", TRC_GEN_STREAM, 1 << 20 },
		{ "random.cxt", TRC_GEN_RANDOM, 64ull << 20 },
		{ "hotcold.cxt", TRC_GEN_HOTCOLD, 1ull << 30 },
	};
	char dir[] = "/tmp/trace-bench-XXXXXX", path[3][64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	for (int i = 0; i < 3; i++) {
		trc_gen_opts o;
		trc_gen_defaults(&o);
		o.pattern = set[i].pattern;
		o.footprint = set[i].footprint;
		o.records = records;
		o.read_ratio = 0.7;
		o.interval_ps = 1000;
		snprintf(path[i], sizeof(path[i]), "%s/%s", dir, set[i].name);
		make_trace(path[i], &o);
	}
	for (int i = 0; i < 3; i++) {
		measure(set[i].name, path[i], 0, reps);
		measure(set[i].name, path[i], 1, reps);
		unlink(path[i]);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	uint64_t records = 2000000;
	int reps = 5, i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "--records"))
			records = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--reps"))
			reps = atoi(argv[i + 1]);
		else
			break;
	}
	if (i < argc && !strncmp(argv[i], "--", 2)) {
		fprintf(stderr, "usage: trace_bench [--records N] [--reps R] [FILE.cxt ...]\n");
		return 2;
	}
	if (reps < 1 || !records) {
		fprintf(stderr, "trace_bench: --reps and --records must be positive\n");
		return 2;
	}
	if (i == argc)
		synthetic(records, reps);
	for (; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');
		measure(base ? base + 1 : argv[i], argv[i], 0, reps);
	}
	return 0;
}
