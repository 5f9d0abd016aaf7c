/*
 * test/traces/trc_fixture.c - shared helpers of the trace tests (see
 * trc_fixture.h).
 */
#include "test/traces/trc_fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rng.h"
#include "traces/trc_int.h"

char trcf_tmpdir[64];

static void setup(void)
{
	strcpy(trcf_tmpdir, "/tmp/cxl-trc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(trcf_tmpdir));
}

static void teardown(void)
{
	DIR *d = opendir(trcf_tmpdir);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", trcf_tmpdir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(trcf_tmpdir);
}

TCase *trcf_case(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	return tc;
}

const char *trcf_path(const char *name)
{
	static char buf[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", trcf_tmpdir, name);
	return buf[k];
}

trc_rec *trcf_recs(uint64_t n, uint64_t seed)
{
	trc_rec *r = calloc(n ? n : 1, sizeof(*r));
	cxl_rng g;
	uint64_t t = 0, a = 0x1000;

	rng_seed(&g, seed, 7);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t x = rng_u64(&g);
		switch (x % 4) {
		case 0: a += 64; break;                           /* sequential */
		case 1: a = (x >> 8) & 0xffffffffc0ull; break;    /* random, aligned */
		case 2: a = (x >> 3) & 0xffffffffffffull; break;  /* random, unaligned */
		default: a -= 128 * ((x >> 20) % 3); break;       /* short step back */
		}
		if ((x >> 40) % 3)
			t += (x >> 44) % 5000;
		r[i] = (trc_rec){ .time = t, .addr = a, .op = (x >> 50) & 1,
				  .size = ((x >> 52) % 8) ? 64 : (uint32_t)(1 + (x >> 55) % 300) };
	}
	return r;
}

void trcf_write(const char *path, const trc_rec *r, uint64_t n, uint32_t cap, const trc_origin *o)
{
	trc_writer *w;
	cxl_err err = { 0 };

	ck_assert_msg(trc_writer_open(&w, path, o, cap, &err) == 0, "%s", err.msg);
	for (uint64_t i = 0; i < n; i++)
		ck_assert_msg(trc_writer_add(w, &r[i], &err) == 0, "%s", err.msg);
	ck_assert_msg(trc_writer_close(w, &err) == 0, "%s", err.msg);
}

int trcf_read(const char *path, trc_rec *out, uint64_t max, uint64_t *n, cxl_err *err)
{
	trc_reader *r;
	trc_rec rec;
	int rc;

	*n = 0;
	if ((rc = trc_reader_open(&r, path, err)))
		return rc;
	while ((rc = trc_reader_next(r, &rec, err)) > 0) {
		if (out && *n < max)
			out[*n] = rec;
		(*n)++;
	}
	ck_assert_uint_eq(trc_reader_index(r), *n);
	trc_reader_close(r);
	return rc;
}

void trcf_assert_recs_eq(const trc_rec *a, const trc_rec *b, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		ck_assert_msg(a[i].time == b[i].time && a[i].addr == b[i].addr &&
			      a[i].size == b[i].size && a[i].op == b[i].op &&
			      a[i].flags == b[i].flags && a[i].thread == b[i].thread,
			      "record %llu differs: (%llu, 0x%llx, %u, %u, %u) vs (%llu, 0x%llx, %u, %u, %u)",
			      (unsigned long long)i, (unsigned long long)a[i].time,
			      (unsigned long long)a[i].addr, a[i].size, a[i].op, a[i].flags,
			      (unsigned long long)b[i].time, (unsigned long long)b[i].addr, b[i].size,
			      b[i].op, b[i].flags);
}

uint8_t *trcf_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*len + 1);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

void trcf_spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

size_t trcf_file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (size_t)st.st_size;
}

int trcf_files_in_tmpdir(void)
{
	DIR *d = opendir(trcf_tmpdir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

const char *trcf_write_text(const char *name, const char *text)
{
	const char *p = trcf_path(name);

	trcf_spit(p, text, strlen(text));
	return p;
}

void trcf_block(uint8_t *buf, size_t *len, const trc_rec *r, uint32_t n, uint64_t first)
{
	uint8_t *payload = malloc(TRC_PAYLOAD_MAX(n));
	size_t cut[TRC_SECTIONS], plen = trc__encode_block(r, n, payload, cut);
	uLongf zlen = compressBound(plen);

	ck_assert_int_eq(compress2(buf + *len + TRC_BLK_HDR, &zlen, payload, plen, 9), Z_OK);
	trc__block_header(buf + *len, buf + *len + TRC_BLK_HDR, (uint32_t)zlen, n,
			  (uint32_t)plen, first);
	*len += TRC_BLK_HDR + zlen;
	free(payload);
}

size_t trcf_header(uint8_t *buf, uint64_t count, uint32_t cap, uint32_t crc)
{
	trc_hdr h = { .origin = { .fmt = TRC_FMT_NONE }, .count = count, .cap = cap, .crc = crc };

	return trc__header_encode(buf, &h);
}

void trcf_expect_error(const char *path, uint64_t rec, const char *what)
{
	char want[768];
	cxl_err err = { 0 };
	uint64_t n;
	int rc = trcf_read(path, NULL, 0, &n, &err);

	snprintf(want, sizeof(want), "%s: record %llu: %s", path, (unsigned long long)rec, what);
	ck_assert_msg(rc == CXL_EINVAL, "rc %d (%s), expected CXL_EINVAL for %s", rc, err.msg, want);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_msg(!strncmp(err.msg, want, strlen(want)), "message \"%s\", expected \"%s...\"",
		      err.msg, want);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_uint_le(n, rec);
}
