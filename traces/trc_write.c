/*
 * traces/trc_write.c - the .cxt writer (contract in trc.h, layout in
 * trc_format.h).
 *
 * Records collect in a block of `cap` records; a full block is encoded
 * (trc_codec.c), deflated at level 9 section by section and appended.  The header goes first
 * with a zero count and is rewritten at close, when the count and records
 * CRC are known; so the output must be seekable.  All of it goes to a
 * temporary file next to the target, renamed at close: a reader never sees
 * a half-written trace under the final name.
 *
 * Memory: cap records + two payload-sized buffers + deflate's state
 * (~270 KiB), whatever the trace length.
 */
#include "traces/trc_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xmalloc.h"

static int wfail(trc_writer *w, cxl_err *err, int code, const char *fmt, const char *what)
{
	if (!w->failed)
		w->failed = code;
	return cxl_err_set(err, code, fmt, w->path, what);
}

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

static int write_header(trc_writer *w, cxl_err *err)
{
	uint8_t buf[TRC_HDR_MAX];
	trc_hdr h = { .origin = w->origin, .count = w->count, .cap = w->cap, .crc = w->crc };
	size_t len = trc__header_encode(buf, &h);

	if (fseek(w->fp, 0, SEEK_SET) || fwrite(buf, 1, len, w->fp) != len)
		return wfail(w, err, CXL_EIO, "%s: cannot write header: %s", strerror(errno));
	return 0;
}

/*
 * Deflate the payload with a block boundary (Z_BLOCK) after each section,
 * so each column gets Huffman codes of its own.  Z_FILTERED drops the short
 * matches that cost more than literals in the near-random class and
 * mantissa columns, and keeps the long ones of constant columns.
 */
static int deflate_payload(const uint8_t *in, const size_t *cut, uint8_t *out, size_t cap,
			   size_t *zlen)
{
	z_stream zs;
	size_t start = 0;
	int rc = Z_OK;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 9, Z_DEFLATED, 15, 9, Z_FILTERED) != Z_OK)
		return -1;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	for (int i = 0; i < TRC_SECTIONS && rc == Z_OK; i++) {
		int last = i == TRC_SECTIONS - 1;
		if (cut[i] == start && !last)
			continue;
		zs.next_in = (Bytef *)(uintptr_t)(in + start);
		zs.avail_in = (uInt)(cut[i] - start);
		rc = deflate(&zs, last ? Z_FINISH : Z_BLOCK);
		start = cut[i];
	}
	*zlen = zs.total_out;
	deflateEnd(&zs);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* Encode, deflate and append the pending block. */
static int flush_block(trc_writer *w, cxl_err *err)
{
	uint8_t hdr[TRC_BLK_HDR];
	size_t plen, zlen, cut[TRC_SECTIONS];

	if (!w->n)
		return 0;
	plen = trc__encode_block(w->recs, w->n, w->payload, cut);
	if (deflate_payload(w->payload, cut, w->z, trc_zbound(TRC_PAYLOAD_MAX(w->cap)), &zlen))
		return wfail(w, err, CXL_EINTERNAL, "%s: %s", "deflate failed");
	trc__block_header(hdr, w->z, (uint32_t)zlen, w->n, (uint32_t)plen, w->count - w->n);
	if (fwrite(hdr, 1, sizeof(hdr), w->fp) != sizeof(hdr) || fwrite(w->z, 1, zlen, w->fp) != zlen)
		return wfail(w, err, CXL_EIO, "%s: cannot write: %s", strerror(errno));
	w->n = 0;
	return 0;
}

/**
 * trc_writer_open - see trc.h.
 */
int trc_writer_open(trc_writer **out, const char *path, const trc_origin *origin,
		    uint32_t capacity, cxl_err *err)
{
	static const trc_origin none = { .fmt = TRC_FMT_NONE };
	trc_writer *w;
	size_t len = strlen(path);
	int fd, rc;

	*out = NULL;
	if (!origin)
		origin = &none;
	if ((rc = trc__origin_check(origin, err)))
		return rc;
	if (capacity > TRC_CAP_MAX)
		return cxl_err_set(err, CXL_EINVAL, "%s: block capacity %u above %u", path,
				   (unsigned)capacity, TRC_CAP_MAX);
	w = xcalloc(1, sizeof(*w));
	w->origin = *origin;
	w->cap = capacity ? capacity : TRC_CAP_DEFAULT;
	w->path = xstrdup(path);
	w->tmp = xmalloc(len + 16);
	memcpy(w->tmp, path, len);
	memcpy(w->tmp + len, ".tmp.XXXXXX", 12);
	fd = mkstemp(w->tmp);
	if (fd >= 0)
		fchmod(fd, 0666 & ~current_umask()); /* mkstemp makes it 0600 */
	if (fd < 0 || !(w->fp = fdopen(fd, "wb"))) {
		rc = cxl_err_set(err, CXL_EIO, "%s: cannot create: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(w->tmp);
		}
		goto free_w;
	}
	w->recs = xmalloc(w->cap * sizeof(*w->recs));
	w->payload = xmalloc(TRC_PAYLOAD_MAX(w->cap));
	w->z = xmalloc(trc_zbound(TRC_PAYLOAD_MAX(w->cap)));
	if ((rc = write_header(w, err))) {
		trc_writer_abort(w);
		return rc;
	}
	*out = w;
	return 0;

free_w:
	free(w->tmp);
	free(w->path);
	free(w);
	return rc;
}

static const char *rec_problem(const trc_writer *w, const trc_rec *r)
{
	if (w->count && r->time < w->last_time)
		return "time is before the previous record's (records must be sorted by time)";
	if (!r->size)
		return "size 0";
	if (r->addr > UINT64_MAX - (r->size - 1))
		return "address + size past 2^64 (bytes beyond the 64-bit address space)";
	if (r->op > TRC_WRITE)
		return "op is neither read nor write";
	if (r->flags & ~TRC_REC_NOTIME)
		return "unknown flags";
	if (r->thread && !(w->origin.flags & TRC_ORIGIN_THREADS))
		return "thread index in a trace without threads (origin lacks TRC_ORIGIN_THREADS)";
	return NULL;
}

/**
 * trc_writer_add - see trc.h.
 */
int trc_writer_add(trc_writer *w, const trc_rec *rec, cxl_err *err)
{
	const char *bad;

	if (w->failed)
		return w->failed;
	if ((bad = rec_problem(w, rec))) {
		w->failed = CXL_EINVAL;
		return cxl_err_set(err, CXL_EINVAL, "%s: record %llu: %s", w->path,
				   (unsigned long long)w->count, bad);
	}
	w->recs[w->n++] = *rec;
	w->crc = trc__rec_crc(w->crc, rec, 1);
	w->last_time = rec->time;
	w->count++;
	return w->n == w->cap ? flush_block(w, err) : 0;
}

/* trc_writer_count - see trc.h. */
uint64_t trc_writer_count(const trc_writer *w)
{
	return w->count;
}

static void free_buffers(trc_writer *w)
{
	free(w->recs);
	free(w->payload);
	free(w->z);
	w->recs = NULL;
	w->payload = NULL;
	w->z = NULL;
}

/**
 * trc__writer_finish - write the last block and the final header and close
 * the temporary file, releasing the block buffers; the file is not renamed
 * yet (trc__writer_commit), so a caller can finish several writers and
 * commit them only if all succeeded.
 * @w:   the writer
 * @err: OUT error record, may be NULL
 *
 * Return: 0, or a CXL_E* code (then only trc_writer_abort is valid).
 */
int trc__writer_finish(trc_writer *w, cxl_err *err)
{
	int rc = w->failed;

	if (!rc)
		rc = flush_block(w, err);
	if (!rc)
		rc = write_header(w, err);
	if (!rc && fflush(w->fp))
		rc = wfail(w, err, CXL_EIO, "%s: cannot write: %s", strerror(errno));
	if (!rc) {
		int bad = fclose(w->fp);
		w->fp = NULL;
		if (bad)
			rc = wfail(w, err, CXL_EIO, "%s: cannot write: %s", strerror(errno));
	}
	free_buffers(w);
	return rc;
}

/**
 * trc__writer_commit - rename a finished writer's file into place and free
 * the writer.
 * Return: 0, or CXL_EIO (the writer is aborted: temporary file removed).
 */
int trc__writer_commit(trc_writer *w, cxl_err *err)
{
	if (rename(w->tmp, w->path)) {
		int rc = wfail(w, err, CXL_EIO, "%s: cannot rename into place: %s", strerror(errno));
		trc_writer_abort(w);
		return rc;
	}
	free(w->tmp);
	free(w->path);
	free(w);
	return 0;
}

/**
 * trc_writer_close - see trc.h.
 */
int trc_writer_close(trc_writer *w, cxl_err *err)
{
	int rc = trc__writer_finish(w, err);

	if (rc) {
		trc_writer_abort(w);
		return rc;
	}
	return trc__writer_commit(w, err);
}

/**
 * trc_writer_abort - see trc.h.
 */
void trc_writer_abort(trc_writer *w)
{
	if (!w)
		return;
	if (w->fp)
		fclose(w->fp);
	unlink(w->tmp);
	free_buffers(w);
	free(w->tmp);
	free(w->path);
	free(w);
}
