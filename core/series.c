/*
 * core/series.c - time series and per-period aggregate histograms, pack and
 * merge (series.h).
 *
 * Packed layout (native byte order; all ranks run the same binary; written
 * with core/pack.h):
 *   u64 period, u64 end, u64 ncomp
 *   per component: u32 id, u32 nseries
 *     per series:  u16 namelen, name bytes, u8 kind, u32 n, n x u64 cells
 *   u64 nhist
 *   per aggregate: u16 namelen, name bytes, u32 n,
 *                  n x histogram (stats_hist_pack(): count, sum, min, max,
 *                  nnz, nnz x (bucket, count))
 */
#include "core/series.h"

#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "core/xmalloc.h"

#define SERIES_CAP0 8 /* cells of a series' first allocation */

/* cell_at - cell @k of the array, which grows (doubling, zero-filled) to hold it. */
static uint64_t *cell_at(series *s, uint64_t k)
{
	if (k >= UINT32_MAX)
		CXL_PANIC("time series \"%s\": period %llu is beyond 2^32 periods", s->name,
			  (unsigned long long)k);
	if (k >= s->cap) {
		uint32_t cap = s->cap ? s->cap : SERIES_CAP0;
		while (cap <= k)
			cap = cap > UINT32_MAX / 2 ? UINT32_MAX : 2 * cap;
		s->v = xrealloc(s->v, (size_t)cap * sizeof(*s->v));
		memset(s->v + s->cap, 0, (size_t)(cap - s->cap) * sizeof(*s->v));
		s->cap = cap;
	}
	if (k >= s->n)
		s->n = (uint32_t)k + 1;
	return &s->v[k];
}

/* Store the current period's cell in the array (nothing to store: no growth). */
static void flush(series *s)
{
	if (s->acc)
		*cell_at(s, s->k) += s->acc;
	s->acc = 0;
}

/**
 * series__cell - the cell of time @t: in the current period acc; a later
 * time stores the current cell and makes t's period the current one; an
 * earlier one (a span that began before) is in the array.
 */
uint64_t *series__cell(series *s, sim_time t)
{
	uint64_t k = t / s->period;

	if (series__here(s, t))
		return &s->acc;
	if (t < s->lo)
		return cell_at(s, k);
	flush(s);
	if (k >= UINT32_MAX)
		CXL_PANIC("time series \"%s\": period %llu is beyond 2^32 periods", s->name,
			  (unsigned long long)k);
	s->k = (uint32_t)k;
	s->lo = k * s->period;
	return &s->acc;
}

/**
 * series__span - add @w per ps of [@t0, @t1) to the periods the interval
 * covers, each the part inside it (exact: integer ps); the period of its
 * last ps becomes the current one if it is later.
 */
void series__span(series *s, sim_time t0, sim_time t1, uint64_t w)
{
	if (t1 <= t0 || !w)
		return;
	if (t1 - 1 >= s->lo)
		series__cell(s, t1 - 1);
	for (uint64_t k = t0 / s->period, last = (t1 - 1) / s->period; k <= last; k++) {
		sim_time lo = k * s->period, hi = lo + s->period;
		lo = lo > t0 ? lo : t0;
		hi = hi < t1 ? hi : t1;
		*(k == s->k ? &s->acc : cell_at(s, k)) += (hi - lo) * w;
	}
}

/* hist_reserve - make the histograms of periods [0, @n) exist. */
static void hist_reserve(series_hist *h, uint64_t n)
{
	if (n > UINT32_MAX)
		CXL_PANIC("time series \"%s\": period %llu is beyond 2^32 periods", h->name,
			  (unsigned long long)n - 1);
	if (n > h->cap) {
		uint32_t cap = h->cap ? h->cap : SERIES_CAP0;
		while (cap < n)
			cap = cap > UINT32_MAX / 2 ? UINT32_MAX : 2 * cap;
		h->p = xrealloc(h->p, (size_t)cap * sizeof(*h->p));
		for (uint32_t i = h->cap; i < cap; i++)
			stats_hist_init(&h->p[i]);
		h->cap = cap;
		h->cur = &h->p[h->k];
	}
	if (n > h->n)
		h->n = (uint32_t)n;
}

/* series__hist_seek - make the period of time @t the current one. */
void series__hist_seek(series_hist *h, sim_time t)
{
	uint64_t k = t / h->period;

	hist_reserve(h, k + 1);
	h->k = (uint32_t)k;
	h->lo = k * h->period;
	h->cur = &h->p[k];
}

/* series_set_init - make @s an empty set sampling every @period ps (0: off). */
void series_set_init(series_set *s, sim_time period)
{
	*s = (series_set){ .period = period };
}

static void hist_free(series_hist *h)
{
	for (uint32_t i = 0; i < h->cap; i++)
		stats_hist_free(&h->p[i]);
	free(h->p);
	free(h->name);
	free(h);
}

/* series_set_free - release everything @s holds; it is empty and off after. */
void series_set_free(series_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		series_comp *c = &s->c[i];
		for (size_t j = 0; j < c->n; j++) {
			free(c->s[j]->v);
			free(c->s[j]->name);
		}
		free(c->s);
	}
	carve_free(&s->store);
	for (size_t i = 0; i < s->nh; i++)
		hist_free(s->h[i]);
	free(s->c);
	free(s->h);
	series_set_init(s, 0);
}

/* The entry of component @id: the last one, or a new one after it. */
static series_comp *comp_of(series_set *s, uint32_t id)
{
	if (s->n && s->c[s->n - 1].id == id)
		return &s->c[s->n - 1];
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->c = xrealloc(s->c, s->cap * sizeof(*s->c));
	}
	s->c[s->n] = (series_comp){ .id = id };
	return &s->c[s->n++];
}

static const series *find_name(const series_comp *c, const char *name)
{
	for (size_t j = 0; j < c->n; j++)
		if (!strcmp(c->s[j]->name, name))
			return c->s[j];
	return NULL;
}

/* A new series of @c, carved from the set's chunks (a component's lie together). */
static series *add_series(series_set *s, series_comp *c, const char *name, uint8_t kind)
{
	series *x = carve_take(&s->store, SERIES_CHUNK, sizeof(*x));

	x->name = xstrdup(name);
	x->kind = kind;
	x->period = s->period;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4;
		c->s = xrealloc(c->s, c->cap * sizeof(*c->s));
	}
	c->s[c->n++] = x;
	return x;
}

/**
 * series_new - register series @name of @kind for component @id; see
 * series.h.  Panics if @s is off, ids come out of order, or @name repeats.
 */
series *series_new(series_set *s, uint32_t id, const char *name, enum series_kind kind)
{
	CXL_ASSERT(s->period && kind >= SERIES_SUM && kind <= SERIES_TIME);
	if (s->n && s->c[s->n - 1].id > id)
		CXL_PANIC("component %u registers time series \"%s\" after component %u "
			  "(register them in init)", id, name, s->c[s->n - 1].id);
	series_comp *c = comp_of(s, id);
	if (find_name(c, name))
		CXL_PANIC("component %u registers time series \"%s\" twice", id, name);
	return add_series(s, c, name, (uint8_t)kind);
}

static series_hist *hist_lookup(const series_set *s, const char *name)
{
	for (size_t i = 0; i < s->nh; i++)
		if (!strcmp(s->h[i]->name, name))
			return s->h[i];
	return NULL;
}

/**
 * series_hist_get - the aggregate @name of @s (on), created with period 0
 * current on first use; the same pointer for every later call.
 */
series_hist *series_hist_get(series_set *s, const char *name)
{
	series_hist *h = hist_lookup(s, name);

	CXL_ASSERT(s->period);
	if (h)
		return h;
	if (s->nh == s->caph) {
		s->caph = s->caph ? 2 * s->caph : 4;
		s->h = xrealloc(s->h, s->caph * sizeof(*s->h));
	}
	h = xcalloc(1, sizeof(*h));
	h->name = xstrdup(name);
	h->period = s->period;
	hist_reserve(h, 1); /* period 0 is the current one */
	s->h[s->nh++] = h;
	return h;
}

/* series_count - series of every component of @s in *@nseries, aggregates in *@nhist. */
void series_count(const series_set *s, uint64_t *nseries, uint64_t *nhist)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->c[i].n;
	*nseries = n;
	*nhist = s->nh;
}

/* a x b, saturating. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* a + b, saturating. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* @v (>= 1) rounded up to two significant digits (102807 -> 110000). */
static uint64_t round_up2(uint64_t v)
{
	uint64_t unit = 1;

	if (v < 1)
		return 1;
	while (v / unit >= 100)
		unit *= 10;
	return (v / unit + (v % unit != 0)) * unit;
}

/**
 * series_cells - the estimate of series.h: ceil(@end / @period) periods x
 * (@nseries + @nhist x the buckets of one power of two, or of every value
 * below @end if fewer), saturating.
 * @period: > 0, ps; @end: simulation.end, ps; @min_period: OUT, may be NULL:
 * the shortest period within SERIES_MAX_CELLS, two significant digits, or 0.
 */
uint64_t series_cells(sim_time period, sim_time end, uint64_t nseries, uint64_t nhist,
		      sim_time *min_period)
{
	uint64_t buckets = (uint64_t)stats_bucket(end ? end - 1 : 0) + 1;

	buckets = buckets < STATS_SUB ? buckets : STATS_SUB;
	uint64_t width = add_sat(nseries, mul_sat(nhist, buckets));
	uint64_t periods = end / period + (end % period != 0);

	if (min_period) {
		uint64_t most = width ? SERIES_MAX_CELLS / width : UINT64_MAX;
		*min_period = most ? round_up2(end / most + (end % most != 0)) : 0;
	}
	return mul_sat(periods ? periods : 1, width);
}

/**
 * series_close - end every SERIES_TIME level of @s at @end (ps, not before
 * any time added) and store every current cell; records @end.  After it
 * the cells (series_at) are complete and @s may be packed.
 */
void series_close(series_set *s, sim_time end)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t j = 0; j < s->c[i].n; j++) {
			series *x = s->c[i].s[j];
			if (x->kind == SERIES_TIME)
				series_level(x, end, 0);
			flush(x);
		}
	}
	s->end = end;
	s->closed = 1;
}

/* series_nperiods - periods of closed @s: end / period + 1, or more if a series holds more. */
uint32_t series_nperiods(const series_set *s)
{
	uint64_t n = s->period ? s->end / s->period + 1 : 0;

	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->c[i].n; j++)
			n = s->c[i].s[j]->n > n ? s->c[i].s[j]->n : n;
	for (size_t i = 0; i < s->nh; i++)
		n = s->h[i]->n > n ? s->h[i]->n : n;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* --- packing ------------------------------------------------------------ */

/**
 * series_pack - the closed set @s as bytes (layout at the top of this
 * file); returns a malloc'd buffer, its length in *@len.
 */
void *series_pack(const series_set *s, size_t *len)
{
	pack_w w = { 0 };

	CXL_ASSERT(s->closed);
	PACK_PUT(&w, (uint64_t)s->period);
	PACK_PUT(&w, (uint64_t)s->end);
	PACK_PUT(&w, (uint64_t)s->n);
	for (size_t i = 0; i < s->n; i++) {
		const series_comp *c = &s->c[i];
		PACK_PUT(&w, c->id);
		PACK_PUT(&w, (uint32_t)c->n);
		for (size_t j = 0; j < c->n; j++) {
			const series *x = c->s[j];
			pack_put_name(&w, x->name);
			PACK_PUT(&w, x->kind);
			PACK_PUT(&w, x->n);
			pack_put(&w, x->v, (size_t)x->n * sizeof(*x->v));
		}
	}
	PACK_PUT(&w, (uint64_t)s->nh);
	for (size_t i = 0; i < s->nh; i++) {
		const series_hist *h = s->h[i];
		pack_put_name(&w, h->name);
		PACK_PUT(&w, h->n);
		for (uint32_t k = 0; k < h->n; k++)
			stats_hist_pack(&w, &h->p[k]);
	}
	*len = w.n;
	return w.p;
}

/* Cell counts must fit the bytes left, so a corrupt count cannot allocate much. */
static int fits(const pack_r *r, uint64_t n, size_t each)
{
	return n <= (r->n - r->off) / each;
}

static void unpack_series(series_set *t, series_comp *c, pack_r *r, char *name)
{
	uint8_t kind;
	uint32_t n;

	if (!pack_get_name(r, name))
		return;
	pack_get(r, &kind, 1);
	pack_get(r, &n, 4);
	if (r->bad || kind < SERIES_SUM || kind > SERIES_TIME || find_name(c, name) ||
	    !fits(r, n, sizeof(uint64_t))) {
		r->bad = 1;
		return;
	}
	series *x = add_series(t, c, name, kind);
	if (n)
		cell_at(x, n - 1);
	pack_get(r, x->v, (size_t)n * sizeof(*x->v));
}

static void unpack_comp(series_set *t, pack_r *r, char *name)
{
	uint32_t id, ns;

	pack_get(r, &id, 4);
	pack_get(r, &ns, 4);
	if (r->bad)
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->c = xrealloc(t->c, t->cap * sizeof(*t->c));
	}
	series_comp *c = &t->c[t->n++];
	*c = (series_comp){ .id = id };
	for (uint32_t j = 0; j < ns && !r->bad; j++)
		unpack_series(t, c, r, name);
}

/* One aggregate: added period by period to the table's of the same name. */
static void unpack_hist(series_set *t, pack_r *r, char *name)
{
	uint32_t n;
	stats_hist one;

	if (!pack_get_name(r, name))
		return;
	pack_get(r, &n, 4);
	if (r->bad || !fits(r, n, 4 * sizeof(uint64_t) + sizeof(uint32_t))) {
		r->bad = 1;
		return;
	}
	series_hist *h = series_hist_get(t, name);
	hist_reserve(h, n);
	for (uint32_t k = 0; k < n && !r->bad; k++) {
		stats_hist_init(&one);
		stats_hist_unpack(r, &one);
		stats_hist_merge(&h->p[k], &one);
		stats_hist_free(&one);
	}
}

/* The buffer's period and end: the first buffer's, or equal to them. */
static int same_run(series_set *t, pack_r *r)
{
	uint64_t period, end;

	pack_get(r, &period, 8);
	pack_get(r, &end, 8);
	if (r->bad || !period)
		return 0;
	if (!t->closed) {
		t->period = period;
		t->end = end;
		t->closed = 1;
		return 1;
	}
	return t->period == period && t->end == end;
}

/**
 * series_table_add - merge one rank's bytes @buf (@len) into table @t:
 * its components are appended, its aggregates added period by period.
 * Returns 0, or CXL_EINTERNAL (@err) for malformed bytes or another run's.
 */
int series_table_add(series_set *t, const void *buf, size_t len, cxl_err *err)
{
	pack_r r = { buf, len, 0, 0 };
	uint64_t n;
	char name[PACK_NAME_MAX];

	if (!same_run(t, &r))
		return cxl_err_set(err, CXL_EINTERNAL, "time series of another run or period "
				   "(%zu bytes)", len);
	pack_get(&r, &n, 8);
	for (uint64_t i = 0; i < n && !r.bad; i++)
		unpack_comp(t, &r, name);
	pack_get(&r, &n, 8);
	for (uint64_t i = 0; i < n && !r.bad; i++)
		unpack_hist(t, &r, name);
	if (r.bad || r.off != len)
		return cxl_err_set(err, CXL_EINTERNAL, "malformed time-series buffer (%zu bytes)", len);
	return 0;
}

static int cmp_comp(const void *a, const void *b)
{
	uint32_t x = ((const series_comp *)a)->id, y = ((const series_comp *)b)->id;
	return (x > y) - (x < y);
}

static int cmp_hist(const void *a, const void *b)
{
	return strcmp((*(series_hist *const *)a)->name, (*(series_hist *const *)b)->name);
}

/**
 * series_table_sort - order @t's components by id and aggregates by name.
 * Returns 0, or CXL_EINTERNAL (@err) if two ranks sent one component.
 */
int series_table_sort(series_set *t, cxl_err *err)
{
	if (t->n > 1)
		qsort(t->c, t->n, sizeof(*t->c), cmp_comp);
	if (t->nh > 1)
		qsort(t->h, t->nh, sizeof(*t->h), cmp_hist);
	for (size_t i = 1; i < t->n; i++)
		if (t->c[i].id == t->c[i - 1].id)
			return cxl_err_set(err, CXL_EINTERNAL,
					   "component %u has time series from two ranks", t->c[i].id);
	return 0;
}

/* series_find - component @id of the sorted table @t (binary search), or NULL. */
const series_comp *series_find(const series_set *t, uint32_t id)
{
	const series_comp key = { .id = id };

	return t->n ? bsearch(&key, t->c, t->n, sizeof(*t->c), cmp_comp) : NULL;
}

/* series_get - series @name of @c (linear), or NULL. */
const series *series_get(const series_comp *c, const char *name)
{
	return find_name(c, name);
}

/* series_hist_find - aggregate @name of @t (linear), or NULL. */
const series_hist *series_hist_find(const series_set *t, const char *name)
{
	return hist_lookup(t, name);
}

/* --- checkpoints (core/ckpt.h, core/ckpt_engine.c) --------------------- */

/**
 * series_ckpt_comp - the series of component @id, saved or restored by
 * visitor @k: per series (registration order) its name and kind, then its
 * current period, accumulator, level and the cells so far.  Restoring,
 * the names must be those init registered.
 */
void series_ckpt_comp(series_set *s, uint32_t id, ckpt *k)
{
	series_comp *c = (series_comp *)series_find(s, id);
	uint32_t n = ckpt_count(k, c ? (uint32_t)c->n : 0, c ? (uint32_t)c->n : 0);

	if (ckpt_loading(k) && !ckpt_failed(k) && n != (c ? c->n : 0)) {
		ckpt_fail(k, "%u time series saved, %zu registered", n, c ? c->n : 0);
		return;
	}
	for (uint32_t j = 0; j < n && !ckpt_failed(k); j++) {
		series *x = c->s[j];
		char name[256];
		uint8_t kind = x->kind;
		uint16_t nl = (uint16_t)strnlen(x->name, sizeof(name) - 1);
		memcpy(name, x->name, nl);
		CKPT(k, nl);
		if (nl >= sizeof(name)) {
			ckpt_fail(k, "a time series name of %u bytes", nl);
			return;
		}
		ckpt_bytes(k, name, nl);
		name[nl] = '\0';
		CKPT(k, kind);
		if (ckpt_loading(k) && !ckpt_failed(k) && (strcmp(name, x->name) || kind != x->kind)) {
			ckpt_fail(k, "time series %s saved where %s is registered", name, x->name);
			return;
		}
		CKPT(k, x->lo);
		CKPT(k, x->acc);
		CKPT(k, x->level);
		CKPT(k, x->since);
		CKPT(k, x->k);
		uint32_t cells = ckpt_count(k, x->n, UINT32_MAX);
		if (ckpt_loading(k) && !ckpt_failed(k)) {
			if (cells > x->cap) {
				x->v = xrealloc(x->v, (size_t)cells * sizeof(*x->v));
				x->cap = cells;
			}
			if (x->cap)
				memset(x->v, 0, (size_t)x->cap * sizeof(*x->v));
			x->n = cells;
		}
		ckpt_bytes(k, x->v, (size_t)cells * sizeof(*x->v));
	}
}

/*
 * series_hists_pack - append @s's aggregates (name, periods held, then each
 * period's histogram) to @w: a rank's share, added to rank 0's on restart.
 */
void series_hists_pack(const series_set *s, pack_w *w)
{
	PACK_PUT(w, (uint32_t)s->nh);
	for (size_t i = 0; i < s->nh; i++) {
		const series_hist *h = s->h[i];
		pack_put_name(w, h->name);
		PACK_PUT(w, h->n);
		for (uint32_t p = 0; p < h->n; p++)
			stats_hist_pack(w, &h->p[p]);
	}
}

/*
 * series_hists_add - add the aggregates series_hists_pack() wrote (@n bytes
 * at @p) to @s's, period by period (bucket counts add: the merge of the
 * end is unchanged).  Returns 0, or -1 on bytes that do not parse.
 */
int series_hists_add(series_set *s, const void *p, size_t n)
{
	pack_r r = { .p = p, .n = n };
	uint32_t nh = 0;
	char name[PACK_NAME_MAX];

	pack_get(&r, &nh, sizeof(nh));
	for (uint32_t i = 0; i < nh && !r.bad; i++) {
		uint32_t np = 0;
		pack_get_name(&r, name);
		pack_get(&r, &np, sizeof(np));
		if (r.bad)
			break;
		series_hist *h = series_hist_get(s, name);
		hist_reserve(h, np);
		for (uint32_t k = 0; k < np && !r.bad; k++) {
			stats_hist tmp;
			stats_hist_init(&tmp);
			stats_hist_unpack(&r, &tmp);
			if (!r.bad)
				stats_hist_merge(&h->p[k], &tmp);
			stats_hist_free(&tmp);
		}
	}
	return r.bad || r.off != r.n ? -1 : 0;
}
