/*
 * test/traces/fuzz/trc_fuzz.c - libFuzzer harness for the .cxt reader (`make fuzz`).
 *
 * Each input is tried three ways:
 *   1. as a .cxt file, through trc_reader_open_stream (fmemopen) and
 *      trc_reader_next to the end or the first error;
 *   2. the same after repairing every checksum the structure lets us find
 *      (header CRC, each block's header and data CRC), so that mutations get
 *      past the CRCs into inflate and the block decoder;
 *   3. as a bare block payload for trc__decode_block, the record count taken
 *      from the first two bytes;
 *   4. unless it starts like a .cxt file, as a text trace through the
 *      importer (format detected, then forced to each format in turn, the
 *      binary ChampSim one too: plain, or gzip / xz if it starts so), every
 *      record printed back through an exporter;
 *   5. compressed with xz (liblzma, preset 0) and imported as ChampSim, so
 *      that the 64-byte record parser sees the input through the xz decoder.
 * Invariants checked on every record returned: time never decreases,
 * addresses fit their line range, sizes are non-zero, a record's bytes end
 * at or below 2^64 - 1 (addr + size - 1 does not wrap), op and flags valid,
 * thread indices only in traces whose origin has threads, and the reader
 * never returns more records than its header announces.  A
 * violated invariant aborts (a "crash" for libFuzzer).  Crashing inputs go
 * to test/traces/corpus/, which the unit tests replay.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "traces/trc_int.h"
#include "traces/trc_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rec(const trc_rec *r, uint64_t *last)
{
	if (r->time < *last || !r->size || r->op > TRC_WRITE || r->flags & ~TRC_REC_NOTIME )
		abort();
	if (r->addr > UINT64_MAX - (r->size - 1))
		abort();
	*last = r->time;
}

/* check_rec, and a thread index only where the origin has threads. */
static void check_thread(const trc_rec *r, const trc_origin *o)
{
	if (r->thread && !(o->flags & TRC_ORIGIN_THREADS))
		abort();
}

static void read_all(uint8_t *buf, size_t size)
{
	FILE *fp = fmemopen(buf, size, "rb");
	trc_reader *r;
	trc_rec rec;
	uint64_t last = 0, n = 0;
	int rc;

	if (!fp)
		return;
	if (trc_reader_open_stream(&r, fp, "fuzz", NULL))
		return;
	while ((rc = trc_reader_next(r, &rec, NULL)) > 0) {
		check_rec(&rec, &last);
		check_thread(&rec, trc_reader_origin(r));
		if (++n > trc_reader_count(r))
			abort();
	}
	if (rc == 0 && n != trc_reader_count(r))
		abort();
	trc_reader_close(r);
}

/* Recompute the CRCs of the header and of every block that lies within @size. */
static void repair(uint8_t *buf, size_t size)
{
	size_t hlen, off;

	if (size < TRC_HDR_FIXED)
		return;
	hlen = trc_get16(buf + 10);
	if (hlen < TRC_HDR_MIN || hlen > size)
		return;
	trc_put32(buf + hlen - 4, (uint32_t)crc32(0, buf, (uInt)(hlen - 4)));
	for (off = hlen; off + TRC_BLK_HDR <= size;) {
		uint8_t *h = buf + off;
		uint32_t zlen = trc_get32(h + 4);
		if (zlen > size - off - TRC_BLK_HDR)
			break;
		trc_put32(h + 24, (uint32_t)crc32(0, h + TRC_BLK_HDR, zlen));
		trc_put32(h + 28, (uint32_t)crc32(0, h, 28));
		off += TRC_BLK_HDR + zlen;
	}
}

static void decode_payload(const uint8_t *data, size_t size)
{
	uint32_t n;
	uint8_t *p;
	trc_rec *recs;
	trc_derr e;

	if (size < 2)
		return;
	n = (uint32_t)(data[0] | (data[1] << 8)) % 4096 + 1;
	p = calloc(size - 2 + 8, 1);
	recs = calloc(n, sizeof(*recs));
	memcpy(p, data + 2, size - 2);
	if (trc__decode_block(p, size - 2, n, recs, &e) == 0)
		for (uint32_t i = 1; i < n; i++)
			if (recs[i].time < recs[i - 1].time)
				abort();
	free(recs);
	free(p);
}

/* Import the text in @path with format @fmt; re-print every record. */
static void import_text(const char *path, int fmt)
{
	trc_import_opts o = { .fmt = fmt, .clock_ps = fmt == TRC_FMT_CSV ? 7 : 0 };
	char line[TRC_EXPORT_LINE_MAX];
	const char *why;
	trc_import *im;
	trc_export ex;
	trc_rec rec;
	uint64_t last = 0;

	if (trc_import_open(&im, path, &o, NULL))
		return;
	if (trc_export_init(&ex, trc_import_origin(im), TRC_FMT_NONE, 0, 0, NULL))
		abort(); /* the importer accepted an origin the exporter refuses */
	while (trc_import_next(im, &rec, NULL) > 0) {
		check_rec(&rec, &last);
		check_thread(&rec, trc_import_origin(im));
		if (trc_export_line(&ex, &rec, line, &why) >= TRC_EXPORT_LINE_MAX)
			abort();
	}
	trc_import_close(im);
}

/* @data in a temporary file imported with each format of [@from, @to). */
static void import_file(const uint8_t *data, size_t size, int from, int to)
{
	FILE *f;
	char path[32];

	if (!(f = tmpfile()))
		return;
	if (fwrite(data, 1, size, f) == size && !fflush(f)) {
		snprintf(path, sizeof(path), "/dev/fd/%d", fileno(f));
		for (int fmt = from; fmt < to; fmt++)
			import_text(path, fmt);
	}
	fclose(f);
}

static void text(const uint8_t *data, size_t size)
{
	if (size && data[0] == 0x89)
		return;
	import_file(data, size, TRC_FMT_NONE, TRC_FMT_COUNT);
}

/* The input xz-compressed, as a ChampSim trace. */
static void champsim_xz(const uint8_t *data, size_t size)
{
	size_t cap = size + size / 2 + 4096, len = 0;
	uint8_t *xz = malloc(cap);

	if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL, data, size, xz, &len, cap) == LZMA_OK)
		import_file(xz, len, TRC_FMT_CHAMPSIM, TRC_FMT_CHAMPSIM + 1);
	free(xz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size + 1);

	memcpy(buf, data, size);
	read_all(buf, size);
	repair(buf, size);
	read_all(buf, size);
	free(buf);
	decode_payload(data, size);
	text(data, size);
	champsim_xz(data, size);
	return 0;
}
