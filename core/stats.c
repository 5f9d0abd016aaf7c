/*
 * core/stats.c - counters, log-linear histograms, pack and merge (stats.h).
 *
 * Packed layout (native byte order; all ranks run the same binary):
 *   u64 ncomp
 *   per component: u32 id, u32 nentries
 *     per entry:   u16 namelen, name bytes, u8 kind,
 *                  counter: u64 value
 *                  hist:    u64 count, sum, min, max, u32 nnz,
 *                           nnz x (u32 bucket, u64 count), buckets
 *                           strictly ascending, counts > 0 adding up to
 *                           count (the directory and pages are not sent)
 */
#include "core/stats.h"

#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "core/xmalloc.h"

uint64_t stats_bucket_low(uint32_t i)
{
	if (i < STATS_SUB)
		return i;
	uint32_t e = i / STATS_SUB + STATS_SUB_BITS - 1;
	uint64_t sub = i % STATS_SUB;
	return (1ULL << e) + (sub << (e - STATS_SUB_BITS));
}

uint64_t stats_bucket_high(uint32_t i)
{
	if (i < STATS_SUB)
		return i;
	uint32_t e = i / STATS_SUB + STATS_SUB_BITS - 1;
	return stats_bucket_low(i) + (1ULL << (e - STATS_SUB_BITS)) - 1;
}

void stats_hist_init(stats_hist *h)
{
	*h = (stats_hist){ .min = UINT64_MAX };
}

void stats_hist_free(stats_hist *h)
{
	for (uint32_t k = 0; k < h->npages; k++)
		free(h->page[k]);
	free(h->page);
	stats_hist_init(h);
}

/* Counters of page number @pg, or NULL if it was never touched. */
static const uint64_t *page_of(const stats_hist *h, uint32_t pg)
{
	uint32_t k = pg - h->base;

	return k < h->npages ? h->page[k] : NULL;
}

/* Widen the directory of @h to cover page number @pg, whole powers of two. */
static void directory_cover(stats_hist *h, uint32_t pg)
{
	uint32_t lo = pg & ~(STATS_PAGES_PER_POW2 - 1), hi = lo + STATS_PAGES_PER_POW2;

	if (h->npages) {
		lo = h->base < lo ? h->base : lo;
		hi = h->base + h->npages > hi ? h->base + h->npages : hi;
	}
	uint64_t **dir = xcalloc(hi - lo, sizeof(*dir));
	if (h->npages)
		memcpy(dir + (h->base - lo), h->page, h->npages * sizeof(*dir));
	free(h->page);
	h->page = dir;
	h->base = lo;
	h->npages = hi - lo;
}

/**
 * stats__hist_counter - the counter of bucket @i of @h, allocating its page
 * (and widening the directory) on first touch.  stats_hist_add()'s slow path;
 * also used by merge and unpack.  @i must be below STATS_NBUCKETS.
 */
uint64_t *stats__hist_counter(stats_hist *h, uint32_t i)
{
	uint32_t pg = i >> STATS_PAGE_BITS;

	if (pg - h->base >= h->npages)
		directory_cover(h, pg);
	uint64_t **slot = &h->page[pg - h->base];
	if (!*slot)
		*slot = xcalloc(STATS_PAGE, sizeof(**slot));
	return &(*slot)[i & (STATS_PAGE - 1)];
}

uint64_t stats_hist_at(const stats_hist *h, uint32_t i)
{
	const uint64_t *p = page_of(h, i >> STATS_PAGE_BITS);

	return p ? p[i & (STATS_PAGE - 1)] : 0;
}

uint32_t stats_hist_next(const stats_hist *h, uint32_t i)
{
	if (i < h->base * STATS_PAGE)
		i = h->base * STATS_PAGE;
	while (i < (h->base + h->npages) * STATS_PAGE) {
		const uint64_t *p = h->page[(i >> STATS_PAGE_BITS) - h->base];
		if (!p) {
			i = (i | (STATS_PAGE - 1)) + 1;
			continue;
		}
		if (p[i & (STATS_PAGE - 1)])
			return i;
		i++;
	}
	return STATS_NBUCKETS;
}

uint32_t stats_hist_pages(const stats_hist *h)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < h->npages; k++)
		n += h->page[k] != NULL;
	return n;
}

void stats_hist_merge(stats_hist *dst, const stats_hist *src)
{
	if (!src->count)
		return;
	for (uint32_t k = 0; k < src->npages; k++) {
		const uint64_t *s = src->page[k];
		if (!s)
			continue;
		uint64_t *d = stats__hist_counter(dst, (src->base + k) << STATS_PAGE_BITS);
		for (uint32_t j = 0; j < STATS_PAGE; j++)
			d[j] += s[j];
	}
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Midpoint of bucket @i, clamped to the exact [min, max] of @h. */
static uint64_t bucket_mid(const stats_hist *h, uint32_t i)
{
	uint64_t lo = stats_bucket_low(i), hi = stats_bucket_high(i);
	uint64_t mid = lo + (hi - lo) / 2;

	return mid < h->min ? h->min : mid > h->max ? h->max : mid;
}

uint64_t stats_hist_quantile(const stats_hist *h, double q)
{
	if (!h->count)
		return 0;
	uint64_t rank = (uint64_t)(q * (double)(h->count - 1)), seen = 0;
	for (uint32_t k = 0; k < h->npages; k++) {
		const uint64_t *p = h->page[k];
		for (uint32_t j = 0; p && j < STATS_PAGE; j++) {
			seen += p[j];
			if (seen > rank)
				return bucket_mid(h, ((h->base + k) << STATS_PAGE_BITS) + j);
		}
	}
	return h->max;
}

double stats_hist_mean(const stats_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

void stats_set_init(stats_set *s)
{
	*s = (stats_set){ 0 };
}

void stats_set_free(stats_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		stats_comp *c = &s->c[i];
		for (size_t j = 0; j < c->n; j++) {
			if (c->e[j]->kind == STATS_HIST)
				stats_hist_free(&c->e[j]->h);
			if (s->owns_names)
				free(c->e[j]->name);
		}
		free(c->e);
		free(c->index);
	}
	carve_free(&s->entries);
	carve_free(&s->values);
	free(s->c);
	stats_set_init(s);
}

size_t stats_comp_add(stats_set *s, uint32_t id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->c = xrealloc(s->c, s->cap * sizeof(*s->c));
	}
	s->c[s->n] = (stats_comp){ .id = id };
	return s->n++;
}

static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

/* Entry @name of @c, or NULL: a scan below STATS_INDEX_MIN entries, else the index. */
static stats_entry *lookup(const stats_comp *c, const char *name)
{
	if (!c->index) {
		for (size_t j = 0; j < c->n; j++)
			if (!strcmp(c->e[j]->name, name))
				return c->e[j];
		return NULL;
	}
	for (uint32_t i = name_hash(name) & c->index_mask; c->index[i];
	     i = (i + 1) & c->index_mask)
		if (!strcmp(c->e[c->index[i] - 1]->name, name))
			return c->e[c->index[i] - 1];
	return NULL;
}

/* Put entry @j of @c into its index (which has a free slot). */
static void index_put(stats_comp *c, size_t j)
{
	uint32_t i = name_hash(c->e[j]->name) & c->index_mask;

	while (c->index[i])
		i = (i + 1) & c->index_mask;
	c->index[i] = (uint32_t)j + 1;
}

/* Index the newest entry of @c, (re)building the index at most half full. */
static void index_add(stats_comp *c)
{
	if (c->n < STATS_INDEX_MIN)
		return;
	if (c->index && 2 * c->n <= (size_t)c->index_mask + 1) {
		index_put(c, c->n - 1);
		return;
	}
	size_t slots = 64;
	while (slots < 4 * c->n)
		slots *= 2;
	free(c->index);
	c->index = xcalloc(slots, sizeof(*c->index));
	c->index_mask = (uint32_t)(slots - 1);
	for (size_t j = 0; j < c->n; j++)
		index_put(c, j);
}

/* entry_add - a new entry; a counter's value at @where, or (NULL) in the dense storage. */
static stats_entry *entry_add(stats_set *s, size_t ci, const char *name,
			      enum stats_kind kind, uint64_t *where)
{
	stats_comp *c = &s->c[ci];

	if (lookup(c, name))
		CXL_PANIC("component %u registers stat \"%s\" twice", c->id, name);
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->e = xrealloc(c->e, c->cap * sizeof(*c->e));
	}
	stats_entry *e = carve_take(&s->entries, STATS_CHUNK, sizeof(*e));
	e->name = s->owns_names ? xstrdup(name) : (char *)(uintptr_t)name;
	e->kind = kind;
	stats_hist_init(&e->h);
	if (kind == STATS_COUNTER)
		e->value = where ? where : carve_take(&s->values, STATS_CHUNK, sizeof(uint64_t));
	c->e[c->n++] = e;
	index_add(c);
	return e;
}

uint64_t *stats_counter(stats_set *s, size_t ci, const char *name)
{
	return entry_add(s, ci, name, STATS_COUNTER, NULL)->value;
}

void stats_counter_at(stats_set *s, size_t ci, const char *name, uint64_t *where)
{
	entry_add(s, ci, name, STATS_COUNTER, where);
}

stats_hist *stats_histogram(stats_set *s, size_t ci, const char *name)
{
	return &entry_add(s, ci, name, STATS_HIST, NULL)->h;
}

/* --- packing ------------------------------------------------------------ */

/**
 * stats_hist_pack - append @h to @w: u64 count, sum, min, max, u32 nnz, then
 * nnz x (u32 bucket, u64 count) for the non-zero buckets in index order.
 */
void stats_hist_pack(pack_w *w, const stats_hist *h)
{
	uint32_t nnz = 0;

	PACK_PUT(w, h->count);
	PACK_PUT(w, h->sum);
	PACK_PUT(w, h->min);
	PACK_PUT(w, h->max);
	for (uint32_t i = stats_hist_next(h, 0); i < STATS_NBUCKETS; i = stats_hist_next(h, i + 1))
		nnz++;
	PACK_PUT(w, nnz);
	for (uint32_t i = stats_hist_next(h, 0); i < STATS_NBUCKETS; i = stats_hist_next(h, i + 1)) {
		PACK_PUT(w, i);
		PACK_PUT(w, stats_hist_at(h, i));
	}
}

void *stats_pack(const stats_set *s, size_t *len)
{
	pack_w w = { 0 };

	PACK_PUT(&w, (uint64_t)s->n);
	for (size_t i = 0; i < s->n; i++) {
		const stats_comp *c = &s->c[i];
		PACK_PUT(&w, c->id);
		PACK_PUT(&w, (uint32_t)c->n);
		for (size_t j = 0; j < c->n; j++) {
			const stats_entry *e = c->e[j];
			pack_put_name(&w, e->name);
			PACK_PUT(&w, (uint8_t)e->kind);
			if (e->kind == STATS_COUNTER)
				PACK_PUT(&w, *e->value);
			else
				stats_hist_pack(&w, &e->h);
		}
	}
	*len = w.n;
	return w.p;
}

/**
 * stats_hist_unpack - read a histogram stats_hist_pack() wrote into @h (an
 * initialised, empty histogram); sets r->bad on an overrun or bad content.
 */
void stats_hist_unpack(pack_r *r, stats_hist *h)
{
	uint32_t nnz, idx;
	uint64_t cnt, total = 0, next = 0; /* next: smallest index allowed */

	pack_get(r, &h->count, 8);
	pack_get(r, &h->sum, 8);
	pack_get(r, &h->min, 8);
	pack_get(r, &h->max, 8);
	pack_get(r, &nnz, 4);
	for (uint32_t k = 0; k < nnz && !r->bad; k++) {
		pack_get(r, &idx, 4);
		pack_get(r, &cnt, 8);
		if (r->bad || idx < next || idx >= STATS_NBUCKETS || !cnt) {
			r->bad = 1;
			return;
		}
		*stats__hist_counter(h, idx) = cnt;
		next = (uint64_t)idx + 1;
		total += cnt;
	}
	if (total != h->count)
		r->bad = 1;
}

static void unpack_comp(stats_set *t, pack_r *r)
{
	uint32_t id, ne;

	pack_get(r, &id, 4);
	pack_get(r, &ne, 4);
	if (r->bad)
		return;
	size_t ci = stats_comp_add(t, id);
	for (uint32_t j = 0; j < ne && !r->bad; j++) {
		uint8_t kind;
		char name[PACK_NAME_MAX];
		pack_get_name(r, name);
		pack_get(r, &kind, 1);
		if (r->bad || (kind != STATS_COUNTER && kind != STATS_HIST) ||
		    stats_get(&t->c[ci], name)) {
			r->bad = 1;
			return;
		}
		stats_entry *e = entry_add(t, ci, name, (enum stats_kind)kind, NULL);
		if (kind == STATS_COUNTER)
			pack_get(r, e->value, 8);
		else
			stats_hist_unpack(r, &e->h);
	}
}

int stats_table_add(stats_set *t, const void *buf, size_t len, cxl_err *err)
{
	pack_r r = { buf, len, 0, 0 };
	uint64_t n;

	t->owns_names = 1;
	pack_get(&r, &n, 8);
	for (uint64_t i = 0; i < n && !r.bad; i++)
		unpack_comp(t, &r);
	if (r.bad || r.off != len)
		return cxl_err_set(err, CXL_EINTERNAL, "malformed statistics buffer (%zu bytes)", len);
	return 0;
}

static int cmp_comp(const void *a, const void *b)
{
	uint32_t x = ((const stats_comp *)a)->id, y = ((const stats_comp *)b)->id;
	return (x > y) - (x < y);
}

int stats_table_sort(stats_set *t, cxl_err *err)
{
	if (t->n > 1)
		qsort(t->c, t->n, sizeof(*t->c), cmp_comp);
	for (size_t i = 1; i < t->n; i++)
		if (t->c[i].id == t->c[i - 1].id)
			return cxl_err_set(err, CXL_EINTERNAL,
					   "component %u has statistics from two ranks", t->c[i].id);
	return 0;
}

const stats_comp *stats_find(const stats_set *t, uint32_t id)
{
	const stats_comp key = { .id = id };

	return t->n ? bsearch(&key, t->c, t->n, sizeof(*t->c), cmp_comp) : NULL;
}

const stats_entry *stats_get(const stats_comp *c, const char *name)
{
	return lookup(c, name);
}
