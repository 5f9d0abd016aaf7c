/*
 * test/core/test_evq.c - unit tests for the pending-event set (core/evq.c).
 *
 * What is checked: the empty queue, ordering by each key field on its own
 * (time, then dst, then src, then seq: equal timestamps order by dst, then
 * src, then seq), the extreme times 0 and SIM_TIME_MAX - 1, a seeded random
 * mix of pushes and pops checked against qsort of the same keys with
 * evq_check() == 0 after every operation, independence from insertion order,
 * growth beyond the initial capacity, and that evq_check() notices damage
 * (owner, stale time / wrong bucket, bottom order, count, cached minimum,
 * a lost node), and that a push of an event not tagged CXL_OWN_QUEUE and a
 * pop of an empty queue panic (SIGABRT).
 *
 * The ladder queue's tricky cases (TCase "ladder"): thousands of events with
 * one time (a bucket no width can split, sorted by the full key), such a
 * crowd inside a wide spread (split by rungs down to one time), times over
 * the whole range (0, 1, 2^40, SIM_TIME_MAX - 1 with ties, random 64-bit),
 * pushes before the current minimum after pops (zero-delay sends, early
 * remote events, time 0), a small set whose pushes go into the sorted run
 * on both sides of its middle, fill/drain/refill cycles that must reuse the
 * first cycle's storage, and destroy with events still queued.  The
 * random TCase adds 1e5 interleaved pushes and pops per distribution
 * (exponential hold-like, uniform over 64 bits, all equal, bimodal), the
 * queue growing then shrinking, checked pop by pop against a reference of
 * qsorted, merged keys, with evq_check() == 0 every 1000 operations.
 *
 * Events come from an evpool, tagged CXL_OWN_QUEUE while queued as the
 * engine does.  Every test gets a fresh pool and queue from the checked
 * fixture (CK_FORK isolates tests); randomness is splitmix64 with a seed
 * fixed in the test.
 */
#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/event.h"
#include "core/evpool.h"
#include "core/evq.h"
#include "test/core/panic_fixture.h"

static evpool pool; /* fixture: events for the test */
static evq q;       /* fixture: the queue under test */

static void setup(void)
{
	evpool_init(&pool);
	evq_init(&q);
}

static void teardown(void)
{
	evq_destroy(&q);
	evpool_destroy(&pool);
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* new_event - an event from the fixture pool with the given key. */
static cxl_event *new_event(sim_time t, uint32_t dst, uint32_t src, uint64_t seq)
{
	cxl_event *ev = evpool_get(&pool, CXL_OWN_QUEUE);

	ev->time = t;
	ev->dst = dst;
	ev->src = src;
	ev->seq = seq;
	return ev;
}

static void push_key(sim_time t, uint32_t dst, uint32_t src, uint64_t seq)
{
	evq_push(&q, new_event(t, dst, src, seq));
}

/* pop_expect - pop and check the key is (t, dst, src, seq). */
static void pop_expect(sim_time t, uint32_t dst, uint32_t src, uint64_t seq)
{
	ck_assert_uint_gt(evq_size(&q), 0);
	ck_assert_uint_eq(evq_peek_time(&q), t);
	cxl_event *ev = evq_pop(&q);
	ck_assert_uint_eq(ev->time, t);
	ck_assert_uint_eq(ev->dst, dst);
	ck_assert_uint_eq(ev->src, src);
	ck_assert_uint_eq(ev->seq, seq);
	ck_assert_uint_eq(ev->owner, CXL_OWN_QUEUE);
	ck_assert_uint_eq(evq_check(&q), 0);
	evpool_put(&pool, ev);
}

START_TEST(test_evq_empty)
{
	ck_assert_uint_eq(evq_size(&q), 0);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
	ck_assert_uint_eq(evq_check(&q), 0);
	push_key(5, 1, 1, 1);
	pop_expect(5, 1, 1, 1);
	ck_assert_uint_eq(evq_size(&q), 0);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
}
END_TEST

/* Later fields are set against the order so only `time` can decide. */
START_TEST(test_evq_order_time)
{
	push_key(30, 0, 0, 0);
	push_key(10, 9, 9, 9);
	push_key(20, 5, 5, 5);
	pop_expect(10, 9, 9, 9);
	pop_expect(20, 5, 5, 5);
	pop_expect(30, 0, 0, 0);
}
END_TEST

START_TEST(test_evq_order_dst)
{
	push_key(7, 3, 0, 0);
	push_key(7, 1, 9, 9);
	push_key(7, 2, 5, 5);
	push_key(7, UINT32_MAX, 0, 0);
	push_key(7, 0, UINT32_MAX, UINT64_MAX);
	pop_expect(7, 0, UINT32_MAX, UINT64_MAX);
	pop_expect(7, 1, 9, 9);
	pop_expect(7, 2, 5, 5);
	pop_expect(7, 3, 0, 0);
	pop_expect(7, UINT32_MAX, 0, 0);
}
END_TEST

START_TEST(test_evq_order_src)
{
	push_key(7, 4, 3, 0);
	push_key(7, 4, 1, 9);
	push_key(7, 4, 2, 5);
	push_key(7, 4, UINT32_MAX, 0);
	push_key(7, 4, 0, UINT64_MAX);
	pop_expect(7, 4, 0, UINT64_MAX);
	pop_expect(7, 4, 1, 9);
	pop_expect(7, 4, 2, 5);
	pop_expect(7, 4, 3, 0);
	pop_expect(7, 4, UINT32_MAX, 0);
}
END_TEST

START_TEST(test_evq_order_seq)
{
	push_key(7, 4, 2, 30);
	push_key(7, 4, 2, 10);
	push_key(7, 4, 2, UINT64_MAX);
	push_key(7, 4, 2, 0);
	push_key(7, 4, 2, 20);
	pop_expect(7, 4, 2, 0);
	pop_expect(7, 4, 2, 10);
	pop_expect(7, 4, 2, 20);
	pop_expect(7, 4, 2, 30);
	pop_expect(7, 4, 2, UINT64_MAX);
}
END_TEST

START_TEST(test_evq_max_time)
{
	push_key(SIM_TIME_MAX - 1, 0, 0, 0);
	push_key(0, 1, 1, 1);
	push_key(SIM_TIME_MAX - 1, 0, 0, 1);
	ck_assert_uint_eq(evq_check(&q), 0);
	pop_expect(0, 1, 1, 1);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX - 1);
	pop_expect(SIM_TIME_MAX - 1, 0, 0, 0);
	pop_expect(SIM_TIME_MAX - 1, 0, 0, 1);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
}
END_TEST

static int entry_cmp(const void *a, const void *b)
{
	const evq_entry *x = a, *y = b;

	return evq_key_lt(x, y) ? -1 : evq_key_lt(y, x) ? 1 : 0;
}

/* random_event - a key from a narrow range so all fields tie often. */
static cxl_event *random_event(uint64_t *rng, uint64_t *counter)
{
	uint64_t r = splitmix64(rng);
	sim_time t = r % 64;
	uint32_t dst = (r >> 8) % 4, src = (r >> 16) % 4;

	if ((r >> 24) % 64 == 0)
		t = (r >> 30) % 2 ? SIM_TIME_MAX - 1 : 0;
	if ((r >> 32) % 64 == 0)
		dst = UINT32_MAX;
	/* unique (a source never reuses a seq) but not in push order */
	return new_event(t, dst, src, (*counter)++ * 0x9e3779b97f4a7c15ull);
}

/* Reference: the queued keys; each round's pops are the qsort prefix. */
typedef struct refset refset;
struct refset {
	evq_entry *a; /* queued keys, any order */
	size_t n;     /* keys in a */
};

static void random_round(refset *ref, uint64_t *rng, uint64_t *counter)
{
	size_t npush = splitmix64(rng) % 80, npop = splitmix64(rng) % 65;

	for (size_t i = 0; i < npush; i++) {
		cxl_event *ev = random_event(rng, counter);
		ref->a[ref->n++] = evq_entry_of(ev);
		evq_push(&q, ev);
		ck_assert_uint_eq(evq_check(&q), 0);
	}
	qsort(ref->a, ref->n, sizeof(*ref->a), entry_cmp);
	npop = npop < ref->n ? npop : ref->n;
	for (size_t i = 0; i < npop; i++) {
		const evq_entry *e = &ref->a[i];
		pop_expect(e->time, e->tie >> 32, (uint32_t)e->tie, e->seq);
	}
	ref->n -= npop;
	memmove(ref->a, ref->a + npop, ref->n * sizeof(*ref->a));
	ck_assert_uint_eq(evq_size(&q), ref->n);
}

START_TEST(test_evq_random_vs_qsort)
{
	enum { ROUNDS = 200, MAXKEYS = ROUNDS * 80 };
	refset ref = { malloc(MAXKEYS * sizeof(evq_entry)), 0 };
	uint64_t rng = 0xc0ffee1234ull, counter = 0;

	ck_assert_ptr_nonnull(ref.a);
	for (int r = 0; r < ROUNDS; r++)
		random_round(&ref, &rng, &counter);
	ck_assert_uint_gt(evq_size(&q), 1000);
	qsort(ref.a, ref.n, sizeof(*ref.a), entry_cmp);
	for (size_t i = 0; i < ref.n; i++) {
		const evq_entry *e = &ref.a[i];
		pop_expect(e->time, e->tie >> 32, (uint32_t)e->tie, e->seq);
	}
	ck_assert_uint_eq(evq_size(&q), 0);
	free(ref.a);
}
END_TEST

/* drain - pop everything into @out (n events). */
static void drain(cxl_event **out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = evq_pop(&q);
	ck_assert_uint_eq(evq_size(&q), 0);
}

START_TEST(test_evq_insertion_order_independent)
{
	enum { N = 3000 };
	static cxl_event *ev[N], *first[N], *second[N];
	uint64_t rng = 42, counter = 0;

	for (size_t i = 0; i < N; i++)
		ev[i] = random_event(&rng, &counter);
	for (size_t i = 0; i < N; i++)
		evq_push(&q, ev[i]);
	drain(first, N);
	for (size_t i = N; i-- > 0;)
		evq_push(&q, ev[i]);
	ck_assert_uint_eq(evq_check(&q), 0);
	drain(second, N);
	for (size_t i = 0; i < N; i++)
		ck_assert_ptr_eq(first[i], second[i]);
	for (size_t i = N; i > 1; i--) {
		size_t j = splitmix64(&rng) % i;
		cxl_event *t = ev[i - 1];
		ev[i - 1] = ev[j];
		ev[j] = t;
	}
	for (size_t i = 0; i < N; i++)
		evq_push(&q, ev[i]);
	drain(second, N);
	for (size_t i = 0; i < N; i++)
		ck_assert_ptr_eq(first[i], second[i]);
}
END_TEST

START_TEST(test_evq_growth)
{
	enum { N = 20000 };
	uint64_t rng = 7;

	for (uint64_t i = 0; i < N; i++)
		push_key(splitmix64(&rng) % 1000, 0, 0, i);
	ck_assert_uint_eq(evq_size(&q), N);
	ck_assert_uint_ge(q.cap_node, N);
	ck_assert_uint_eq(evq_check(&q), 0);
	sim_time prev = 0;
	for (size_t i = 0; i < N; i++) {
		cxl_event *ev = evq_pop(&q);
		ck_assert_uint_ge(ev->time, prev);
		prev = ev->time;
		evpool_put(&pool, ev);
		if (i % 1000 == 0)
			ck_assert_uint_eq(evq_check(&q), 0);
	}
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
	ck_assert_uint_eq(evq_check(&q), 0);
}
END_TEST

/* first_in_rungs - some node in a bucket of a rung (the queue has rungs). */
static evq_node *first_in_rungs(void)
{
	for (size_t r = 0; r < q.nrungs; r++)
		for (size_t b = q.rung[r].cur; b < q.rung[r].nb; b++)
			if (q.rung[r].head[b] != EVQ_NIL)
				return &q.node[q.rung[r].head[b]];
	return NULL;
}

START_TEST(test_evq_check_finds_damage)
{
	uint64_t rng = 99;

	for (uint64_t i = 0; i < 5000; i++)
		push_key(splitmix64(&rng) % 500, 0, 0, i);
	evpool_put(&pool, evq_pop(&q));
	ck_assert_uint_eq(evq_check(&q), 0);
	ck_assert_uint_gt(q.nrungs, 0);
	ck_assert_uint_gt(q.run.n, 2);

	evq_node *nd = first_in_rungs();
	ck_assert_ptr_nonnull(nd);
	nd->ev->owner = CXL_OWN_HANDLER;
	ck_assert_uint_gt(evq_check(&q), 0);
	nd->ev->owner = CXL_OWN_QUEUE;
	ck_assert_uint_eq(evq_check(&q), 0);

	nd->time += (sim_time)1 << 30; /* wrong bucket, stale time */
	ck_assert_uint_gt(evq_check(&q), 0);
	nd->time -= (sim_time)1 << 30;
	ck_assert_uint_eq(evq_check(&q), 0);

	evq_entry t = q.run.a[0];
	q.run.a[0] = q.run.a[q.run.n - 1];
	q.run.a[q.run.n - 1] = t;
	ck_assert_uint_gt(evq_check(&q), 0);
	q.run.a[q.run.n - 1] = q.run.a[0];
	q.run.a[0] = t;
	ck_assert_uint_eq(evq_check(&q), 0);

	q.n++;
	ck_assert_uint_gt(evq_check(&q), 0);
	q.n--;
	q.min_time++;
	ck_assert_uint_gt(evq_check(&q), 0);
	q.min_time--;
	uint32_t lost = q.free_node;
	q.free_node = q.node[lost].next;
	ck_assert_uint_gt(evq_check(&q), 0);
	q.free_node = lost;
	ck_assert_uint_eq(evq_check(&q), 0);
}
END_TEST

/* Misuse panics (CXL_PANIC ends in abort()): the owner tag and an empty pop. */
START_TEST(test_evq_push_wrong_owner_panics)
{
	cxl_event *ev = new_event(1, 0, 0, 0);

	ev->owner = CXL_OWN_HANDLER;
	panict_expect("assertion failed: ev->owner == CXL_OWN_QUEUE");
	evq_push(&q, ev);
}
END_TEST

START_TEST(test_evq_pop_empty_panics)
{
	push_key(1, 0, 0, 0);
	evpool_put(&pool, evq_pop(&q));
	panict_expect("assertion failed: q->n > 0");
	evq_pop(&q);
}
END_TEST

/* --- the ladder's tricky cases ------------------------------------------- */

static int entry_cmp_desc(const void *a, const void *b)
{
	return -entry_cmp(a, b);
}

/*
 * Reference queue: the keys sorted descending (minimum at the end).  Each
 * batch of pushes is qsorted and merged in; pops take the end.
 */
typedef struct refq refq;
struct refq {
	evq_entry *a;   /* queued keys, descending */
	evq_entry *tmp; /* merge buffer */
	size_t n;       /* keys in a */
	size_t cap;     /* capacity of a and tmp */
};

static void refq_init(refq *r, size_t cap)
{
	*r = (refq){ malloc(cap * sizeof(evq_entry)), malloc(cap * sizeof(evq_entry)), 0, cap };
	ck_assert_ptr_nonnull(r->a);
	ck_assert_ptr_nonnull(r->tmp);
}

static void refq_free(refq *r)
{
	free(r->a);
	free(r->tmp);
}

/* refq_add - merge the @nb keys of @batch (sorted here) into @r. */
static void refq_add(refq *r, evq_entry *batch, size_t nb)
{
	size_t i = 0, j = 0, k = 0;

	ck_assert_uint_le(r->n + nb, r->cap);
	qsort(batch, nb, sizeof(*batch), entry_cmp_desc);
	while (i < r->n && j < nb)
		r->tmp[k++] = evq_key_lt(&r->a[i], &batch[j]) ? batch[j++] : r->a[i++];
	while (i < r->n)
		r->tmp[k++] = r->a[i++];
	while (j < nb)
		r->tmp[k++] = batch[j++];
	evq_entry *t = r->a;
	r->a = r->tmp;
	r->tmp = t;
	r->n = k;
}

/* pop_ref - pop the queue and check it against the reference's minimum. */
static cxl_event *pop_ref(refq *r)
{
	ck_assert_uint_gt(r->n, 0);
	const evq_entry *e = &r->a[--r->n];
	ck_assert_uint_eq(evq_peek_time(&q), e->time);
	cxl_event *ev = evq_pop(&q);
	ck_assert_ptr_eq(ev, e->ev);
	ck_assert_uint_eq(ev->owner, CXL_OWN_QUEUE);
	return ev;
}

/* drain_ref - pop everything, in the reference's order. */
static void drain_ref(refq *r)
{
	ck_assert_uint_eq(evq_size(&q), r->n);
	while (r->n)
		evpool_put(&pool, pop_ref(r));
	ck_assert_uint_eq(evq_size(&q), 0);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
	ck_assert_uint_eq(evq_check(&q), 0);
}

/* push_ref - push an event with this key to the queue and into @batch. */
static void push_ref(evq_entry *batch, size_t *nb, sim_time t, uint32_t dst, uint32_t src,
		     uint64_t seq)
{
	cxl_event *ev = new_event(t, dst, src, seq);

	batch[(*nb)++] = evq_entry_of(ev);
	evq_push(&q, ev);
}

/* Thousands of events with one time: the bucket that can't be split by time. */
START_TEST(test_evq_same_time_many)
{
	enum { N = 5000, MORE = 2000 };
	static evq_entry batch[N + MORE];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 5;

	refq_init(&ref, N + MORE);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t r = splitmix64(&rng);
		push_ref(batch, &nb, 777, r % 16, (r >> 8) % 16, i * 0x9e3779b97f4a7c15ull);
	}
	refq_add(&ref, batch, nb);
	ck_assert_uint_eq(evq_check(&q), 0);
	for (int i = 0; i < 100; i++)
		evpool_put(&pool, pop_ref(&ref));
	ck_assert_uint_eq(q.run.n + q.ins.n, N - 100); /* the whole bucket is sorted */
	ck_assert_uint_eq(evq_check(&q), 0);
	/* more at the same time, keys before and after those already popped */
	nb = 0;
	for (uint64_t i = 0; i < MORE; i++) {
		uint64_t r = splitmix64(&rng);
		push_ref(batch, &nb, 777, r % 16, (r >> 8) % 16, (N + i) * 0x9e3779b97f4a7c15ull);
	}
	refq_add(&ref, batch, nb);
	ck_assert_uint_eq(evq_check(&q), 0);
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

/*
 * Crowded times as a fabric makes them: thousands of events at each of a few
 * times to destinations spread over a few thousand ids, with hot destinations
 * that receive dozens (same time and dst: ordered by src, then seq) and sizes
 * around the counting sort's bounds.
 */
START_TEST(test_evq_same_time_dst_spread)
{
	enum { T = 4, N = 3000 };
	static const size_t sizes[T] = { 63, 64, 700, N };
	static evq_entry batch[T * N];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 9, seq = 0;

	refq_init(&ref, T * N);
	for (size_t t = 0; t < T; t++) {
		for (size_t i = 0; i < sizes[t]; i++) {
			uint64_t r = splitmix64(&rng);
			uint32_t dst = r % 4 ? 100000 + (uint32_t)(r >> 8) % 3000 : 100000 + (r >> 8) % 3;
			push_ref(batch, &nb, 1000 * (t + 1), dst, (uint32_t)(r >> 40) % 8, seq++);
		}
	}
	refq_add(&ref, batch, nb);
	ck_assert_uint_eq(evq_check(&q), 0);
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

/* One crowded time inside a wide spread: split by rungs down to one time. */
START_TEST(test_evq_same_time_in_rungs)
{
	enum { N = 4000 };
	static evq_entry batch[2 * N];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 6;

	refq_init(&ref, 2 * N);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t r = splitmix64(&rng);
		push_ref(batch, &nb, 500000, (uint32_t)r, (uint32_t)(r >> 32), i);
		push_ref(batch, &nb, r % 1000000, 1, 2, N + i);
	}
	refq_add(&ref, batch, nb);
	for (size_t i = 0; i < N / 2; i++)
		evpool_put(&pool, pop_ref(&ref));
	ck_assert_uint_gt(q.nrungs, 0);
	ck_assert_uint_eq(evq_check(&q), 0);
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

/* Times over the whole range, with ties at the extremes. */
START_TEST(test_evq_huge_times)
{
	enum { N = 6000 };
	static const sim_time pick[] = { 0, 1, (sim_time)1 << 40, SIM_TIME_MAX - 1 };
	static evq_entry batch[N + 64];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 11, seq = 0;

	refq_init(&ref, N + 64);
	for (size_t i = 0; i < N; i++) {
		uint64_t r = splitmix64(&rng);
		sim_time t = r % 3 == 0 ? pick[(r >> 2) % 4] :
			     r % 3 == 1 ? pick[(r >> 2) % 4] + ((r >> 8) % 5) - 2 :
					  splitmix64(&rng) % SIM_TIME_MAX;
		if (t == SIM_TIME_MAX)
			t = SIM_TIME_MAX - 1; /* "never" is not an event time */
		push_ref(batch, &nb, t, (r >> 16) % 3, (r >> 24) % 3, seq++);
	}
	refq_add(&ref, batch, nb);
	for (size_t i = 0; i < N / 3; i++)
		evpool_put(&pool, pop_ref(&ref));
	ck_assert_uint_eq(evq_check(&q), 0);
	nb = 0;
	for (size_t i = 0; i < 4; i++)
		for (uint32_t d = 0; d < 8; d++)
			push_ref(batch, &nb, pick[i], d, 0, seq++);
	refq_add(&ref, batch, nb);
	ck_assert_uint_eq(evq_peek_time(&q), 0);
	ck_assert_uint_eq(evq_check(&q), 0);
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

/* Pushes before the current minimum, at it, and into spent rung ranges. */
START_TEST(test_evq_push_before_min)
{
	enum { N = 10000, POPS = 3000 };
	static evq_entry batch[N + 4 * POPS];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 17, seq = 0;

	refq_init(&ref, N + 4 * POPS);
	for (size_t i = 0; i < N; i++)
		push_ref(batch, &nb, 100000 + splitmix64(&rng) % 100000, 5, 5, seq++);
	refq_add(&ref, batch, nb);
	for (size_t i = 0; i < POPS; i++) {
		cxl_event *ev = pop_ref(&ref);
		sim_time now = ev->time;
		uint64_t r = splitmix64(&rng);
		nb = 0;
		/* zero-delay send (later key), an earlier time, and a near future */
		push_ref(batch, &nb, now, 6, 5, seq++);
		push_ref(batch, &nb, r % (now + 1), 4, 4, seq++);
		push_ref(batch, &nb, now + (r >> 40) % 64, 0, 0, seq++);
		if (i % 500 == 0)
			push_ref(batch, &nb, 0, 0, 0, seq++);
		refq_add(&ref, batch, nb);
		evpool_put(&pool, ev);
		if (i % 250 == 0)
			ck_assert_uint_eq(evq_check(&q), 0);
	}
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

/*
 * A small pending set whose pushes land in the sorted run (a ring fabric's
 * pattern: about 150 events, each new one a little after the current
 * time): run_insert must place them on both sides of the run's middle,
 * use the room before the run, make room when there is none, and give it
 * back at the next refill, with evq_check() == 0 after every operation.
 */
START_TEST(test_evq_run_insert_both_sides)
{
	enum { N = 150, STEPS = 20000 };
	static evq_entry batch[N];
	refq ref;
	size_t nb = 0;
	uint64_t rng = 29, seq = 0;
	int roomy = 0, unshifted = 0;

	refq_init(&ref, N + 2 * STEPS);
	for (size_t i = 0; i < N; i++)
		push_ref(batch, &nb, 1000 + splitmix64(&rng) % 20000, (uint32_t)(i % 8), 0, seq++);
	refq_add(&ref, batch, nb);
	for (size_t i = 0; i < STEPS; i++) {
		cxl_event *ev = pop_ref(&ref);
		sim_time now = ev->time;
		uint64_t r = splitmix64(&rng);
		nb = 0;
		push_ref(batch, &nb, now + r % 300, (uint32_t)(r >> 32) % 8, 1, seq++);
		if (r >> 63)
			push_ref(batch, &nb, now + (r >> 20) % 20000, (uint32_t)(r >> 40) % 8, 2, seq++);
		else if ((r >> 62) & 1)
			push_ref(batch, &nb, now, 9, 3, seq++); /* zero delay, after the popped one */
		refq_add(&ref, batch, nb);
		evpool_put(&pool, ev);
		unshifted |= roomy && !q.run_h;
		roomy |= q.run_h > 0;
		ck_assert_uint_eq(evq_check(&q), 0);
	}
	ck_assert(roomy && unshifted);
	drain_ref(&ref);
	refq_free(&ref);
}
END_TEST

enum dist { D_EXP, D_UNIFORM, D_EQUAL, D_BIMODAL, D_NDIST };

static double unit_open(uint64_t *rng)
{
	return (double)((splitmix64(rng) >> 11) + 1) * 0x1p-53;
}

/* draw_time - a push time for distribution @d after the last pop at @now. */
static sim_time draw_time(enum dist d, sim_time now, uint64_t *rng)
{
	uint64_t r = splitmix64(rng);

	if (d == D_EQUAL)
		return 123456789;
	if (d == D_UNIFORM)
		return r % SIM_TIME_MAX;
	if (r % 16 == 0) /* a zero-delay send or an early remote event */
		return r % 2 ? now : now - (r >> 8) % (now + 1);
	if (d == D_EXP)
		return now + (sim_time)(-log(unit_open(rng)) * 1000.0);
	return now + ((r >> 4) % 2 ? (sim_time)(-log(unit_open(rng)) * 10.0) :
				     1000000 + (sim_time)(-log(unit_open(rng)) * 1000.0));
}

/* random_ops - @nops pushes and pops of @d, growing then shrinking. */
static void random_ops(enum dist d, size_t nops, uint64_t seed)
{
	static evq_entry batch[64];
	refq ref;
	uint64_t rng = seed, seq = 0, next_check = 0;
	sim_time now = 1000;

	refq_init(&ref, nops);
	for (size_t ops = 0; ops < nops;) {
		int grow = ops < nops / 2;
		size_t nb = 0, npush = splitmix64(&rng) % (grow ? 40 : 24);
		size_t npop = splitmix64(&rng) % (grow ? 24 : 40);
		for (size_t i = 0; i < npush && ops < nops; i++, ops++) {
			uint64_t r = splitmix64(&rng);
			uint32_t dst = r % 2 ? r % 4 : (uint32_t)(r >> 8);
			push_ref(batch, &nb, draw_time(d, now, &rng), dst, (r >> 40) % 4,
				 seq++ * 0x9e3779b97f4a7c15ull);
		}
		refq_add(&ref, batch, nb);
		for (size_t i = 0; i < npop && ref.n && ops < nops; i++, ops++) {
			cxl_event *ev = pop_ref(&ref);
			now = ev->time;
			evpool_put(&pool, ev);
		}
		if (ops >= next_check) {
			ck_assert_uint_eq(evq_check(&q), 0);
			next_check += 1000;
		}
	}
	drain_ref(&ref);
	refq_free(&ref);
}

START_TEST(test_evq_random_dists)
{
	random_ops((enum dist)_i, 100000, 0x1234 + (uint64_t)_i);
}
END_TEST

/* Fill, drain, refill: the second cycle reuses the storage of the first. */
START_TEST(test_evq_grow_shrink_cycles)
{
	enum { N = 100000 };
	uint64_t rng = 23;
	uint32_t cap_node = 0;
	size_t cap_run = 0;

	for (int cycle = 0; cycle < 3; cycle++) {
		for (uint64_t i = 0; i < N; i++) {
			uint64_t r = splitmix64(&rng);
			push_key(cycle * 1000000 + r % 5000000, (uint32_t)(r >> 32), 0, i);
			if (i % 20000 == 0)
				ck_assert_uint_eq(evq_check(&q), 0);
		}
		ck_assert_uint_eq(evq_size(&q), N);
		evq_entry prev = { 0 };
		for (size_t i = 0; i < N; i++) {
			cxl_event *ev = evq_pop(&q);
			evq_entry e = evq_entry_of(ev);
			ck_assert(i == 0 || evq_key_lt(&prev, &e));
			prev = e;
			evpool_put(&pool, ev);
			if (i % 20000 == 0)
				ck_assert_uint_eq(evq_check(&q), 0);
		}
		ck_assert_uint_eq(evq_size(&q), 0);
		ck_assert_uint_eq(evq_check(&q), 0);
		if (cycle > 0) {
			ck_assert_uint_eq(q.cap_node, cap_node);
			ck_assert_uint_eq(q.run.cap, cap_run);
		}
		cap_node = q.cap_node;
		cap_run = q.run.cap;
	}
}
END_TEST

/* Destroy with events still queued: the queue frees its storage only. */
START_TEST(test_evq_destroy_nonempty)
{
	uint64_t rng = 31;

	for (uint64_t i = 0; i < 3000; i++)
		push_key(splitmix64(&rng) % 100000, 1, 1, i);
	for (int i = 0; i < 10; i++)
		evpool_put(&pool, evq_pop(&q));
	push_key(0, 0, 0, 9999); /* into the bottom's heap */
	ck_assert_uint_gt(q.nrungs, 0);
	evq_destroy(&q);
	ck_assert_uint_eq(evq_size(&q), 0);
	ck_assert_uint_eq(evq_peek_time(&q), SIM_TIME_MAX);
	ck_assert_uint_eq(evq_check(&q), 0);
	ck_assert_uint_eq(pool.live, 2991); /* the events are the caller's */
	push_key(3, 0, 0, 0);
	pop_expect(3, 0, 0, 0);
}
END_TEST

Suite *evq_suite(void)
{
	Suite *s = suite_create("evq");
	TCase *order = tcase_create("order");
	TCase *edge = tcase_create("edge");
	TCase *ladder = tcase_create("ladder");
	TCase *random = tcase_create("random");

	tcase_add_checked_fixture(order, setup, teardown);
	tcase_add_test(order, test_evq_order_time);
	tcase_add_test(order, test_evq_order_dst);
	tcase_add_test(order, test_evq_order_src);
	tcase_add_test(order, test_evq_order_seq);
	suite_add_tcase(s, order);

	tcase_add_checked_fixture(edge, setup, teardown);
	tcase_add_test(edge, test_evq_empty);
	tcase_add_test(edge, test_evq_max_time);
	tcase_add_test(edge, test_evq_growth);
	tcase_add_test(edge, test_evq_check_finds_damage);
	tcase_add_test(edge, test_evq_destroy_nonempty);
	tcase_add_test_raise_signal(edge, test_evq_push_wrong_owner_panics, SIGABRT);
	tcase_add_test_raise_signal(edge, test_evq_pop_empty_panics, SIGABRT);
	suite_add_tcase(s, edge);

	tcase_add_checked_fixture(ladder, setup, teardown);
	tcase_set_timeout(ladder, 60);
	tcase_add_test(ladder, test_evq_same_time_many);
	tcase_add_test(ladder, test_evq_same_time_dst_spread);
	tcase_add_test(ladder, test_evq_same_time_in_rungs);
	tcase_add_test(ladder, test_evq_huge_times);
	tcase_add_test(ladder, test_evq_push_before_min);
	tcase_add_test(ladder, test_evq_run_insert_both_sides);
	tcase_add_test(ladder, test_evq_grow_shrink_cycles);
	suite_add_tcase(s, ladder);

	tcase_add_checked_fixture(random, setup, teardown);
	tcase_set_timeout(random, 60);
	tcase_add_test(random, test_evq_random_vs_qsort);
	tcase_add_test(random, test_evq_insertion_order_independent);
	tcase_add_loop_test(random, test_evq_random_dists, 0, D_NDIST);
	suite_add_tcase(s, random);
	return s;
}
