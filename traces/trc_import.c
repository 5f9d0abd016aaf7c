/*
 * traces/trc_import.c - text traces (ESF, DRAMsim3, CSV; plain or gzip) to
 * records (formats and the canonical form in trc_text.h), and the frame the
 * tools' importers (trc_import_tools.c, state in trc_import_int.h) plug into.
 *
 * Lines come from a 64 KiB buffer over zlib's gzread, which reads plain and
 * gzip input alike.  The first non-blank line decides the format unless it
 * was given: a tool's output if trc__tools_detect recognises it (before the
 * CSV test: lackey lines hold a comma); else a comma means CSV (and the line
 * is its header); otherwise the second of three blank-separated fields tells
 * ESF (R|W) from DRAMsim3 (READ|WRITE).  Each record of a format that `cat`
 * prints back is re-printed with an exporter configured for the same origin;
 * a line that differs from its own re-print was not canonical and is counted
 * (the record is still exact).
 *
 * A ChampSim trace (binary: --from champsim, the xz magic or a ".champsim"
 * name) skips the line reader: trc_import_champsim.c reads its records.
 *
 * Memory: the buffer and one line, whatever the input length.
 */
#include "traces/trc_import_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "core/xmalloc.h"

#define BUF_SIZE 65536

/**
 * trc__import_vfail - see trc_import_int.h.
 */
int trc__import_vfail(trc_import *im, cxl_err *err, const char *fmt, va_list ap)
{
	char what[320];

	vsnprintf(what, sizeof(what), fmt, ap);
	return cxl_err_set(err, CXL_EINVAL, "%s:%llu: %s", im->name,
			   (unsigned long long)im->lineno, what);
}

/* "FILE:LINE: what" */
__attribute__((format(printf, 3, 4)))
static int ifail(trc_import *im, cxl_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = trc__import_vfail(im, err, fmt, ap);
	va_end(ap);
	return rc;
}

static int refill(trc_import *im, cxl_err *err)
{
	int n, zerr;

	if (im->eof)
		return 0;
	n = gzread(im->gz, im->buf, BUF_SIZE);
	if (n < 0) {
		const char *msg = gzerror(im->gz, &zerr);
		if (zerr == Z_ERRNO)
			return cxl_err_set(err, CXL_EIO, "%s: read error: %s", im->name, strerror(errno));
		return cxl_err_set(err, CXL_EINVAL, "%s: bad gzip data after line %llu: %s",
				   im->name, (unsigned long long)im->lineno, msg);
	}
	im->have = (size_t)n;
	im->at = 0;
	if (n == 0)
		im->eof = 1;
	return n > 0;
}

/* The next line into im->line: 1, 0 at the end, < 0 on error. */
static int read_line(trc_import *im, cxl_err *err)
{
	int rc;

	im->len = 0;
	im->crlf = im->no_nl = 0;
	for (;;) {
		if (im->at == im->have && (rc = refill(im, err)) <= 0) {
			if (rc < 0)
				return rc;
			if (!im->len)
				return 0;
			im->no_nl = 1;
			break;
		}
		unsigned char c = im->buf[im->at++];
		if (c == '\n')
			break;
		if (c == '\0') {
			im->lineno++;
			return ifail(im, err, "NUL byte (not a text trace; a binary ChampSim trace needs "
				     "--from champsim)");
		}
		if (im->len == TRC_TEXT_LINE_MAX - 1) {
			im->lineno++;
			return ifail(im, err, "line longer than %d bytes", TRC_TEXT_LINE_MAX - 1);
		}
		im->line[im->len++] = (char)c;
	}
	im->lineno++;
	if (im->len && im->line[im->len - 1] == '\r') {
		im->len--;
		im->crlf = 1;
	}
	im->line[im->len] = '\0';
	return 1;
}

static int blank_line(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

static void note_noncanonical(trc_import *im)
{
	if (!im->noncanon++)
		im->first_noncanon = im->lineno;
}

/**
 * trc__next_line - see trc_import_int.h.
 */
int trc__next_line(trc_import *im, cxl_err *err)
{
	int rc;

	while ((rc = read_line(im, err)) > 0 && blank_line(im->line))
		note_noncanonical(im);
	return rc;
}

/**
 * trc__split_fields - see trc_import_int.h.
 */
int trc__split_fields(char *s, int csv, char **f, int max)
{
	int n = 0;

	for (;;) {
		if (!csv) {
			while (isblank((unsigned char)*s))
				s++;
			if (!*s)
				return n;
		}
		if (n == max)
			return max + 1;
		f[n++] = s;
		s += strcspn(s, csv ? "," : " \t");
		if (!*s)
			return n;
		*s++ = '\0';
	}
}

static char *trim(char *s)
{
	size_t len;

	while (isblank((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len && isblank((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

/**
 * trc__parse_u64 - see trc_import_int.h.
 */
int trc__parse_u64(const char *s, int hex_ok, uint64_t *v)
{
	int hex = hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	uint64_t x = 0, base = hex ? 16 : 10;

	if (hex)
		s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (hex && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (x > (UINT64_MAX - (uint64_t)d) / base)
			return -1;
		x = x * base + (uint64_t)d;
	}
	*v = x;
	return 0;
}

static int parse_addr(trc_import *im, const char *s, int need_hex, uint64_t *a, cxl_err *err)
{
	if ((need_hex && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) || trc__parse_u64(s, 1, a))
		return ifail(im, err, "bad address \"%s\" (expected 0x and up to 16 hex digits)", s);
	return 0;
}

/* R/W (ESF), READ/WRITE (DRAMsim3); each accepts the other and any case. */
static int parse_op(trc_import *im, const char *s, uint8_t *op, cxl_err *err)
{
	if (!strcasecmp(s, "R") || !strcasecmp(s, "READ"))
		*op = TRC_READ;
	else if (!strcasecmp(s, "W") || !strcasecmp(s, "WRITE"))
		*op = TRC_WRITE;
	else
		return ifail(im, err, "bad op \"%s\" (expected %s)", s,
			     im->origin.fmt == TRC_FMT_DRAMSIM3 ? "READ or WRITE" : "R or W");
	return 0;
}

static int scaled(trc_import *im, const char *s, uint64_t unit, uint64_t *t, cxl_err *err)
{
	uint64_t v;

	if (trc__parse_u64(s, 0, &v))
		return ifail(im, err, "bad time \"%s\" (expected a decimal integer)", s);
	if (unit && v > UINT64_MAX / unit)
		return ifail(im, err, "time %s overflows 2^64 ps", s);
	*t = v * unit;
	return 0;
}

/* Time of an ESF record from its tick. */
static int esf_time(trc_import *im, const char *s, trc_rec *r, cxl_err *err)
{
	uint64_t d;

	if (scaled(im, s, im->origin.clock_ps, &d, err))
		return -1;
	if (im->origin.flags & TRC_ORIGIN_ESF_DELAY) {
		if (d > UINT64_MAX - im->prev_time)
			return ifail(im, err, "time overflows 2^64 ps");
		r->time = im->prev_time + d;
	} else if (d == 0) {
		r->time = im->prev_time;
		r->flags = TRC_REC_NOTIME;
	} else {
		r->time = d;
	}
	return 0;
}

static int parse_fields3(trc_import *im, trc_rec *r, cxl_err *err)
{
	char *f[3];

	memcpy(im->work, im->line, im->len + 1);
	if (trc__split_fields(im->work, 0, f, 3) != 3)
		return ifail(im, err, "expected 3 fields: %s", im->origin.fmt == TRC_FMT_ESF ?
			     "0xADDR R|W TICK" : "0xADDR READ|WRITE CYCLE");
	if (parse_addr(im, f[0], 1, &r->addr, err) || parse_op(im, f[1], &r->op, err))
		return -1;
	if (im->origin.fmt == TRC_FMT_ESF)
		return esf_time(im, f[2], r, err);
	return scaled(im, f[2], im->origin.clock_ps, &r->time, err);
}

static int parse_csv(trc_import *im, trc_rec *r, cxl_err *err)
{
	static const uint64_t unit[] = { 1, 1000, 1000000 };
	char *f[TRC_CSV_COLS];
	uint64_t v;

	memcpy(im->work, im->line, im->len + 1);
	if (trc__split_fields(im->work, 1, f, im->ex.ncol) != im->ex.ncol)
		return ifail(im, err, "expected %d fields (as the header)", im->ex.ncol);
	r->time = 0;
	r->flags = TRC_REC_NOTIME;
	for (int i = 0; i < im->ex.ncol; i++) {
		char *s = trim(f[i]);
		int c = im->ex.col[i];
		if (c == TRC_COL_ADDR && parse_addr(im, s, 0, &r->addr, err))
			return -1;
		if (c == TRC_COL_OP && parse_op(im, s, &r->op, err))
			return -1;
		if (c == TRC_COL_SIZE && (trc__parse_u64(s, 0, &v) || !v || v > UINT32_MAX))
			return ifail(im, err, "bad size \"%s\" (expected 1 to 4294967295 bytes)", s);
		if (c == TRC_COL_SIZE)
			r->size = (uint32_t)v;
		if (c == TRC_COL_THREAD && (trc__parse_u64(s, 0, &v) || v > UINT16_MAX))
			return ifail(im, err, "bad thread \"%s\" (expected a thread index, 0 to "
				     "65535)", s);
		if (c == TRC_COL_THREAD)
			r->thread = (uint16_t)v;
		if (c <= TRC_COL_TIME_CLK) {
			r->flags = 0;
			if (scaled(im, s, c == TRC_COL_TIME_CLK ? im->origin.clock_ps : unit[c],
				   &r->time, err))
				return -1;
		}
	}
	return 0;
}

/* Compare the line with the canonical print of @r. */
static void check_canonical(trc_import *im, const trc_rec *r)
{
	char out[TRC_EXPORT_LINE_MAX];
	const char *why;
	int len = trc_export_line(&im->ex, r, out, &why);

	if (im->crlf || im->no_nl || len != (int)im->len + 1 || memcmp(out, im->line, im->len))
		note_noncanonical(im);
}

/**
 * trc_import_next - see trc_text.h.
 */
int trc_import_next(trc_import *im, trc_rec *rec, cxl_err *err)
{
	trc_rec r = { .size = 64 };
	int rc;

	if (im->cs)
		return trc__champsim_next(im, rec, err);
	if (trc__tools_multi(im->origin.fmt))
		return trc__tools_next(im, rec, err);
	if (!im->pending && (rc = trc__next_line(im, err)) <= 0)
		return rc;
	im->pending = 0;
	if (im->origin.fmt == TRC_FMT_RAMULATOR || im->origin.fmt == TRC_FMT_RAMULATOR2)
		rc = trc__tools_parse(im, &r, err);
	else
		rc = im->origin.fmt == TRC_FMT_CSV ? parse_csv(im, &r, err) : parse_fields3(im, &r, err);
	if (rc)
		return rc;
	if (r.addr > UINT64_MAX - (r.size - 1))
		return ifail(im, err, "address 0x%llx + size %u goes past 2^64",
			     (unsigned long long)r.addr, (unsigned)r.size);
	if (r.time < im->prev_time)
		return ifail(im, err, "time %llu ps is before the previous record's %llu ps "
			     "(records must be sorted by time%s)", (unsigned long long)r.time,
			     (unsigned long long)im->prev_time, im->origin.fmt == TRC_FMT_ESF ?
			     "; for ESF ticks that are delays give --esf-ticks delay" : "");
	check_canonical(im, &r);
	im->prev_time = r.time;
	im->nrec++;
	*rec = r;
	return 1;
}

/* Format of the first line (already in im->line). */
static int detect(trc_import *im, cxl_err *err)
{
	char *f[3];
	int fmt = trc__tools_detect(im);

	if (fmt != TRC_FMT_NONE)
		return fmt;
	if (strchr(im->line, ','))
		return TRC_FMT_CSV;
	memcpy(im->work, im->line, im->len + 1);
	if (trc__split_fields(im->work, 0, f, 3) == 3) {
		if (!strcasecmp(f[1], "R") || !strcasecmp(f[1], "W"))
			return TRC_FMT_ESF;
		if (!strcasecmp(f[1], "READ") || !strcasecmp(f[1], "WRITE"))
			return TRC_FMT_DRAMSIM3;
	}
	return ifail(im, err, "cannot tell the trace format (expected ESF \"0xADDR R|W TICK\", "
		     "DRAMsim3 \"0xADDR READ|WRITE CYCLE\", a CSV header, valgrind lackey, "
		     "Ramulator, Ramulator2 or drcachesim view output; give --from, e.g. "
		     "--from champsim for a binary ChampSim trace)");
}

/* Set up origin and exporter once the format is known. */
static int setup_format(trc_import *im, const trc_import_opts *o, cxl_err *err)
{
	const char *bad;
	int rc;

	im->origin.fmt = o->fmt ? o->fmt : detect(im, err);
	if (im->origin.fmt < 0)
		return im->origin.fmt;
	if (o->instr_only && im->origin.fmt < TRC_FMT_LACKEY)
		return cxl_err_set(err, CXL_EINVAL, "%s: --ipns is for traces that count "
				   "instructions, not %s (give --clock)", im->name,
				   trc_fmt_name(im->origin.fmt));
	if (im->origin.fmt >= TRC_FMT_LACKEY) {
		if ((rc = trc__tools_setup(im, o, err)))
			return rc;
		im->pending = 1;
		if (!trc_fmt_exports(im->origin.fmt))
			return 0;
	} else if (im->origin.fmt != TRC_FMT_CSV) {
		im->origin.clock_ps = o->clock_ps ? o->clock_ps : TRC_DEFAULT_CLOCK_PS;
		if (im->origin.fmt == TRC_FMT_ESF && o->esf_delay)
			im->origin.flags = TRC_ORIGIN_ESF_DELAY;
		im->pending = 1;
	} else {
		int col[TRC_CSV_COLS], ncol;
		if (im->len > TRC_ORIGIN_TEXT_MAX)
			return ifail(im, err, "CSV header longer than %d bytes", TRC_ORIGIN_TEXT_MAX);
		if ((ncol = trc_csv_columns(im->line, col, &bad)) < 0)
			return ifail(im, err, "CSV header: %s", bad);
		memcpy(im->origin.text, im->line, im->len + 1);
		im->origin.clock_ps = o->clock_ps;
		for (int i = 0; i < ncol; i++)
			if (col[i] == TRC_COL_THREAD)
				im->origin.flags |= TRC_ORIGIN_THREADS;
		if (im->crlf || im->no_nl)
			note_noncanonical(im);
	}
	rc = trc_export_init(&im->ex, &im->origin, im->origin.fmt, 0, 0, NULL);
	if (rc)
		return ifail(im, err, "column time or cycle has no unit: give --clock (e.g. "
			     "--clock 1ns) or name it time_ps, time_ns or time_us");
	return 0;
}

/**
 * trc_import_open - see trc_text.h.
 */
int trc_import_open(trc_import **out, const char *path, const trc_import_opts *o, cxl_err *err)
{
	static const trc_import_opts dflt = { 0 };
	trc_import *im;
	int rc;

	*out = NULL;
	if (!o)
		o = &dflt;
	if (o->fmt < 0 || o->fmt >= TRC_FMT_COUNT)
		return cxl_err_set(err, CXL_EINVAL, "%s: unknown format %d", path, o->fmt);
	im = xcalloc(1, sizeof(*im));
	im->name = xstrdup(path);
	if (o->fmt == TRC_FMT_CHAMPSIM || (!o->fmt && trc__champsim_sniff(path))) {
		if ((rc = trc__champsim_open(im, path, o, err)))
			goto fail;
		*out = im;
		return 0;
	}
	im->gz = strcmp(path, "-") ? gzopen(path, "rb") : gzdopen(dup(0), "rb");
	if (!im->gz) {
		rc = cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	im->buf = xmalloc(BUF_SIZE);
	if ((rc = trc__next_line(im, err)) <= 0) {
		if (!rc)
			rc = cxl_err_set(err, CXL_EINVAL, "%s: empty trace (no records)", path);
		goto fail;
	}
	if (!memcmp(im->line, TRC_MAGIC, 4)) {
		rc = ifail(im, err, "this is a .cxt trace already, not text");
		goto fail;
	}
	if ((rc = setup_format(im, o, err)))
		goto fail;
	*out = im;
	return 0;

fail:
	trc_import_close(im);
	return rc;
}

/* trc_import_origin, _line, _noncanonical - see trc_text.h. */
const trc_origin *trc_import_origin(const trc_import *im)
{
	return &im->origin;
}

uint64_t trc_import_line(const trc_import *im)
{
	return im->lineno;
}

uint64_t trc_import_noncanonical(const trc_import *im, uint64_t *first)
{
	if (first)
		*first = im->first_noncanon;
	return im->noncanon;
}

/**
 * trc_import_close - see trc_text.h.
 */
void trc_import_close(trc_import *im)
{
	if (!im)
		return;
	if (im->gz)
		gzclose(im->gz);
	trc_tidmap_free(&im->tids);
	trc__champsim_close(im);
	free(im->buf);
	free(im->name);
	free(im);
}
