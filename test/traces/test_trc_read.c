/*
 * test/traces/test_trc_read.c - unit tests for traces/trc_read.c, the
 * streaming reader.
 *
 * Round trips across block boundaries (capacities 1 .. larger than the
 * trace), the batch call, empty traces, streams.  Damage: every single
 * flipped byte and every truncation length of a 3-block file is an error
 * naming the first record of the damaged block (0 for the header); wrong
 * magic, empty file, format versions (1 and 2 read, others refused);
 * crafted files with valid checksums whose record count disagrees with the
 * blocks (both ways), whose block claims another first record, holds a
 * short block before the last, goes back in time across a block boundary,
 * or whose records CRC is wrong.  Errors are sticky.  Skipping (trc_reader_skip)
 * lands where reading would, and fails on a damaged block like reading.  Memory:
 * the reader's peak and allocation count are the same for 3 and for 300
 * blocks, below the bound its header implies.  Regression inputs in
 * test/traces/corpus/ are replayed: every file must end or fail cleanly,
 * bad-* files must fail, and the crafted ones (valid CRCs around a defect
 * no flipped byte reaches) with their exact record and message.
 */
#include "traces/trc_int.h"

#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

START_TEST(test_trc_read_round_trip_across_blocks)
{
	static const uint32_t caps[] = { 1, 7, 999, 1000, 1001, 4096, 0 };
	const uint64_t n = 3000;
	trc_rec *r = trcf_recs(n, 1), *out = calloc(n, sizeof(*out));
	cxl_err err = { 0 };
	uint64_t got;

	for (size_t k = 0; k < NELEMS(caps); k++) {
		const char *p = trcf_path("t.cxt");
		trcf_write(p, r, n, caps[k], NULL);
		ck_assert_msg(trcf_read(p, out, n, &got, &err) == 0, "cap %u: %s", caps[k], err.msg);
		ck_assert_uint_eq(got, n);
		trcf_assert_recs_eq(r, out, n);
	}
	free(r);
	free(out);
}
END_TEST

START_TEST(test_trc_read_accessors)
{
	trc_origin o = { .fmt = TRC_FMT_CSV, .clock_ps = 625 };
	trc_rec *r = trcf_recs(10, 2), rec;
	trc_reader *rd;
	cxl_err err = { 0 };

	strcpy(o.text, "cycle,addr,op");
	trcf_write(trcf_path("a.cxt"), r, 10, 3, &o);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("a.cxt"), &err), 0);
	ck_assert_uint_eq(trc_reader_count(rd), 10);
	ck_assert_uint_eq(trc_reader_capacity(rd), 3);
	ck_assert_int_eq(trc_reader_origin(rd)->fmt, TRC_FMT_CSV);
	ck_assert_uint_eq(trc_reader_origin(rd)->clock_ps, 625);
	ck_assert_str_eq(trc_reader_origin(rd)->text, "cycle,addr,op");
	ck_assert_uint_eq(trc_reader_index(rd), 0);
	ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 1);
	ck_assert_uint_eq(trc_reader_index(rd), 1);
	trc_reader_close(rd);
	trc_reader_close(NULL);
	free(r);
}
END_TEST

START_TEST(test_trc_read_batch)
{
	const uint64_t n = 1000;
	trc_rec *r = trcf_recs(n, 3), *out = calloc(n, sizeof(*out));
	trc_reader *rd;
	cxl_err err = { 0 };
	long got = 0, k;

	trcf_write(trcf_path("b.cxt"), r, n, 64, NULL);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("b.cxt"), &err), 0);
	while ((k = trc_reader_read(rd, out + got, 37, &err)) > 0)
		got += k;
	ck_assert_int_eq(k, 0);
	ck_assert_int_eq(got, (long)n);
	trcf_assert_recs_eq(r, out, n);
	ck_assert_int_eq(trc_reader_read(rd, out, 37, &err), 0);
	trc_reader_close(rd);
	free(r);
	free(out);
}
END_TEST

/* Skipping k records then reading gives the records from k on, across block
 * boundaries; skipping past the end stops at the end; skipping 0 is a no-op. */
START_TEST(test_trc_read_skip)
{
	static const uint64_t ks[] = { 0, 1, 63, 64, 65, 500, 999, 1000 };
	const uint64_t n = 1000;
	trc_rec *r = trcf_recs(n, 6), rec;
	trc_reader *rd;
	cxl_err err = { 0 };

	trcf_write(trcf_path("s.cxt"), r, n, 64, NULL);
	for (size_t i = 0; i < NELEMS(ks); i++) {
		ck_assert_int_eq(trc_reader_open(&rd, trcf_path("s.cxt"), &err), 0);
		ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 1);
		ck_assert_int_eq(trc_reader_skip(rd, ks[i], &err), ks[i] + 1 <= n);
		uint64_t at = ks[i] + 1 < n ? ks[i] + 1 : n;
		ck_assert_uint_eq(trc_reader_index(rd), at);
		for (uint64_t j = at; j < n; j++) {
			ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 1);
			trcf_assert_recs_eq(&r[j], &rec, 1);
		}
		ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 0);
		ck_assert_int_eq(trc_reader_skip(rd, 5, &err), 0);
		trc_reader_close(rd);
	}
	free(r);
}
END_TEST

START_TEST(test_trc_read_empty_trace)
{
	trc_rec rec;
	trc_reader *rd;
	cxl_err err = { 0 };

	trcf_write(trcf_path("e.cxt"), NULL, 0, 0, NULL);
	ck_assert_uint_eq(trcf_file_size(trcf_path("e.cxt")), TRC_HDR_MIN);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("e.cxt"), &err), 0);
	ck_assert_uint_eq(trc_reader_count(rd), 0);
	ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 0);
	ck_assert_int_eq(trc_reader_next(rd, &rec, &err), 0);
	trc_reader_close(rd);
}
END_TEST

START_TEST(test_trc_read_from_memory_stream)
{
	trc_rec *r = trcf_recs(50, 4), rec;
	size_t len;
	uint8_t *buf;
	trc_reader *rd;
	cxl_err err = { 0 };
	int n = 0, rc;

	trcf_write(trcf_path("m.cxt"), r, 50, 8, NULL);
	buf = trcf_slurp(trcf_path("m.cxt"), &len);
	ck_assert_int_eq(trc_reader_open_stream(&rd, fmemopen(buf, len, "rb"), "mem", &err), 0);
	while ((rc = trc_reader_next(rd, &rec, &err)) > 0)
		trcf_assert_recs_eq(&r[n++], &rec, 1);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(n, 50);
	trc_reader_close(rd);
	free(buf);
	free(r);
}
END_TEST

START_TEST(test_trc_read_missing_file)
{
	trc_reader *rd = (trc_reader *)1;
	cxl_err err = { 0 };

	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("nope.cxt"), &err), CXL_EIO);
	ck_assert_ptr_null(rd);
	ck_assert_ptr_nonnull(strstr(err.msg, "nope.cxt: cannot open: "));
}
END_TEST

/* A 3-block file (50 + 50 + 30 records); block start offsets in @off[0..3]. */
static uint8_t *three_blocks(const char *path, size_t *len, size_t off[4])
{
	trc_rec *r = trcf_recs(130, 5);
	uint8_t *buf;

	trcf_write(path, r, 130, 50, NULL);
	free(r);
	buf = trcf_slurp(path, len);
	off[0] = trc_get16(buf + 10);
	for (int k = 1; k < 4; k++)
		off[k] = off[k - 1] + TRC_BLK_HDR + trc_get32(buf + off[k - 1] + 4);
	ck_assert_uint_eq(off[3], *len);
	return buf;
}

/* First record that cannot be trusted when byte @at is damaged. */
static uint64_t region_record(const size_t off[4], size_t at)
{
	if (at < off[0])
		return 0;
	for (int k = 1; k < 4; k++)
		if (at < off[k])
			return (uint64_t)(k - 1) * 50;
	return 130;
}

/* A skip over a damaged block fails like a read would, naming its first record. */
START_TEST(test_trc_read_skip_damaged)
{
	const char *p = trcf_path("f.cxt"), *q = trcf_path("d.cxt");
	size_t len, off[4];
	uint8_t *buf = three_blocks(p, &len, off);
	trc_reader *rd;
	cxl_err err = { 0 };

	buf[off[1] + TRC_BLK_HDR + 2] ^= 0x10;
	trcf_spit(q, buf, len);
	ck_assert_int_eq(trc_reader_open(&rd, q, &err), 0);
	ck_assert_int_eq(trc_reader_skip(rd, 49, &err), 1);
	ck_assert_int_eq(trc_reader_skip(rd, 60, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "record 50:"));
	trc_reader_close(rd);
	free(buf);
}
END_TEST

START_TEST(test_trc_read_every_flipped_byte_is_caught)
{
	const char *p = trcf_path("f.cxt"), *q = trcf_path("g.cxt");
	size_t len, off[4];
	uint8_t *buf = three_blocks(p, &len, off);

	for (size_t at = 0; at < len; at++) {
		for (unsigned bit = 0; bit < 8; bit += 7) {
			buf[at] ^= (uint8_t)(1u << bit);
			trcf_spit(q, buf, len);
			trcf_expect_error(q, region_record(off, at), "");
			buf[at] ^= (uint8_t)(1u << bit);
		}
	}
	free(buf);
}
END_TEST

START_TEST(test_trc_read_every_truncation_is_caught)
{
	const char *p = trcf_path("f.cxt"), *q = trcf_path("t.cxt");
	size_t len, off[4];
	uint8_t *buf = three_blocks(p, &len, off);

	trcf_spit(q, buf, 0);
	trcf_expect_error(q, 0, "empty file (not a .cxt trace)");
	for (size_t cut = 1; cut < len; cut++) {
		trcf_spit(q, buf, cut);
		if (cut < off[0])
			trcf_expect_error(q, 0, "truncated header");
		else if (cut == off[1] || cut == off[2] || cut == off[0])
			trcf_expect_error(q, region_record(off, cut), "file ends after");
		else
			trcf_expect_error(q, region_record(off, cut), "truncated block");
	}
	free(buf);
}
END_TEST

START_TEST(test_trc_read_bad_magic)
{
	const char *p = trcf_write_text("x.cxt", "0x40 R 0\n0x80 W 0\n");

	trcf_expect_error(p, 0, "not a .cxt file (bad magic)");
	p = trcf_write_text("y.cxt", "\x89" "CX");
	trcf_expect_error(p, 0, "truncated header");
}
END_TEST

/* Header for @count + blocks of @r (cap @cap, n records) with the right CRC unless @crc_delta. */
static void craft(const char *path, const trc_rec *r, uint64_t n, uint32_t cap, uint64_t count,
		  uint32_t crc_delta)
{
	uint8_t *buf = malloc(TRC_HDR_MAX + (n / cap + 1) * (TRC_BLK_HDR + 64 + 40 * cap));
	size_t len = trcf_header(buf, count, cap, trc__rec_crc(0, r, n) + crc_delta);

	for (uint64_t i = 0; i < n; i += cap)
		trcf_block(buf, &len, r + i, (uint32_t)(n - i < cap ? n - i : cap), i);
	trcf_spit(path, buf, len);
	free(buf);
}

START_TEST(test_trc_read_crafted_is_valid)
{
	trc_rec *r = trcf_recs(25, 6), out[25];
	cxl_err err = { 0 };
	uint64_t n;

	craft(trcf_path("c.cxt"), r, 25, 10, 25, 0);
	ck_assert_int_eq(trcf_read(trcf_path("c.cxt"), out, 25, &n, &err), 0);
	trcf_assert_recs_eq(r, out, 25);
	free(r);
}
END_TEST

/*
 * Versions 1 and 2 read; 0, 3 (without the threads flag) and 4 are refused
 * (header CRC kept right).
 */
START_TEST(test_trc_read_versions)
{
	static const struct {
		uint16_t version;
		const char *why; /* NULL: read */
	} cases[] = {
		{ 0, "unsupported .cxt version (this reader takes 1 to 3)" }, { 1, NULL }, { 2, NULL },
		{ 3, "bad origin in header" }, { 4, "unsupported .cxt version (this reader takes 1 to 3)" },
	};
	trc_rec *r = trcf_recs(25, 6), out[25];
	const char *path = trcf_path("v.cxt");

	craft(path, r, 25, 10, 25, 0);
	size_t len;
	uint8_t *buf = trcf_slurp(path, &len);
	ck_assert_uint_eq(trc_get16(buf + 8), TRC_VERSION_NOTHREADS);
	for (size_t i = 0; i < NELEMS(cases); i++) {
		cxl_err err = { 0 };
		uint64_t n;
		trc_put16(buf + 8, cases[i].version);
		trc_put32(buf + TRC_HDR_FIXED, (uint32_t)crc32(0, buf, TRC_HDR_FIXED));
		trcf_spit(path, buf, len);
		if (!cases[i].why) {
			ck_assert_int_eq(trcf_read(path, out, 25, &n, &err), 0);
			trcf_assert_recs_eq(r, out, 25);
		} else {
			trcf_expect_error(path, 0, cases[i].why);
		}
	}
	free(buf);
	free(r);
}
END_TEST

/*
 * Threads: an origin with TRC_ORIGIN_THREADS writes version 3 and the records
 * keep their thread; a version-2 header claiming threads, and a thread
 * column in a trace without threads, are refused.
 */
START_TEST(test_trc_read_threads_version_3)
{
	trc_origin o = { .fmt = TRC_FMT_NONE, .flags = TRC_ORIGIN_THREADS };
	trc_rec *r = trcf_recs(250, 9), out[250];
	const char *path = trcf_path("t.cxt");
	cxl_err err = { 0 };
	trc_reader *rd;
	uint64_t n;
	size_t len;

	for (int i = 0; i < 250; i++)
		r[i].thread = (uint16_t)(i * 7 % 5);
	trcf_write(path, r, 250, 100, &o);
	ck_assert_int_eq(trcf_read(path, out, 250, &n, &err), 0);
	ck_assert_uint_eq(n, 250);
	trcf_assert_recs_eq(r, out, 250);
	ck_assert_int_eq(trc_reader_open(&rd, path, &err), 0);
	ck_assert_uint_eq(trc_reader_version(rd), 3);
	ck_assert_uint_eq(trc_reader_origin(rd)->flags, TRC_ORIGIN_THREADS);
	trc_reader_close(rd);
	uint8_t *buf = trcf_slurp(path, &len);
	ck_assert_uint_eq(trc_get16(buf + 8), 3);
	/* version 2 with the threads flag: not a header any writer makes */
	trc_put16(buf + 8, 2);
	trc_put32(buf + TRC_HDR_FIXED, (uint32_t)crc32(0, buf, TRC_HDR_FIXED));
	trcf_spit(path, buf, len);
	trcf_expect_error(path, 0, "bad origin in header");
	/* version 2 without the flag: the first block's thread column is refused */
	trc_put32(buf + 12, trc_get32(buf + 12) & ~TRC_ORIGIN_THREADS);
	trc_put32(buf + TRC_HDR_FIXED, (uint32_t)crc32(0, buf, TRC_HDR_FIXED));
	trcf_spit(path, buf, len);
	trcf_expect_error(path, 0, "corrupt block (thread column in a trace without threads)");
	free(buf);
	/* without threads the file is version 2, as before */
	free(r);
	r = trcf_recs(3, 1);
	trcf_write(path, r, 3, 100, NULL);
	buf = trcf_slurp(path, &len);
	ck_assert_uint_eq(trc_get16(buf + 8), 2);
	free(buf);
	free(r);
}
END_TEST

START_TEST(test_trc_read_count_disagrees)
{
	trc_rec *r = trcf_recs(25, 6);
	const char *p = trcf_path("c.cxt");

	craft(p, r, 25, 10, 26, 0);
	trcf_expect_error(p, 20, "short block of 5 records, but the header says 26 records");
	craft(p, r, 20, 10, 21, 0);
	trcf_expect_error(p, 20, "file ends after 20 of 21 records (truncated)");
	craft(p, r, 25, 10, 24, 0);
	trcf_expect_error(p, 20, "block of 5 records goes past the header's count of 24 records");
	craft(p, r, 25, 10, 20, 0);
	trcf_expect_error(p, 20, "data after the last record (the header says 20 records)");
	craft(p, r, 25, 10, 0, 0);
	trcf_expect_error(p, 0, "data after the last record (the header says 0 records)");
	free(r);
}
END_TEST

START_TEST(test_trc_read_records_crc_mismatch)
{
	trc_rec *r = trcf_recs(25, 6);
	const char *p = trcf_path("c.cxt");
	trc_rec out[25];
	cxl_err err = { 0 };
	uint64_t n;

	craft(p, r, 25, 10, 25, 1);
	ck_assert_int_eq(trcf_read(p, out, 25, &n, &err), CXL_EINVAL);
	ck_assert_uint_eq(n, 25); /* every record came out; the end check failed */
	trcf_expect_error(p, 25, "records checksum mismatch");
	free(r);
}
END_TEST

START_TEST(test_trc_read_block_index_and_size_checks)
{
	trc_rec *r = trcf_recs(25, 6);
	const char *p = trcf_path("c.cxt");
	uint8_t buf[8192];
	size_t len = trcf_header(buf, 25, 10, trc__rec_crc(0, r, 25));

	trcf_block(buf, &len, r, 10, 0);
	trcf_block(buf, &len, r + 10, 10, 11); /* claims the wrong first record */
	trcf_spit(p, buf, len);
	trcf_expect_error(p, 10, "block claims to start at record 11");

	len = trcf_header(buf, 25, 10, trc__rec_crc(0, r, 25));
	trcf_block(buf, &len, r, 7, 0); /* short block, then more */
	trcf_block(buf, &len, r + 7, 10, 7);
	trcf_spit(p, buf, len);
	trcf_expect_error(p, 0, "short block of 7 records, but the header says 25 records");

	len = trcf_header(buf, 25, 10, trc__rec_crc(0, r, 25));
	trcf_block(buf, &len, r, 10, 0);
	trcf_block(buf, &len, r + 10, 15, 10); /* above the capacity */
	trcf_spit(p, buf, len);
	trcf_expect_error(p, 10, "block of 15 records (capacity 10)");
	free(r);
}
END_TEST

START_TEST(test_trc_read_unsorted_across_blocks)
{
	trc_rec r[6];
	const char *p = trcf_path("u.cxt");

	for (int i = 0; i < 6; i++)
		r[i] = (trc_rec){ .time = i < 3 ? 1000 + (uint64_t)i : 500, .addr = 64 * (uint64_t)i,
				  .size = 64 };
	craft(p, r, 6, 3, 6, 0);
	trcf_expect_error(p, 3, "time 500 ps is before the previous record's 1002 ps (records "
			  "must be sorted by time)");
}
END_TEST

START_TEST(test_trc_read_errors_are_sticky)
{
	trc_rec *r = trcf_recs(25, 6), rec;
	const char *p = trcf_path("c.cxt");
	trc_reader *rd;
	cxl_err e1 = { 0 }, e2 = { 0 }, e3 = { 0 };
	int rc;

	craft(p, r, 20, 10, 21, 0);
	ck_assert_int_eq(trc_reader_open(&rd, p, &e1), 0);
	while ((rc = trc_reader_next(rd, &rec, &e1)) > 0)
		;
	ck_assert_int_eq(rc, CXL_EINVAL);
	ck_assert_int_eq(trc_reader_next(rd, &rec, &e2), CXL_EINVAL);
	ck_assert_int_eq(trc_reader_read(rd, &rec, 1, &e3), CXL_EINVAL);
	ck_assert_str_eq(e1.msg, e2.msg);
	ck_assert_str_eq(e1.msg, e3.msg);
	trc_reader_close(rd);
	free(r);
}
END_TEST

/* Peak memory and allocations of reading @blocks identical blocks of @cap records. */
static void read_cost(uint32_t blocks, uint32_t cap, size_t *peak, unsigned long *nalloc)
{
	uint64_t n = (uint64_t)blocks * cap;
	trc_rec *r = calloc(n, sizeof(*r)), rec;
	trc_rec *pat = trcf_recs(cap, 8);
	trc_reader *rd;
	cxl_err err = { 0 };
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		r[i] = pat[i % cap];
		r[i].time = 0;
	}
	trcf_write(trcf_path("mem.cxt"), r, n, cap, NULL);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("mem.cxt"), &err), 0);
	while ((rc = trc_reader_next(rd, &rec, &err)) > 0)
		;
	ck_assert_msg(rc == 0, "%s", err.msg);
	*peak = rd->mem_peak;
	*nalloc = rd->nalloc;
	trc_reader_close(rd);
	free(pat);
	free(r);
}

START_TEST(test_trc_read_memory_is_bounded)
{
	const uint32_t cap = 512;
	size_t peak3, peak300;
	unsigned long n3, n300;
	size_t bound = cap * sizeof(trc_rec) + TRC_PAYLOAD_MAX(cap) + 8 +
		       trc_zbound(TRC_PAYLOAD_MAX(cap)) + (64 << 10);

	read_cost(3, cap, &peak3, &n3);
	read_cost(300, cap, &peak300, &n300);
	ck_assert_uint_eq(peak3, peak300);
	ck_assert_uint_eq(n3, n300);
	ck_assert_uint_le(peak300, bound);
	ck_assert_uint_le(n300, 12);
}
END_TEST

START_TEST(test_trc_read_corpus_replays)
{
	const char *dir = getenv("TRC_CORPUS") ? getenv("TRC_CORPUS") : "test/traces/corpus";
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024];
	int files = 0;

	ck_assert_msg(d != NULL, "no corpus directory %s (run the tests from the repo root)", dir);
	while ((e = readdir(d))) {
		cxl_err err = { 0 };
		uint64_t n;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		int rc = trcf_read(path, NULL, 0, &n, &err);
		ck_assert_msg(rc == 0 || rc == CXL_EINVAL, "%s: rc %d", path, rc);
		if (!strncmp(e->d_name, "bad-", 4))
			ck_assert_msg(rc == CXL_EINVAL, "%s: read without error", path);
		files++;
	}
	closedir(d);
	ck_assert_int_gt(files, 0);
}
END_TEST

/* The crafted regression inputs: checks that no single flipped byte reaches. */
START_TEST(test_trc_read_corpus_crafted_messages)
{
	static const struct {
		const char *file;
		uint64_t rec;
		const char *what;
	} want[] = {
		{ "bad-capacity-zero.cxt", 0, "bad block capacity in header" },
		/* format 7 without clock: unknown when crafted, ramulator-cpu (which needs
		 * one) since the tools' importers */
		{ "bad-origin-format.cxt", 0, "bad origin in header" },
		{ "bad-block-lengths.cxt", 0, "bad block lengths (compressed 4294967295" },
		{ "bad-not-zlib.cxt", 0, "corrupt block (does not inflate to 30 bytes)" },
		{ "bad-short-inflate.cxt", 0, "corrupt block (does not inflate to 21 bytes)" },
		{ "bad-reserved-tag.cxt", 1, "corrupt block (reserved tag bits set)" },
		{ "bad-mantissa-short.cxt", 2, "corrupt block (mantissa column too short)" },
		/* written by the converter before it refused records past 2^64 */
		{ "bad-past-2-64.cxt", 1, "corrupt block (address + size past 2^64)" },
	};
	const char *dir = getenv("TRC_CORPUS") ? getenv("TRC_CORPUS") : "test/traces/corpus";
	char path[1024];
	trc_rec out[3];
	cxl_err err = { 0 };
	uint64_t n;

	for (size_t i = 0; i < NELEMS(want); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, want[i].file);
		trcf_expect_error(path, want[i].rec, want[i].what);
	}
	snprintf(path, sizeof(path), "%s/good-three-records.cxt", dir);
	ck_assert_int_eq(trcf_read(path, out, 3, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(out[2].addr, 4096);
	ck_assert_uint_eq(out[2].time, 3000);
}
END_TEST

Suite *trc_read_suite(void)
{
	Suite *s = suite_create("trc_read");
	TCase *rt = trcf_case("round_trip");
	TCase *dmg = trcf_case("damage");
	TCase *mem = trcf_case("memory");

	tcase_add_test(rt, test_trc_read_round_trip_across_blocks);
	tcase_add_test(rt, test_trc_read_accessors);
	tcase_add_test(rt, test_trc_read_batch);
	tcase_add_test(rt, test_trc_read_skip);
	tcase_add_test(rt, test_trc_read_empty_trace);
	tcase_add_test(rt, test_trc_read_from_memory_stream);
	tcase_add_test(rt, test_trc_read_missing_file);
	tcase_add_test(dmg, test_trc_read_every_flipped_byte_is_caught);
	tcase_add_test(dmg, test_trc_read_every_truncation_is_caught);
	tcase_add_test(dmg, test_trc_read_bad_magic);
	tcase_add_test(dmg, test_trc_read_versions);
	tcase_add_test(rt, test_trc_read_threads_version_3);
	tcase_add_test(dmg, test_trc_read_crafted_is_valid);
	tcase_add_test(dmg, test_trc_read_count_disagrees);
	tcase_add_test(dmg, test_trc_read_records_crc_mismatch);
	tcase_add_test(dmg, test_trc_read_block_index_and_size_checks);
	tcase_add_test(dmg, test_trc_read_unsorted_across_blocks);
	tcase_add_test(dmg, test_trc_read_errors_are_sticky);
	tcase_add_test(dmg, test_trc_read_skip_damaged);
	tcase_add_test(dmg, test_trc_read_corpus_replays);
	tcase_add_test(dmg, test_trc_read_corpus_crafted_messages);
	tcase_add_test(mem, test_trc_read_memory_is_bounded);
	suite_add_tcase(s, rt);
	suite_add_tcase(s, dmg);
	suite_add_tcase(s, mem);
	return s;
}
