/*
 * core/evq.c - the ladder queue behind core/evq.h.
 *
 * Why (medians measured on 2 shared cores; evq.h describes the design):
 *   engine, ./bin/cxlfab configs/phold.cfg on 1 rank, events/s, 5 runs each
 *   alternating with the 4-ary heap this replaced (identical results):
 *       pending   4096 (start_events=1)            7.49 M -> 12.97 M  (1.73x)
 *       pending  65536 (start_events=16)           2.78 M ->  6.83 M  (2.46x)
 *       pending 262144 (start_events=64, end 1us)  1.68 M ->  3.16 M  (1.88x)
 *   test/bench/evq_bench.c hold model, ns per pop + push:
 *       N       binheap  4ary  calendar  ladder
 *       4096       85     91      50       37
 *       65536     217    219     161       92
 *       1M       1129    778     674      312
 *   The heap pays O(log n) key comparisons with unpredictable branches on
 *   every operation; the ladder pays a few list links per event and sorts
 *   small batches, so it wins at every size the engine runs.
 *
 * Invariants (checked by evq_check):
 *   - top holds the events with time >= top_start; top_min/top_max bound it.
 *   - rung r holds the events with rung[r].rcur <= time < upper(r), where
 *     upper(0) = top_start and upper(r) = rung[r-1].rcur; an event sits in
 *     bucket (time - start) >> shift, never below bucket `cur`.
 *   - the bottom (run + ins) holds the events before the deepest rung's
 *     rcur (top_start if there is no rung); the run is sorted descending by
 *     the full key, ins is a binary min-heap by the full key.
 *   - n > 0 implies a non-empty bottom, except before the first pop after
 *     the queue was empty, when every event is in top (nrungs == 0).
 *   - min_time is the time of the minimum event (SIM_TIME_MAX if empty).
 *
 * Refill (the bottom ran empty): take the deepest rung's first non-empty
 * bucket (or the whole top when there is no rung) and note its event count
 * k and time range [lo, hi].  It becomes the sorted run if k <= THRES, if
 * lo == hi (one time: no bucket width can split it), or if EVQ_RUNGS rungs
 * are in use; otherwise it becomes a new rung over [lo, hi] with about k/2
 * to k buckets of a power-of-two width (a shift, not a division, per
 * event), or for a list of fewer than WIDE_MAX events half as many, twice
 * as wide.  The
 * rung it came from then accepts times from hi + 1 on, into the same bucket,
 * so a later event in [hi + 1, bucket end) is not lost below `cur`.  One walk
 * of the list (scan) counts it, bounds its times and copies its entries while
 * it may still go to the bottom; its nodes are freed as one splice.
 *
 * Sorting the run: insertion sort up to SORT_RUN entries, merge sort above;
 * a list of RADIX_MIN or more events at one time (a fabric's lock-step
 * arrivals: rack-4096 has buckets of 500-30000 events at one time) is first
 * counting-sorted on its destination's top bits, then each stretch by the
 * full key.  Measured with callgrind (instructions in the event loop per
 * event): rack-4096 --end 200ns 828 -> 682 (the refill 240 -> ~150), PHOLD
 * (--end 400ns) 469 -> 424 with the inline pop (evq.h) and the one walk.
 * Then about one digit per two entries instead of one per entry, and short
 * stretches sorted by one insertion pass over the whole run: rack-4096
 * --end 2us 572.8 -> 563.0 (94% of its events go through sort_one_time);
 * PHOLD and the ring trace replay, with no such list, unchanged.  THRES
 * 48 -> 32 (a list of 33-48 events opens a rung instead of a merge sort):
 * ring trace replay 567.7 -> 564.7, spine_leaf 544.9 -> 544.4, rack-4096
 * and PHOLD unchanged (16 and 24 gain more on the ring but cost PHOLD
 * +5.3 and +0.3; 96 costs the ring +75).  A rung opened for a list of
 * fewer than WIDE_MAX (256) events has buckets twice as wide (RUNG_WIDE
 * 1: about 2-4 events each instead of 1-2, so fewer refills, each with a
 * longer insertion sort): ring trace replay 556.3 -> 541.9 (it refilled
 * every 2.7 events, ~315 instructions a refill), spine_leaf 536.0 ->
 * 527.5, rack-4096 and PHOLD unchanged (547.6, 424.9).  For every list, RUNG_WIDE 1 cost PHOLD +19.8
 * (444.8) and rack-4096 +0.4; RUNG_WIDE 2 cost rack-4096 +41 for another
 * -2.8 on the ring.
 *
 * A push earlier than the deepest rung goes into the sorted run at its place
 * while the run is shorter than RUN_INSERT_MAX, else into the heap beside it
 * (run_insert).  With lazy credits (core/sim_lazy.c) the fabrics queue half
 * the events, buckets are sparser and more pushes land there; the heap then
 * kept every pop off the inline path.  Measured (callgrind, instructions in
 * the loop, whole runs): ring trace replay (default end) 534.1 -> 507.4 M,
 * spine_leaf 246.8 -> 246.6 M, rack-4096 --end 2us 2362.2 -> 2362.9 M,
 * PHOLD --end 200ns 341.2 M both; RUN_INSERT_MAX 8 and 16 give the ring
 * 539.1 and 534.2 M, 128 and 256 the same as 64 (no run is longer there).
 * Out of line: inlined into evq_push it cost PHOLD +9.2 M.  A new event is
 * mostly later than most of the run, so a binary search and a move of
 * the earlier entries (about 200 instructions a push on the ring, 40 % of
 * them in memmove) did most of the work for nothing: the later entries now
 * move down into room kept before the run (run_h), one insertion step
 * each, when the event falls in the run's later half.  Ring 486.5 ->
 * 469.9 M, spine_leaf 234.5 -> 234.8 M, PHOLD 341.2 -> 341.8 M;
 * RUN_INSERT_MAX 32 and 128 change nothing (no run there grows past 32).
 */
#include "core/evq.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xmalloc.h"

#define THRES 32    /* a list of at most this many events is sorted into the bottom */
#define RUNG_WIDE 1 /* a rung of a list shorter than WIDE_MAX: buckets 2^RUNG_WIDE times wider */
#define WIDE_MAX 256 /* lists at least this long: ceil(range / k) rounded up to 2^n */
#define SORT_RUN 16 /* the merge sort starts from insertion-sorted runs this long */
#ifndef RUN_INSERT_MAX
#define RUN_INSERT_MAX 64 /* a push into a run shorter than this goes into it, not the heap */
#endif
#define RADIX_MIN 64 /* a one-time list at least this long is radix-sorted by dst */
#define RADIX_BITS 6 /* least bits of dst its counting sort uses */
#define RADIX_MAX 16 /* most bits of dst its counting sort uses */

/* A list taken out of top or a rung, on its way to the bottom or a new rung. */
typedef struct span span;
struct span {
	uint32_t list; /* node list */
	uint32_t tail; /* its last node */
	size_t k;      /* events in it */
	size_t copied; /* the first this many are in the run (scan) */
	sim_time lo;   /* earliest time, ps */
	sim_time hi;   /* latest time, ps */
};

/* --- storage -------------------------------------------------------------- */

static void vec_reserve(evq_vec *v, size_t n)
{
	size_t cap = v->cap ? v->cap : 64;

	if (n <= v->cap)
		return;
	while (cap < n)
		cap *= 2;
	v->a = xrealloc(v->a, cap * sizeof(*v->a));
	v->cap = cap;
}

static void grow_nodes(evq *q)
{
	uint32_t old = q->cap_node, cap = old ? 2 * old : 1024;

	if (old >= UINT32_MAX / 2)
		CXL_PANIC("event queue: more than %u events in top and rungs", old);
	q->node = xrealloc(q->node, (size_t)cap * sizeof(*q->node));
	for (uint32_t i = cap; i-- > old;) {
		q->node[i].next = q->free_node;
		q->free_node = i;
	}
	q->cap_node = cap;
}

/* node_new - a node for @ev from the free list, which is not empty (evq_push grew it). */
static uint32_t node_new(evq *q, cxl_event *ev)
{
	uint32_t i = q->free_node;
	evq_node *nd = &q->node[i];
	q->free_node = nd->next;
	nd->time = ev->time;
	nd->ev = ev;
	return i;
}

/* --- the bottom: sorted run + insertion heap --------------------------- */

/* noinline: inlined, its registers made every evq_push save six (PHOLD: -12 instructions per event) */
__attribute__((noinline)) static void ins_push(evq *q, cxl_event *ev)
{
	evq_vec *h = &q->ins;
	evq_entry e = evq_entry_of(ev);

	vec_reserve(h, h->n + 1);
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!evq_key_lt(&e, &h->a[p]))
			break;
		h->a[i] = h->a[p];
		i = p;
	}
	h->a[i] = e;
}

static cxl_event *ins_pop(evq *q)
{
	evq_vec *h = &q->ins;
	cxl_event *top = h->a[0].ev;
	evq_entry last = h->a[--h->n];
	size_t n = h->n, i = 0, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && evq_key_lt(&h->a[c + 1], &h->a[c]))
			c++;
		if (!evq_key_lt(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (n)
		h->a[i] = last;
	return top;
}

static int bottom_empty(const evq *q)
{
	return !q->run.n && !q->ins.n;
}

/* run_unshift - give the run's room back to it (it starts at its allocation again). */
static void run_unshift(evq *q)
{
	evq_vec *r = &q->run;

	if (q->run_h) {
		r->a -= q->run_h;
		memmove(r->a, r->a + q->run_h, r->n * sizeof(*r->a));
		r->cap += q->run_h;
		q->run_h = 0;
	}
}

/*
 * run_insert - @ev, earlier than the deepest rung, into the sorted run at
 * its place while the run is short, else into the heap beside it.  A
 * short run keeps the inline pop (evq.h, which needs an empty heap); a
 * long one (a lock-step bucket of thousands at one time) would move too
 * much.  The side of the run's middle entry it falls on decides which
 * entries move, one insertion step each: the later ones down into the
 * room before the run (run_h), or the earlier ones up.  New events are
 * mostly later than most of the run (it pops from its end), so mostly a
 * few later ones move; when there is no room, the run first moves up by
 * RUN_INSERT_MAX, which makes room for that many such pushes.
 */
__attribute__((noinline)) static void run_insert(evq *q, cxl_event *ev)
{
	evq_vec *r = &q->run;
	size_t i;

	if (r->n >= RUN_INSERT_MAX) {
		ins_push(q, ev);
		return;
	}
	evq_entry e = evq_entry_of(ev);

	if (r->n && evq_key_lt(&r->a[r->n / 2], &e)) { /* later half: move down */
		if (!q->run_h) {
			vec_reserve(r, r->n + RUN_INSERT_MAX);
			memmove(&r->a[RUN_INSERT_MAX], r->a, r->n * sizeof(*r->a));
			r->a += RUN_INSERT_MAX;
			r->cap -= RUN_INSERT_MAX;
			q->run_h = RUN_INSERT_MAX;
		}
		evq_entry *a = --r->a;
		q->run_h--;
		r->cap++;
		r->n++;
		for (i = 1; evq_key_lt(&e, &a[i]); i++)
			a[i - 1] = a[i];
		a[i - 1] = e;
		return;
	}
	if (r->n == r->cap)
		run_unshift(q);
	vec_reserve(r, r->n + 1);
	evq_entry *a = r->a;
	for (i = r->n; i > 0 && evq_key_lt(&a[i - 1], &e); i--)
		a[i] = a[i - 1];
	a[i] = e;
	r->n++;
}

/* ins_first - true if the bottom's minimum is ins's (bottom not empty). */
static int ins_first(const evq *q)
{
	return q->ins.n && (!q->run.n || evq_key_lt(&q->ins.a[0], &q->run.a[q->run.n - 1]));
}

static void insertion_sort_desc(evq_entry *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		evq_entry e = a[i];
		size_t j = i;
		for (; j > 0 && evq_key_lt(&a[j - 1], &e); j--)
			a[j] = a[j - 1];
		a[j] = e;
	}
}

/* same_time_lt - evq_key_lt for two entries of one time: the rest of the key. */
static inline int same_time_lt(const evq_entry *x, const evq_entry *y)
{
	return x->tie != y->tie ? x->tie < y->tie : x->seq < y->seq;
}

/*
 * insertion_sort_same_time_desc - insertion_sort_desc for entries that all
 * have one time, comparing the rest of the key only.  sort_one_time runs it
 * over its whole run once every digit's stretch is short: an entry moves
 * only within its stretch (it is before every entry of an earlier stretch),
 * so the pass costs one comparison per entry in place (most: no copy) plus
 * the stretches' own inversions, and no walk of the digits.
 */

static void insertion_sort_same_time_desc(evq_entry *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (!same_time_lt(&a[i - 1], &a[i]))
			continue; /* in place: most entries */
		evq_entry e = a[i];
		size_t j = i;
		do
			a[j] = a[j - 1];
		while (--j > 0 && same_time_lt(&a[j - 1], &e));
		a[j] = e;
	}
}

static void merge_desc(const evq_entry *x, size_t nx, const evq_entry *y, size_t ny,
		       evq_entry *out)
{
	size_t i = 0, j = 0;

	while (i < nx && j < ny)
		*out++ = evq_key_lt(&x[i], &y[j]) ? y[j++] : x[i++];
	memcpy(out, x + i, (nx - i) * sizeof(*x));
	memcpy(out + (nx - i), y + j, (ny - j) * sizeof(*y));
}

/*
 * merge_sort_desc - sort @a (@n entries) descending: insertion-sorted runs of
 * SORT_RUN, then merges through @tmp (room for @n).  Returns where the sorted
 * entries are: @a or @tmp.
 */
static evq_entry *merge_sort_desc(evq_entry *a, evq_entry *tmp, size_t n)
{
	evq_entry *src = a, *dst = tmp;

	for (size_t i = 0; i < n; i += SORT_RUN)
		insertion_sort_desc(a + i, n - i < SORT_RUN ? n - i : SORT_RUN);
	for (size_t w = SORT_RUN; w < n; w *= 2) {
		for (size_t i = 0; i < n; i += 2 * w) {
			size_t m = n - i < w ? n - i : w, e = n - i < 2 * w ? n - i : 2 * w;
			merge_desc(src + i, m, src + i + m, e - m, dst + i);
		}
		evq_entry *t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/* use_scratch - the sorted entries are in scratch: swap it with run. */
static void use_scratch(evq *q)
{
	evq_vec t = q->scratch;

	q->scratch = (evq_vec){ q->run.a, 0, q->run.cap };
	q->run = (evq_vec){ t.a, q->run.n, t.cap };
}

/* sort_run - sort the run descending by the full key. */
static void sort_run(evq *q)
{
	size_t n = q->run.n;

	if (n <= SORT_RUN) {
		insertion_sort_desc(q->run.a, n);
		return;
	}
	vec_reserve(&q->scratch, n);
	if (merge_sort_desc(q->run.a, q->scratch.a, n) != q->run.a)
		use_scratch(q);
}

/* sort_stretch - sort @a (@n entries) descending in place; scratch holds @n. */
static void sort_stretch(evq *q, evq_entry *a, size_t n)
{
	if (n <= SORT_RUN)
		insertion_sort_desc(a, n);
	else if (merge_sort_desc(a, q->scratch.a, n) != a)
		memcpy(a, q->scratch.a, n * sizeof(*a));
}

/*
 * sort_one_time - sort the run descending when its entries share one time:
 * one counting-sort pass on the top bits of dst (the key's next field; one
 * digit value per one to two entries, at least 2^RADIX_BITS), then each
 * digit's stretch by the rest of the key, which an insertion sort does in a
 * step or two for the few destinations a stretch holds.  Same order as
 * sort_run, O(n) for the many distinct destinations a crowded time has.
 * Mechanism of the stretches: when none holds more than SORT_RUN entries
 * (the fullest digit is known from the prefix sums), one insertion pass
 * over the whole run sorts them all (insertion_sort_same_time_desc), which
 * costs less than a walk of every digit calling a sort per stretch; a
 * fuller digit takes that walk (sort_stretch: merge sort for the long ones).
 * Fewer digits than entries: their two passes (prefix sums, stretches) cost
 * more than the longer stretches' extra insertion steps (measured, file top).
 */
static void sort_one_time(evq *q)
{
	size_t n = q->run.n;
	uint32_t lo = UINT32_MAX, hi = 0;
	evq_entry *a = q->run.a;

	for (size_t i = 0; i < n; i++) {
		uint32_t d = evq_entry_dst(&a[i]);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	unsigned bits = hi > lo ? 32 - (unsigned)__builtin_clz(hi - lo) : 0;
	unsigned want = 63 - (unsigned)__builtin_clzll(n - 1); /* floor(log2(n - 1)), n >= 2 */
	want = want < RADIX_BITS ? RADIX_BITS : want > RADIX_MAX ? RADIX_MAX : want;
	unsigned nd = bits < want ? bits : want, sh = bits - nd;
	uint32_t top = (1u << nd) - 1; /* digits 0 .. top; digit top - x sorts descending */
	vec_reserve(&q->scratch, n);
	if (q->cap_cnt < (size_t)top + 1) {
		q->cap_cnt = (size_t)top + 1;
		q->cnt = xrealloc(q->cnt, q->cap_cnt * sizeof(*q->cnt));
	}
	uint32_t *cnt = q->cnt;
	memset(cnt, 0, ((size_t)top + 1) * sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		cnt[top - ((evq_entry_dst(&a[i]) - lo) >> sh)]++;
	uint32_t most = 0; /* entries of the fullest digit */
	for (uint32_t d = 0, sum = 0; d <= top; d++) {
		uint32_t c = cnt[d];
		cnt[d] = sum;
		sum += c;
		most = c > most ? c : most;
	}
	evq_entry *out = q->scratch.a;
	for (size_t i = 0; i < n; i++)
		out[cnt[top - ((evq_entry_dst(&a[i]) - lo) >> sh)]++] = a[i];
	use_scratch(q); /* cnt[d] is now the end of digit d's stretch */
	a = q->run.a;
	if (most <= SORT_RUN) {
		insertion_sort_same_time_desc(a, n);
		return;
	}
	for (uint32_t d = 0, from = 0; d <= top; from = cnt[d++])
		if (cnt[d] - from > 1)
			sort_stretch(q, a + from, cnt[d] - from);
}

/* to_bottom - make list @s the sorted run (the bottom is empty); frees its nodes. */
static void to_bottom(evq *q, const span *s)
{
	if (s->copied < s->k) { /* scan stopped copying: the deepest rung was full */
		size_t n = 0;
		vec_reserve(&q->run, s->k);
		for (uint32_t i = s->list; i != EVQ_NIL; i = q->node[i].next)
			q->run.a[n++] = evq_entry_of(q->node[i].ev);
	}
	q->run.n = s->k;
	q->node[s->tail].next = q->free_node;
	q->free_node = s->list;
	if (s->lo == s->hi && s->k >= RADIX_MIN)
		sort_one_time(q);
	else
		sort_run(q);
}

/* --- top and rungs -------------------------------------------------------- */

static void top_add(evq *q, cxl_event *ev)
{
	uint32_t i = node_new(q, ev);

	q->node[i].next = q->top;
	q->top = i;
	q->ntop++;
	if (ev->time < q->top_min)
		q->top_min = ev->time;
	if (ev->time > q->top_max)
		q->top_max = ev->time;
}

static void rung_add(evq *q, evq_rung *g, uint32_t i)
{
	size_t b = (size_t)((q->node[i].time - g->start) >> g->shift);

	q->node[i].next = g->head[b];
	g->head[b] = i;
}

/*
 * scan - list @list (not empty) as a span: its count and time range in one
 * walk, which also copies its entries into the (empty) run as long as the
 * list may still go to the bottom: its first THRES events, and after them
 * as long as every time is the same.
 */
static span scan(evq *q, uint32_t list)
{
	const evq_node *node = q->node;
	size_t k = 0, copied;
	sim_time lo = SIM_TIME_MAX, hi = 0;
	uint32_t i = list, tail = EVQ_NIL;

	vec_reserve(&q->run, THRES);
	for (evq_entry *a = q->run.a; i != EVQ_NIL && k < THRES; tail = i, i = node[i].next) {
		lo = node[i].time < lo ? node[i].time : lo;
		hi = node[i].time > hi ? node[i].time : hi;
		a[k++] = evq_entry_of(node[i].ev);
	}
	for (; i != EVQ_NIL && lo == hi && node[i].time == lo; tail = i, i = node[i].next) {
		if (k == q->run.cap)
			vec_reserve(&q->run, k + 1);
		q->run.a[k++] = evq_entry_of(node[i].ev);
	}
	for (copied = k; i != EVQ_NIL; tail = i, i = node[i].next, k++) {
		lo = node[i].time < lo ? node[i].time : lo;
		hi = node[i].time > hi ? node[i].time : hi;
	}
	return (span){ list, tail, k, copied, lo, hi };
}

/* take_top - all of top as one list; later pushes after its end go to top. */
static uint32_t take_top(evq *q)
{
	uint32_t list = q->top;

	CXL_ASSERT(q->ntop > 0);
	q->top_start = q->top_max + 1;
	q->top = EVQ_NIL;
	q->ntop = 0;
	q->top_min = SIM_TIME_MAX;
	q->top_max = 0;
	return list;
}

/* take_bucket - the first non-empty bucket of @g, detached; EVQ_NIL if @g is spent. */
static uint32_t take_bucket(evq_rung *g)
{
	while (g->cur < g->nb && g->head[g->cur] == EVQ_NIL)
		g->cur++;
	if (g->cur == g->nb)
		return EVQ_NIL;
	uint32_t list = g->head[g->cur];
	g->head[g->cur] = EVQ_NIL;
	return list;
}

/* open_rung - a new deepest rung over [s->lo, s->hi] holding list @s. */
static void open_rung(evq *q, const span *s)
{
	evq_rung *g = &q->rung[q->nrungs++];
	sim_time span1 = s->hi - s->lo;   /* range length - 1, no overflow */
	sim_time w = span1 / s->k + 1;    /* ceil(range / k) >= 1 */
	unsigned shift = (w > 1 ? 64 - (unsigned)__builtin_clzll(w - 1) : 0) +
			 (s->k < WIDE_MAX ? RUNG_WIDE : 0);

	g->nb = (size_t)(span1 >> shift) + 1; /* <= k */
	if (g->nb > g->cap) {
		g->cap = g->nb > 2 * g->cap ? g->nb : 2 * g->cap;
		g->head = xrealloc(g->head, g->cap * sizeof(*g->head));
	}
	memset(g->head, 0xff, g->nb * sizeof(*g->head)); /* EVQ_NIL */
	g->start = g->rcur = s->lo;
	g->shift = shift;
	g->cur = 0;
	for (uint32_t i = s->list, next; i != EVQ_NIL; i = next) {
		next = q->node[i].next;
		rung_add(q, g, i);
	}
}

/* refill - fill the empty bottom from the deepest rung or top (n > 0). */
static void refill(evq *q)
{
	run_unshift(q); /* empty: the lists below are copied to its allocation's start */
	while (bottom_empty(q)) {
		evq_rung *g = q->nrungs ? &q->rung[q->nrungs - 1] : NULL;
		uint32_t list = g ? take_bucket(g) : take_top(q);
		if (list == EVQ_NIL) {
			q->nrungs--;
			continue;
		}
		span s = scan(q, list);
		if (g) /* later pushes from s.hi + 1 on go into the same bucket */
			g->rcur = s.hi + 1;
		if (s.k <= THRES || s.lo == s.hi || q->nrungs == EVQ_RUNGS)
			to_bottom(q, &s);
		else
			open_rung(q, &s);
	}
}

/* --- API ------------------------------------------------------------------ */

/* reset - the empty state: every push goes to top until the next pop. */
static void reset(evq *q)
{
	q->nrungs = 0;
	q->top_start = 0;
	q->top_min = SIM_TIME_MAX;
	q->top_max = 0;
	q->min_time = SIM_TIME_MAX;
}

/**
 * evq_init - make @q an empty queue.
 * @q: OUT the queue
 *
 * Allocates nothing; storage grows on the first pushes.
 */
void evq_init(evq *q)
{
	*q = (evq){ .top = EVQ_NIL, .free_node = EVQ_NIL };
	reset(q);
}

/**
 * evq_destroy - free every array of @q and leave it empty (as evq_init).
 * @q: the queue
 *
 * Events still queued are not touched: the caller owns them (sim.c pops
 * them back into the pool first).
 */
void evq_destroy(evq *q)
{
	for (size_t r = 0; r < EVQ_RUNGS; r++)
		free(q->rung[r].head);
	free(q->run.a ? q->run.a - q->run_h : NULL); /* its allocation */
	free(q->ins.a);
	free(q->scratch.a);
	free(q->node);
	free(q->cnt);
	evq_init(q);
}

/*
 * grow_then_push - evq_push with no free node: grow the store, then push.
 * Out of line, so that the common push makes no call (but the tail call
 * to ins_push) and saves no registers.  It grows even for an event that
 * goes to the bottom and takes no node: the store only holds capacity.
 */
__attribute__((noinline)) static void grow_then_push(evq *q, cxl_event *ev)
{
	grow_nodes(q);
	evq_push(q, ev);
}

/**
 * evq_push - insert @ev into @q.
 * @q:  the queue
 * @ev: event with time (< SIM_TIME_MAX), dst, src and seq set and owner
 *      CXL_OWN_QUEUE (both asserted)
 *
 * O(1) into top or a rung; O(log b) into a bottom of b events, which is
 * where an event before the deepest rung's range goes (for instance one at
 * the current time).  May grow the node store or an array.
 */
void evq_push(evq *q, cxl_event *ev)
{
	sim_time t = ev->time;

	CXL_ASSERT(ev->owner == CXL_OWN_QUEUE);
	CXL_ASSERT(t != SIM_TIME_MAX);
	if (q->free_node == EVQ_NIL) {
		grow_then_push(q, ev);
		return;
	}
	q->n++;
	if (t < q->min_time)
		q->min_time = t;
	if (t >= q->top_start) {
		top_add(q, ev);
		return;
	}
	for (size_t r = 0; r < q->nrungs; r++) {
		evq_rung *g = &q->rung[r];
		if (t >= g->rcur) {
			rung_add(q, g, node_new(q, ev));
			return;
		}
	}
	run_insert(q, ev);
}

/**
 * evq__pop_slow - remove and return the minimum event of @q by the full key
 * (evq_pop() in evq.h takes the common case inline).
 * @q: the queue, not empty (asserted)
 *
 * Refills the bottom when it runs empty, so that evq_peek_time() stays a
 * load; the refill work is amortised O(1) per event (see the file top).
 */
cxl_event *evq__pop_slow(evq *q)
{
	CXL_ASSERT(q->n > 0);
	if (bottom_empty(q))
		refill(q);
	cxl_event *ev = ins_first(q) ? ins_pop(q) : q->run.a[--q->run.n].ev;
	if (--q->n == 0) {
		reset(q);
		return ev;
	}
	if (bottom_empty(q))
		refill(q);
	q->min_time = ins_first(q) ? q->ins.a[0].time : q->run.a[q->run.n - 1].time;
	return ev;
}

/* --- validation ----------------------------------------------------------- */

/* State of one evq_check walk. */
typedef struct chk chk;
struct chk {
	const evq *q;  /* the queue */
	uint8_t *seen; /* per node: reached from a list */
	size_t count;  /* events found in top and rungs */
	size_t bad;    /* violations */
	sim_time min;  /* least time found, ps */
};

static size_t bad_event(const cxl_event *ev, sim_time t)
{
	return (ev->owner != CXL_OWN_QUEUE) + (ev->time != t);
}

/* chk_list - list @i: times in [lo, hi), in bucket @b of @g if @g. */
static void chk_list(chk *c, uint32_t i, sim_time lo, sim_time hi, const evq_rung *g,
		     size_t b)
{
	for (; i != EVQ_NIL; i = c->q->node[i].next) {
		if (i >= c->q->cap_node || c->seen[i]) {
			c->bad++;
			return;
		}
		c->seen[i] = 1;
		const evq_node *nd = &c->q->node[i];
		c->count++;
		c->bad += bad_event(nd->ev, nd->time) + (nd->time < lo) + (nd->time >= hi);
		if (g)
			c->bad += nd->time < g->start || ((nd->time - g->start) >> g->shift) != b;
		c->min = nd->time < c->min ? nd->time : c->min;
	}
}

/* chk_rungs - top and every rung; returns the bottom's upper time bound. */
static sim_time chk_rungs(chk *c)
{
	const evq *q = c->q;
	sim_time upper = q->top_start;
	size_t before = c->count;

	if (q->ntop)
		chk_list(c, q->top, q->top_min, q->top_max + 1, NULL, 0);
	c->bad += c->count - before != q->ntop || (q->ntop && q->top_min < q->top_start);
	c->bad += q->nrungs > EVQ_RUNGS;
	for (size_t r = 0; r < q->nrungs && r < EVQ_RUNGS; r++) {
		const evq_rung *g = &q->rung[r];
		c->bad += g->nb > g->cap || g->shift > 63 || g->rcur > upper || g->cur > g->nb;
		for (size_t b = 0; b < g->nb && b < g->cap; b++) {
			c->bad += b < g->cur && g->head[b] != EVQ_NIL;
			chk_list(c, g->head[b], g->rcur, upper, g, b);
		}
		upper = g->rcur;
	}
	return upper;
}

/* chk_bottom - run order, heap order, entries, times before @upper. */
static void chk_bottom(chk *c, sim_time upper)
{
	const evq_vec *v[2] = { &c->q->run, &c->q->ins };

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < v[k]->n; i++) {
			const evq_entry *e = &v[k]->a[i];
			evq_entry x = evq_entry_of(e->ev);
			c->bad += bad_event(e->ev, e->time) + (e->time >= upper);
			c->bad += x.tie != e->tie || x.seq != e->seq;
			if (k == 0 && i > 0)
				c->bad += !evq_key_lt(e, &v[0]->a[i - 1]);
			if (k == 1 && i > 0)
				c->bad += evq_key_lt(e, &v[1]->a[(i - 1) / 2]);
			c->min = e->time < c->min ? e->time : c->min;
		}
	}
}

/**
 * evq_check - count the violations of @q's invariants (see the file top).
 * @q: the queue
 *
 * Return: 0 for a sound queue, else the number of problems found: wrong
 * owner or stale time of an event, an event outside its level's time
 * range or in the wrong bucket, the bottom out of key order, a wrong count
 * or cached minimum, a node lost, shared or linked in a cycle.  Allocates
 * one byte per node while it runs; O(n + nodes + buckets).
 */
size_t evq_check(const evq *q)
{
	chk c = { q, xcalloc(q->cap_node ? q->cap_node : 1, 1), 0, 0, SIM_TIME_MAX };

	chk_bottom(&c, chk_rungs(&c));
	c.bad += c.count + q->run.n + q->ins.n != q->n;
	c.bad += c.min != q->min_time;
	c.bad += q->n && bottom_empty(q) && (q->nrungs || q->ntop != q->n);
	for (uint32_t i = q->free_node; i != EVQ_NIL; i = q->node[i].next) {
		if (i >= q->cap_node || c.seen[i]) {
			c.bad++;
			break;
		}
		c.seen[i] = 1;
	}
	for (uint32_t i = 0; i < q->cap_node; i++)
		c.bad += !c.seen[i];
	free(c.seen);
	return c.bad;
}
