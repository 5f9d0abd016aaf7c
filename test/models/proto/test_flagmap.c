/*
 * test/models/proto/test_flagmap.c - the map of flag-line values
 * (models/proto/flagmap.h): random operations against a reference array,
 * growth, deletion under collisions (backward shift, also across the end of
 * the table), and flag_reached() across the wrap of 16-bit values.
 *
 * The map's struct is public, so the tests also walk its slots: the probe
 * invariant (every held line is reachable from its home slot without
 * crossing an empty slot) is checked after every deletion.  A line's home
 * slot is found by inserting it alone into a fresh map of the same
 * capacity, so the tests do not copy the hash.  Randomness: a splitmix64
 * stream seeded by each test.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "models/proto/cxl_proto.h"
#include "models/proto/flagmap.h"

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The slot @line lands in alone in a map of 16 slots: its home there. */
static uint32_t home16(uint64_t line)
{
	flagmap m = { 0 };
	uint32_t h = UINT32_MAX;

	flagmap_set(&m, line, 1);
	ck_assert_uint_eq(m.cap, 16);
	for (uint32_t i = 0; i < m.cap; i++)
		if (m.key[i] == line + 1)
			h = i;
	flagmap_free(&m);
	return h;
}

/*
 * The map's invariants: n = occupied slots, at most 3/4 of a power-of-two
 * capacity, and each held line reachable from its home (@home: its home
 * slot for a 16-slot map, NULL to skip) through occupied slots only.
 */
static void check_map(const flagmap *m, uint32_t (*home)(uint64_t))
{
	uint32_t n = 0;

	if (!m->cap) {
		ck_assert_uint_eq(m->n, 0);
		return;
	}
	ck_assert_uint_eq(m->cap & (m->cap - 1), 0);
	ck_assert_uint_le(4 * (uint64_t)m->n, 3 * (uint64_t)m->cap);
	for (uint32_t i = 0; i < m->cap; i++) {
		if (!m->key[i])
			continue;
		n++;
		if (!home)
			continue;
		for (uint32_t j = home(m->key[i] - 1); j != i; j = (j + 1) & (m->cap - 1))
			ck_assert_msg(m->key[j], "line %llu at %u: hole at %u",
				      (unsigned long long)(m->key[i] - 1), i, j);
	}
	ck_assert_uint_eq(n, m->n);
}

START_TEST(test_flagmap_empty)
{
	flagmap m = { 0 };
	uint16_t v = 7;

	ck_assert_int_eq(flagmap_get(&m, 0, &v), 0);
	ck_assert_int_eq(flagmap_get(&m, 12345, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(flagmap_del(&m, 0), 0);
	flagmap_free(&m);
	flagmap_free(&m);
	ck_assert_uint_eq(m.cap, 0);
	ck_assert_uint_eq(m.n, 0);
}
END_TEST

START_TEST(test_flagmap_set_get_update_delete)
{
	flagmap m = { 0 };
	uint16_t v;

	flagmap_set(&m, 0, 0); /* line 0, value 0: both legal */
	flagmap_set(&m, 5, 0xffff);
	ck_assert_int_eq(flagmap_get(&m, 0, &v), 1);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(flagmap_get(&m, 5, &v), 1);
	ck_assert_uint_eq(v, 0xffff);
	flagmap_set(&m, 5, 3);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_int_eq(flagmap_get(&m, 5, &v), 1);
	ck_assert_uint_eq(v, 3);
	ck_assert_int_eq(flagmap_del(&m, 5), 1);
	ck_assert_int_eq(flagmap_del(&m, 5), 0);
	ck_assert_int_eq(flagmap_get(&m, 5, &v), 0);
	ck_assert_uint_eq(m.n, 1);
	flagmap_free(&m);
	/* usable again after free */
	flagmap_set(&m, (uint64_t)1 << 57, 9);
	ck_assert_int_eq(flagmap_get(&m, (uint64_t)1 << 57, &v), 1);
	ck_assert_uint_eq(v, 9);
	flagmap_free(&m);
}
END_TEST

/* Random set / delete / get over a small universe of lines, against an array. */
START_TEST(test_flagmap_random_against_reference)
{
	enum { U = 600, OPS = 200000 };
	static uint16_t ref[U];
	static uint8_t held[U];
	uint64_t seed = 42, base = 1000003; /* lines base + 7 k: not consecutive */
	flagmap m = { 0 };
	uint32_t n = 0;

	for (uint32_t op = 0; op < OPS; op++) {
		uint64_t r = splitmix(&seed);
		uint32_t k = (uint32_t)(r % U);
		uint64_t line = base + 7 * (uint64_t)k;
		uint16_t v;
		switch ((r >> 32) % 4) {
		case 0:
		case 1: /* set: more sets than deletes, so the map fills up */
			n += !held[k];
			held[k] = 1;
			ref[k] = (uint16_t)(r >> 48);
			flagmap_set(&m, line, ref[k]);
			break;
		case 2:
			ck_assert_int_eq(flagmap_del(&m, line), held[k]);
			n -= held[k];
			held[k] = 0;
			break;
		default:
			ck_assert_int_eq(flagmap_get(&m, line, &v), held[k]);
			if (held[k])
				ck_assert_uint_eq(v, ref[k]);
		}
		ck_assert_uint_eq(m.n, n);
		if (op % 5000 == 0) {
			check_map(&m, NULL);
			for (uint32_t j = 0; j < U; j++) {
				int got = flagmap_get(&m, base + 7 * (uint64_t)j, &v);
				ck_assert_int_eq(got, held[j]);
				if (got)
					ck_assert_uint_eq(v, ref[j]);
			}
		}
	}
	ck_assert_uint_gt(n, U / 2);
	flagmap_free(&m);
}
END_TEST

/* Doubling at 3/4: 12 lines fit 16 slots, the 13th doubles; updates never grow. */
START_TEST(test_flagmap_growth)
{
	flagmap m = { 0 };
	uint16_t v;

	flagmap_set(&m, 100, 1);
	ck_assert_uint_eq(m.cap, 16);
	for (uint64_t l = 1; l < 12; l++)
		flagmap_set(&m, 100 + l, (uint16_t)l);
	ck_assert_uint_eq(m.n, 12);
	ck_assert_uint_eq(m.cap, 16);
	uint64_t *keys = m.key;
	for (uint64_t l = 0; l < 12; l++)
		flagmap_set(&m, 100 + l, (uint16_t)(l + 1000)); /* at the threshold */
	ck_assert_uint_eq(m.cap, 16);
	ck_assert_ptr_eq(m.key, keys);
	flagmap_set(&m, 200, 2);
	ck_assert_uint_eq(m.cap, 32);
	for (uint64_t l = 0; l < 12; l++) {
		ck_assert_int_eq(flagmap_get(&m, 100 + l, &v), 1);
		ck_assert_uint_eq(v, l + 1000);
	}
	/* many lines: every doubling keeps them all */
	for (uint64_t l = 0; l < 100000; l++)
		flagmap_set(&m, l * 64 + 5, (uint16_t)(l * 3));
	ck_assert_uint_eq(m.n, 100000 + 13); /* lines 100-111 and 200 are not of the form 64 l + 5 */
	check_map(&m, NULL);
	ck_assert_uint_eq(m.cap, 262144); /* 100013 <= 3/4 x 2^18, > 3/4 x 2^17 */
	for (uint64_t l = 0; l < 100000; l++) {
		ck_assert_int_eq(flagmap_get(&m, l * 64 + 5, &v), 1);
		ck_assert_uint_eq(v, (uint16_t)(l * 3));
	}
	flagmap_free(&m);
}
END_TEST

/* Lines whose home (in 16 slots) is @h, the first @want of them from line 0, into @out. */
static void lines_at(uint32_t h, uint64_t *out, uint32_t want)
{
	uint32_t n = 0;

	for (uint64_t l = 0; n < want; l++) {
		ck_assert_uint_lt(l, 1000000);
		if (home16(l) == h)
			out[n++] = l;
	}
}

/*
 * Runs of colliding lines, deleted one by one in every position: the lines
 * after the hole move back (or stay, when their home lies after the hole),
 * every line stays reachable.  @h is the home of the first run; the second
 * run starts one slot later, so the two runs interleave.
 */
static void collide(uint32_t h)
{
	uint64_t a[5], b[3], all[8];
	uint16_t v;

	lines_at(h, a, 5);
	lines_at((h + 1) & 15, b, 3);
	for (int i = 0; i < 5; i++)
		all[i] = a[i];
	for (int i = 0; i < 3; i++)
		all[5 + i] = b[i];
	/* insertion orders: run by run, and the two runs interleaved */
	static const int ord[2][8] = { { 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 5, 1, 6, 2, 7, 3, 4 } };

	for (int victim = 0; victim < 8; victim++) {
		for (int order = 0; order < 2; order++) {
			flagmap m = { 0 };
			for (int i = 0; i < 8; i++)
				flagmap_set(&m, all[ord[order][i]], (uint16_t)(ord[order][i] + 1));
			ck_assert_uint_eq(m.n, 8);
			ck_assert_uint_eq(m.cap, 16);
			check_map(&m, home16);
			ck_assert_int_eq(flagmap_del(&m, all[victim]), 1);
			check_map(&m, home16);
			for (int k = 0; k < 8; k++) {
				ck_assert_int_eq(flagmap_get(&m, all[k], &v), k != victim);
				if (k != victim)
					ck_assert_uint_eq(v, k + 1);
			}
			/* delete the rest in turn, checking each time */
			for (int k = 0; k < 8; k++) {
				if (k == victim)
					continue;
				ck_assert_int_eq(flagmap_del(&m, all[k]), 1);
				check_map(&m, home16);
				for (int j = k + 1; j < 8; j++)
					if (j != victim)
						ck_assert_int_eq(flagmap_get(&m, all[j], &v), 1);
			}
			ck_assert_uint_eq(m.n, 0);
			flagmap_free(&m);
		}
	}
}

START_TEST(test_flagmap_delete_under_collisions)
{
	collide(3);
}
END_TEST

/* The runs start at slot 14 and wrap past slot 15 to slot 0 and beyond. */
START_TEST(test_flagmap_delete_across_table_end)
{
	collide(14);
	collide(15);
}
END_TEST

/* A deleted line's hole is not filled by a line whose home lies after the hole. */
START_TEST(test_flagmap_delete_keeps_later_home)
{
	uint64_t a[2], c[1];
	flagmap m = { 0 };
	uint16_t v;

	lines_at(5, a, 2);
	lines_at(7, c, 1);
	flagmap_set(&m, a[0], 1); /* slot 5 */
	flagmap_set(&m, a[1], 2); /* slot 6 */
	flagmap_set(&m, c[0], 3); /* slot 7, its home */
	ck_assert_uint_eq(m.key[7], c[0] + 1);
	ck_assert_int_eq(flagmap_del(&m, a[0]), 1);
	ck_assert_uint_eq(m.key[5], a[1] + 1); /* moved back */
	ck_assert_uint_eq(m.key[6], 0);
	ck_assert_uint_eq(m.key[7], c[0] + 1); /* stays home */
	ck_assert_int_eq(flagmap_get(&m, c[0], &v), 1);
	ck_assert_uint_eq(v, 3);
	flagmap_free(&m);
}
END_TEST

START_TEST(test_flag_reached_wraps)
{
	ck_assert(flag_reached(5, 5));
	ck_assert(flag_reached(6, 5));
	ck_assert(!flag_reached(4, 5));
	ck_assert(flag_reached(0, 0xffff));       /* the counter wrapped: 0 is after 65535 */
	ck_assert(flag_reached(2, 0xfffe));
	ck_assert(!flag_reached(0xfffe, 2));
	ck_assert(!flag_reached(0xffff, 0));
	ck_assert(flag_reached(5 + 32767, 5));    /* at most 32767 ahead: reached */
	ck_assert(!flag_reached(5 + 32768, 5));   /* half the circle: reads as behind */
	ck_assert(flag_reached(0x7fff, 0));
	ck_assert(!flag_reached(0x8000, 0));
	for (uint32_t w = 0; w < 65536; w += 4099) {
		ck_assert(flag_reached((uint16_t)w, (uint16_t)w));
		ck_assert(flag_reached((uint16_t)(w + 1), (uint16_t)w));
		ck_assert(!flag_reached((uint16_t)(w - 1), (uint16_t)w));
	}
}
END_TEST

/* The packet encoding of cxl_proto.h: a BIRsp's flag line index round-trips. */
START_TEST(test_flagmap_packet_encoding)
{
	for (unsigned k = 0; k < 4; k++) {
		uint8_t f = (uint8_t)(CXL_PKT_FLAG | CXL_PKT_FLAG_AT(k) | CXL_PKT_CACHED);
		ck_assert_uint_eq(CXL_PKT_FLAG_LINE(f), k);
		ck_assert_uint_eq(f & ~CXL_PKT_FLAG_MASK, CXL_PKT_CACHED);
	}
	ck_assert_uint_eq(CXL_PKT_FLAG_MASK & (CXL_PKT_CACHED | CXL_PKT_EXCL | CXL_PKT_WB | 0xc0u), 0);
}
END_TEST

Suite *flagmap_suite(void)
{
	Suite *s = suite_create("flagmap");
	TCase *basic = tcase_create("basic");
	TCase *random = tcase_create("random");
	TCase *coll = tcase_create("collisions");
	TCase *serial = tcase_create("serial");

	tcase_add_test(basic, test_flagmap_empty);
	tcase_add_test(basic, test_flagmap_set_get_update_delete);
	tcase_add_test(basic, test_flagmap_growth);
	tcase_add_test(random, test_flagmap_random_against_reference);
	tcase_set_timeout(random, 60);
	tcase_set_timeout(basic, 30);
	tcase_add_test(coll, test_flagmap_delete_under_collisions);
	tcase_add_test(coll, test_flagmap_delete_across_table_end);
	tcase_add_test(coll, test_flagmap_delete_keeps_later_home);
	tcase_add_test(serial, test_flag_reached_wraps);
	tcase_add_test(serial, test_flagmap_packet_encoding);
	suite_add_tcase(s, basic);
	suite_add_tcase(s, random);
	suite_add_tcase(s, coll);
	suite_add_tcase(s, serial);
	return s;
}
