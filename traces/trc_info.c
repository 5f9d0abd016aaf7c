/*
 * traces/trc_info.c - summary of a .cxt trace (records, reads, writes,
 * footprint, time span, compression) and its block table (trc_ops.h).
 *
 * The footprint is the number of distinct 64-byte lines, counted with an
 * open-addressing hash set of line numbers (linear probing, kept at most
 * half full, 8 bytes per slot): the one part of the tool whose memory grows
 * with the trace, by ~16 bytes per distinct line.  Threads are counted in a
 * 65536-bit map (8 KiB).
 */
#include "traces/trc_ops.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/xmalloc.h"
#include "traces/trc_int.h"

typedef struct lineset lineset;
struct lineset {
	uint64_t *slot; /* line + 1, 0 = empty */
	uint64_t mask;  /* slots - 1 (a power of two) */
	uint64_t n;     /* lines stored */
};

static uint64_t *probe(const lineset *s, uint64_t key)
{
	uint64_t i = rng_mix64(key) & s->mask;

	while (s->slot[i] && s->slot[i] != key)
		i = (i + 1) & s->mask;
	return &s->slot[i];
}

static void lineset_grow(lineset *s)
{
	lineset t = { xcalloc((s->mask + 1) * 2, sizeof(uint64_t)), s->mask * 2 + 1, s->n };

	for (uint64_t i = 0; i <= s->mask; i++)
		if (s->slot[i])
			*probe(&t, s->slot[i]) = s->slot[i];
	free(s->slot);
	*s = t;
}

static void lineset_add(lineset *s, uint64_t line)
{
	uint64_t *p = probe(s, line + 1);

	if (*p)
		return;
	*p = line + 1;
	if (++s->n * 2 > s->mask + 1)
		lineset_grow(s);
}

static void account(trc_info *in, lineset *set, uint64_t *seen, const trc_rec *r)
{
	if (!(seen[r->thread >> 6] >> (r->thread & 63) & 1)) {
		seen[r->thread >> 6] |= 1ull << (r->thread & 63);
		in->threads++;
		in->thread_max = r->thread > in->thread_max ? r->thread : in->thread_max;
	}
	if (!in->records) {
		in->t_first = r->time;
		in->addr_min = in->addr_max = r->addr;
	}
	in->records++;
	in->reads += r->op == TRC_READ;
	in->writes += r->op == TRC_WRITE;
	in->bytes += r->size;
	in->t_last = r->time;
	if (r->addr < in->addr_min)
		in->addr_min = r->addr;
	if (r->addr > in->addr_max)
		in->addr_max = r->addr;
	lineset_add(set, r->addr >> TRC_LINE_SHIFT);
}

/**
 * trc_info_scan - see trc_ops.h.
 */
int trc_info_scan(const char *path, trc_info *info, cxl_err *err)
{
	lineset set = { xcalloc(1024, sizeof(uint64_t)), 1023, 0 };
	uint64_t *seen = xcalloc(65536 / 64, sizeof(uint64_t));
	trc_rec recs[256];
	trc_reader *r;
	struct stat st;
	long n;
	int rc;

	memset(info, 0, sizeof(*info));
	if ((rc = trc_reader_open(&r, path, err)))
		goto free_set;
	info->origin = *trc_reader_origin(r);
	info->cap = trc_reader_capacity(r);
	info->version = trc_reader_version(r);
	if (strcmp(path, "-") && !stat(path, &st))
		info->file_bytes = (uint64_t)st.st_size;
	while ((n = trc_reader_read(r, recs, 256, err)) > 0)
		for (long i = 0; i < n; i++)
			account(info, &set, seen, &recs[i]);
	rc = n < 0 ? (int)n : 0;
	info->lines = set.n;
	trc_reader_close(r);
free_set:
	free(seen);
	free(set.slot);
	return rc;
}

/**
 * trc_info_blocks - see trc_ops.h.
 */
int trc_info_blocks(const char *path, FILE *out, cxl_err *err)
{
	uint8_t h[TRC_HDR_MAX];
	const char *why = "truncated header";
	FILE *fp = fopen(path, "rb");
	uint64_t off;
	size_t len;
	int rc = 0;

	if (!fp)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fread(h, 1, TRC_HDR_FIXED, fp) != TRC_HDR_FIXED || !(len = trc__header_len(h, &why))) {
		rc = cxl_err_set(err, CXL_EINVAL, "%s: record 0: %s", path, why);
		goto close_fp;
	}
	fprintf(out, "header 0 %zu\n", len);
	fprintf(out, "block offset compressed payload records first\n");
	for (off = len; !fseek(fp, (long)off, SEEK_SET) && fread(h, 1, TRC_BLK_HDR, fp) == TRC_BLK_HDR;) {
		uint32_t zlen = trc_get32(h + 4);
		fprintf(out, "block %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu64 "\n",
			off, zlen, trc_get32(h + 12), trc_get32(h + 8), trc_get64(h + 16));
		off += TRC_BLK_HDR + (uint64_t)zlen;
	}
close_fp:
	fclose(fp);
	return rc;
}
