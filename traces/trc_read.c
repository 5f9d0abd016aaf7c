/*
 * traces/trc_read.c - the streaming .cxt reader (contract in trc.h, layout
 * in trc_format.h).
 *
 * One block at a time: read its header, check it (magic, CRC, first record
 * index, record count against the capacity and the header's total, lengths
 * against the bounds the layout fixes), read and CRC-check the compressed
 * bytes, inflate, decode and check the records (trc_codec.c), check that
 * time did not go back across the block boundary, then hand the records out.
 * After the last announced record the file must end, and the CRC of all
 * records must match the header's.
 *
 * Memory is bounded by the header's block capacity B: the buffers grow to
 * the largest block seen, at most 24 B (records) + 29 B + 64 (payload) +
 * its zlib bound (compressed) bytes, plus inflate's ~40 KiB.  Every byte
 * goes through the accounting in r->mem (zlib's too, via zalloc), so tests
 * can check that the peak does not depend on the trace length.
 *
 * Errors are sticky: the first one is kept in r->saved and repeated.
 */
#include "traces/trc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

/* Grow buffer *@p from *@have to at least @need bytes, accounted in @r. */
static void grow(trc_reader *r, void **p, size_t *have, size_t need)
{
	if (need <= *have)
		return;
	*p = xrealloc(*p, need);
	r->mem += need - *have;
	if (r->mem > r->mem_peak)
		r->mem_peak = r->mem;
	r->nalloc++;
	*have = need;
}

/* zlib allocator: a size prefix so zfree can account for the release. */
static voidpf zalloc_cb(voidpf opaque, uInt items, uInt size)
{
	trc_reader *r = opaque;
	size_t n = (size_t)items * size;
	size_t *p = xmalloc(n + sizeof(size_t) * 2);

	p[0] = n;
	r->mem += n;
	if (r->mem > r->mem_peak)
		r->mem_peak = r->mem;
	r->nalloc++;
	return p + 2;
}

static void zfree_cb(voidpf opaque, voidpf ptr)
{
	trc_reader *r = opaque;
	size_t *p = (size_t *)ptr - 2;

	r->mem -= p[0];
	free(p);
}

/* Record the sticky error "NAME: record AT: ..." and return its code. */
__attribute__((format(printf, 5, 6)))
static int rfail(trc_reader *r, cxl_err *err, int code, uint64_t at, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!r->failed) {
		r->failed = code;
		cxl_err_set(&r->saved, code, "%s: record %llu: %s", r->name,
			    (unsigned long long)at, what);
	}
	return cxl_err_set(err, r->failed, "%s", r->saved.msg);
}

/* Read exactly @n bytes; -1 on a short read (ferror tells EIO from EOF). */
static int read_all(trc_reader *r, void *buf, size_t n, size_t *got)
{
	*got = fread(buf, 1, n, r->fp);
	return *got == n ? 0 : -1;
}

static int short_read(trc_reader *r, cxl_err *err, uint64_t at, const char *what)
{
	if (ferror(r->fp))
		return rfail(r, err, CXL_EIO, at, "read error: %s", strerror(errno));
	return rfail(r, err, CXL_EINVAL, at, "%s", what);
}

static int read_header(trc_reader *r, cxl_err *err)
{
	uint8_t buf[TRC_HDR_MAX];
	const char *why = NULL;
	size_t got, len;
	trc_hdr h;

	if (read_all(r, buf, TRC_HDR_FIXED, &got)) {
		if (!got)
			return short_read(r, err, 0, "empty file (not a .cxt trace)");
		if (memcmp(buf, TRC_MAGIC, got < TRC_MAGIC_LEN ? got : TRC_MAGIC_LEN))
			return short_read(r, err, 0, "not a .cxt file (bad magic)");
		return short_read(r, err, 0, "truncated header");
	}
	if (!(len = trc__header_len(buf, &why)))
		return rfail(r, err, CXL_EINVAL, 0, "%s", why);
	if (read_all(r, buf + TRC_HDR_FIXED, len - TRC_HDR_FIXED, &got))
		return short_read(r, err, 0, "truncated header");
	if (trc__header_decode(buf, len, &h, &why))
		return rfail(r, err, CXL_EINVAL, 0, "%s", why);
	r->origin = h.origin;
	r->version = h.version;
	r->count = h.count;
	r->cap = h.cap;
	r->crc_want = h.crc;
	r->offset = len;
	return 0;
}

/**
 * trc_reader_open_stream - see trc.h.
 */
int trc_reader_open_stream(trc_reader **out, FILE *fp, const char *name, cxl_err *err)
{
	trc_reader *r = xcalloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	r->fp = fp;
	r->name = xstrdup(name);
	r->zs.zalloc = zalloc_cb;
	r->zs.zfree = zfree_cb;
	r->zs.opaque = r;
	if ((rc = read_header(r, err))) {
		trc_reader_close(r);
		return rc;
	}
	if (inflateInit(&r->zs) != Z_OK) {
		rc = cxl_err_set(err, CXL_EINTERNAL, "%s: inflateInit failed", name);
		trc_reader_close(r);
		return rc;
	}
	r->zs_live = 1;
	*out = r;
	return 0;
}

/**
 * trc_reader_open - see trc.h.
 */
int trc_reader_open(trc_reader **out, const char *path, cxl_err *err)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;

	*out = NULL;
	if (!fp)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
	return trc_reader_open_stream(out, fp, path, err);
}

/**
 * trc_reader_open_file - see trc.h.
 */
int trc_reader_open_file(trc_reader **out, const char *path, cxl_err *err)
{
	struct stat st = { 0 };
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	*out = NULL;
	if (fd < 0)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return cxl_err_set(err, CXL_EINVAL, "%s: %s (expected a regular file)", path,
				   S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a folder" :
				   "not a regular file");
	}
	FILE *fp = fdopen(fd, "rb");
	if (!fp || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		int e = errno;
		if (fp)
			fclose(fp);
		else
			close(fd);
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(e));
	}
	return trc_reader_open_stream(out, fp, path, err);
}

/* The end: nothing may follow the last record, and the records CRC must match. */
static int check_end(trc_reader *r, cxl_err *err)
{
	if (fgetc(r->fp) != EOF)
		return rfail(r, err, CXL_EINVAL, r->count,
			     "data after the last record (the header says %llu records)",
			     (unsigned long long)r->count);
	if (ferror(r->fp))
		return short_read(r, err, r->count, "");
	if (r->crc != r->crc_want)
		return rfail(r, err, CXL_EINVAL, r->count,
			     "records checksum mismatch (header 0x%08x, records 0x%08x)",
			     (unsigned)r->crc_want, (unsigned)r->crc);
	r->done = 1;
	return 0;
}

/* Check a block header; give its compressed length, records and payload length. */
static int check_block_header(trc_reader *r, const uint8_t *h, uint32_t *zlen, uint32_t *n,
			      uint32_t *plen, cxl_err *err)
{
	uint64_t at = r->decoded, first = trc_get64(h + 16);

	if (memcmp(h, TRC_BLK_MAGIC, 4))
		return rfail(r, err, CXL_EINVAL, at, "bad block magic (damaged block header at "
			     "offset %llu)", (unsigned long long)r->offset);
	if (trc_get32(h + 28) != (uint32_t)crc32(0, h, 28))
		return rfail(r, err, CXL_EINVAL, at, "block header checksum mismatch (offset %llu)",
			     (unsigned long long)r->offset);
	*zlen = trc_get32(h + 4);
	*n = trc_get32(h + 8);
	*plen = trc_get32(h + 12);
	if (first != at)
		return rfail(r, err, CXL_EINVAL, at, "block claims to start at record %llu",
			     (unsigned long long)first);
	if (!*n || *n > r->cap)
		return rfail(r, err, CXL_EINVAL, at, "block of %u records (capacity %u)",
			     (unsigned)*n, (unsigned)r->cap);
	if (*n > r->count - at)
		return rfail(r, err, CXL_EINVAL, at, "block of %u records goes past the header's "
			     "count of %llu records", (unsigned)*n, (unsigned long long)r->count);
	if (*n < r->cap && at + *n < r->count)
		return rfail(r, err, CXL_EINVAL, at, "short block of %u records, but the header "
			     "says %llu records", (unsigned)*n, (unsigned long long)r->count);
	if (!*plen || *plen > TRC_PAYLOAD_MAX(*n) || !*zlen || *zlen > trc_zbound(*plen))
		return rfail(r, err, CXL_EINVAL, at, "bad block lengths (compressed %u, payload %u)",
			     (unsigned)*zlen, (unsigned)*plen);
	return 0;
}

static int inflate_block(trc_reader *r, uint32_t zlen, uint32_t plen)
{
	int rc;

	if (inflateReset(&r->zs) != Z_OK)
		return -1;
	r->zs.next_in = r->z;
	r->zs.avail_in = zlen;
	r->zs.next_out = r->payload;
	r->zs.avail_out = plen;
	rc = inflate(&r->zs, Z_FINISH);
	return (rc == Z_STREAM_END && r->zs.avail_in == 0 && r->zs.total_out == plen) ? 0 : -1;
}

/* Decode the block whose header is @h into r->recs. */
static int decode_block(trc_reader *r, uint32_t zlen, uint32_t n, uint32_t plen, const uint8_t *h,
			cxl_err *err)
{
	uint64_t at = r->decoded;
	size_t got;
	trc_derr e;

	grow(r, (void **)&r->z, &r->z_cap, zlen);
	if (read_all(r, r->z, zlen, &got))
		return short_read(r, err, at, "truncated block");
	if (trc_get32(h + 24) != (uint32_t)crc32(0, r->z, zlen))
		return rfail(r, err, CXL_EINVAL, at, "block checksum mismatch (block of %u records "
			     "at offset %llu)", (unsigned)n, (unsigned long long)r->offset);
	grow(r, (void **)&r->payload, &r->payload_cap, (size_t)plen + 8);
	memset(r->payload + plen, 0, 8);
	if (inflate_block(r, zlen, plen))
		return rfail(r, err, CXL_EINVAL, at, "corrupt block (does not inflate to %u bytes)",
			     (unsigned)plen);
	size_t have = (size_t)r->recs_cap * sizeof(trc_rec);
	grow(r, (void **)&r->recs, &have, (size_t)n * sizeof(trc_rec));
	r->recs_cap = (uint32_t)(have / sizeof(trc_rec));
	if ((r->payload[0] & TRC_BLK_THREADS) && !(r->origin.flags & TRC_ORIGIN_THREADS))
		return rfail(r, err, CXL_EINVAL, at, "corrupt block (thread column in a trace "
			     "without threads)");
	if (trc__decode_block(r->payload, plen, n, r->recs, &e))
		return rfail(r, err, CXL_EINVAL, at + e.at, "corrupt block (%s)", e.why);
	return 0;
}

/* Read the next block: 1 with records, 0 at the checked end, < 0 on error. */
static int load_block(trc_reader *r, cxl_err *err)
{
	uint8_t h[TRC_BLK_HDR];
	uint32_t zlen = 0, n = 0, plen = 0;
	size_t got;
	int rc;

	if (r->decoded == r->count)
		return check_end(r, err);
	if (read_all(r, h, sizeof(h), &got)) {
		if (!got && !ferror(r->fp))
			return rfail(r, err, CXL_EINVAL, r->decoded, "file ends after %llu of %llu "
				     "records (truncated)", (unsigned long long)r->decoded,
				     (unsigned long long)r->count);
		return short_read(r, err, r->decoded, "truncated block header");
	}
	if ((rc = check_block_header(r, h, &zlen, &n, &plen, err)) ||
	    (rc = decode_block(r, zlen, n, plen, h, err)))
		return rc;
	if (r->decoded && r->recs[0].time < r->last_time)
		return rfail(r, err, CXL_EINVAL, r->decoded, "time %llu ps is before the previous "
			     "record's %llu ps (records must be sorted by time)",
			     (unsigned long long)r->recs[0].time, (unsigned long long)r->last_time);
	r->crc = trc__rec_crc(r->crc, r->recs, n);
	r->last_time = r->recs[n - 1].time;
	r->decoded += n;
	r->offset += TRC_BLK_HDR + (uint64_t)zlen;
	r->nrec = n;
	r->pos = 0;
	return 1;
}

/* Make sure a record is ready: 1 if so, 0 at the end, < 0 on error. */
static int fill(trc_reader *r, cxl_err *err)
{
	if (r->failed)
		return cxl_err_set(err, r->failed, "%s", r->saved.msg);
	if (r->pos < r->nrec)
		return 1;
	if (r->done)
		return 0;
	return load_block(r, err);
}

/**
 * trc_reader_next - see trc.h.
 */
int trc_reader_next(trc_reader *r, trc_rec *rec, cxl_err *err)
{
	int rc;

	if (r->pos < r->nrec) {
		*rec = r->recs[r->pos++];
		r->index++;
		return 1;
	}
	if ((rc = fill(r, err)) <= 0)
		return rc;
	*rec = r->recs[r->pos++];
	r->index++;
	return 1;
}

/**
 * trc_reader_read - see trc.h.
 */
long trc_reader_read(trc_reader *r, trc_rec *recs, long max, cxl_err *err)
{
	long got = 0;
	int rc;

	while (got < max && (rc = fill(r, err)) > 0) {
		uint32_t k = r->nrec - r->pos;
		if ((long)k > max - got)
			k = (uint32_t)(max - got);
		memcpy(recs + got, r->recs + r->pos, k * sizeof(*recs));
		r->pos += k;
		r->index += k;
		got += k;
	}
	return r->failed ? r->failed : got;
}

/**
 * trc_reader_skip - see trc.h.
 */
int trc_reader_skip(trc_reader *r, uint64_t n, cxl_err *err)
{
	int rc;

	while (n && (rc = fill(r, err)) > 0) {
		uint32_t k = r->nrec - r->pos;
		if (k > n)
			k = (uint32_t)n;
		r->pos += k;
		r->index += k;
		n -= k;
	}
	if (r->failed)
		return r->failed;
	return n ? 0 : 1;
}

/* trc_reader_count, _index, _origin, _capacity - see trc.h. */
uint64_t trc_reader_count(const trc_reader *r)
{
	return r->count;
}

uint64_t trc_reader_index(const trc_reader *r)
{
	return r->index;
}

const trc_origin *trc_reader_origin(const trc_reader *r)
{
	return &r->origin;
}

uint32_t trc_reader_capacity(const trc_reader *r)
{
	return r->cap;
}

unsigned trc_reader_version(const trc_reader *r)
{
	return r->version;
}

const char *trc_reader_name(const trc_reader *r)
{
	return r->name;
}

/**
 * trc_reader_close - see trc.h.
 */
void trc_reader_close(trc_reader *r)
{
	if (!r)
		return;
	if (r->zs_live)
		inflateEnd(&r->zs);
	if (r->fp && r->fp != stdin)
		fclose(r->fp);
	free(r->recs);
	free(r->payload);
	free(r->z);
	free(r->name);
	free(r);
}
