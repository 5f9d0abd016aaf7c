/*
 * traces/trc_import_tools.c - importers for the text output of memory-trace
 * tools: valgrind lackey, Ramulator (memory and CPU traces), Ramulator2
 * (LoadStoreTrace, SimpleO3) and DynamoRIO drcachesim's view tool.  Formats,
 * the sources followed and the time of each are in trc_text.h; the state is
 * struct trc_import (trc_import_int.h), set up by trc_import.c.
 *
 * Two readers:
 *  - trc__tools_parse: ramulator and ramulator2, one record per line; the
 *    caller (trc_import_next) checks the time order and the canonical form.
 *  - trc__tools_next: lackey, ramulator-cpu and drcachesim.  A line queues
 *    up to TRC__ACCESS_MAX accesses (a modify's read and write, a load and
 *    its write-back) with one time; lackey and drcachesim accesses are handed
 *    out in pieces that stay within one 64-byte line (an 8-byte store at
 *    0x3c gives 4 bytes at 0x3c and 4 at 0x40), ramulator-cpu ones whole
 *    (64 B at the address given, as ESF and DRAMsim3 records).
 *
 * Errors name the line and the field: "FILE:LINE: field address: ...".
 * Lines that are not accesses of the format (valgrind's messages, the view
 * tool's headers and markers) are skipped; a line that starts like an
 * access and then goes wrong is an error.  Memory: nothing beyond the
 * importer's two line buffers.
 */
#include "traces/trc_import_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#define LINE_BYTES 64

__attribute__((format(printf, 3, 4)))
static int tfail(trc_import *im, cxl_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = trc__import_vfail(im, err, fmt, ap);
	va_end(ap);
	return rc;
}

static const char *skip_blanks(const char *s)
{
	while (isblank((unsigned char)*s))
		s++;
	return s;
}

/* Hex digits, "0x" optional, into *v: 0, or -1 (none, a bad digit, 2^64 or more). */
static int parse_hex(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (!isxdigit((unsigned char)*s) || x >> 60)
			return -1;
		x = x << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
					: tolower((unsigned char)*s) - 'a' + 10);
	}
	*v = x;
	return 0;
}

/* A Ramulator CPU / Ramulator2 address: 0x-hex or decimal (@octal_risk: no leading zero). */
static int c_addr(trc_import *im, const char *field, const char *s, int octal_risk, uint64_t *a,
		  cxl_err *err)
{
	if (octal_risk && s[0] == '0' && isdigit((unsigned char)s[1]))
		return tfail(im, err, "field %s: \"%s\" has a leading zero (octal to Ramulator, "
			     "decimal to Ramulator2: write it in hex with 0x, or without the zero)",
			     field, s);
	if (trc__parse_u64(s, 1, a))
		return tfail(im, err, "field %s: \"%s\" is not an address (expected 0x and up to 16 "
			     "hex digits, or a decimal integer below 2^64)", field, s);
	return 0;
}

/* A count of non-memory instructions. */
static int parse_bubbles(trc_import *im, const char *s, uint64_t *b, cxl_err *err)
{
	if (trc__parse_u64(s, 0, b))
		return tfail(im, err, "field bubbles: \"%s\" is not a count (expected a decimal "
			     "integer: non-memory instructions before the access)", s);
	return 0;
}

/* Time of instruction @idx (from 0) into *@t. */
static int instr_time(trc_import *im, const char *field, uint64_t idx, uint64_t *t, cxl_err *err)
{
	uint64_t clk = im->origin.clock_ps;

	if (idx > UINT64_MAX / clk)
		return tfail(im, err, "field %s: instruction %llu at %llu ps each is past 2^64 ps",
			     field, (unsigned long long)idx, (unsigned long long)clk);
	*t = idx * clk;
	return 0;
}

/* Bubble-counted formats: the instruction of this line's access, after @b bubbles. */
static int bubble_time(trc_import *im, uint64_t b, uint64_t *t, cxl_err *err)
{
	uint64_t idx;

	if (b > UINT64_MAX - 1 - im->instrs)
		return tfail(im, err, "field bubbles: %llu more instructions go past 2^64",
			     (unsigned long long)b);
	idx = im->instrs + b;
	if (instr_time(im, "bubbles", idx, t, err))
		return -1;
	im->instrs = idx + 1;
	return 0;
}

/* R, W, READ or WRITE in any case (Ramulator reads the first letter only). */
static int rw_op(trc_import *im, const char *s, uint8_t *op, cxl_err *err)
{
	if (!strcasecmp(s, "R") || !strcasecmp(s, "READ"))
		*op = TRC_READ;
	else if (!strcasecmp(s, "W") || !strcasecmp(s, "WRITE"))
		*op = TRC_WRITE;
	else
		return tfail(im, err, "field op: \"%s\" (expected R or W)", s);
	return 0;
}

/* Ramulator memory trace: ADDR [R|W]. */
static int parse_ramulator(trc_import *im, trc_rec *r, cxl_err *err)
{
	char *f[2];
	int n;

	memcpy(im->work, im->line, im->len + 1);
	if ((n = trc__split_fields(im->work, 0, f, 2)) > 2)
		return tfail(im, err, "expected 2 fields: ADDR R|W (a Ramulator memory trace)");
	if (parse_hex(f[0], &r->addr))
		return tfail(im, err, "field address: \"%s\" is not hex (expected up to 16 hex "
			     "digits, 0x optional)", f[0]);
	r->op = TRC_READ;
	if (n == 2 && rw_op(im, f[1], &r->op, err))
		return -1;
	r->time = 0;
	r->flags = TRC_REC_NOTIME;
	return 0;
}

/* Ramulator2 LoadStoreTrace: [BUBBLES] LD|ST ADDR (bubbles iff the trace has a clock). */
static int parse_ramulator2(trc_import *im, trc_rec *r, cxl_err *err)
{
	int bub = im->origin.clock_ps != 0;
	uint64_t b;
	char *f[3];

	memcpy(im->work, im->line, im->len + 1);
	if (trc__split_fields(im->work, 0, f, 3) != 2 + bub)
		return tfail(im, err, bub ? "expected 3 fields: BUBBLES LD|ST ADDR (the first line "
			     "has a bubble count)" : "expected 2 fields: LD|ST ADDR");
	if (bub && parse_bubbles(im, f[0], &b, err))
		return -1;
	if (!strcasecmp(f[bub], "LD"))
		r->op = TRC_READ;
	else if (!strcasecmp(f[bub], "ST"))
		r->op = TRC_WRITE;
	else
		return tfail(im, err, "field op: \"%s\" (expected LD or ST)", f[bub]);
	if (c_addr(im, "address", f[bub + 1], 0, &r->addr, err))
		return -1;
	r->time = 0;
	r->flags = TRC_REC_NOTIME;
	if (!bub)
		return 0;
	r->flags = 0;
	return bubble_time(im, b, &r->time, err);
}

/**
 * trc__tools_parse - see trc_import_int.h.
 */
int trc__tools_parse(trc_import *im, trc_rec *r, cxl_err *err)
{
	return im->origin.fmt == TRC_FMT_RAMULATOR ? parse_ramulator(im, r, err)
						   : parse_ramulator2(im, r, err);
}

/* Start a line's accesses at time @t (records must not go back in time). */
static int set_time(trc_import *im, const char *field, uint64_t t, cxl_err *err)
{
	if (t < im->prev_time)
		return tfail(im, err, "field %s: time %llu ps is before the previous record's %llu "
			     "ps (records must be sorted by time)", field, (unsigned long long)t,
			     (unsigned long long)im->prev_time);
	im->acc_time = t;
	return 0;
}

/* Queue @size bytes at @addr; @field is named if they go past 2^64. */
static int queue(trc_import *im, const char *field, uint64_t addr, uint64_t size, uint8_t op,
		 cxl_err *err)
{
	if (!size || size > TRC__ACCESS_BYTES_MAX)
		return tfail(im, err, "field size: %llu (expected 1 to %d bytes, the operand of "
			     "one instruction)", (unsigned long long)size, TRC__ACCESS_BYTES_MAX);
	if (size - 1 > UINT64_MAX - addr)
		return tfail(im, err, "field %s: %llu bytes at 0x%llx go past 2^64", field,
			     (unsigned long long)size, (unsigned long long)addr);
	im->acc[im->nacc++] = (trc__access){ .addr = addr, .left = size, .op = op };
	return 0;
}

/* "==123==", "--123--" or "**123**": valgrind's own messages. */
static int valgrind_line(const char *s)
{
	char c = s[0];
	size_t n;

	if ((c != '=' && c != '-' && c != '*') || s[1] != c)
		return 0;
	n = strspn(s + 2, "0123456789");
	return n && s[2 + n] == c && s[3 + n] == c;
}

/* lackey's " K ADDR,SIZE" (K already read) into @addr and @size. */
static int lackey_access(trc_import *im, const char *kind, const char *s, uint64_t *addr,
			 uint64_t *size, cxl_err *err)
{
	char *comma, *end;

	snprintf(im->work, sizeof(im->work), "%s", skip_blanks(s));
	end = im->work + strlen(im->work);
	while (end > im->work && isblank((unsigned char)end[-1]))
		*--end = '\0';
	if (!(comma = strchr(im->work, ',')))
		return tfail(im, err, "field size: missing (expected \"%s ADDR,SIZE\")", kind);
	*comma = '\0';
	if (parse_hex(im->work, addr))
		return tfail(im, err, "field address: \"%s\" is not hex (expected up to 16 hex "
			     "digits)", im->work);
	if (trc__parse_u64(comma + 1, 0, size))
		return tfail(im, err, "field size: \"%s\" is not a size (expected decimal bytes)",
			     comma + 1);
	return 0;
}

/* One lackey line: an instruction is counted, an access queued. */
static int lackey_line(trc_import *im, cxl_err *err)
{
	const char *s = skip_blanks(im->line);
	size_t klen = strspn(s, "ILSMB");
	char kind[3] = "";
	uint64_t addr, size, t = 0;

	if (valgrind_line(im->line) || (klen == 2 && !strncmp(s, "SB", 2)))
		return 0;
	if (klen != 1 || !strchr("ILSM", s[0]) || !isblank((unsigned char)s[1]))
		return tfail(im, err, "field kind: \"%.*s\" is not a lackey line (expected I, L, S "
			     "or M and ADDR,SIZE, or valgrind's ==PID== lines)",
			     (int)strcspn(s, " \t"), s);
	kind[0] = s[0];
	if (lackey_access(im, kind, s + 1, &addr, &size, err))
		return -1;
	if (kind[0] == 'I') {
		im->instrs++;
		return 0;
	}
	if (instr_time(im, "time", im->instrs ? im->instrs - 1 : 0, &t, err) ||
	    set_time(im, "time", t, err))
		return -1;
	if (kind[0] != 'S' && queue(im, "size", addr, size, TRC_READ, err))
		return -1;
	if (kind[0] != 'L' && queue(im, "size", addr, size, TRC_WRITE, err))
		return -1;
	return 0;
}

/* Ramulator CPU / Ramulator2 SimpleO3: BUBBLES ADDR [WBADDR]. */
static int cpu_line(trc_import *im, cxl_err *err)
{
	uint64_t b, addr, wb, t = 0;
	char *f[4];
	int n;

	memcpy(im->work, im->line, im->len + 1);
	n = trc__split_fields(im->work, 0, f, 3);
	if (n < 2 || n > 3)
		return tfail(im, err, "expected 2 or 3 fields: BUBBLES ADDR [WBADDR]");
	if (parse_bubbles(im, f[0], &b, err) || c_addr(im, "address", f[1], 1, &addr, err) ||
	    (n == 3 && c_addr(im, "write-back address", f[2], 1, &wb, err)))
		return -1;
	if (bubble_time(im, b, &t, err) || set_time(im, "bubbles", t, err) ||
	    queue(im, "address", addr, LINE_BYTES, TRC_READ, err))
		return -1;
	return n == 3 ? queue(im, "write-back address", wb, LINE_BYTES, TRC_WRITE, err) : 0;
}

/* Digits at *@s into *@v (no overflow), advancing *@s: 0, or -1 if none. */
static int digits(const char **s, uint64_t *v, int *overflow)
{
	const char *p = *s;
	uint64_t x = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		uint64_t d = (uint64_t)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			*overflow = 1;
		x = x * 10 + d;
	}
	*v = x;
	*s = p;
	return 0;
}

/*
 * The view tool's record prefix: "RECORD# INSTR#: TID " (*@instr set, 1
 * returned) or "RECORD#: T<TID> " (old format, 0 returned); *@tid gets the
 * TID token, *@details the rest.  -1 if the line has no such prefix.
 */
static int dr_prefix(const char *line, uint64_t *instr, int *overflow, const char **tid,
		     const char **details)
{
	const char *s = skip_blanks(line);
	uint64_t rec;
	int newfmt = 0;

	if (digits(&s, &rec, overflow))
		return -1;
	if (isblank((unsigned char)*s)) {
		s = skip_blanks(s);
		if (digits(&s, instr, overflow))
			return -1;
		newfmt = 1;
	}
	if (*s++ != ':' || !isblank((unsigned char)*s))
		return -1;
	s = skip_blanks(s);
	*tid = s;
	if (!newfmt && (*s++ != 'T' || !isdigit((unsigned char)*s)))
		return -1;
	s += strcspn(s, " \t");
	if (!*s)
		return -1;
	*details = skip_blanks(s);
	return newfmt;
}

/* "N byte(s) @ 0xADDR ..." of a read or write into @size and @addr. */
static int dr_access(trc_import *im, const char *s, uint64_t *size, uint64_t *addr,
		     cxl_err *err)
{
	int overflow = 0;
	size_t n;

	s = skip_blanks(s);
	if (digits(&s, size, &overflow) || overflow || !isblank((unsigned char)*s))
		return tfail(im, err, "field size: expected \"N byte(s) @ 0xADDR\" after read or "
			     "write");
	s = skip_blanks(s);
	if (strncmp(s, "byte(s)", 7) || !isblank((unsigned char)s[7]))
		return tfail(im, err, "field size: expected \"byte(s)\" after %llu",
			     (unsigned long long)*size);
	s = skip_blanks(s + 7);
	if (*s != '@' || !isblank((unsigned char)s[1]))
		return tfail(im, err, "field address: expected \"@ 0xADDR\"");
	s = skip_blanks(s + 1);
	n = strcspn(s, " \t");
	snprintf(im->work, sizeof(im->work), "%.*s", (int)n, s);
	if (strncmp(im->work, "0x", 2) || parse_hex(im->work, addr))
		return tfail(im, err, "field address: \"%s\" is not an address (expected 0x and up "
			     "to 16 hex digits)", im->work);
	return 0;
}

/*
 * The thread of a TID token ("2765543", "T1774669" before DynamoRIO 10, or
 * "W0.T3", workload 0's thread 3, with several workloads) into
 * im->acc_thread: the dense index of (workload, tid), in order of first
 * appearance.
 */
static int dr_thread(trc_import *im, const char *s, cxl_err *err)
{
	uint64_t w = 0, tid = 0;
	int overflow = 0, bad = 0;
	size_t n = strcspn(s, " \t");
	const char *p = s;

	if (*p == 'W') {
		p++;
		bad = digits(&p, &w, &overflow) || *p++ != '.' || *p != 'T';
	}
	if (!bad && *p == 'T')
		p++;
	if (bad || digits(&p, &tid, &overflow) || p != s + n || overflow || w >> 31 ||
	    tid >> 32)
		return tfail(im, err, "field tid: \"%.*s\" is not a thread id (expected TID, "
			     "T<TID> or W<N>.T<TID>, below 2^32)", (int)(n < 40 ? n : 40), s);
	if (trc_tidmap_index(&im->tids, (w + 1) << 32 | tid, &im->acc_thread))
		return tfail(im, err, "field tid: more than %d threads (a .cxt record keeps a "
			     "16-bit thread index)", TRC_THREADS_MAX);
	return 0;
}

/* One line of the view tool's output. */
static int dr_line(trc_import *im, cxl_err *err)
{
	const char *d, *tid;
	uint64_t instr = 0, size, addr, t = 0;
	int overflow = 0, newfmt = dr_prefix(im->line, &instr, &overflow, &tid, &d);
	size_t w;
	uint8_t op;

	if (newfmt < 0)
		return 0;
	if (overflow)
		return tfail(im, err, "field %s: a number above 2^64",
			     newfmt ? "record# or instr#" : "record#");
	w = strcspn(d, " \t");
	if (w == 6 && !strncmp(d, "ifetch", 6)) {
		im->instrs++;
		return 0;
	}
	if (w == 4 && !strncmp(d, "read", 4))
		op = TRC_READ;
	else if (w == 5 && !strncmp(d, "write", 5))
		op = TRC_WRITE;
	else
		return 0;
	if (!newfmt)
		instr = im->instrs;
	if (dr_access(im, d + w, &size, &addr, err) || dr_thread(im, tid, err) ||
	    instr_time(im, "instr#", instr ? instr - 1 : 0, &t, err) ||
	    set_time(im, "instr#", t, err))
		return -1;
	return queue(im, "size", addr, size, op, err);
}

/* The next piece of the queued accesses into @rec. */
static void piece(trc_import *im, trc_rec *rec)
{
	trc__access *a = &im->acc[im->acc_at];
	uint64_t room = LINE_BYTES - a->addr % LINE_BYTES, n = a->left;

	if (im->origin.fmt != TRC_FMT_RAMULATOR_CPU && n > room)
		n = room;
	*rec = (trc_rec){ .time = im->acc_time, .addr = a->addr, .size = (uint32_t)n, .op = a->op,
			  .thread = im->acc_thread };
	a->left -= n;
	if (a->left)
		a->addr += n;
	else
		im->acc_at++;
	im->prev_time = rec->time;
	im->nrec++;
}

/**
 * trc__tools_next - see trc_import_int.h.
 */
int trc__tools_next(trc_import *im, trc_rec *rec, cxl_err *err)
{
	int rc;

	while (im->acc_at == im->nacc) {
		im->nacc = im->acc_at = 0;
		if (!im->pending && (rc = trc__next_line(im, err)) <= 0)
			return rc;
		im->pending = 0;
		if (im->origin.fmt == TRC_FMT_LACKEY)
			rc = lackey_line(im, err);
		else if (im->origin.fmt == TRC_FMT_RAMULATOR_CPU)
			rc = cpu_line(im, err);
		else
			rc = dr_line(im, err);
		if (rc) {
			im->nacc = 0;
			return rc;
		}
	}
	piece(im, rec);
	return 1;
}

/* 1 if every character of @s is a decimal digit (and there is one). */
static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* 1 if @s reads as a Ramulator CPU address (0x-hex or decimal). */
static int c_number(const char *s)
{
	uint64_t v;

	return !trc__parse_u64(s, 1, &v);
}

/* Formats told by blank-separated fields: ramulator2, ramulator, ramulator-cpu. */
static int detect_fields(trc_import *im)
{
	char *f[4];
	uint64_t v;
	int n;

	memcpy(im->work, im->line, im->len + 1);
	n = trc__split_fields(im->work, 0, f, 3);
	if ((n == 2 || (n == 3 && all_digits(f[0]))) &&
	    (!strcasecmp(f[n - 2], "LD") || !strcasecmp(f[n - 2], "ST")) && c_number(f[n - 1]))
		return TRC_FMT_RAMULATOR2;
	if (n == 2 && !parse_hex(f[0], &v) && (!strcasecmp(f[1], "R") || !strcasecmp(f[1], "W") ||
				       !strcasecmp(f[1], "READ") || !strcasecmp(f[1], "WRITE")))
		return TRC_FMT_RAMULATOR;
	if ((n == 2 || n == 3) && all_digits(f[0]) && c_number(f[1]) && (n == 2 || c_number(f[2])))
		return TRC_FMT_RAMULATOR_CPU;
	return TRC_FMT_NONE;
}

/* 1 if @s is a lackey access or instruction line, "K ADDR,SIZE". */
static int lackey_like(trc_import *im, const char *s)
{
	uint64_t v;
	char *comma;

	if (!*s || !strchr("ILSM", s[0]) || !isblank((unsigned char)s[1]))
		return 0;
	snprintf(im->work, sizeof(im->work), "%s", skip_blanks(s + 1));
	if (!(comma = strchr(im->work, ',')))
		return 0;
	*comma = '\0';
	return !parse_hex(im->work, &v) && !trc__parse_u64(comma + 1, 0, &v);
}

/**
 * trc__tools_detect - see trc_import_int.h.
 */
int trc__tools_detect(trc_import *im)
{
	const char *s = skip_blanks(im->line), *d, *tid;
	uint64_t a;
	int overflow = 0;

	if (valgrind_line(im->line) || lackey_like(im, s))
		return TRC_FMT_LACKEY;
	if (!strcmp(s, "Output format:") || !strncmp(s, "<--record#->", 12) ||
	    !strncmp(s, "<record#>:", 10))
		return TRC_FMT_DRCACHESIM;
	if (dr_prefix(im->line, &a, &overflow, &tid, &d) >= 0 &&
	    (!strncmp(d, "ifetch ", 7) || !strncmp(d, "read ", 5) || !strncmp(d, "write ", 6) ||
	     !strncmp(d, "<marker: ", 9)))
		return TRC_FMT_DRCACHESIM;
	return detect_fields(im);
}

/* 1 if the first line of a ramulator2 trace starts with a bubble count. */
static int first_has_bubbles(trc_import *im)
{
	char *f[4];

	memcpy(im->work, im->line, im->len + 1);
	return trc__split_fields(im->work, 0, f, 3) == 3 && all_digits(f[0]);
}

/**
 * trc__tools_setup - see trc_import_int.h.
 */
int trc__tools_setup(trc_import *im, const trc_import_opts *o, cxl_err *err)
{
	int fmt = im->origin.fmt;

	if (fmt == TRC_FMT_RAMULATOR || (fmt == TRC_FMT_RAMULATOR2 && !first_has_bubbles(im))) {
		if (o->clock_ps)
			return cxl_err_set(err, CXL_EINVAL, "%s: a %s trace%s has no time, so no "
					   "--clock or --ipns", im->name, trc_fmt_name(fmt),
					   fmt == TRC_FMT_RAMULATOR ? "" : " without bubble counts");
		im->origin.clock_ps = 0;
		return 0;
	}
	im->origin.clock_ps = o->clock_ps ? o->clock_ps : TRC_DEFAULT_INSTR_PS;
	if (fmt == TRC_FMT_DRCACHESIM)
		im->origin.flags |= TRC_ORIGIN_THREADS;
	return 0;
}
