/*
 * traces/trc_split.c - one trace into per-host traces (contract in
 * trc_ops.h).
 *
 * range keeps one writer open at a time (host h takes records
 * [start(h), start(h+1)), start(h) = h*q + min(h, r) for N = q*hosts + r);
 * roundrobin and thread keep all of them open, with block capacity lowered
 * so the open writers' buffers stay near 256 MiB.  With rebase, a record
 * enters its output at its time minus the output's first record's time.  Output names come from the
 * pattern by substitution, never through printf, so a pattern cannot
 * inject conversions.
 */
#include "traces/trc_ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"
#include "traces/trc_int.h"

#define WRITERS_BUDGET (256u << 20) /* bytes of block buffers for roundrobin */
#define WRITER_BYTES_PER_REC 80     /* records + payload + deflate output, per record */

/**
 * trc_split_name - see trc_ops.h.
 */
int trc_split_name(const char *pattern, unsigned host, char *buf, size_t size)
{
	size_t n = 0;
	int holes = 0;

	for (const char *p = pattern; *p; p++) {
		char num[16];
		const char *add = num;
		if (*p != '%') {
			num[0] = *p;
			num[1] = '\0';
		} else if (p[1] == '%') {
			add = "%";
			p++;
		} else if (p[1] == 'd') {
			snprintf(num, sizeof(num), "%u", host);
			holes++;
			p++;
		} else {
			return -1;
		}
		size_t k = strlen(add);
		if (n + k >= size)
			return -1;
		memcpy(buf + n, add, k);
		n += k;
	}
	buf[n] = '\0';
	return holes == 1 ? 0 : -1;
}

static uint64_t range_start(uint64_t count, unsigned hosts, unsigned h)
{
	uint64_t q = count / hosts, r = count % hosts;

	return (uint64_t)h * q + (h < r ? h : r);
}

static int open_out(trc_writer **w, const char *pattern, unsigned h, const trc_origin *o,
		    uint32_t cap, cxl_err *err)
{
	char name[4096];

	if (trc_split_name(pattern, h, name, sizeof(name)))
		return cxl_err_set(err, CXL_EINVAL, "output pattern \"%s\": needs exactly one %%d "
				   "(and no other %% but %%%%)", pattern);
	return trc_writer_open(w, name, o, cap, err);
}

/* Add @rec to @w; with @base (rebase) at its time less the output's first time *@base. */
static int add(trc_writer *w, trc_rec rec, uint64_t *base, cxl_err *err)
{
	if (base) {
		if (!trc_writer_count(w))
			*base = rec.time;
		rec.time -= *base;
	}
	return trc_writer_add(w, &rec, err);
}

/* Host @h's records into a finished (not yet committed) writer *@w. */
static int range_part(trc_reader *r, trc_writer **w, const char *pattern, unsigned hosts,
		      unsigned h, uint32_t cap, int rebase, cxl_err *err)
{
	uint64_t base = 0;
	uint64_t count = trc_reader_count(r);
	trc_rec rec;
	int rc;

	if ((rc = open_out(w, pattern, h, trc_reader_origin(r), cap, err)))
		return rc;
	for (uint64_t i = range_start(count, hosts, h); i < range_start(count, hosts, h + 1); i++) {
		if ((rc = trc_reader_next(r, &rec, err)) <= 0)
			return rc ? rc : cxl_err_set(err, CXL_EINTERNAL, "reader ended early");
		if ((rc = add(*w, rec, rebase ? &base : NULL, err)))
			return rc;
	}
	return trc__writer_finish(*w, err);
}

/*
 * Finished writers hold only their names, so all of them wait for the
 * reader's end check (trailing data, records CRC) before any is committed.
 */
/* Commit every writer of @w (@hosts) if @rc is 0, else abort them; frees @w. */
static int close_all(trc_writer **w, unsigned hosts, int rc, cxl_err *err)
{
	for (unsigned h = 0; h < hosts; h++) {
		if (!w[h])
			continue;
		if (rc)
			trc_writer_abort(w[h]);
		else
			rc = trc__writer_commit(w[h], err);
	}
	free(w);
	return rc;
}

static int split_range(trc_reader *r, const char *pattern, unsigned hosts, uint32_t cap,
		       int rebase, cxl_err *err)
{
	trc_writer **w = xcalloc(hosts, sizeof(*w));
	trc_rec rec;
	int rc = 0;
	unsigned h;

	for (h = 0; h < hosts && !rc; h++)
		rc = range_part(r, &w[h], pattern, hosts, h, cap, rebase, err);
	if (!rc && (rc = trc_reader_next(r, &rec, err)) > 0)
		rc = cxl_err_set(err, CXL_EINTERNAL, "reader gave more than its count");
	return close_all(w, hosts, rc, err);
}

/* roundrobin (record i to host i mod hosts) or thread (thread t to host t mod hosts). */
static int split_spread(trc_reader *r, const char *pattern, unsigned hosts, int by, uint32_t cap,
			int rebase, cxl_err *err)
{
	trc_writer **w = xcalloc(hosts, sizeof(*w));
	uint64_t *base = xcalloc(hosts, sizeof(*base));
	uint32_t fit = WRITERS_BUDGET / WRITER_BYTES_PER_REC / hosts;
	uint64_t i = 0;
	trc_rec rec;
	int rc = 0;
	unsigned h;

	if (!cap)
		cap = TRC_CAP_DEFAULT;
	if (cap > fit)
		cap = fit < 64 ? 64 : fit;
	for (h = 0; h < hosts && !rc; h++)
		rc = open_out(&w[h], pattern, h, trc_reader_origin(r), cap, err);
	while (!rc && (rc = trc_reader_next(r, &rec, err)) > 0) {
		h = by == TRC_SPLIT_THREAD ? rec.thread % hosts : (unsigned)(i++ % hosts);
		rc = add(w[h], rec, rebase ? &base[h] : NULL, err);
	}
	for (h = 0; h < hosts && !rc; h++)
		rc = trc__writer_finish(w[h], err);
	free(base);
	return close_all(w, hosts, rc, err);
}

/**
 * trc_split - see trc_ops.h.
 */
int trc_split(const char *in, const char *pattern, unsigned hosts, int by, uint32_t cap,
	      int rebase, cxl_err *err)
{
	trc_reader *r;
	char name[4096];
	int rc;

	if (hosts < 1 || hosts > TRC_SPLIT_HOSTS_MAX)
		return cxl_err_set(err, CXL_EINVAL, "--hosts %u: out of range 1..%d", hosts,
				   TRC_SPLIT_HOSTS_MAX);
	if (trc_split_name(pattern, 0, name, sizeof(name)))
		return cxl_err_set(err, CXL_EINVAL, "output pattern \"%s\": needs exactly one %%d "
				   "(and no other %% but %%%%)", pattern);
	if ((rc = trc_reader_open(&r, in, err)))
		return rc;
	rc = by == TRC_SPLIT_RANGE ? split_range(r, pattern, hosts, cap, rebase, err)
				   : split_spread(r, pattern, hosts, by, cap, rebase, err);
	trc_reader_close(r);
	return rc;
}
