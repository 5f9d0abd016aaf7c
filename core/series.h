/*
 * core/series.h - statistics over time: per-component time series, one cell
 * per period of simulation.sample_period, packed per rank and merged on
 * rank 0 in component-id order (the sibling of stats.h, same shape).
 *
 * Periods: period k covers simulated time [k*P, (k+1)*P), P the sample
 * period.  Nothing samples on a clock: a value lands in the period of the
 * simulated time it is added at (k = t / P, computed when it happens), so
 * a series depends only on the events, never on ranks, partition or wall
 * time.  Periods run from 0 to the run's last event.
 *
 * Kinds (one u64 cell per period):
 *   SERIES_SUM   series_add(s, t, v): v goes to the cell of t's period
 *                (requests completed, bytes delivered);
 *   SERIES_MAX   series_max(s, t, v): the cell keeps the largest v;
 *   SERIES_TIME  an integral over time, unit x ps: series_span(s, t0, t1)
 *                adds 1 per ps of [t0, t1) (a transmitter's busy time);
 *                series_level(s, t, n) says the level is n from t on and
 *                adds level x ps (packets waiting).  An interval that
 *                crosses period boundaries is split exactly over the
 *                periods it covers.  Cell / period length = the time
 *                average (utilisation, mean occupancy).
 * Aggregates (series_hist): one log-linear histogram (stats.h) per period,
 * shared by every component of the rank that registers the same name (the
 * requesters' latency).  A histogram per component and period would be too
 * large; an aggregate merges exactly (bucket counts add), so rank 0's
 * merged histogram of a period is the one all the values would have given.
 *
 * Cost: with sampling off (period 0) nothing is registered: the engine
 * hands models NULL, and every series_* call takes NULL and returns at once
 * (one predictable branch, no memory).  On, a series accumulates its
 * current period in its own struct (`acc`, no division, no array access:
 * a compare and an add); when a later period appears it stores that cell
 * and moves on (O(1) amortised: the cell array grows by doubling, no
 * allocation per event); a span costs O(periods it covers).  A component's
 * series are allocated next to each other (SERIES_CHUNK), so its updates
 * touch few cache lines.  Cells are complete after series_close().
 * Memory: 8 B x periods x (series + aggregates x histogram buckets), up to
 * twice that for the doubling; series_cells() is what the engine checks
 * before the run (SERIES_MAX_CELLS): exact for the series, an estimate for
 * the histograms (sparse, core/stats.h: a period's latencies are taken to
 * span at most one power of two, 1024 buckets; a histogram holds only the
 * 128-bucket pages its values touch).
 *
 * Merge: series_close() ends every level at the run's last event (the same
 * time on every rank), series_pack() serialises a rank's set; rank 0 feeds
 * every rank's bytes to series_table_add() (components appended, aggregates
 * added period by period) and series_table_sort() orders components by id
 * and aggregates by name: the same table for any rank count and partition.
 * The transport moves the bytes (MPI stays out of this file).  Registration
 * is the model's init (core/sim.h: sim_series(), sim_series_hist()); the
 * writers are core/output.c (timeseries.csv) and the system's own summary
 * (models/fabric/fab_series.c: timeseries_summary.csv).
 */
#ifndef CXL_CORE_SERIES_H
#define CXL_CORE_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "core/carve.h"
#include "core/ckpt.h"
#include "core/err.h"
#include "core/pack.h"
#include "core/stats.h"
#include "core/stime.h"

/* Cells (u64) a run may hold at rank 0, the merged table: 80 MB. */
#define SERIES_MAX_CELLS 10000000u

enum series_kind { SERIES_SUM = 1, SERIES_MAX = 2, SERIES_TIME = 3 };

typedef struct series series;
struct series {
	sim_time lo;       /* start of the current period, ps */
	sim_time period;   /* sample period, ps */
	uint64_t acc;      /* the current period's cell, not yet in v */
	uint64_t level;    /* SERIES_TIME: the level since `since` */
	sim_time since;    /* SERIES_TIME: time of the last level change, ps */
	uint64_t *v;       /* per-period cells (the current one: acc) */
	uint32_t k;        /* index of the current period */
	uint32_t n;        /* cells held: v[0..n) (those in [n, cap) are 0) */
	uint32_t cap;      /* cells allocated */
	uint8_t kind;      /* enum series_kind */
	char *name;        /* owned copy */
};

/* Series are carved from chunks of this many, in registration order. */
#define SERIES_CHUNK 256

typedef struct series_hist series_hist;
struct series_hist {
	sim_time lo;       /* start of the period of `cur`, ps */
	sim_time period;   /* sample period, ps */
	stats_hist *cur;   /* that period's histogram (p[k]) */
	uint32_t k;        /* its index */
	uint32_t n;        /* periods held: p[0..n) */
	uint32_t cap;      /* histograms allocated (initialised, empty beyond n) */
	stats_hist *p;     /* per-period histograms */
	char *name;        /* owned copy */
};

typedef struct series_comp series_comp;
struct series_comp {
	uint32_t id;       /* global component id */
	size_t n;          /* series */
	size_t cap;        /* capacity of s */
	series **s;        /* in registration order; each allocated alone (stable) */
};

/* A rank's set, or rank 0's merged table: the same structure. */
typedef struct series_set series_set;
struct series_set {
	sim_time period;   /* sample period, ps; 0: off */
	sim_time end;      /* the last event, set by series_close() (table: from the ranks), ps */
	int closed;        /* 1 once end is set */
	series_comp *c;    /* components (table: sorted by id) */
	size_t n;          /* components */
	size_t cap;        /* capacity of c */
	carve store;       /* series storage, SERIES_CHUNK to a chunk (core/carve.h) */
	series_hist **h;   /* aggregates (table: sorted by name) */
	size_t nh;         /* aggregates */
	size_t caph;       /* capacity of h */
};

uint64_t *series__cell(series *s, sim_time t);
void series__span(series *s, sim_time t0, sim_time t1, uint64_t w);
void series__hist_seek(series_hist *h, sim_time t);

/* series__here - 1 if time @t is in the current period (one compare). */
static inline int series__here(const series *s, sim_time t)
{
	return t - s->lo < s->period;
}

/* series_add - SERIES_SUM: add @v at time @t.  @s may be NULL (off). */
static inline void series_add(series *s, sim_time t, uint64_t v)
{
	if (!s)
		return;
	*(series__here(s, t) ? &s->acc : series__cell(s, t)) += v;
}

/* series_max - SERIES_MAX: the cell of @t keeps max(cell, @v).  @s may be NULL. */
static inline void series_max(series *s, sim_time t, uint64_t v)
{
	if (!s)
		return;
	uint64_t *c = series__here(s, t) ? &s->acc : series__cell(s, t);
	if (v > *c)
		*c = v;
}

/* series__span_w - @w per ps of [@t0, @t1): inside the current period, or split. */
static inline void series__span_w(series *s, sim_time t0, sim_time t1, uint64_t w)
{
	if (t1 > t0 && series__here(s, t0) && t1 - s->lo <= s->period)
		s->acc += (t1 - t0) * w;
	else
		series__span(s, t0, t1, w);
}

/* series_span - SERIES_TIME: 1 per ps of [@t0, @t1).  @s may be NULL. */
static inline void series_span(series *s, sim_time t0, sim_time t1)
{
	if (s)
		series__span_w(s, t0, t1, 1);
}

/*
 * series_level - SERIES_TIME: the level is @level from @t on (t never
 * decreases); the previous level is added over [since, t).  @s may be NULL.
 */
static inline void series_level(series *s, sim_time t, uint64_t level)
{
	if (!s)
		return;
	if (s->level)
		series__span_w(s, s->since, t, s->level);
	s->since = t;
	s->level = level;
}

/* series_hist_add - record @v in the histogram of @t's period.  @h may be NULL. */
static inline void series_hist_add(series_hist *h, sim_time t, uint64_t v)
{
	if (!h)
		return;
	if (t - h->lo >= h->period)
		series__hist_seek(h, t);
	stats_hist_add(h->cur, v);
}

/* series_set_init - an empty set sampling every @period ps (0: off). */
void series_set_init(series_set *s, sim_time period);
void series_set_free(series_set *s);

/*
 * series_new - register series @name of @kind for component @id (ids in
 * ascending order, as components initialise; a name at most once per
 * component: both panic otherwise).  The name is copied.
 */
series *series_new(series_set *s, uint32_t id, const char *name, enum series_kind kind);
/* series_hist_get - the aggregate @name of this set, created on first use. */
series_hist *series_hist_get(series_set *s, const char *name);

/* series_count - series registered (all components) and aggregates, OUT. */
void series_count(const series_set *s, uint64_t *nseries, uint64_t *nhist);
/**
 * series_cells - cells a table holds when @nseries series and @nhist
 * aggregates are sampled every @period ps of a run that ends before @end:
 * ceil(end / period) periods x (nseries + nhist x the histogram buckets of
 * one power of two, or of the values below end if fewer; see above).  Saturates at
 * UINT64_MAX.  With @min_period (OUT, may be NULL): the shortest period that
 * keeps the cells within SERIES_MAX_CELLS, rounded up to two significant
 * digits (0 if none does).
 */
uint64_t series_cells(sim_time period, sim_time end, uint64_t nseries, uint64_t nhist,
		      sim_time *min_period);

/*
 * series_close - end every level at @end (the run's last event, ps) and
 * store every current period's cell: the cells are complete from here on.
 */
void series_close(series_set *s, sim_time end);
/* series_nperiods - periods of a closed set: to the one holding end (at least). */
uint32_t series_nperiods(const series_set *s);
/* series_at - cell @k of @s (0 beyond what it holds); after series_close(). */
static inline uint64_t series_at(const series *s, uint32_t k)
{
	return k < s->n ? s->v[k] : 0;
}

/* series_pack - serialise the closed set @s; returns a malloc'd buffer of *@len bytes. */
void *series_pack(const series_set *s, size_t *len);
/**
 * series_table_add - merge packed bytes of one rank into table @t (which
 * takes its period and end from the first).  Return 0, or CXL_EINTERNAL if
 * the bytes are malformed, a component holds one name twice, or period or
 * end differ from an earlier buffer's.  Call series_table_sort() after.
 */
int series_table_add(series_set *t, const void *buf, size_t len, cxl_err *err);
/**
 * series_table_sort - order components by id and aggregates by name.
 * Return 0, or CXL_EINTERNAL if a component id came from two buffers.
 */
int series_table_sort(series_set *t, cxl_err *err);

/* series_find - component @id in a sorted table, or NULL. */
const series_comp *series_find(const series_set *t, uint32_t id);
/* series_get - series @name of @c, or NULL. */
const series *series_get(const series_comp *c, const char *name);
/* series_hist_find - aggregate @name of a table, or NULL. */
const series_hist *series_hist_find(const series_set *t, const char *name);

/* Checkpoints (series.c): a component's series through the visitor, a rank's
 * aggregates packed and added to rank 0's on restart. */
void series_ckpt_comp(series_set *s, uint32_t id, ckpt *k);
void series_hists_pack(const series_set *s, pack_w *w);
int series_hists_add(series_set *s, const void *p, size_t n);

#endif
