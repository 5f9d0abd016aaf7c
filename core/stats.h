/*
 * core/stats.h - statistics: per-component counters and log-linear histograms,
 * packed per rank and merged on rank 0 in component-id order.
 *
 * Registration happens in a model's init: stats_counter() and stats_hist()
 * return stable pointers the model updates directly on its hot path (an
 * increment, or stats_hist_add()).  Names must be string literals (or live
 * as long as the registry) unless the set owns its names (owns_names: the
 * engine's registry copies them, so models may build names such as per-port
 * ones).  A component may not register one name twice.  Registration and
 * stats_get() are O(1) expected: a component's names are hashed once it has
 * STATS_INDEX_MIN entries.
 *
 * Histogram: log-linear (HdrHistogram style, 3 significant digits).  Values
 * below 2^STATS_SUB_BITS (1024) have a bucket each and are exact; the values
 * of each power of two [2^e, 2^(e+1)), e >= 10, share 1024 linear buckets of
 * width 2^(e-10).  A quantile is the midpoint (rounded down) of the bucket
 * holding the order statistic x of rank floor(q * (count - 1)), clamped to
 * [min, max]; it differs from x by at most half a bucket width, 2^(e-11),
 * and x >= 2^e, so |quantile - x| <= x / 2048 (and == x below 1024).
 * Count, sum, min and max are exact.
 *
 * Storage is sparse: buckets live in pages of STATS_PAGE (128) counters, one
 * eighth of a power of two (1 KiB), allocated on the first value that falls
 * in them, behind a directory of page pointers that covers only the powers
 * of two touched so far (64 bytes per power of two).  A histogram whose
 * values span 630..730 ns holds 2-3 pages; an empty one holds nothing.
 * stats_hist_add() is O(1) and allocates only when it touches a new page.
 * Pages of a whole power of two (8 KiB) were measured and rejected: on
 * configs/rack-4096.cfg (2048 requesters, 6144 live histograms, kept twice
 * on rank 0: registry and merged table) the run's peak RSS was 195 MiB with
 * them, 108 MiB with 1 KiB pages, 128 MiB with the former dense array of
 * 32 buckets per power of two.
 *
 * Merge: stats_pack() serialises a rank's registry into bytes (only the
 * non-zero buckets); rank 0 feeds every rank's bytes to stats_table_add()
 * and reads a table sorted by component id.  The transport does the moving
 * (MPI stays out of this file); the bytes are written with core/pack.h, and
 * core/series.c packs its per-period histograms with stats_hist_pack().
 * The same components and values give the same table whatever the number
 * of ranks.
 */
#ifndef CXL_CORE_STATS_H
#define CXL_CORE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "core/carve.h"
#include "core/err.h"
#include "core/pack.h"

#define STATS_SUB_BITS 10                /* log2 of linear buckets per power of two */
#define STATS_SUB (1u << STATS_SUB_BITS) /* 1024 */
/* Buckets in all: indices 0 .. stats_bucket(UINT64_MAX) = STATS_NBUCKETS - 1. */
#define STATS_NBUCKETS ((64u - STATS_SUB_BITS + 1u) * STATS_SUB)
#define STATS_PAGE_BITS 7                  /* log2 of counters per page */
#define STATS_PAGE (1u << STATS_PAGE_BITS) /* 128 counters, 1 KiB */
#define STATS_PAGES_PER_POW2 (STATS_SUB / STATS_PAGE) /* 8: the directory's growth unit */

/*
 * Bucket i is counter i % STATS_PAGE of page i / STATS_PAGE; the directory
 * holds pages base .. base + npages - 1 (NULL: not touched), and base and
 * npages are multiples of STATS_PAGES_PER_POW2.  Read the buckets through
 * stats_hist_at() / stats_hist_next(), never through the pages.
 */
typedef struct stats_hist stats_hist;
struct stats_hist {
	uint64_t count;   /* values added */
	uint64_t sum;     /* sum of values (wraps only beyond 2^64) */
	uint64_t min;     /* smallest value, UINT64_MAX if empty */
	uint64_t max;     /* largest value, 0 if empty */
	uint64_t **page;  /* directory: page[k] holds the counters of page base + k */
	uint32_t base;    /* page number of page[0] */
	uint32_t npages;  /* directory entries (0: nothing allocated) */
};

enum stats_kind { STATS_COUNTER = 1, STATS_HIST = 2 };

typedef struct stats_entry stats_entry;
struct stats_entry {
	char *name;         /* owned copy (table) or borrowed literal (registry) */
	enum stats_kind kind;
	uint64_t *value;    /* STATS_COUNTER: its value, in the set's dense value storage */
	stats_hist h;       /* STATS_HIST */
};

typedef struct stats_comp stats_comp;
struct stats_comp {
	uint32_t id;          /* global component id */
	size_t n;             /* entries */
	size_t cap;           /* capacity of e */
	stats_entry **e;      /* entries in registration order (pointers stable) */
	uint32_t *index;      /* open-addressing hash of the names: slot = entry + 1, 0 free;
				 NULL below STATS_INDEX_MIN entries (a scan is as fast) */
	uint32_t index_mask;  /* slots of index - 1 (a power of two, at most half full) */
};

/* Entries of a component from which its names are hashed (a switch of 2048
 * ports has 6144: scanning them made registration quadratic in the radix). */
#define STATS_INDEX_MIN 16

/* A rank's registry, or rank 0's merged table: the same structure. */
typedef struct stats_set stats_set;
struct stats_set {
	stats_comp *c;  /* components, in the order added (table: sorted by id) */
	size_t n;       /* components */
	size_t cap;     /* capacity of c */
	int owns_names; /* 1: names are copied (merged tables, the engine's registry) */
	carve entries;   /* entry storage, STATS_CHUNK to a chunk (core/carve.h) */
	carve values;    /* counter values, STATS_CHUNK to a chunk */
};

/*
 * Entries and counter values are carved from chunks in registration order,
 * the values apart from the entries (8 bytes each, not an entry's 72), so
 * one component's counters are adjacent in memory: a bus updates four per
 * packet, which took four cache lines as entries and take one as values
 * (rack-4096: those four were 6 % of the loop's L1 misses).
 */
#define STATS_CHUNK 512

/* stats_bucket - bucket index of value @v. */
static inline uint32_t stats_bucket(uint64_t v)
{
	if (v < STATS_SUB)
		return (uint32_t)v;
	uint32_t e = 63u - (uint32_t)__builtin_clzll(v);
	return (e - STATS_SUB_BITS + 1) * STATS_SUB +
	       (uint32_t)((v >> (e - STATS_SUB_BITS)) & (STATS_SUB - 1));
}

/* stats_bucket_low - smallest value that falls in bucket @i. */
uint64_t stats_bucket_low(uint32_t i);
/* stats_bucket_high - largest value that falls in bucket @i. */
uint64_t stats_bucket_high(uint32_t i);

uint64_t *stats__hist_counter(stats_hist *h, uint32_t i);

/* stats_hist_add - record @v once; allocates only on a page's first value. */
static inline void stats_hist_add(stats_hist *h, uint64_t v)
{
	uint32_t i = stats_bucket(v);
	uint32_t k = (i >> STATS_PAGE_BITS) - h->base; /* wraps below base */
	uint64_t *p = k < h->npages ? h->page[k] : NULL;

	if (p)
		p[i & (STATS_PAGE - 1)]++;
	else
		++*stats__hist_counter(h, i);
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void stats_hist_init(stats_hist *h);
/* stats_hist_free - release the pages and directory; @h is empty after. */
void stats_hist_free(stats_hist *h);
/* stats_hist_at - values recorded in bucket @i (0 if its page is absent). */
uint64_t stats_hist_at(const stats_hist *h, uint32_t i);
/* stats_hist_next - first bucket >= @i holding values, or STATS_NBUCKETS. */
uint32_t stats_hist_next(const stats_hist *h, uint32_t i);
/* stats_hist_pages - pages allocated (memory: pages * STATS_PAGE * 8 bytes). */
uint32_t stats_hist_pages(const stats_hist *h);
/* stats_hist_merge - add every value of @src to @dst. */
void stats_hist_merge(stats_hist *dst, const stats_hist *src);
/* stats_hist_quantile - value at quantile @q in [0,1] (error bound above); 0 if empty. */
uint64_t stats_hist_quantile(const stats_hist *h, double q);
/* stats_hist_mean - exact mean as a double; 0 if empty. */
double stats_hist_mean(const stats_hist *h);

void stats_set_init(stats_set *s);
void stats_set_free(stats_set *s);

/* stats_comp_add - start the entries of component @id; returns its index. */
size_t stats_comp_add(stats_set *s, uint32_t id);
/* stats_counter - register a counter of component index @ci. */
uint64_t *stats_counter(stats_set *s, size_t ci, const char *name);
/*
 * stats_counter_at - register a counter of component index @ci whose value
 * lives at @where (zeroed, in the caller's memory, alive until the set is
 * freed): a model keeps a hot counter beside the state it updates with it.
 */
void stats_counter_at(stats_set *s, size_t ci, const char *name, uint64_t *where);
/* stats_histogram - register a histogram of component index @ci. */
stats_hist *stats_histogram(stats_set *s, size_t ci, const char *name);

/* stats_hist_pack - append @h to @w (layout in stats.c). */
void stats_hist_pack(pack_w *w, const stats_hist *h);
/* stats_hist_unpack - read one histogram into the empty @h; r->bad on bad bytes. */
void stats_hist_unpack(pack_r *r, stats_hist *h);

/* stats_pack - serialise @s; returns a malloc'd buffer of *@len bytes. */
void *stats_pack(const stats_set *s, size_t *len);
/**
 * stats_table_add - merge packed bytes of one rank into table @t.
 * Return 0, or CXL_EINTERNAL if the bytes are malformed (truncated, trailing
 * bytes, a bad kind; in a histogram, bucket indices not strictly ascending
 * or beyond the last bucket, a zero bucket count, or bucket counts that do
 * not add up to the count) or a component holds one name twice.  Call
 * stats_table_sort() after the last add.
 */
int stats_table_add(stats_set *t, const void *buf, size_t len, cxl_err *err);
/**
 * stats_table_sort - order the table by component id.
 * Return 0, or CXL_EINTERNAL if a component id came from two buffers.
 */
int stats_table_sort(stats_set *t, cxl_err *err);

/* stats_find - component with id @id in a sorted table, or NULL. */
const stats_comp *stats_find(const stats_set *t, uint32_t id);
/* stats_get - entry @name of @c, or NULL; O(1) expected. */
const stats_entry *stats_get(const stats_comp *c, const char *name);

#endif
