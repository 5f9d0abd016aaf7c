/*
 * test/bench/evq_bench.c - the measurement that chose the pending-event set.
 *
 * Runs the classic "hold" model on the PHOLD delay distribution against
 * several pending-event sets that share core/evq.h's entry type and ordering
 * key (evq_entry, evq_key_lt: (time, tie = dst<<32|src, seq)):
 *
 *   binheap        binary heap, inline keys (this file)
 *   4ary           4-ary heap, inline keys: core/evq.c before the ladder
 *                  queue replaced it, kept here as the baseline (this file)
 *   4ary-al        the same 4-ary heap with each node's children group
 *                  starting on a cache line (LaMarca & Ladner 1996 padding)
 *   calendar       calendar queue, Brown 1988: resizes bucket count and
 *                  width, buckets are lists sorted by the full key
 *   ladder (core)  core/evq.c itself: evq_push / evq_pop, the ladder queue
 *                  (Tang, Goh & Thng 2005) the engine runs on
 *
 * Workload: prefill N events, run N untimed hold operations (so the pending
 * set reaches its steady state), then time `ops` hold operations
 * {pop min; push one event at popped time + 100 ps + Exp(900 ps)}, with
 * dst/src uniform in [0, 4096) and seq incrementing.  Events come from an
 * evpool with the owner tags a real engine sets.  All random draws come from
 * splitmix64 with a fixed seed and are generated before timing, so every run
 * of every implementation sees the same stream and the loop times only the
 * queue (plus pool get/put, identical for all).
 *
 * Correctness first: one untimed run per implementation and N checks that
 * pops come out in strictly increasing key order, and compares a checksum of
 * the popped keys (hold phase, then a full drain) across implementations;
 * any difference prints an error and exits 1.  Every timed run's checksum
 * must match too.  Then each implementation runs `reps` times per N (the
 * implementations interleaved, so drift on a shared machine hits all of
 * them alike) and the median ns per hold operation is reported.
 *
 * Time-bucketed queues and integer picoseconds: at N = 1M the PHOLD density
 * is ~1000 pending events per picosecond, so no bucket width of >= 1 ps can
 * keep buckets short.  The core ladder buckets on time alone and sorts a
 * bucket whose events share one time by the full key (no assumption about
 * ids or time range).  The calendar queue here instead buckets on a "fine
 * time" that orders like the key's (time, dst) prefix,
 * time * 4096 + min(dst, 4095), i.e. 1/4096 ps for 12-bit component ids;
 * it saturates above 2^52 ps (~75 simulated minutes), beyond which the
 * calendar would degrade.  That is acceptable for a comparator, not for core.
 *
 * Usage: evq_bench [--ops N] [--reps R] [--quick]  (defaults: 500000, 5)
 * Built by the Makefile as build/<variant>/bench/evq_bench.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/evpool.h"
#include "core/evq.h"
#include "core/xmalloc.h"

#define LOOKAHEAD_PS 100
#define MEAN_PS 1000
#define NCOMP 4096
#define SEED 0x5eed0fcafe2024ull
#define DEFAULT_OPS 500000
#define DEFAULT_REPS 5
#define MAX_SIZES 4

#define FINE_BITS 12
#define FINE_MASK ((UINT64_C(1) << FINE_BITS) - 1)
#define NIL UINT32_MAX

/* ---------------------------------------------------------------- common */

/* One pending-event set under test, called only through these pointers. */
typedef struct bq_ops bq_ops;
struct bq_ops {
	const char *name;                      /* column title */
	void *(*create)(void);                 /* a new empty queue */
	void (*destroy)(void *q);              /* free the queue, not the events */
	void (*push)(void *q, cxl_event *ev);  /* insert; key fields set */
	cxl_event *(*pop)(void *q);            /* remove the minimum; not empty */
};

/* One pre-drawn random step of the hold model. */
typedef struct draw draw;
struct draw {
	uint32_t delay; /* lookahead + Exp(mean - lookahead), ps */
	uint16_t dst;   /* destination component, [0, NCOMP) */
	uint16_t src;   /* source component, [0, NCOMP) */
};

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* fine_time - a 64-bit time that orders like (time, dst); see file top. */
static inline uint64_t fine_time(const evq_entry *e)
{
	uint64_t dst = e->tie >> 32;

	if (e->time > (UINT64_MAX >> FINE_BITS))
		return UINT64_MAX;
	return e->time << FINE_BITS | (dst < FINE_MASK ? dst : FINE_MASK);
}

/* Growable array of evq_entry, shared by the queues built on arrays. */
typedef struct entvec entvec;
struct entvec {
	evq_entry *a; /* entries */
	size_t n;     /* in use */
	size_t cap;   /* allocated */
};

static void entvec_push(entvec *v, evq_entry e)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->a = xrealloc(v->a, v->cap * sizeof(*v->a));
	}
	v->a[v->n++] = e;
}

/* ----------------------------------------- d-ary heap sifts (a), (b), (c) */

/*
 * One pair of sift loops for every heap here; `d` is a constant at each call
 * site, so the compiler specialises them (same code as hand-written loops).
 */
static inline void dheap_up(evq_entry *a, size_t i, evq_entry e, size_t d)
{
	while (i > 0) {
		size_t parent = (i - 1) / d;
		if (!evq_key_lt(&e, &a[parent]))
			break;
		a[i] = a[parent];
		i = parent;
	}
	a[i] = e;
}

/* Remove a[0] from a heap of n + 1 entries (n after removal); returns its event. */
static inline cxl_event *dheap_pop(evq_entry *a, size_t n, size_t d)
{
	cxl_event *top = a[0].ev;
	evq_entry last = a[n];
	size_t i = 0, c;

	while ((c = d * i + 1) < n) {
		size_t best = c, end = c + d < n ? c + d : n;
		for (size_t k = c + 1; k < end; k++)
			if (evq_key_lt(&a[k], &a[best]))
				best = k;
		if (!evq_key_lt(&a[best], &last))
			break;
		a[i] = a[best];
		i = best;
	}
	if (n)
		a[i] = last;
	return top;
}

/* ----------------------------------------------- (a) binary heap, inline */

static void *bh_create(void)
{
	return xcalloc(1, sizeof(entvec));
}

static void bh_destroy(void *qp)
{
	entvec *q = qp;

	free(q->a);
	free(q);
}

static void bh_push(void *qp, cxl_event *ev)
{
	entvec *q = qp;
	evq_entry e = evq_entry_of(ev);

	entvec_push(q, e);
	dheap_up(q->a, q->n - 1, e, 2);
}

static cxl_event *bh_pop(void *qp)
{
	entvec *q = qp;

	return dheap_pop(q->a, --q->n, 2);
}

/* ---------------------------------- (b) 4-ary heap, inline keys */

/*
 * The pending-event set core/evq.c used before the ladder queue (the same
 * sift loops; the array is the shared entvec): children of i are
 * 4i+1 .. 4i+4.
 */
static void q4_push(void *qp, cxl_event *ev)
{
	entvec *q = qp;
	evq_entry e = evq_entry_of(ev);

	entvec_push(q, e);
	dheap_up(q->a, q->n - 1, e, 4);
}

static cxl_event *q4_pop(void *qp)
{
	entvec *q = qp;

	return dheap_pop(q->a, --q->n, 4);
}

/* ------------------------------- 4-ary heap, children on a cache line */

/*
 * Same algorithm as (b), but the array is 128-byte aligned and
 * entry k lives in slot k + 3, so the children 4i+1..4i+4 of node i occupy
 * bytes [128(i+1), 128(i+2)): exactly two 64-byte lines instead of three.
 */
typedef struct aheap aheap;
struct aheap {
	evq_entry *base; /* aligned allocation */
	evq_entry *a;    /* base + 3: the heap, a[0] is the minimum */
	size_t n;        /* entries in use */
	size_t cap;      /* capacity of a */
};

static void *ah_create(void)
{
	return xcalloc(1, sizeof(aheap));
}

static void ah_destroy(void *qp)
{
	aheap *q = qp;

	free(q->base);
	free(q);
}

static void ah_grow(aheap *q)
{
	size_t cap = q->cap ? 2 * q->cap : 1024;
	void *p;

	if (posix_memalign(&p, 128, (cap + 3) * sizeof(evq_entry)))
		abort();
	if (q->n)
		memcpy((evq_entry *)p + 3, q->a, q->n * sizeof(evq_entry));
	free(q->base);
	q->base = p;
	q->a = q->base + 3;
	q->cap = cap;
}

static void ah_push(void *qp, cxl_event *ev)
{
	aheap *q = qp;

	if (q->n == q->cap)
		ah_grow(q);
	dheap_up(q->a, q->n++, evq_entry_of(ev), 4);
}

static cxl_event *ah_pop(void *qp)
{
	aheap *q = qp;

	return dheap_pop(q->a, --q->n, 4);
}

/* ---------------------------------------------- list nodes for calendar */

typedef struct qnode qnode;
struct qnode {
	evq_entry e;   /* key and event */
	uint64_t v;    /* fine_time(&e), cached */
	uint32_t next; /* next node index in its list, NIL at the end */
};

/* Index-linked node store with a free list; indices survive growth. */
typedef struct npool npool;
struct npool {
	qnode *n;      /* nodes */
	uint32_t cap;  /* allocated nodes */
	uint32_t free; /* free-list head, NIL if none */
};

static uint32_t np_alloc(npool *p, cxl_event *ev)
{
	if (p->free == NIL) {
		uint32_t old = p->cap;
		p->cap = old ? 2 * old : 1024;
		p->n = xrealloc(p->n, (size_t)p->cap * sizeof(*p->n));
		for (uint32_t i = p->cap; i-- > old;) {
			p->n[i].next = p->free;
			p->free = i;
		}
	}
	uint32_t i = p->free;
	qnode *nd = &p->n[i];
	p->free = nd->next;
	nd->e = evq_entry_of(ev);
	nd->v = fine_time(&nd->e);
	return i;
}

static void np_free(npool *p, uint32_t i)
{
	p->n[i].next = p->free;
	p->free = i;
}

/* list_insert_sorted - link node @i into the key-sorted list at @head. */
static void list_insert_sorted(qnode *n, uint32_t *head, uint32_t i)
{
	uint32_t *pp = head;

	while (*pp != NIL && !evq_key_lt(&n[i].e, &n[*pp].e))
		pp = &n[*pp].next;
	n[i].next = *pp;
	*pp = i;
}

static uint32_t *heads_new(size_t nb)
{
	uint32_t *h = xmalloc(nb * sizeof(*h));

	for (size_t i = 0; i < nb; i++)
		h[i] = NIL;
	return h;
}

/* -------------------------------------------- (c) calendar queue, Brown */

/*
 * Invariant: `last` <= the fine time of every queued event, and `last` lies
 * in the window [top - width, top) of bucket `cur`.  A bucket's head is the
 * global minimum when its fine time is below `top`.
 */
typedef struct calq calq;
struct calq {
	npool np;       /* nodes */
	uint32_t *head; /* per-bucket key-sorted lists */
	size_t nb;      /* bucket count, a power of two */
	uint64_t width; /* bucket width, fine-time units */
	size_t size;    /* events queued */
	size_t cur;     /* bucket of the dequeue cursor */
	uint64_t top;   /* end of the cursor bucket's window, fine time */
	uint64_t last;  /* fine time of the last dequeue (or earlier push) */
	int resizing;   /* no nested resize while set */
};

static void cq_locate(calq *q, uint64_t v)
{
	q->cur = (v / q->width) & (q->nb - 1);
	q->top = (v / q->width + 1) * q->width;
}

static void cq_link(calq *q, uint32_t i)
{
	size_t b = (q->np.n[i].v / q->width) & (q->nb - 1);

	list_insert_sorted(q->np.n, &q->head[b], i);
}

static void *cq_create(void)
{
	calq *q = xcalloc(1, sizeof(*q));

	q->np.free = NIL;
	q->nb = 2;
	q->head = heads_new(q->nb);
	q->width = UINT64_C(1) << FINE_BITS;
	cq_locate(q, 0);
	return q;
}

static void cq_destroy(void *qp)
{
	calq *q = qp;

	free(q->np.n);
	free(q->head);
	free(q);
}

/* cq_direct - Brown's fallback when a whole year is empty: global min. */
static uint32_t cq_direct(calq *q)
{
	size_t best = q->nb;

	for (size_t b = 0; b < q->nb; b++) {
		uint32_t h = q->head[b];
		if (h != NIL && (best == q->nb ||
				 evq_key_lt(&q->np.n[h].e, &q->np.n[q->head[best]].e)))
			best = b;
	}
	cq_locate(q, q->np.n[q->head[best]].v);
	return q->head[best];
}

/* cq_take - unlink the minimum node (size unchanged); queue not empty. */
static uint32_t cq_take(calq *q)
{
	qnode *n = q->np.n;

	for (size_t k = 0; k < q->nb; k++) {
		uint32_t h = q->head[q->cur];
		if (h != NIL && n[h].v < q->top) {
			q->head[q->cur] = n[h].next;
			q->last = n[h].v;
			return h;
		}
		q->cur = (q->cur + 1) & (q->nb - 1);
		q->top += q->width;
	}
	uint32_t h = cq_direct(q);
	q->head[q->cur] = n[h].next;
	q->last = n[h].v;
	return h;
}

/*
 * cq_new_width - Brown's estimate: three times the mean separation of the
 * first few events, ignoring separations above twice the first mean.
 */
static uint64_t cq_new_width(calq *q)
{
	size_t ns = q->size <= 5 ? q->size : 5 + q->size / 10;
	uint32_t s[25];

	ns = ns > 25 ? 25 : ns;
	if (ns < 2)
		return q->width;
	for (size_t i = 0; i < ns; i++)
		s[i] = cq_take(q);
	qnode *n = q->np.n;
	double mean = (double)(n[s[ns - 1]].v - n[s[0]].v) / (double)(ns - 1);
	double sum = 0;
	size_t cnt = 0;
	for (size_t i = 1; i < ns; i++) {
		uint64_t d = n[s[i]].v - n[s[i - 1]].v;
		if ((double)d <= 2 * mean) {
			sum += (double)d;
			cnt++;
		}
	}
	q->last = n[s[0]].v;
	cq_locate(q, q->last);
	for (size_t i = 0; i < ns; i++)
		cq_link(q, s[i]);
	double w = cnt ? 3 * sum / (double)cnt : 0;
	return w < 1 ? 1 : (uint64_t)(w + 0.5);
}

static void cq_resize(calq *q, size_t nb)
{
	uint32_t *old = q->head;
	size_t onb = q->nb;

	q->resizing = 1;
	uint64_t w = cq_new_width(q);
	q->head = heads_new(nb);
	q->nb = nb;
	q->width = w;
	for (size_t b = 0; b < onb; b++) {
		for (uint32_t i = old[b], next; i != NIL; i = next) {
			next = q->np.n[i].next;
			cq_link(q, i);
		}
	}
	free(old);
	cq_locate(q, q->last);
	q->resizing = 0;
}

static void cq_push(void *qp, cxl_event *ev)
{
	calq *q = qp;
	uint32_t i = np_alloc(&q->np, ev);

	if (q->np.n[i].v < q->last) {
		q->last = q->np.n[i].v;
		cq_locate(q, q->last);
	}
	cq_link(q, i);
	if (++q->size > 2 * q->nb && !q->resizing)
		cq_resize(q, 2 * q->nb);
}

static cxl_event *cq_pop(void *qp)
{
	calq *q = qp;
	uint32_t i = cq_take(q);
	cxl_event *ev = q->np.n[i].e.ev;

	np_free(&q->np, i);
	if (--q->size < q->nb / 2 && q->nb > 2 && !q->resizing)
		cq_resize(q, q->nb / 2);
	return ev;
}

/* ------------------------------------ (d) core/evq.c, the ladder queue */

static void *lq_create(void)
{
	evq *q = xmalloc(sizeof(*q));

	evq_init(q);
	return q;
}

static void lq_destroy(void *qp)
{
	evq_destroy(qp);
	free(qp);
}

static void lq_push(void *qp, cxl_event *ev)
{
	evq_push(qp, ev);
}

static cxl_event *lq_pop(void *qp)
{
	return evq_pop(qp);
}

/* ------------------------------------------------------- the registry */

static const bq_ops impls[] = {
	{ "binheap", bh_create, bh_destroy, bh_push, bh_pop },
	{ "4ary", bh_create, bh_destroy, q4_push, q4_pop },
	{ "4ary-al", ah_create, ah_destroy, ah_push, ah_pop },
	{ "calendar", cq_create, cq_destroy, cq_push, cq_pop },
	{ "ladder (core)", lq_create, lq_destroy, lq_push, lq_pop },
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))
#define REF_IMPL 1 /* the 4-ary heap core used before: the baseline */

/* ------------------------------------------------------- the hold model */

/* State of one run of the hold model. */
typedef struct hold hold;
struct hold {
	const bq_ops *ops; /* queue under test */
	void *q;           /* the queue */
	evpool pool;       /* events */
	uint64_t seq;      /* next sequence number */
	uint64_t sum;      /* order-sensitive checksum of popped keys */
	evq_entry prev;    /* last popped key (order check) */
	uint64_t bad;      /* order or owner violations seen */
};

static void hold_send(hold *h, sim_time now, const draw *d)
{
	cxl_event *ev = evpool_get(&h->pool, CXL_OWN_QUEUE);

	ev->time = now + d->delay;
	ev->dst = d->dst;
	ev->src = d->src;
	ev->seq = h->seq++;
	h->ops->push(h->q, ev);
}

static cxl_event *hold_pop(hold *h)
{
	cxl_event *ev = h->ops->pop(h->q);
	uint64_t x = ev->time ^ (((uint64_t)ev->dst << 32 | ev->src) *
				 0x9e3779b97f4a7c15ull) ^ (ev->seq * 0xc2b2ae3d27d4eb4full);

	h->sum = h->sum * 0x100000001b3ull + x;
	h->bad += ev->owner != CXL_OWN_QUEUE;
	ev->owner = CXL_OWN_HANDLER;
	return ev;
}

/* hold_step - one hold operation: pop, send one new event, free the old. */
static inline void hold_step(hold *h, const draw *d)
{
	cxl_event *ev = hold_pop(h);

	hold_send(h, ev->time, d);
	evpool_put(&h->pool, ev);
}

static void hold_check_order(hold *h, cxl_event *ev)
{
	evq_entry e = evq_entry_of(ev);

	h->bad += h->prev.ev && !evq_key_lt(&h->prev, &e);
	h->prev = e;
}

static void hold_start(hold *h, const bq_ops *ops, const draw *dr, size_t n)
{
	*h = (hold){ .ops = ops, .q = ops->create() };
	evpool_init(&h->pool);
	for (size_t i = 0; i < n; i++)
		hold_send(h, 0, &dr[i]);
	for (size_t i = 0; i < n; i++)
		hold_step(h, &dr[n + i]);
}

static void hold_end(hold *h)
{
	h->ops->destroy(h->q);
	evpool_destroy(&h->pool);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* hold_timed - one timed run; returns ns per hold op, OUT checksum. */
static double hold_timed(const bq_ops *ops, const draw *dr, size_t n,
			 size_t nops, uint64_t *sum)
{
	hold h;

	hold_start(&h, ops, dr, n);
	const draw *d = dr + 2 * n;
	double t0 = now_ns();
	for (size_t i = 0; i < nops; i++)
		hold_step(&h, &d[i]);
	double t1 = now_ns();
	*sum = h.sum;
	hold_end(&h);
	return (t1 - t0) / (double)nops;
}

/* Result of one verification run. */
typedef struct vres vres;
struct vres {
	uint64_t sum_hold; /* checksum after the hold phase */
	uint64_t sum_all;  /* checksum after draining */
	uint64_t bad;      /* order/owner violations */
};

static vres hold_verify(const bq_ops *ops, const draw *dr, size_t n,
			size_t nops)
{
	hold h;
	vres r;

	hold_start(&h, ops, dr, n);
	for (size_t i = 0; i < nops; i++) {
		cxl_event *ev = hold_pop(&h);
		hold_check_order(&h, ev);
		hold_send(&h, ev->time, &dr[2 * n + i]);
		evpool_put(&h.pool, ev);
	}
	r.sum_hold = h.sum;
	for (size_t i = 0; i < n; i++) {
		cxl_event *ev = hold_pop(&h);
		hold_check_order(&h, ev);
		evpool_put(&h.pool, ev);
	}
	r.sum_all = h.sum;
	r.bad = h.bad + h.pool.live;
	hold_end(&h);
	return r;
}

/* ---------------------------------------------------------------- driver */

/* Command-line settings. */
typedef struct bcfg bcfg;
struct bcfg {
	size_t ops;               /* timed hold operations per repetition */
	size_t reps;              /* timed repetitions per implementation and N */
	size_t sizes[MAX_SIZES];  /* pending-set sizes */
	size_t nsizes;            /* entries in sizes */
};

static draw *make_draws(size_t count)
{
	draw *d = xmalloc(count * sizeof(*d));
	uint64_t s = SEED;
	double scale = MEAN_PS - LOOKAHEAD_PS;

	for (size_t i = 0; i < count; i++) {
		uint64_t r = splitmix64(&s);
		double u = (double)((splitmix64(&s) >> 11) + 1) * 0x1p-53;
		d[i].dst = r % NCOMP;
		d[i].src = (r >> 16) % NCOMP;
		d[i].delay = LOOKAHEAD_PS + (uint32_t)(-log(u) * scale + 0.5);
	}
	return d;
}

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--ops N] [--reps R] [--quick]\n", argv0);
	return 2;
}

static int parse_args(int argc, char **argv, bcfg *c)
{
	*c = (bcfg){ DEFAULT_OPS, DEFAULT_REPS, { 4096, 65536, 1048576 }, 3 };
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--quick"))
			*c = (bcfg){ 20000, 3, { 1024, 4096 }, 2 };
	for (int i = 1; i < argc; i++) {
		int is_ops = !strcmp(argv[i], "--ops");
		char *end;
		if (!strcmp(argv[i], "--quick"))
			continue;
		if ((!is_ops && strcmp(argv[i], "--reps")) || i + 1 >= argc)
			return usage(argv[0]);
		unsigned long long v = strtoull(argv[++i], &end, 10);
		if (*end || v == 0)
			return usage(argv[0]);
		*(is_ops ? &c->ops : &c->reps) = (size_t)v;
	}
	return 0;
}

static int verify_size(const draw *dr, size_t n, size_t nops)
{
	vres ref = hold_verify(&impls[REF_IMPL], dr, n, nops);
	int bad = 0;

	for (size_t k = 0; k < NIMPL; k++) {
		vres r = k == REF_IMPL ? ref : hold_verify(&impls[k], dr, n, nops);
		if (r.bad || r.sum_all != ref.sum_all || r.sum_hold != ref.sum_hold) {
			fprintf(stderr,
				"evq_bench: error: N=%zu %s: checksum %016" PRIx64
				" (4ary %016" PRIx64 "), %" PRIu64 " order/owner errors\n",
				n, impls[k].name, r.sum_all, ref.sum_all, r.bad);
			bad = 1;
		}
	}
	if (!bad)
		printf("verify N=%-8zu all %zu implementations pop the same %zu keys "
		       "(checksum %016" PRIx64 ")\n", n, NIMPL, nops + 2 * n, ref.sum_all);
	return bad;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* time_size - medians (OUT med[NIMPL]) and spreads (OUT spr, %) at one N. */
static int time_size(const bcfg *c, const draw *dr, size_t n, double *med,
		     double *spr)
{
	double *t = xmalloc(NIMPL * c->reps * sizeof(*t));
	uint64_t ref = 0, sum;

	for (size_t rep = 0; rep < c->reps; rep++) {
		for (size_t k = 0; k < NIMPL; k++) {
			t[k * c->reps + rep] = hold_timed(&impls[k], dr, n, c->ops, &sum);
			ref = rep == 0 && k == 0 ? sum : ref;
			if (sum != ref) {
				fprintf(stderr, "evq_bench: error: N=%zu %s: timed "
					"run checksum differs\n", n, impls[k].name);
				free(t);
				return 1;
			}
		}
	}
	for (size_t k = 0; k < NIMPL; k++) {
		double *x = &t[k * c->reps];
		qsort(x, c->reps, sizeof(*x), cmp_double);
		med[k] = c->reps % 2 ? x[c->reps / 2] :
				       (x[c->reps / 2 - 1] + x[c->reps / 2]) / 2;
		spr[k] = 100 * (x[c->reps - 1] - x[0]) / med[k];
	}
	free(t);
	return 0;
}

static void print_row(size_t n, const double *v, const char *fmt, int fastest)
{
	size_t best = 0;

	printf("%9zu", n);
	for (size_t k = 0; k < NIMPL; k++) {
		printf(fmt, v[k]);
		best = v[k] < v[best] ? k : best;
	}
	if (fastest)
		printf("  %-13s %+6.1f%%", impls[best].name,
		       100 * (v[best] - v[REF_IMPL]) / v[REF_IMPL]);
	printf("\n");
}

static void print_header(const char *last)
{
	printf("%9s", "N");
	for (size_t k = 0; k < NIMPL; k++)
		printf("%14s", impls[k].name);
	printf("  %s\n", last);
}

/**
 * main - verify every implementation, then time them and print the tables.
 * @argc: argument count
 * @argv: [--ops N] [--reps R] [--quick]; --quick is a small smoke test
 *
 * Return: 0, 1 if the implementations disagree, 2 on a bad command line.
 * With the defaults (500000 ops, 5 reps) a run takes ~50 s on 2 cores.
 */
int main(int argc, char **argv)
{
	bcfg c;
	double med[MAX_SIZES][NIMPL], spr[MAX_SIZES][NIMPL];

	if (parse_args(argc, argv, &c))
		return 2;
	size_t maxn = c.sizes[c.nsizes - 1];
	draw *dr = make_draws(2 * maxn + c.ops);
	printf("evq_bench: hold model, lookahead %d ps, mean %d ps, dst/src in "
	       "[0,%d), %zu timed ops x %zu reps after N warm-up ops\n",
	       LOOKAHEAD_PS, MEAN_PS, NCOMP, c.ops, c.reps);
	for (size_t s = 0; s < c.nsizes; s++) {
		if (verify_size(dr, c.sizes[s], c.ops))
			return 1;
	}
	for (size_t s = 0; s < c.nsizes; s++) {
		if (time_size(&c, dr, c.sizes[s], med[s], spr[s]))
			return 1;
	}
	printf("\nmedian ns per hold operation (pop + push)\n");
	print_header("fastest       vs 4ary");
	for (size_t s = 0; s < c.nsizes; s++)
		print_row(c.sizes[s], med[s], "%14.1f", 1);
	printf("\nspread (max - min) / median, %%\n");
	print_header("");
	for (size_t s = 0; s < c.nsizes; s++)
		print_row(c.sizes[s], spr[s], "%14.1f", 0);
	free(dr);
	return 0;
}
