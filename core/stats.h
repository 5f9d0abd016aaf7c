/*
 * core/stats.h - statistics: per-component counters and log-linear histograms,
 * packed per rank and merged on rank 0 in component-id order.
 *
 * Registration happens in a model's init: stats_counter() and stats_hist()
 * return stable pointers the model updates directly on its hot path (an
 * increment, or stats_hist_add()).  Names must be string literals (or live
 * as long as the registry) unless the set owns its names (owns_names: the
 * engine's registry copies them, so models may build names such as per-port
 * ones).  A component may not register one name twice.
 *
 * Histogram: log-linear (HDR style) with 2^STATS_SUB_BITS linear buckets per
 * power of two; values below 2^STATS_SUB_BITS are exact.  Quantiles are the
 * midpoint of the bucket holding the rank, clamped to [min, max], so their
 * relative error is at most 2^-(STATS_SUB_BITS+1) (1.6%).  Count, sum, min
 * and max are exact.  The bucket array grows to the largest value seen.
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

#include "core/err.h"
#include "core/pack.h"

#define STATS_SUB_BITS 5
#define STATS_SUB (1u << STATS_SUB_BITS)

typedef struct stats_hist stats_hist;
struct stats_hist {
	uint64_t count;  /* values added */
	uint64_t sum;    /* sum of values (wraps only beyond 2^64) */
	uint64_t min;    /* smallest value, UINT64_MAX if empty */
	uint64_t max;    /* largest value, 0 if empty */
	uint32_t nb;     /* buckets allocated */
	uint64_t *b;     /* bucket counts, index from stats_bucket() */
};

enum stats_kind { STATS_COUNTER = 1, STATS_HIST = 2 };

typedef struct stats_entry stats_entry;
struct stats_entry {
	char *name;         /* owned copy (table) or borrowed literal (registry) */
	enum stats_kind kind;
	uint64_t value;     /* STATS_COUNTER */
	stats_hist h;       /* STATS_HIST */
};

typedef struct stats_comp stats_comp;
struct stats_comp {
	uint32_t id;          /* global component id */
	size_t n;             /* entries */
	size_t cap;           /* capacity of e */
	stats_entry **e;      /* entries in registration order (pointers stable) */
};

/* A rank's registry, or rank 0's merged table: the same structure. */
typedef struct stats_set stats_set;
struct stats_set {
	stats_comp *c;  /* components, in the order added (table: sorted by id) */
	size_t n;       /* components */
	size_t cap;     /* capacity of c */
	int owns_names; /* 1: names are copied (merged tables, the engine's registry) */
	stats_entry **chunks; /* entry storage, STATS_CHUNK entries each */
	size_t nchunks;       /* chunks allocated */
	size_t chunk_used;    /* entries used in the last chunk */
};

/* Entries are carved from chunks in registration order, so one component's
 * counters are adjacent in memory (its hot path touches one cache line). */
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

void stats__hist_grow(stats_hist *h, uint32_t idx);

/* stats_hist_add - record @v once. */
static inline void stats_hist_add(stats_hist *h, uint64_t v)
{
	uint32_t i = stats_bucket(v);

	if (i >= h->nb)
		stats__hist_grow(h, i);
	h->b[i]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void stats_hist_init(stats_hist *h);
void stats_hist_free(stats_hist *h);
/* stats_hist_merge - add every value of @src to @dst. */
void stats_hist_merge(stats_hist *dst, const stats_hist *src);
/* stats_hist_quantile - value at quantile @q in [0,1]; 0 if empty. */
uint64_t stats_hist_quantile(const stats_hist *h, double q);
/* stats_hist_mean - exact mean as a double; 0 if empty. */
double stats_hist_mean(const stats_hist *h);

void stats_set_init(stats_set *s);
void stats_set_free(stats_set *s);

/* stats_comp_add - start the entries of component @id; returns its index. */
size_t stats_comp_add(stats_set *s, uint32_t id);
/* stats_counter - register a counter of component index @ci. */
uint64_t *stats_counter(stats_set *s, size_t ci, const char *name);
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
 * Return 0, or CXL_EINTERNAL if the bytes are malformed or a component
 * holds one name twice.  Call stats_table_sort() after the last add.
 */
int stats_table_add(stats_set *t, const void *buf, size_t len, cxl_err *err);
/**
 * stats_table_sort - order the table by component id.
 * Return 0, or CXL_EINTERNAL if a component id came from two buffers.
 */
int stats_table_sort(stats_set *t, cxl_err *err);

/* stats_find - component with id @id in a sorted table, or NULL. */
const stats_comp *stats_find(const stats_set *t, uint32_t id);
/* stats_get - entry @name of @c, or NULL. */
const stats_entry *stats_get(const stats_comp *c, const char *name);

#endif
