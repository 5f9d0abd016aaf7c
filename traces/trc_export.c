/*
 * traces/trc_export.c - records to text lines (ESF, DRAMsim3, CSV, Ramulator
 * and Ramulator2 memory traces) and the CSV column names shared with the
 * importer (formats in trc_text.h).
 *
 * An exporter is a small value (no allocation): the target format, its
 * clock, the CSV column order, and the previous record's time (ESF delays).
 * It writes the canonical form, so for canonical input the importer and the
 * exporter are exact inverses; the importer uses an exporter to decide
 * whether a line was canonical.
 */
#include "traces/trc_text.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int col;
} col_names[] = {
	{ "time_ps", TRC_COL_TIME_PS }, { "time_ns", TRC_COL_TIME_NS },
	{ "time_us", TRC_COL_TIME_US }, { "time", TRC_COL_TIME_CLK },
	{ "cycle", TRC_COL_TIME_CLK },  { "addr", TRC_COL_ADDR },
	{ "address", TRC_COL_ADDR },    { "op", TRC_COL_OP },
	{ "size", TRC_COL_SIZE },       { "thread", TRC_COL_THREAD },
};

#define NCOLNAMES (sizeof(col_names) / sizeof(col_names[0]))

static int col_lookup(const char *s, size_t len)
{
	while (len && isblank((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isblank((unsigned char)s[len - 1]))
		len--;
	for (size_t i = 0; i < NCOLNAMES; i++)
		if (strlen(col_names[i].name) == len && !strncasecmp(col_names[i].name, s, len))
			return col_names[i].col;
	return -1;
}

static int is_time_col(int c)
{
	return c <= TRC_COL_TIME_CLK;
}

/**
 * trc_csv_columns - see trc_text.h.
 */
int trc_csv_columns(const char *line, int *col, const char **bad)
{
	int n = 0, seen_time = 0, seen[TRC_COL_THREAD + 1] = { 0 };

	for (const char *p = line;; p++) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int c = col_lookup(p, len);
		if (c < 0) {
			*bad = "unknown column (expected time_ps, time_ns, time_us, time, cycle, "
			       "addr, op, size, thread)";
			return -1;
		}
		if (n == TRC_CSV_COLS || seen[c] || (is_time_col(c) && seen_time)) {
			*bad = "column given twice (at most one of each, one time column)";
			return -1;
		}
		seen[c] = 1;
		seen_time |= is_time_col(c);
		col[n++] = c;
		if (!e)
			break;
		p = e;
	}
	if (!seen[TRC_COL_ADDR] || !seen[TRC_COL_OP]) {
		*bad = "missing column (addr and op are required)";
		return -1;
	}
	return n;
}

/**
 * trc_export_init - see trc_text.h.
 */
int trc_export_init(trc_export *ex, const trc_origin *o, int to, uint64_t clock_ps,
		    int esf_delay, cxl_err *err)
{
	const char *hdr = (o->flags & TRC_ORIGIN_THREADS) ? "time_ps,addr,op,size,thread"
							  : "time_ps,addr,op,size", *bad;

	memset(ex, 0, sizeof(*ex));
	if (to == TRC_FMT_NONE)
		to = trc_fmt_exports(o->fmt) ? o->fmt : TRC_FMT_CSV;
	if (!trc_fmt_exports(to))
		return cxl_err_set(err, CXL_EINVAL, "cannot print %s text (the formats printed are "
				   "esf, dramsim3, csv, ramulator and ramulator2)", trc_fmt_name(to));
	ex->fmt = to;
	ex->clock_ps = clock_ps ? clock_ps : TRC_DEFAULT_CLOCK_PS;
	ex->esf_delay = esf_delay;
	ex->bubbles = to == TRC_FMT_RAMULATOR2 && clock_ps;
	if (to == o->fmt) {
		ex->clock_ps = o->clock_ps;
		ex->esf_delay = !!(o->flags & TRC_ORIGIN_ESF_DELAY);
		ex->bubbles = to == TRC_FMT_RAMULATOR2 && o->clock_ps;
		if (to == TRC_FMT_CSV)
			hdr = o->text;
	}
	if (to != TRC_FMT_CSV)
		return 0;
	ex->ncol = trc_csv_columns(hdr, ex->col, &bad);
	if (ex->ncol < 0)
		return cxl_err_set(err, CXL_EINVAL, "CSV header \"%s\": %s", hdr, bad);
	for (int i = 0; i < ex->ncol; i++)
		if (ex->col[i] == TRC_COL_TIME_CLK && !ex->clock_ps)
			return cxl_err_set(err, CXL_EINVAL, "CSV header \"%s\": no clock for the "
					   "time column", hdr);
	snprintf(ex->header, sizeof(ex->header), "%s\n", hdr);
	return 0;
}

/* @t in units of @unit ps into *@v; -1 if not a whole number of units. */
static int in_units(uint64_t t, uint64_t unit, uint64_t *v, const char **why)
{
	if (t % unit) {
		*why = "time is not a whole number of ticks of the clock (give --clock)";
		return -1;
	}
	*v = t / unit;
	return 0;
}

static int esf_tick(trc_export *ex, const trc_rec *r, uint64_t *tick, const char **why)
{
	if (ex->esf_delay)
		return in_units(r->time - ex->prev_time, ex->clock_ps, tick, why);
	if (r->flags & TRC_REC_NOTIME) {
		*tick = 0;
		return 0;
	}
	return in_units(r->time, ex->clock_ps, tick, why);
}

/* One CSV field of @r into @p (room for 24 bytes); returns its length or -1. */
static int csv_field(const trc_export *ex, int col, const trc_rec *r, char *p, const char **why)
{
	static const uint64_t unit[] = { 1, 1000, 1000000 };
	uint64_t v;

	switch (col) {
	case TRC_COL_TIME_PS:
	case TRC_COL_TIME_NS:
	case TRC_COL_TIME_US:
	case TRC_COL_TIME_CLK:
		if (in_units(r->time, col == TRC_COL_TIME_CLK ? ex->clock_ps : unit[col], &v, why))
			return -1;
		return sprintf(p, "%" PRIu64, v);
	case TRC_COL_ADDR:
		return sprintf(p, "0x%" PRIx64, r->addr);
	case TRC_COL_OP:
		return sprintf(p, "%c", r->op == TRC_WRITE ? 'W' : 'R');
	case TRC_COL_THREAD:
		return sprintf(p, "%u", (unsigned)r->thread);
	default:
		return sprintf(p, "%" PRIu32, r->size);
	}
}

static int csv_line(trc_export *ex, const trc_rec *r, char *buf, const char **why)
{
	int len = 0;

	for (int i = 0; i < ex->ncol; i++) {
		int k;
		if (i)
			buf[len++] = ',';
		if ((k = csv_field(ex, ex->col[i], r, buf + len, why)) < 0)
			return -1;
		len += k;
	}
	buf[len++] = '\n';
	buf[len] = '\0';
	return len;
}

/* Ramulator2's bubble count before @r: instructions since the previous record's, less one. */
static int bubbles(const trc_export *ex, const trc_rec *r, uint64_t *b, const char **why)
{
	uint64_t i, prev;

	if (in_units(r->time, ex->clock_ps, &i, why))
		return -1;
	if (!ex->index) {
		*b = i;
		return 0;
	}
	prev = ex->prev_time / ex->clock_ps;
	if (i <= prev) {
		*why = "two accesses in one instruction (a Ramulator2 line is one instruction)";
		return -1;
	}
	*b = i - prev - 1;
	return 0;
}

/* A Ramulator (0xADDR R|W) or Ramulator2 ([BUBBLES ]LD|ST 0xADDR) line of @r into @buf. */
static int ramulator_line(const trc_export *ex, const trc_rec *r, char *buf, const char **why)
{
	uint64_t b;
	int len = 0;

	if (ex->fmt == TRC_FMT_RAMULATOR)
		return sprintf(buf, "0x%" PRIx64 " %c\n", r->addr, r->op == TRC_WRITE ? 'W' : 'R');
	if (ex->bubbles) {
		if (bubbles(ex, r, &b, why))
			return -1;
		len = sprintf(buf, "%" PRIu64 " ", b);
	}
	return len + sprintf(buf + len, "%s 0x%" PRIx64 "\n", r->op == TRC_WRITE ? "ST" : "LD",
			     r->addr);
}

/**
 * trc_export_line - see trc_text.h.
 */
int trc_export_line(trc_export *ex, const trc_rec *r, char *buf, const char **why)
{
	uint64_t t;
	int len;

	if (ex->fmt == TRC_FMT_CSV) {
		len = csv_line(ex, r, buf, why);
	} else if (r->size != 64) {
		*why = ex->fmt == TRC_FMT_ESF ? "size is not 64 B (ESF text has no size field)"
		       : ex->fmt == TRC_FMT_DRAMSIM3 ? "size is not 64 B (DRAMsim3 text has no size field)"
		       : "size is not 64 B (Ramulator text has no size field)";
		return -1;
	} else if (ex->fmt == TRC_FMT_RAMULATOR || ex->fmt == TRC_FMT_RAMULATOR2) {
		if ((len = ramulator_line(ex, r, buf, why)) < 0)
			return -1;
	} else if (ex->fmt == TRC_FMT_ESF) {
		if (esf_tick(ex, r, &t, why))
			return -1;
		len = sprintf(buf, "0x%" PRIx64 " %c %" PRIu64 "\n", r->addr,
			      r->op == TRC_WRITE ? 'W' : 'R', t);
	} else {
		if (in_units(r->time, ex->clock_ps, &t, why))
			return -1;
		len = sprintf(buf, "0x%" PRIx64 " %s %" PRIu64 "\n", r->addr,
			      r->op == TRC_WRITE ? "WRITE" : "READ", t);
	}
	if (len < 0)
		return -1;
	ex->prev_time = r->time;
	ex->index++;
	return len;
}
