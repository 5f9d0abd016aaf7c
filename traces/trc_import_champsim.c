/*
 * traces/trc_import_champsim.c - the ChampSim binary trace importer: plain,
 * gzip (zlib) or xz (liblzma) files of 64-byte instruction records.
 *
 * Record (ChampSim tracer/pin/champsim_tracer.cpp, trace_instr_format_t;
 * inc/trace_instruction.h, struct input_instr; written with memcpy on
 * x86-64, so little-endian, no padding, 64 bytes):
 *
 *   offset size  field
 *   0      8     ip                        instruction pointer
 *   8      1     is_branch                 0 or 1
 *   9      1     branch_taken              0 or 1
 *   10     2     destination_registers[2]  register numbers, 0 = none
 *   12     4     source_registers[4]
 *   16     16    destination_memory[2]     store addresses, 0 = none
 *   32     32    source_memory[4]          load addresses, 0 = none
 *
 * Every record is one instruction; its accesses are a 64 B read of the
 * line of each non-zero source_memory, then a 64 B write of the line of
 * each non-zero destination_memory (ChampSim issues one cache access per
 * operand, to the line that holds it), in slot order, all at the time
 * instruction index x clock (the index counts every record from 0).
 * A branch byte above 1 is an error (it is how a file of another format,
 * or a record boundary out of step, shows); a file whose length is not a
 * whole number of records ends in a truncated record, also an error.
 * Errors: "FILE: instruction N: field NAME: what (expected ...)".
 *
 * Input: the first bytes decide the compression (xz magic FD 37 7A 58 5A
 * 00, gzip 1F 8B, else plain); xz streams may be concatenated (as xz -T
 * writes) and may need at most TRC_CHAMPSIM_XZ_MEMLIMIT to decode.  Memory:
 * a 64 KiB input buffer, a 64 KiB output buffer and the decoder's state.
 */
#include "traces/trc_import_int.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xmalloc.h"

#define CS_BUF 65536
#define CS_SOURCES 4
#define CS_DESTS 2
#define TRC_CHAMPSIM_XZ_MEMLIMIT (256ull << 20) /* bytes an xz decoder may use */

enum { CS_PLAIN, CS_GZIP, CS_XZ };

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

struct trc__champsim {
	FILE *fp;                 /* the file (stdin for "-") */
	int mode;                 /* CS_* */
	z_stream zs;              /* gzip decoder (CS_GZIP) */
	lzma_stream xs;           /* xz decoder (CS_XZ) */
	uint8_t in[CS_BUF];       /* bytes read from the file */
	size_t in_have, in_at;    /* bytes in it, next unread (plain) */
	int in_eof;               /* the file has ended */
	uint8_t out[CS_BUF];      /* decoded bytes */
	size_t out_have, out_at;  /* bytes in it, next unused */
	int end;                  /* the decoder reported the end of its data */
	uint64_t instr;           /* instructions read */
	uint64_t acc[CS_SOURCES + CS_DESTS]; /* the current instruction's lines, reads first */
	int nacc, acc_at, nreads; /* their number, the next one, how many are reads */
	uint64_t time;            /* their time, ps */
};

__attribute__((format(printf, 3, 4)))
static int cfail(trc_import *im, cxl_err *err, const char *fmt, ...)
{
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return cxl_err_set(err, CXL_EINVAL, "%s: instruction %llu: %s", im->name,
			   (unsigned long long)im->cs->instr, what);
}

/* Read more file bytes into cs->in (the unread rest moved down): 0, or CXL_EIO. */
static int read_file(trc_import *im, cxl_err *err)
{
	trc__champsim *cs = im->cs;
	size_t n;

	memmove(cs->in, cs->in + cs->in_at, cs->in_have - cs->in_at);
	cs->in_have -= cs->in_at;
	cs->in_at = 0;
	n = fread(cs->in + cs->in_have, 1, CS_BUF - cs->in_have, cs->fp);
	if (!n && ferror(cs->fp))
		return cxl_err_set(err, CXL_EIO, "%s: read error: %s", im->name, strerror(errno));
	cs->in_have += n;
	cs->in_eof = !n;
	return 0;
}

/* Decode more bytes into cs->out (after out_have); 0 or an error code. */
static int inflate_more(trc_import *im, cxl_err *err)
{
	trc__champsim *cs = im->cs;
	int rc;

	if (cs->in_at == cs->in_have && (rc = read_file(im, err)))
		return rc;
	if (cs->mode == CS_GZIP) {
		cs->zs.next_in = cs->in + cs->in_at;
		cs->zs.avail_in = (uInt)(cs->in_have - cs->in_at);
		cs->zs.next_out = cs->out + cs->out_have;
		cs->zs.avail_out = (uInt)(CS_BUF - cs->out_have);
		rc = inflate(&cs->zs, Z_NO_FLUSH);
		cs->in_at = cs->in_have - cs->zs.avail_in;
		cs->out_have = CS_BUF - cs->zs.avail_out;
		if (rc == Z_STREAM_END)
			cs->end = 1;
		else if (rc != Z_OK && !(rc == Z_BUF_ERROR && !cs->in_eof))
			return cfail(im, err, "bad gzip data (%s)", cs->zs.msg ? cs->zs.msg :
				     cs->in_eof ? "the file ends inside the stream" : "inflate failed");
		return 0;
	}
	cs->xs.next_in = cs->in + cs->in_at;
	cs->xs.avail_in = cs->in_have - cs->in_at;
	cs->xs.next_out = cs->out + cs->out_have;
	cs->xs.avail_out = CS_BUF - cs->out_have;
	rc = lzma_code(&cs->xs, cs->in_eof ? LZMA_FINISH : LZMA_RUN);
	cs->in_at = cs->in_have - cs->xs.avail_in;
	cs->out_have = CS_BUF - cs->xs.avail_out;
	if (rc == LZMA_STREAM_END)
		cs->end = 1;
	else if (rc == LZMA_MEMLIMIT_ERROR)
		return cfail(im, err, "xz data needs more than %llu MiB to decode",
			     TRC_CHAMPSIM_XZ_MEMLIMIT >> 20);
	else if (rc != LZMA_OK && !(rc == LZMA_BUF_ERROR && !cs->in_eof))
		return cfail(im, err, "bad xz data (liblzma error %d%s)", (int)rc,
			     rc == LZMA_BUF_ERROR ? ": the file ends inside the stream" : "");
	return 0;
}

/* After the gzip stream's end: nothing may follow (0, or an error). */
static int gzip_trailing(trc_import *im, cxl_err *err)
{
	trc__champsim *cs = im->cs;
	int rc;

	if (cs->in_at == cs->in_have && !cs->in_eof && (rc = read_file(im, err)))
		return rc;
	if (cs->in_at < cs->in_have)
		return cfail(im, err, "data after the end of the gzip stream");
	return 0;
}

/*
 * The next 64-byte record into @rec: 1, 0 at a clean end, or an error (a
 * truncated record, bad compressed data).
 */
static int next_record(trc_import *im, uint8_t rec[TRC_CHAMPSIM_RECORD], cxl_err *err)
{
	trc__champsim *cs = im->cs;
	size_t got = 0;
	int rc;

	while (got < TRC_CHAMPSIM_RECORD) {
		if (cs->mode == CS_PLAIN) {
			size_t k = cs->in_have - cs->in_at;
			if (!k) {
				if (cs->in_eof || (rc = read_file(im, err)))
					break;
				continue;
			}
			k = k < TRC_CHAMPSIM_RECORD - got ? k : TRC_CHAMPSIM_RECORD - got;
			memcpy(rec + got, cs->in + cs->in_at, k);
			cs->in_at += k;
			got += k;
			continue;
		}
		if (cs->out_at == cs->out_have) {
			if (cs->end) {
				if (cs->mode == CS_GZIP && (rc = gzip_trailing(im, err)))
					return rc;
				break;
			}
			cs->out_at = cs->out_have = 0;
			if ((rc = inflate_more(im, err)))
				return rc;
			if (cs->out_have == 0 && cs->in_eof && !cs->end)
				return cfail(im, err, "the %s stream is truncated", cs->mode == CS_XZ ?
					     "xz" : "gzip");
			continue;
		}
		size_t k = cs->out_have - cs->out_at;
		k = k < TRC_CHAMPSIM_RECORD - got ? k : TRC_CHAMPSIM_RECORD - got;
		memcpy(rec + got, cs->out + cs->out_at, k);
		cs->out_at += k;
		got += k;
	}
	if (cs->mode == CS_PLAIN && got < TRC_CHAMPSIM_RECORD && ferror(cs->fp))
		return cxl_err_set(err, CXL_EIO, "%s: read error: %s", im->name, strerror(errno));
	if (got && got < TRC_CHAMPSIM_RECORD)
		return cfail(im, err, "truncated record: %zu of %d bytes (a ChampSim trace is "
			     "64-byte instruction records)", got, TRC_CHAMPSIM_RECORD);
	return got ? 1 : 0;
}

/* Queue the lines of @rec's memory operands: reads (sources) first, then writes. */
static int decode(trc_import *im, const uint8_t *rec, cxl_err *err)
{
	trc__champsim *cs = im->cs;

	if (rec[8] > 1)
		return cfail(im, err, "field is_branch: %u (expected 0 or 1)", rec[8]);
	if (rec[9] > 1)
		return cfail(im, err, "field branch_taken: %u (expected 0 or 1)", rec[9]);
	if (cs->instr > UINT64_MAX / im->origin.clock_ps)
		return cfail(im, err, "time: instruction %llu at %llu ps each is past 2^64 ps",
			     (unsigned long long)cs->instr, (unsigned long long)im->origin.clock_ps);
	cs->time = cs->instr * im->origin.clock_ps;
	cs->nacc = cs->acc_at = 0;
	for (int i = 0; i < CS_SOURCES; i++) {
		uint64_t a = trc_get64(rec + 32 + 8 * i);
		if (a)
			cs->acc[cs->nacc++] = a & ~(uint64_t)63;
	}
	cs->nreads = cs->nacc;
	for (int i = 0; i < CS_DESTS; i++) {
		uint64_t a = trc_get64(rec + 16 + 8 * i);
		if (a)
			cs->acc[cs->nacc++] = a & ~(uint64_t)63;
	}
	return 0;
}

/**
 * trc__champsim_next - see trc_import_int.h.
 */
int trc__champsim_next(trc_import *im, trc_rec *rec, cxl_err *err)
{
	trc__champsim *cs = im->cs;
	uint8_t raw[TRC_CHAMPSIM_RECORD];
	int rc;

	while (cs->acc_at == cs->nacc) {
		if ((rc = next_record(im, raw, err)) <= 0)
			return rc;
		if ((rc = decode(im, raw, err)))
			return rc;
		cs->instr++;
	}
	*rec = (trc_rec){ .time = cs->time, .addr = cs->acc[cs->acc_at], .size = 64,
			  .op = cs->acc_at < cs->nreads ? TRC_READ : TRC_WRITE };
	cs->acc_at++;
	im->nrec++;
	return 1;
}

/* The compression of the first bytes (already in cs->in), and its decoder. */
static int start_decoder(trc_import *im, cxl_err *err)
{
	trc__champsim *cs = im->cs;

	if (cs->in_have >= sizeof(xz_magic) && !memcmp(cs->in, xz_magic, sizeof(xz_magic))) {
		cs->mode = CS_XZ;
		if (lzma_stream_decoder(&cs->xs, TRC_CHAMPSIM_XZ_MEMLIMIT, LZMA_CONCATENATED) !=
		    LZMA_OK)
			return cxl_err_set(err, CXL_EINTERNAL, "%s: cannot start the xz decoder",
					   im->name);
	} else if (cs->in_have >= 2 && cs->in[0] == 0x1f && cs->in[1] == 0x8b) {
		cs->mode = CS_GZIP;
		if (inflateInit2(&cs->zs, 16 + MAX_WBITS) != Z_OK)
			return cxl_err_set(err, CXL_EINTERNAL, "%s: cannot start the gzip decoder",
					   im->name);
	}
	return 0;
}

/**
 * trc__champsim_open - see trc_import_int.h.
 */
int trc__champsim_open(trc_import *im, const char *path, const trc_import_opts *o, cxl_err *err)
{
	trc__champsim *cs = xcalloc(1, sizeof(*cs));
	int rc;

	cs->xs = (lzma_stream)LZMA_STREAM_INIT;
	im->cs = cs;
	im->origin.fmt = TRC_FMT_CHAMPSIM;
	im->origin.clock_ps = o->clock_ps ? o->clock_ps : TRC_DEFAULT_INSTR_PS;
	cs->fp = strcmp(path, "-") ? fopen(path, "rb") : fdopen(dup(0), "rb");
	if (!cs->fp)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
	if ((rc = read_file(im, err)))
		return rc;
	if (!cs->in_have)
		return cxl_err_set(err, CXL_EINVAL, "%s: empty trace (no records)", path);
	if (cs->in_have >= TRC_MAGIC_LEN && !memcmp(cs->in, TRC_MAGIC, TRC_MAGIC_LEN))
		return cxl_err_set(err, CXL_EINVAL, "%s: this is a .cxt trace already, not a "
				   "ChampSim trace", path);
	return start_decoder(im, err);
}

/**
 * trc__champsim_sniff - see trc_import_int.h.
 */
int trc__champsim_sniff(const char *path)
{
	uint8_t head[sizeof(xz_magic)];
	FILE *fp;
	int xz = 0;

	if (strstr(path, ".champsimtrace") || strstr(path, ".champsim"))
		return 1;
	if (!strcmp(path, "-") || !(fp = fopen(path, "rb")))
		return 0;
	xz = fread(head, 1, sizeof(head), fp) == sizeof(head) &&
	     !memcmp(head, xz_magic, sizeof(xz_magic));
	fclose(fp);
	return xz;
}

/**
 * trc__champsim_close - see trc_import_int.h.
 */
void trc__champsim_close(trc_import *im)
{
	trc__champsim *cs = im->cs;

	if (!cs)
		return;
	if (cs->fp)
		fclose(cs->fp);
	if (cs->mode == CS_GZIP)
		inflateEnd(&cs->zs);
	lzma_end(&cs->xs);
	free(cs);
	im->cs = NULL;
}
