/*
 * test/bench/sf_bench.c - cost of the snoop filter's miss path (models/coherence/sf.h).
 *
 * One "op" is the DCOH's handling of a coherent request: sf_find; on a hit
 * sf_touch; on a miss, when the set is full, sf_victims + sf_remove of each
 * victim, then sf_insert.  Reported: ns per miss (insert plus its share of
 * evictions: total time / misses, so hits are charged to misses too, which
 * overstates the miss cost by the hit fraction's small cost) and the hit
 * rate, per policy and invblk_max, for a 64K-entry fully associative filter
 * (the paper's organisation) and, for comparison, 8-way set associative.
 *
 * Workloads (lines drawn before timing with splitmix64, fixed seed):
 *   random  lines uniform over 8 x entries (hit rate ~1/8);
 *   stream  4 requesters, each reading sequential lines and jumping to a
 *           random place every 256 lines, interleaved round-robin (the
 *           InvBlk experiment's pattern).
 * The filter is first filled, then runs `warm` untimed ops (200000, or
 * `budget` seconds if sooner); then ops are timed in chunks of 4096 until
 * `ops` are done or `budget` seconds pass (a guard: an earlier InvBlk
 * that scanned the set per eviction took 0.6-2.7 ms per miss here).
 * Each configuration runs `reps` times; the median ns per miss is printed.
 * sf_check() runs after every repetition (untimed); a checksum of the
 * victims' lines is printed so runs can be compared for determinism.
 *
 * Usage: sf_bench [--entries N] [--ops N] [--reps R] [--budget S] [--quick]
 * (defaults 65536, 2000000, 3, 1.0).  Built by the Makefile as
 * build/<variant>/bench/sf_bench.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "core/xmalloc.h"
#include "models/coherence/sf.h"

#define SEED 0x5fbe7c4ull
#define CHUNK 4096
#define MAX_REPS 15
#define NSTREAMS 4
#define STREAM_RUN 256

static const char *const policy_name[SF_NPOLICY] = {
	[SF_FIFO] = "FIFO", [SF_LRU] = "LRU", [SF_LFI] = "LFI", [SF_LIFO] = "LIFO", [SF_MRU] = "MRU",
};

typedef struct bench_cfg bench_cfg;
struct bench_cfg {
	uint32_t entries;   /* filter entries */
	uint64_t ops;       /* timed ops per repetition (at most) */
	uint64_t warm;      /* untimed ops after the fill */
	int reps;           /* repetitions per configuration */
	double budget;      /* seconds per repetition at most */
};

typedef struct result result;
struct result {
	double ns_per_miss;   /* timed ns / misses */
	double hit_rate;      /* hits / ops */
	uint64_t ops;         /* ops timed */
	uint64_t sum;         /* checksum of victim lines */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* @n lines of workload @stream (0 random, 1 stream) for a filter of @entries. */
static uint64_t *make_lines(int stream, uint32_t entries, uint64_t n)
{
	uint64_t *l = xmalloc(n * sizeof(*l));
	uint64_t range = 8 * (uint64_t)entries, pos[NSTREAMS] = { 0 };
	uint64_t ctr = SEED;

	for (uint64_t i = 0; i < n; i++) {
		if (!stream) {
			l[i] = rng_mix64(ctr++) % range;
			continue;
		}
		uint64_t s = i % NSTREAMS;
		if (pos[s] % STREAM_RUN == 0)
			pos[s] = rng_mix64(ctr++) % (range / STREAM_RUN) * STREAM_RUN;
		l[i] = pos[s]++;
	}
	return l;
}

/* One op; returns 1 on a miss.  Victim lines are added to *sum. */
static int op(sf *s, uint64_t line, uint64_t *sum)
{
	uint32_t e = sf_find(s, line), v[SF_BLOCK];

	if (e != SF_NONE) {
		sf_touch(s, e);
		return 0;
	}
	if (!sf_set_free(s, line)) {
		uint32_t n = sf_victims(s, line, v);

		for (uint32_t i = 0; i < n; i++) {
			*sum += sf_entry_at(s, v[i])->line;
			sf_remove(s, v[i]);
		}
	}
	if (sf_insert(s, line) == SF_NONE) {
		fprintf(stderr, "sf_bench: no room after eviction (all locked?)\n");
		exit(1);
	}
	return 1;
}

static result run_once(const bench_cfg *c, const sf_params *p, const uint64_t *lines)
{
	sf *s = sf_create(p, NULL);
	result r = { 0 };
	uint64_t i = 0, misses = 0, fill_end = c->entries * 8ull;
	double t0 = now_s(), t;

	while (i < fill_end && sf_count(s) < c->entries)
		op(s, lines[i++], &r.sum);
	for (uint64_t w = 0; w < c->warm && now_s() - t0 < c->budget; w += CHUNK)
		for (int k = 0; k < CHUNK; k++)
			op(s, lines[i++], &r.sum);
	t0 = t = now_s();
	while (r.ops < c->ops && t - t0 < c->budget) {
		for (int k = 0; k < CHUNK; k++, i++)
			misses += (uint64_t)op(s, lines[i], &r.sum);
		r.ops += CHUNK;
		t = now_s();
	}
	r.ns_per_miss = (t - t0) * 1e9 / (double)(misses ? misses : 1);
	r.hit_rate = 1.0 - (double)misses / (double)r.ops;
	sf_check(s);
	sf_destroy(s);
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void run_config(const bench_cfg *c, const sf_params *p, const uint64_t *lines,
		       const char *wl)
{
	double ns[MAX_REPS];
	result r = { 0 };

	for (int k = 0; k < c->reps; k++) {
		r = run_once(c, p, lines);
		ns[k] = r.ns_per_miss;
	}
	qsort(ns, (size_t)c->reps, sizeof(ns[0]), cmp_double);
	printf("%-6s %6u %5u %-5s %6u %10.1f %7.3f %9" PRIu64 "  %016" PRIx64 "\n", wl,
	       p->entries, p->assoc, policy_name[p->policy], p->invblk_max, ns[c->reps / 2],
	       r.hit_rate, r.ops, r.sum);
}

static void parse(int argc, char **argv, bench_cfg *c)
{
	*c = (bench_cfg){ .entries = 65536, .ops = 2000000, .warm = 200000, .reps = 3,
			  .budget = 1.0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quick")) {
			c->ops = 200000, c->reps = 1, c->budget = 0.2;
			continue;
		}
		if (!v) {
			fprintf(stderr, "usage: sf_bench [--entries N] [--ops N] [--reps R] "
					"[--budget S] [--quick]\n");
			exit(2);
		}
		if (!strcmp(a, "--entries"))
			c->entries = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(a, "--ops"))
			c->ops = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--reps"))
			c->reps = atoi(v);
		else if (!strcmp(a, "--budget"))
			c->budget = strtod(v, NULL);
		i++;
	}
	if (c->reps < 1 || c->reps > MAX_REPS || c->entries < 8 || c->entries % 8) {
		fprintf(stderr, "sf_bench: reps 1..%d, entries a multiple of 8\n", MAX_REPS);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	bench_cfg c;
	static const uint32_t invblk[] = { 1, 2, 4 };
	const uint32_t assocs[] = { 0, 8 };

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse(argc, argv, &c);
	/* enough lines for fill + warm + every timed op */
	uint64_t n = c.entries * 8ull + c.warm + c.ops + 2 * CHUNK;

	printf("%-6s %6s %5s %-5s %6s %10s %7s %9s  %s\n", "load", "entries", "assoc", "pol",
	       "invblk", "ns/miss", "hits", "ops", "victim checksum");
	for (int wl = 0; wl < 2; wl++) {
		uint64_t *lines = make_lines(wl, c.entries, n);

		for (size_t a = 0; a < sizeof(assocs) / sizeof(assocs[0]); a++)
			for (size_t b = 0; b < sizeof(invblk) / sizeof(invblk[0]); b++)
				for (int pol = 0; pol < SF_NPOLICY; pol++) {
					const sf_params p = { .entries = c.entries, .assoc = assocs[a],
							      .policy = (enum sf_policy)pol,
							      .invblk_max = invblk[b] };

					if (invblk[b] > 1 && pol != SF_FIFO)
						continue;   /* the policy plays no part */
					run_config(&c, &p, lines, wl ? "stream" : "random");
				}
		free(lines);
	}
	return 0;
}
