/*
 * test/traces/test_trc_codec.c - unit tests for traces/trc_codec.c: block
 * payload encoding and decoding.
 *
 * Round trips over every column shape (aligned or not, one size or many,
 * constant or rising time), extreme values (address 0 and 2^64-1 side by
 * side: 64-bit deltas; time and size maxima), the reference choice among
 * the 16 previous lines, determinism; and every check of the decoder on
 * payloads corrupted one field at a time, with the record it names.
 */
#include "traces/trc_int.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

/* Encode then decode @n records; returns the payload (caller frees), its length in *@len. */
static uint8_t *round_trip(const trc_rec *r, uint32_t n, size_t *len)
{
	uint8_t *p = calloc(TRC_PAYLOAD_MAX(n) + 8, 1);
	trc_rec *out = calloc(n, sizeof(*out));
	size_t cut[TRC_SECTIONS];
	trc_derr e = { 0 };

	*len = trc__encode_block(r, n, p, cut);
	ck_assert_uint_le(*len, TRC_PAYLOAD_MAX(n));
	ck_assert_uint_eq(cut[TRC_SECTIONS - 1], *len);
	for (int i = 1; i < TRC_SECTIONS; i++)
		ck_assert_uint_le(cut[i - 1], cut[i]);
	ck_assert_msg(trc__decode_block(p, *len, n, out, &e) == 0, "%s at %u", e.why, e.at);
	trcf_assert_recs_eq(r, out, n);
	free(out);
	return p;
}

START_TEST(test_trc_codec_round_trip_mixed)
{
	static const uint32_t sizes[] = { 1, 2, 3, 16, 17, 100, 4096 };

	for (size_t k = 0; k < NELEMS(sizes); k++) {
		trc_rec *r = trcf_recs(sizes[k], 100 + k);
		size_t len;
		free(round_trip(r, sizes[k], &len));
		free(r);
	}
}
END_TEST

START_TEST(test_trc_codec_block_flags)
{
	trc_rec r[3] = {
		{ .time = 5, .addr = 64, .size = 64 },
		{ .time = 5, .addr = 128, .size = 64, .op = TRC_WRITE },
		{ .time = 5, .addr = 0, .size = 64, .flags = TRC_REC_NOTIME },
	};
	size_t len;
	uint8_t *p = round_trip(r, 3, &len);

	ck_assert_uint_eq(p[0], TRC_BLK_ALIGNED | TRC_BLK_UNIFORM_SIZE | TRC_BLK_NO_DT);
	free(p);
	r[1].addr = 129;
	p = round_trip(r, 3, &len);
	ck_assert_uint_eq(p[0], TRC_BLK_UNIFORM_SIZE | TRC_BLK_NO_DT);
	free(p);
	r[2].size = 8;
	p = round_trip(r, 3, &len);
	ck_assert_uint_eq(p[0], TRC_BLK_NO_DT);
	free(p);
	r[2].time = 6;
	p = round_trip(r, 3, &len);
	ck_assert_uint_eq(p[0], 0);
	free(p);
}
END_TEST

START_TEST(test_trc_codec_extremes)
{
	trc_rec r[6] = {
		{ .time = 0, .addr = 0, .size = 1 },
		{ .time = 1, .addr = UINT64_MAX, .size = 1 },
		{ .time = 1, .addr = 0, .size = UINT32_MAX },
		{ .time = UINT64_MAX - 1, .addr = UINT64_MAX - 63, .size = 2 },
		{ .time = UINT64_MAX, .addr = 1ull << 63, .size = 64, .op = TRC_WRITE },
		{ .time = UINT64_MAX, .addr = 63, .size = 64 },
	};
	size_t len;

	free(round_trip(r, 6, &len));
	free(round_trip(r + 3, 3, &len));
}
END_TEST

START_TEST(test_trc_codec_interleaved_streams_stay_small)
{
	trc_rec r[64];
	size_t len;

	/* 4 interleaved sequential streams far apart: each record refers 4 back */
	for (int i = 0; i < 64; i++)
		r[i] = (trc_rec){ .addr = ((uint64_t)(i % 4) << 40) + (uint64_t)(i / 4) * 64,
				  .size = 64 };
	uint8_t *p = round_trip(r, 64, &len);
	/* records 1-3 start streams 2^34 lines away: absolute.  Preamble: flags,
	 * base time, size, base line 0, width 36 */
	const uint8_t *tag = p + 5, *cls = tag + 64;

	ck_assert_uint_eq(p[0], TRC_BLK_ALIGNED | TRC_BLK_UNIFORM_SIZE | TRC_BLK_NO_DT | TRC_BLK_ABS);
	ck_assert_uint_eq(p[4], 36);
	for (int i = 1; i < 4; i++)
		ck_assert_uint_eq(tag[i], TRC_TAG_ABS);
	for (int i = 4; i < 64; i++) {
		ck_assert_uint_eq(tag[i] >> TRC_TAG_REF_SHIFT, 3);
		ck_assert_uint_eq(cls[i - 3], 2); /* zigzag(+1) = 2 */
	}
	free(p);
}
END_TEST

START_TEST(test_trc_codec_deterministic)
{
	trc_rec *r = trcf_recs(500, 9);
	uint8_t *a = calloc(TRC_PAYLOAD_MAX(500), 1), *b = calloc(TRC_PAYLOAD_MAX(500), 1);
	size_t cut[TRC_SECTIONS], la = trc__encode_block(r, 500, a, cut);

	ck_assert_uint_eq(trc__encode_block(r, 500, b, cut), la);
	ck_assert_int_eq(memcmp(a, b, la), 0);
	free(a);
	free(b);
	free(r);
}
END_TEST

/*
 * A payload of 4 records: unaligned, several sizes, rising time, deltas of
 * every class up to 8 (none absolute).
 */
static size_t sample(uint8_t *p, trc_rec *r)
{
	size_t cut[TRC_SECTIONS];

	r[0] = (trc_rec){ .time = 10, .addr = 0x78, .size = 64 };
	r[1] = (trc_rec){ .time = 20, .addr = 0x79, .size = 8 };
	r[2] = (trc_rec){ .time = 25, .addr = 0x1478, .size = 64, .op = 1 };
	r[3] = (trc_rec){ .time = 99, .addr = 0x14b8, .size = 64 };
	memset(p, 0, TRC_PAYLOAD_MAX(4) + 8);
	return trc__encode_block(r, 4, p, cut);
}

/*
 * A payload of 4 records, three of them absolute: lines 2^40, 0 (a delta
 * from the ring's zeros), 2^40 + 2^39 and 2^40 + 2^35.
 */
static size_t sample_abs(uint8_t *p, trc_rec *r)
{
	size_t cut[TRC_SECTIONS];

	r[0] = (trc_rec){ .time = 1, .addr = 1ull << 46, .size = 64 };
	r[1] = (trc_rec){ .time = 1, .addr = 0, .size = 64 };
	r[2] = (trc_rec){ .time = 1, .addr = 3ull << 45, .size = 64 };
	r[3] = (trc_rec){ .time = 1, .addr = (1ull << 46) + (1ull << 41), .size = 64 };
	memset(p, 0, TRC_PAYLOAD_MAX(4) + 8);
	return trc__encode_block(r, 4, p, cut);
}

static void expect_bad(const uint8_t *p, size_t len, uint32_t n, const char *why, uint32_t at)
{
	trc_rec out[8];
	trc_derr e = { 0 };

	ck_assert_int_eq(trc__decode_block(p, len, n, out, &e), -1);
	ck_assert_str_eq(e.why, why);
	ck_assert_uint_eq(e.at, at);
}

START_TEST(test_trc_codec_decode_checks)
{
	uint8_t p[TRC_PAYLOAD_MAX(4) + 8], q[TRC_PAYLOAD_MAX(4) + 8];
	trc_rec r[4];
	size_t len = sample(p, r);
	/* preamble: flags 0, base 10, size-column length, delta-column length */
	const size_t tag = 4, cls = tag + 4, low = cls + 4;

	ck_assert_uint_eq(p[0], 0);
	ck_assert_uint_eq(p[cls + 2], 8); /* +80 lines: zigzag 160 */
	expect_bad(p, 0, 4, "empty payload", 0);
	expect_bad(p, len, 0, "empty block", 0);
	memcpy(q, p, sizeof(p));
	q[0] = 0x80;
	expect_bad(q, len, 4, "unknown block flags", 0);
	expect_bad(p, 5, 4, "columns longer than the payload", 0);
	memcpy(q, p, sizeof(p));
	q[tag + 2] |= 0x08;
	expect_bad(q, len, 4, "reserved tag bits set", 2);
	memcpy(q, p, sizeof(p));
	q[tag + 1] = TRC_TAG_ABS;
	expect_bad(q, len, 4, "absolute record in a block without a base", 1);
	memcpy(q, p, sizeof(p));
	q[cls + 1] = 65;
	expect_bad(q, len, 4, "address class above 64", 1);
	memcpy(q, p, sizeof(p));
	q[cls + 3] = 60;
	expect_bad(q, len, 4, "mantissa column too short", 3);
	memcpy(q, p, sizeof(p));
	q[low + 1] = 64;
	expect_bad(q, len, 4, "low address bits above 63", 1);
	expect_bad(p, len + 1, 4, "mantissa column longer than its records", 3);
	/* 3 records of a 4-record payload: columns no longer line up */
	trc_rec out[4];
	trc_derr e;
	ck_assert_int_eq(trc__decode_block(p, len, 3, out, &e), -1);
}
END_TEST

START_TEST(test_trc_codec_decode_varint_checks)
{
	trc_rec r[2] = { { .time = 1, .addr = 0, .size = 64 }, { .time = 2, .addr = 0, .size = 7 } };
	uint8_t p[TRC_PAYLOAD_MAX(2) + 8] = { 0 }, q[sizeof(p)];
	size_t cut[TRC_SECTIONS], len = trc__encode_block(r, 2, p, cut);
	/* flags, base 1, size-col length 2, delta-col length 1, tags, classes, delta, sizes */
	const size_t dt = 4 + 4, sz = dt + 1;

	ck_assert_uint_eq(p[0], TRC_BLK_ALIGNED);
	memcpy(q, p, sizeof(p));
	q[sz + 1] = 0;
	expect_bad(q, len, 2, "bad size", 1);
	memcpy(q, p, sizeof(p));
	q[sz] = 0x80; /* a varint that runs into the next record's */
	q[sz + 1] = 0x80;
	expect_bad(q, len, 2, "bad size", 0);

	/* time overflow: base near 2^64 and a delta that wraps; the base varint
	 * is 10 bytes long, which moves the delta column 9 bytes on */
	const size_t dt_far = dt + 9;
	r[0].time = UINT64_MAX - 1;
	r[1].time = UINT64_MAX;
	len = trc__encode_block(r, 2, p, cut);
	memcpy(q, p, sizeof(p));
	ck_assert_uint_eq(q[dt_far], 1);
	q[dt_far] = 2;
	expect_bad(q, len, 2, "time overflows 2^64 ps", 1);
}
END_TEST

START_TEST(test_trc_codec_decode_abs_checks)
{
	uint8_t p[TRC_PAYLOAD_MAX(4) + 8], q[TRC_PAYLOAD_MAX(4) + 8];
	trc_rec r[4];
	size_t len = sample_abs(p, r);
	/* preamble: flags, base time 1, size 64, base line 0, width 41 */
	const size_t tag = 5, cls = tag + 4, hi = cls + 1;

	ck_assert_uint_eq(p[0], TRC_BLK_ALIGNED | TRC_BLK_UNIFORM_SIZE | TRC_BLK_NO_DT | TRC_BLK_ABS);
	ck_assert_uint_eq(p[3], 0);
	ck_assert_uint_eq(p[4], 41);
	ck_assert_uint_eq(p[tag], TRC_TAG_ABS);
	ck_assert_uint_eq(p[tag + 1], 1u << TRC_TAG_REF_SHIFT); /* 0 = a zero of the ring */
	ck_assert_uint_eq(p[tag + 2], TRC_TAG_ABS);
	ck_assert_uint_eq(p[tag + 3], TRC_TAG_ABS);
	ck_assert_uint_eq(p[hi], 0x80);     /* 2^40 >> 33 */
	ck_assert_uint_eq(p[hi + 1], 0xc0); /* (2^40 + 2^39) >> 33 */
	ck_assert_uint_eq(p[hi + 2], 0x84);
	ck_assert_uint_eq(len, hi + 3 + 13); /* 3 x 33 bits */

	memcpy(q, p, sizeof(p));
	q[0] &= ~TRC_BLK_ABS & 0xff; /* the base and width now read as tags */
	expect_bad(q, len, 4, "absolute record in a block without a base", 2);
	memcpy(q, p, sizeof(p));
	q[4] = 0;
	expect_bad(q, len, 4, "bad absolute width", 0);
	q[4] = 59;
	expect_bad(q, len, 4, "bad absolute width", 0);
	expect_bad(p, 4, 4, "bad absolute width", 0);
	expect_bad(p, 3, 4, "bad absolute base", 0);
	memcpy(q, p, sizeof(p));
	q[tag + 2] |= 1u << TRC_TAG_REF_SHIFT;
	expect_bad(q, len, 4, "reference on an absolute record", 2);
	memcpy(q, p, sizeof(p));
	q[tag] = q[tag + 2] = q[tag + 3] = 0;
	expect_bad(q, len, 4, "absolute flag on a block without absolute records", 0);
	/* width 3: no mantissa bits, and a high byte of 8 or more is too wide */
	memcpy(q, p, sizeof(p));
	q[4] = 3;
	expect_bad(q, len, 4, "absolute line wider than its block", 0);
	memcpy(q, p, sizeof(p));
	expect_bad(q, hi + 3 + 8, 4, "mantissa column too short", 2);
	/* a base of 2^58 - 1: the first absolute line leaves the space */
	uint8_t b[TRC_PAYLOAD_MAX(4) + 16] = { 0 };
	size_t at = 3;
	memcpy(b, p, 3);
	at += trc_put_varint(b + at, (1ull << 58) - 1);
	b[at++] = 41;
	memcpy(b + at, p + tag, len - tag);
	expect_bad(b, at + len - tag, 4, "address above 2^64", 0);
	at = 3;
	at += trc_put_varint(b + at, 1ull << 58);
	expect_bad(b, len + 5, 4, "bad absolute base", 0);
}
END_TEST

/* A record is the bytes [addr, addr + size): past 2^64 they wrapped (an endless run of lines). */
START_TEST(test_trc_codec_record_past_2_64)
{
	trc_rec r[3] = {
		{ .addr = 0, .size = 64 },
		/* ends at 2^64 - 1, then one byte past it */
		{ .time = 1, .addr = UINT64_MAX - (UINT32_MAX - 1), .size = UINT32_MAX },
		{ .time = 2, .addr = UINT64_MAX - 63, .size = 65 },
	};
	uint8_t p[TRC_PAYLOAD_MAX(3) + 8] = { 0 };
	size_t cut[TRC_SECTIONS], len;

	free(round_trip(r, 2, &len));
	len = trc__encode_block(r, 3, p, cut);
	expect_bad(p, len, 3, "address + size past 2^64", 2);
}
END_TEST

START_TEST(test_trc_codec_address_range)
{
	/* line 2^58 - 1 then +1: the decoded line leaves the 2^64 byte space */
	trc_rec r[2] = { { .addr = UINT64_MAX - 63, .size = 64 }, { .addr = 0, .size = 64 } };
	uint8_t p[TRC_PAYLOAD_MAX(2) + 8] = { 0 };
	size_t cut[TRC_SECTIONS], len = trc__encode_block(r, 2, p, cut);
	/* preamble: flags, time, size, base line 0, width 58; record 0 is absolute */
	const size_t tag = 5, cls = tag + 2;

	ck_assert_uint_eq(p[4], 58);
	ck_assert_uint_eq(p[tag], TRC_TAG_ABS);
	ck_assert_uint_eq(p[cls], 0);      /* record 1: delta 0 from the ring's zeros */
	ck_assert_uint_eq(p[cls + 1], 0xff); /* record 0's high byte */
	/* record 1: ref 0, class 2 and mantissa bit 0 -> z = 2 -> delta +1 */
	p[tag + 1] = 0;
	p[cls] = 2;
	/* record 0's mantissa takes 50 bits; record 1's one bit is bit 50, spare (0) */
	ck_assert_uint_eq(len, cls + 2 + 7);
	ck_assert_uint_eq(p[len - 1] >> 2, 0);
	expect_bad(p, len, 2, "address above 2^64", 1);
}
END_TEST

/* Thread indices (version 3): a column of their own, only in blocks that have one. */
START_TEST(test_trc_codec_threads)
{
	trc_rec *r = trcf_recs(300, 77), *out = calloc(300, sizeof(*out));
	uint8_t *p = calloc(TRC_PAYLOAD_MAX(300) + 8, 1);
	size_t len, cut[TRC_SECTIONS];
	trc_derr e = { 0 };

	free(round_trip(r, 300, &len)); /* no threads: no column, no flag */
	len = trc__encode_block(r, 300, p, cut);
	ck_assert_uint_eq(p[0] & TRC_BLK_THREADS, 0);
	ck_assert_uint_eq(cut[6], cut[5]);
	for (int i = 0; i < 300; i++)
		r[i].thread = (uint16_t)(i % 3 ? i * 257 : 0); /* up to 76 k: 1-3 byte varints */
	r[299].thread = UINT16_MAX;
	free(round_trip(r, 300, &len));
	len = trc__encode_block(r, 300, p, cut);
	ck_assert_uint_eq(p[0] & TRC_BLK_THREADS, TRC_BLK_THREADS);
	ck_assert_uint_gt(cut[6], cut[5]);
	/* a thread index above 65535: the last record's varint ff ff 03 -> ff ff 04 */
	ck_assert_uint_eq(p[cut[6] - 1], 3);
	p[cut[6] - 1] = 4;
	ck_assert_int_eq(trc__decode_block(p, len, 300, out, &e), -1);
	ck_assert_str_eq(e.why, "bad thread index");
	ck_assert_uint_eq(e.at, 299);
	/* the flag on a block whose threads are all 0: one thread 1 made 0 */
	for (int i = 0; i < 300; i++)
		r[i].thread = i == 7;
	len = trc__encode_block(r, 300, p, cut);
	ck_assert_uint_eq(cut[6] - cut[5], 300);
	p[cut[5] + 7] = 0;
	ck_assert_int_eq(trc__decode_block(p, len, 300, out, &e), -1);
	ck_assert_str_eq(e.why, "thread flag on a block without threads");
	free(p);
	free(out);
	free(r);
}
END_TEST

Suite *trc_codec_suite(void)
{
	Suite *s = suite_create("trc_codec");
	TCase *rt = tcase_create("round_trip");
	TCase *dec = tcase_create("decode_checks");

	tcase_add_test(rt, test_trc_codec_round_trip_mixed);
	tcase_add_test(rt, test_trc_codec_block_flags);
	tcase_add_test(rt, test_trc_codec_extremes);
	tcase_add_test(rt, test_trc_codec_interleaved_streams_stay_small);
	tcase_add_test(rt, test_trc_codec_deterministic);
	tcase_add_test(rt, test_trc_codec_threads);
	tcase_add_test(dec, test_trc_codec_decode_checks);
	tcase_add_test(dec, test_trc_codec_decode_varint_checks);
	tcase_add_test(dec, test_trc_codec_decode_abs_checks);
	tcase_add_test(dec, test_trc_codec_address_range);
	tcase_add_test(dec, test_trc_codec_record_past_2_64);
	suite_add_tcase(s, rt);
	suite_add_tcase(s, dec);
	return s;
}
