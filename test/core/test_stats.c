/*
 * test/core/test_stats.c - unit tests for core/stats.c's registry, pack and
 * merge (buckets and histograms: test_stats_hist.c).
 *
 * Pack/merge: round trip (pages far apart too), and the same components
 * split over 1, 2 or 3 "ranks" in several ways give field-for-field
 * identical tables.  Malformed buffers (every truncation, trailing bytes,
 * bad kind, bad, repeated or descending bucket, zero bucket count, counts
 * not adding up) fail with CXL_EINTERNAL.  Registering a name twice panics (SIGABRT).
 * All randomness comes from a xorshift64* generator seeded here.
 */
#include "core/stats.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/stats_fixture.h"
#include "test/core/panic_fixture.h"

/* --- registry, pack and merge --------------------------------------------- */

static const char *const counter_names[] = { "events", "sent", "received" };
static const char *const hist_names[] = { "latency", "queue_depth" };

/*
 * Register component @id in @s with contents that depend only on @id: a
 * component-dependent subset of counters and histograms, values seeded by id.
 */
static void add_component(stats_set *s, uint32_t id)
{
	size_t ci = stats_comp_add(s, id);
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)id * 0x100000001b3ULL);

	statsf_next_rand(&seed);
	for (size_t k = 0; k < 3; k++) {
		if ((id + k) % 4 == 3)
			continue;
		*stats_counter(s, ci, counter_names[k]) = statsf_next_rand(&seed);
	}
	for (size_t k = 0; k < 2; k++) {
		if ((id + k) % 5 == 4)
			continue;
		stats_hist *h = stats_histogram(s, ci, hist_names[k]);
		int n = (int)(statsf_next_rand(&seed) % 50); /* 0: an empty histogram */
		for (int j = 0; j < n; j++)
			stats_hist_add(h, statsf_rand_value(&seed));
	}
}

static void assert_comp_eq(const stats_comp *a, const stats_comp *b)
{
	ck_assert_uint_eq(a->id, b->id);
	ck_assert_uint_eq(a->n, b->n);
	for (size_t j = 0; j < a->n; j++) {
		const stats_entry *x = a->e[j], *y = b->e[j];
		ck_assert_str_eq(x->name, y->name);
		ck_assert_int_eq(x->kind, y->kind);
		if (x->kind == STATS_COUNTER) {
			ck_assert_uint_eq(*x->value, *y->value);
		} else {
			statsf_hist_eq(&x->h, &y->h);
		}
	}
}

/* Field-for-field equality of two sorted tables, including buckets and pages. */
static void assert_table_eq(const stats_set *a, const stats_set *b)
{
	ck_assert_uint_eq(a->n, b->n);
	ck_assert_int_eq(a->owns_names, b->owns_names);
	for (size_t i = 0; i < a->n; i++)
		assert_comp_eq(&a->c[i], &b->c[i]);
}

/* Pack @s and add its bytes to table @t; 0 or the stats_table_add code. */
static int pack_into(stats_set *t, const stats_set *s)
{
	size_t len = 0;
	void *buf = stats_pack(s, &len);
	cxl_err err = { 0 };
	int rc = stats_table_add(t, buf, len, &err);

	ck_assert_msg(rc == 0, "%s", err.msg);
	free(buf);
	return rc;
}

START_TEST(test_stats_pack_round_trip)
{
	stats_set reg, tab;
	uint32_t ids[] = { 40, 3, 17, 0, 1000000 };

	stats_set_init(&reg);
	stats_set_init(&tab);
	for (size_t i = 0; i < 5; i++)
		add_component(&reg, ids[i]);
	pack_into(&tab, &reg);
	ck_assert_int_eq(tab.owns_names, 1);
	ck_assert_uint_eq(tab.n, reg.n);
	for (size_t i = 0; i < reg.n; i++) {
		assert_comp_eq(&tab.c[i], &reg.c[i]); /* unsorted: registry order */
		for (size_t j = 0; j < reg.c[i].n; j++)
			ck_assert_ptr_ne(tab.c[i].e[j]->name, reg.c[i].e[j]->name);
	}
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	for (size_t i = 1; i < tab.n; i++)
		ck_assert_uint_lt(tab.c[i - 1].id, tab.c[i].id);
	for (size_t i = 0; i < reg.n; i++)
		assert_comp_eq(stats_find(&tab, reg.c[i].id), &reg.c[i]);
	stats_set_free(&reg);
	stats_set_free(&tab);
}
END_TEST

START_TEST(test_stats_pack_empty_registry)
{
	stats_set reg, tab;
	size_t len = 0;

	stats_set_init(&reg);
	stats_set_init(&tab);
	void *buf = stats_pack(&reg, &len);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(stats_table_add(&tab, buf, len, NULL), 0);
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	ck_assert_uint_eq(tab.n, 0);
	ck_assert_ptr_null(stats_find(&tab, 0));
	free(buf);
	stats_set_free(&reg);
	stats_set_free(&tab);
}
END_TEST

START_TEST(test_stats_pack_extreme_values)
{
	stats_set reg, tab;

	stats_set_init(&reg);
	stats_set_init(&tab);
	size_t ci = stats_comp_add(&reg, UINT32_MAX);
	*stats_counter(&reg, ci, "max") = UINT64_MAX;
	stats_hist *h = stats_histogram(&reg, ci, "h");
	stats_hist_add(h, 0);
	stats_hist_add(h, UINT64_MAX);
	stats_hist_add(h, UINT64_MAX);
	pack_into(&tab, &reg);
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	const stats_comp *c = stats_find(&tab, UINT32_MAX);
	ck_assert_ptr_nonnull(c);
	assert_comp_eq(c, &reg.c[0]);
	ck_assert_uint_eq(stats_hist_quantile(&stats_get(c, "h")->h, 1.0),
			  stats_hist_quantile(&reg.c[0].e[1]->h, 1.0));
	stats_set_free(&reg);
	stats_set_free(&tab);
}
END_TEST

/* Pages far apart survive the round trip, and only non-empty buckets are
 * packed (12 bytes each). */
START_TEST(test_stats_pack_round_trip_far_pages)
{
	static const uint64_t vals[] = { 3, 1000, (UINT64_C(1) << 20) + 5, UINT64_C(1) << 33,
					 (UINT64_C(1) << 49) + 12345, UINT64_MAX - 1 };
	enum { NV = sizeof(vals) / sizeof(vals[0]) };
	stats_set reg, tab;
	size_t len = 0;

	stats_set_init(&reg);
	stats_set_init(&tab);
	stats_hist *h = stats_histogram(&reg, stats_comp_add(&reg, 7), "lat");
	for (int r = 0; r < 3; r++)
		for (size_t k = 0; k < NV; k++)
			stats_hist_add(h, vals[k]);
	ck_assert_uint_eq(stats_hist_pages(h), NV);
	void *buf = stats_pack(&reg, &len);
	ck_assert_uint_eq(len, 8 + 4 + 4 + 2 + 3 + 1 + 4 * 8 + 4 + NV * (4 + 8));
	ck_assert_int_eq(stats_table_add(&tab, buf, len, NULL), 0);
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	const stats_hist *t = &stats_get(stats_find(&tab, 7), "lat")->h;
	statsf_hist_eq(t, h);
	for (size_t k = 0; k < NV; k++)
		ck_assert_uint_eq(stats_hist_at(t, stats_bucket(vals[k])), 3);
	free(buf);
	stats_set_free(&reg);
	stats_set_free(&tab);
}
END_TEST

/* Many entries across chunks: the registered pointers stay valid. */
START_TEST(test_stats_registry_pointers_stable)
{
	enum { NCOMP = 300, PER = 5 };
	static const char *const names[PER] = { "a", "b", "c", "d", "e" };
	uint64_t *ptr[NCOMP][PER];
	stats_set reg, tab;

	stats_set_init(&reg);
	stats_set_init(&tab);
	for (uint32_t i = 0; i < NCOMP; i++) {
		size_t ci = stats_comp_add(&reg, i);
		for (int k = 0; k < PER; k++)
			ptr[i][k] = stats_counter(&reg, ci, names[k]);
	}
	for (uint32_t i = 0; i < NCOMP; i++)
		for (int k = 0; k < PER; k++)
			*ptr[i][k] = i * 10u + (uint64_t)k;
	pack_into(&tab, &reg);
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	for (uint32_t i = 0; i < NCOMP; i++)
		for (int k = 0; k < PER; k++)
			ck_assert_uint_eq(*stats_get(stats_find(&tab, i), names[k])->value,
					  i * 10u + (uint64_t)k);
	stats_set_free(&reg);
	stats_set_free(&tab);
}
END_TEST

/*
 * A component's counters are adjacent 8-byte values, whatever is registered
 * between them (a histogram here), so a hot path that updates several
 * touches one cache line, not one per 72-byte entry.
 */
START_TEST(test_stats_counters_dense)
{
	stats_set reg;

	stats_set_init(&reg);
	size_t ci = stats_comp_add(&reg, 7);
	uint64_t *a = stats_counter(&reg, ci, "a");
	stats_histogram(&reg, ci, "h");
	uint64_t *b = stats_counter(&reg, ci, "b");
	uint64_t *c = stats_counter(&reg, ci, "c");
	ck_assert_ptr_eq(b, a + 1);
	ck_assert_ptr_eq(c, a + 2);
	*a = 1, *b = 2, *c = 3;
	ck_assert_uint_eq(*stats_get(stats_find(&reg, 7), "b")->value, 2);
	ck_assert_ptr_null(stats_get(stats_find(&reg, 7), "h")->value);
	stats_set_free(&reg);
}
END_TEST

/* A counter kept in the caller's memory is registered, packed and merged like any. */
START_TEST(test_stats_counter_at_caller_memory)
{
	stats_set reg, tab;
	uint64_t mine[2] = { 0, 0 };

	stats_set_init(&reg);
	stats_set_init(&tab);
	size_t ci = stats_comp_add(&reg, 3);
	uint64_t *a = stats_counter(&reg, ci, "a");
	stats_counter_at(&reg, ci, "b", &mine[1]);
	*a = 5;
	mine[1] = 42;
	ck_assert_ptr_eq(stats_get(stats_find(&reg, 3), "b")->value, &mine[1]);
	pack_into(&tab, &reg);
	ck_assert_int_eq(stats_table_sort(&tab, NULL), 0);
	ck_assert_uint_eq(*stats_get(stats_find(&tab, 3), "a")->value, 5);
	ck_assert_uint_eq(*stats_get(stats_find(&tab, 3), "b")->value, 42);
	stats_set_free(&reg);
	stats_set_free(&tab);
	ck_assert_uint_eq(mine[1], 42); /* the set never frees or clears it */
}
END_TEST

enum { MERGE_NCOMP = 60 };

/* Rank of the @idx-th component under split @way into @nranks sets. */
static int split_rank(int way, int nranks, uint32_t idx, uint64_t *seed)
{
	switch (way) {
	case 0: return (int)(idx % (uint32_t)nranks);                     /* round robin */
	case 1: return (int)(idx * (uint32_t)nranks / MERGE_NCOMP);       /* blocks */
	default: return (int)(statsf_next_rand(seed) % (uint64_t)nranks);       /* random */
	}
}

/*
 * Build a table from the components split over @nranks registries by @way;
 * registries list their components in descending id order when @reverse,
 * and are merged last rank first when @reverse.
 */
static void build_split_table(stats_set *tab, int nranks, int way, int reverse)
{
	stats_set reg[3];
	uint64_t seed = 0xfeedbeef + (uint64_t)way;

	for (int r = 0; r < nranks; r++)
		stats_set_init(&reg[r]);
	for (uint32_t k = 0; k < MERGE_NCOMP; k++) {
		uint32_t idx = reverse ? MERGE_NCOMP - 1 - k : k;
		add_component(&reg[split_rank(way, nranks, idx, &seed)], idx * 7 + 2);
	}
	stats_set_init(tab);
	for (int k = 0; k < nranks; k++)
		pack_into(tab, &reg[reverse ? nranks - 1 - k : k]);
	ck_assert_int_eq(stats_table_sort(tab, NULL), 0);
	for (int r = 0; r < nranks; r++)
		stats_set_free(&reg[r]);
}

START_TEST(test_stats_merge_same_table_any_split)
{
	stats_set ref;

	build_split_table(&ref, 1, 0, 0);
	ck_assert_uint_eq(ref.n, MERGE_NCOMP);
	for (int nranks = 1; nranks <= 3; nranks++) {
		for (int way = 0; way < 3; way++) {
			for (int reverse = 0; reverse < 2; reverse++) {
				stats_set t;
				build_split_table(&t, nranks, way, reverse);
				assert_table_eq(&t, &ref);
				stats_set_free(&t);
			}
		}
	}
	stats_set_free(&ref);
}
END_TEST

/* --- malformed buffers ---------------------------------------------------- */

/* stats_table_add on an exact-size heap copy (so ASan sees any over-read). */
static int add_copy(const void *buf, size_t len, cxl_err *err)
{
	stats_set t;
	void *copy = malloc(len ? len : 1);

	memcpy(copy, buf, len);
	stats_set_init(&t);
	int rc = stats_table_add(&t, copy, len, err);
	stats_set_free(&t);
	free(copy);
	return rc;
}

START_TEST(test_stats_table_add_truncated)
{
	stats_set reg;
	size_t len = 0;

	stats_set_init(&reg);
	for (uint32_t id = 0; id < 6; id++)
		add_component(&reg, id);
	unsigned char *buf = stats_pack(&reg, &len);
	ck_assert_int_eq(add_copy(buf, len, NULL), 0);
	for (size_t k = 0; k < len; k++) {
		cxl_err err = { 0 };
		char want[64];
		ck_assert_msg(add_copy(buf, k, &err) == CXL_EINTERNAL, "truncated at %zu of %zu",
			      k, len);
		ck_assert_int_eq(err.code, CXL_EINTERNAL);
		snprintf(want, sizeof(want), "malformed statistics buffer (%zu bytes)", k);
		ck_assert_str_eq(err.msg, want);
	}
	free(buf);
	stats_set_free(&reg);
}
END_TEST

START_TEST(test_stats_table_add_trailing_bytes)
{
	stats_set reg;
	size_t len = 0;

	stats_set_init(&reg);
	add_component(&reg, 1);
	unsigned char *buf = stats_pack(&reg, &len);
	unsigned char *longer = calloc(len + 3, 1);
	memcpy(longer, buf, len);
	for (size_t extra = 1; extra <= 3; extra++)
		ck_assert_int_eq(add_copy(longer, len + extra, NULL), CXL_EINTERNAL);
	free(longer);
	free(buf);
	stats_set_free(&reg);
}
END_TEST

/* Hand-made buffers, in the layout documented at the top of stats.c. */
typedef struct hbuf hbuf;
struct hbuf {
	unsigned char b[256]; /* bytes */
	size_t n;             /* bytes used */
};

static void hput(hbuf *h, const void *p, size_t len)
{
	ck_assert_uint_le(h->n + len, sizeof(h->b));
	memcpy(h->b + h->n, p, len);
	h->n += len;
}

#define HPUT(h, T, v) do { T hput_tmp_ = (v); hput((h), &hput_tmp_, sizeof(T)); } while (0)

/* One component @id whose one entry is named @name, of kind byte @kind. */
static void hentry_head(hbuf *h, uint32_t id, uint32_t nentries, const char *name,
			uint8_t kind)
{
	HPUT(h, uint64_t, 1);
	HPUT(h, uint32_t, id);
	HPUT(h, uint32_t, nentries);
	HPUT(h, uint16_t, (uint16_t)strlen(name));
	hput(h, name, strlen(name));
	HPUT(h, uint8_t, kind);
}

START_TEST(test_stats_table_add_hand_made_valid)
{
	hbuf h = { .n = 0 };
	stats_set t;

	hentry_head(&h, 9, 1, "hits", STATS_COUNTER);
	HPUT(&h, uint64_t, 42);
	stats_set_init(&t);
	ck_assert_int_eq(stats_table_add(&t, h.b, h.n, NULL), 0);
	ck_assert_int_eq(stats_table_sort(&t, NULL), 0);
	ck_assert_uint_eq(*stats_get(stats_find(&t, 9), "hits")->value, 42);
	stats_set_free(&t);
}
END_TEST

START_TEST(test_stats_table_add_bad_kind)
{
	static const uint8_t kinds[] = { 0, 3, 255 };

	for (size_t k = 0; k < sizeof(kinds); k++) {
		hbuf h = { .n = 0 };
		cxl_err err = { 0 };
		hentry_head(&h, 9, 1, "hits", kinds[k]);
		HPUT(&h, uint64_t, 42);
		ck_assert_int_eq(add_copy(h.b, h.n, &err), CXL_EINTERNAL);
		ck_assert_int_eq(err.code, CXL_EINTERNAL);
	}
}
END_TEST

/* A histogram with one non-zero bucket @idx holding one value. */
static void hist_buffer(hbuf *h, uint32_t idx)
{
	hentry_head(h, 5, 1, "lat", STATS_HIST);
	HPUT(h, uint64_t, 1);          /* count */
	HPUT(h, uint64_t, 100);        /* sum */
	HPUT(h, uint64_t, 100);        /* min */
	HPUT(h, uint64_t, 100);        /* max */
	HPUT(h, uint32_t, 1);          /* nnz */
	HPUT(h, uint32_t, idx);
	HPUT(h, uint64_t, 1);
}

/* No value falls in a bucket above stats_bucket(UINT64_MAX): such an index is
 * malformed (stats_bucket_low() of it would shift by 64 or more). */
START_TEST(test_stats_table_add_bad_bucket_index)
{
	static const uint32_t bad[] = { 64 * STATS_SUB + 1, 100000, UINT32_MAX,
					(64 - STATS_SUB_BITS + 1) * STATS_SUB, 64 * STATS_SUB };
	hbuf ok = { .n = 0 };

	hist_buffer(&ok, stats_bucket(100));
	ck_assert_int_eq(add_copy(ok.b, ok.n, NULL), 0);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		hbuf h = { .n = 0 };
		hist_buffer(&h, bad[k]);
		ck_assert_msg(add_copy(h.b, h.n, NULL) == CXL_EINTERNAL,
			      "bucket index %u accepted", bad[k]);
	}
}
END_TEST

/* A histogram of @count values in buckets @idx[k] holding @cnt[k]. */
static void hist_buffer_n(hbuf *h, uint64_t count, const uint32_t *idx, const uint64_t *cnt,
			  uint32_t n)
{
	hentry_head(h, 5, 1, "lat", STATS_HIST);
	HPUT(h, uint64_t, count);
	HPUT(h, uint64_t, 100 * count); /* sum */
	HPUT(h, uint64_t, 100);         /* min */
	HPUT(h, uint64_t, 200);         /* max */
	HPUT(h, uint32_t, n);
	for (uint32_t k = 0; k < n; k++) {
		HPUT(h, uint32_t, idx[k]);
		HPUT(h, uint64_t, cnt[k]);
	}
}

/* Buckets must be strictly ascending with non-zero counts adding up to the
 * histogram's count (what stats_pack writes); anything else is malformed. */
START_TEST(test_stats_table_add_bad_bucket_list)
{
	static const struct {
		uint64_t count;
		uint32_t idx[2];
		uint64_t cnt[2];
		int ok;
	} cases[] = {
		{ 3, { 100, 200 }, { 1, 2 }, 1 },
		{ 3, { 100, 100 }, { 1, 2 }, 0 }, /* repeated */
		{ 3, { 200, 100 }, { 1, 2 }, 0 }, /* descending */
		{ 2, { 100, 200 }, { 2, 0 }, 0 }, /* zero count */
		{ 4, { 100, 200 }, { 1, 2 }, 0 }, /* counts do not add up */
		{ 2, { 100, 200 }, { 1, 2 }, 0 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		hbuf h = { .n = 0 };
		hist_buffer_n(&h, cases[k].count, cases[k].idx, cases[k].cnt, 2);
		ck_assert_msg(add_copy(h.b, h.n, NULL) == (cases[k].ok ? 0 : CXL_EINTERNAL),
			      "case %zu", k);
	}
}
END_TEST

/* A malformed buffer that names one stat twice must fail, not panic. */
START_TEST(test_stats_table_add_duplicate_name)
{
	hbuf h = { .n = 0 };
	cxl_err err = { 0 };

	hentry_head(&h, 9, 2, "hits", STATS_COUNTER);
	HPUT(&h, uint64_t, 1);
	HPUT(&h, uint16_t, 4);
	hput(&h, "hits", 4);
	HPUT(&h, uint8_t, STATS_COUNTER);
	HPUT(&h, uint64_t, 2);
	ck_assert_int_eq(add_copy(h.b, h.n, &err), CXL_EINTERNAL);
}
END_TEST

/* stats.h: stats_table_sort returns CXL_EINTERNAL if a component id came
 * from two buffers (here: the same rank's bytes added twice). */
START_TEST(test_stats_table_add_duplicate_component)
{
	stats_set reg, t;
	size_t len = 0;
	cxl_err err = { 0 };

	stats_set_init(&reg);
	stats_set_init(&t);
	add_component(&reg, 4);
	void *buf = stats_pack(&reg, &len);
	ck_assert_int_eq(stats_table_add(&t, buf, len, &err), 0);
	ck_assert_int_eq(stats_table_add(&t, buf, len, &err), 0);
	ck_assert_int_eq(stats_table_sort(&t, &err), CXL_EINTERNAL);
	ck_assert_int_eq(err.code, CXL_EINTERNAL);
	ck_assert_str_eq(err.msg, "component 4 has statistics from two ranks");
	free(buf);
	stats_set_free(&reg);
	stats_set_free(&t);
}
END_TEST

/* --- registration errors and lookup --------------------------------------- */

START_TEST(test_stats_register_counter_twice_panics)
{
	stats_set s;

	stats_set_init(&s);
	size_t ci = stats_comp_add(&s, 1);
	stats_counter(&s, ci, "x");
	panict_expect("component 1 registers stat \"x\" twice");
	stats_counter(&s, ci, "x");
}
END_TEST

START_TEST(test_stats_register_hist_over_counter_panics)
{
	stats_set s;

	stats_set_init(&s);
	size_t ci = stats_comp_add(&s, 1);
	stats_counter(&s, ci, "x");
	panict_expect("component 1 registers stat \"x\" twice");
	stats_histogram(&s, ci, "x");
}
END_TEST

START_TEST(test_stats_same_name_other_component_ok)
{
	stats_set s;

	stats_set_init(&s);
	size_t a = stats_comp_add(&s, 1), b = stats_comp_add(&s, 2);
	uint64_t *x = stats_counter(&s, a, "x"), *y = stats_counter(&s, b, "x");
	ck_assert_ptr_ne(x, y);
	stats_histogram(&s, a, "y");
	stats_set_free(&s);
}
END_TEST

START_TEST(test_stats_find_and_get)
{
	static const uint32_t ids[] = { 500, 3, 11, 10, UINT32_MAX };
	static const uint32_t absent[] = { 0, 2, 4, 12, 499, 501, UINT32_MAX - 1 };
	stats_set reg, t;

	stats_set_init(&reg);
	stats_set_init(&t);
	ck_assert_ptr_null(stats_find(&t, 3));
	for (size_t i = 0; i < 5; i++) {
		size_t ci = stats_comp_add(&reg, ids[i]);
		*stats_counter(&reg, ci, "id") = ids[i];
		stats_hist_add(stats_histogram(&reg, ci, "h"), ids[i]);
	}
	pack_into(&t, &reg);
	ck_assert_int_eq(stats_table_sort(&t, NULL), 0);
	for (size_t i = 0; i < 5; i++) {
		const stats_comp *c = stats_find(&t, ids[i]);
		ck_assert_ptr_nonnull(c);
		ck_assert_uint_eq(c->id, ids[i]);
		const stats_entry *e = stats_get(c, "id");
		ck_assert_int_eq(e->kind, STATS_COUNTER);
		ck_assert_uint_eq(*e->value, ids[i]);
		e = stats_get(c, "h");
		ck_assert_int_eq(e->kind, STATS_HIST);
		ck_assert_uint_eq(e->h.max, ids[i]);
		ck_assert_ptr_null(stats_get(c, "missing"));
		ck_assert_ptr_null(stats_get(c, ""));
		ck_assert_ptr_null(stats_get(c, "i"));
	}
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		ck_assert_ptr_null(stats_find(&t, absent[i]));
	stats_set_free(&reg);
	stats_set_free(&t);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *merge = tcase_create("pack_merge");
	TCase *malformed = tcase_create("malformed");
	TCase *registry = tcase_create("registry");

	tcase_add_test(merge, test_stats_pack_round_trip);
	tcase_add_test(merge, test_stats_pack_empty_registry);
	tcase_add_test(merge, test_stats_pack_extreme_values);
	tcase_add_test(merge, test_stats_pack_round_trip_far_pages);
	tcase_add_test(merge, test_stats_registry_pointers_stable);
	tcase_add_test(registry, test_stats_counters_dense);
	tcase_add_test(merge, test_stats_counter_at_caller_memory);
	tcase_add_test(merge, test_stats_merge_same_table_any_split);
	tcase_add_test(malformed, test_stats_table_add_truncated);
	tcase_add_test(malformed, test_stats_table_add_trailing_bytes);
	tcase_add_test(malformed, test_stats_table_add_hand_made_valid);
	tcase_add_test(malformed, test_stats_table_add_bad_kind);
	tcase_add_test(malformed, test_stats_table_add_bad_bucket_index);
	tcase_add_test(malformed, test_stats_table_add_bad_bucket_list);
	tcase_add_test(malformed, test_stats_table_add_duplicate_name);
	tcase_add_test(malformed, test_stats_table_add_duplicate_component);
	tcase_add_test_raise_signal(registry, test_stats_register_counter_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(registry, test_stats_register_hist_over_counter_panics,
				    SIGABRT);
	tcase_add_test(registry, test_stats_same_name_other_component_ok);
	tcase_add_test(registry, test_stats_find_and_get);
	tcase_set_timeout(malformed, 30);
	suite_add_tcase(s, merge);
	suite_add_tcase(s, malformed);
	suite_add_tcase(s, registry);
	return s;
}
