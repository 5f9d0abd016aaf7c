/*
 * traces/trc_import_int.h - the text importer's state, shared by
 * traces/trc_import.c (ESF, DRAMsim3, CSV: line reading, detection, the
 * canonical check), traces/trc_import_tools.c (the output of valgrind
 * lackey, Ramulator, Ramulator2 and DynamoRIO drcachesim) and
 * traces/trc_import_champsim.c (ChampSim's binary traces, which bypass the
 * line reader: im->cs), and by their unit tests.  Formats and their
 * contracts are in trc_text.h.
 *
 * Flow: trc_import_open reads the first non-blank line, detects the format
 * (trc__tools_detect first, as a lackey line or banner holds a comma), and
 * sets the origin up.  Formats with one record per line (ESF, DRAMsim3, CSV,
 * ramulator, ramulator2) go through trc_import_next, which checks the time
 * order and compares each line with its canonical re-print.  The others
 * (lackey, ramulator-cpu, drcachesim), where a line gives no record or
 * several, go through trc__tools_next: each line's accesses are queued in
 * acc[] and handed out one record at a time, lackey's and drcachesim's in
 * pieces that stay within one 64-byte line.
 *
 * Memory: a 64 KiB read buffer and two lines, whatever the input length,
 * plus drcachesim's thread map (at most ~1.3 MiB, trc_tidmap.h).
 */
#ifndef CXL_TRACES_TRC_IMPORT_INT_H
#define CXL_TRACES_TRC_IMPORT_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "traces/trc_text.h"
#include "traces/trc_tidmap.h"

/* One access of a tool's line, handed out in pieces that stay within a 64 B line. */
typedef struct trc__access trc__access;
struct trc__access {
	uint64_t addr; /* next byte to hand out */
	uint64_t left; /* bytes left, >= 1 while queued */
	uint8_t op;    /* TRC_READ or TRC_WRITE */
};

#define TRC__ACCESS_MAX 2 /* most accesses of one line: a modify, or a load and its write-back */
#define TRC__ACCESS_BYTES_MAX 65536 /* largest access of one line (an instruction's operand),
					 bytes: bounds the records one line can give to
					 2 x 1025 */

#define TRC_CHAMPSIM_RECORD 64 /* bytes of one ChampSim instruction record */

typedef struct trc__champsim trc__champsim;

struct trc_import {
	gzFile gz;                    /* input, plain or gzip (text formats) */
	trc__champsim *cs;            /* the ChampSim reader (binary), NULL for text */
	char *name;                   /* for messages */
	unsigned char *buf;           /* read buffer, BUF_SIZE bytes */
	size_t have, at;              /* bytes in buf, next unread byte */
	int eof;                      /* gzread reported the end */
	char line[TRC_TEXT_LINE_MAX]; /* the current line, NUL-terminated, no newline */
	char work[TRC_TEXT_LINE_MAX]; /* copy of it cut into fields */
	size_t len;                   /* its length */
	int crlf;                     /* it ended in CR LF */
	int no_nl;                    /* it had no newline (last line) */
	int pending;                  /* line holds a record line not parsed yet */
	uint64_t lineno;              /* number of the current line, 1-based */
	trc_origin origin;            /* format, clock, CSV header */
	trc_export ex;                /* re-prints records for the canonical check */
	uint64_t prev_time;           /* time of the previous record, ps */
	uint64_t nrec;                /* records parsed */
	uint64_t noncanon;            /* lines not in canonical form */
	uint64_t first_noncanon;      /* the first of them */
	/* tools' formats (trc_import_tools.c) */
	uint64_t instrs;              /* lackey: I lines so far; drcachesim: ifetch lines
					 (old format); ramulator-cpu, ramulator2 with
					 bubbles: index of the next line's first instruction */
	trc__access acc[TRC__ACCESS_MAX]; /* the current line's accesses not handed out */
	int nacc;                     /* number of them queued */
	int acc_at;                   /* index of the one being handed out */
	uint64_t acc_time;            /* their time, ps */
	uint16_t acc_thread;          /* their thread index (drcachesim; 0 otherwise) */
	trc_tidmap tids;              /* drcachesim: thread ids to indices */
};

/**
 * trc__import_vfail - fill @err with "FILE:LINE: what" for the current line.
 * Return: CXL_EINVAL.
 */
int trc__import_vfail(trc_import *im, cxl_err *err, const char *fmt, va_list ap);

/* trc__next_line - the next non-blank line into im->line (blank ones are
 * counted as not canonical): 1, 0 at the end, < 0 on error. */
int trc__next_line(trc_import *im, cxl_err *err);

/* trc__split_fields - split @s in place at commas (@csv) or at runs of
 * blanks into @f; more than @max fields gives @max + 1. */
int trc__split_fields(char *s, int csv, char **f, int max);

/* trc__parse_u64 - decimal, or hex after "0x"/"0X" if @hex_ok, no overflow: 0 or -1. */
int trc__parse_u64(const char *s, int hex_ok, uint64_t *v);

/**
 * trc__tools_detect - the tool's format of the first line (in im->line):
 * TRC_FMT_LACKEY, _DRCACHESIM, _RAMULATOR2, _RAMULATOR, _RAMULATOR_CPU, or
 * TRC_FMT_NONE if it looks like none of them.
 */
int trc__tools_detect(trc_import *im);

/**
 * trc__tools_setup - the origin's clock for a tool's format once it is known
 * (the first line is in im->line): the time of one instruction for formats
 * that count them (@o's clock or TRC_DEFAULT_INSTR_PS), none for ramulator
 * and ramulator2 without bubbles.
 * Return: 0, or CXL_EINVAL "FILE:1: ..." if a clock was given for a trace
 * without time.
 */
int trc__tools_setup(trc_import *im, const trc_import_opts *o, cxl_err *err);

/**
 * trc__tools_parse - the record of a ramulator or ramulator2 line (in
 * im->line) into @r (size 64 preset).
 * Return: 0, or CXL_EINVAL "FILE:LINE: field NAME: ...".
 */
int trc__tools_parse(trc_import *im, trc_rec *r, cxl_err *err);

/* trc__tools_multi - 1 for the formats read by trc__tools_next. */
static inline int trc__tools_multi(int fmt)
{
	return fmt == TRC_FMT_LACKEY || fmt == TRC_FMT_RAMULATOR_CPU || fmt == TRC_FMT_DRCACHESIM;
}

/**
 * trc__tools_next - trc_import_next for lackey, ramulator-cpu and drcachesim:
 * the next piece of the queued accesses, reading lines as needed.
 * Return: 1 with @rec, 0 at the end, CXL_EINVAL "FILE:LINE: field NAME:
 * ..." naming the line, CXL_EIO on a read error.
 */
int trc__tools_next(trc_import *im, trc_rec *rec, cxl_err *err);

/**
 * trc__champsim_sniff - 1 if @path looks like a ChampSim trace without
 * reading it as text: its name holds ".champsim" (ChampSim's traces are
 * NAME.champsimtrace.xz) or it starts with the xz magic (text traces are
 * plain or gzip).
 */
int trc__champsim_sniff(const char *path);

/**
 * trc__champsim_open - open @path (or "-") as a ChampSim trace, plain,
 * gzip or xz by its first bytes, into im->cs; sets the origin (champsim,
 * the time of one instruction: @o's clock or TRC_DEFAULT_INSTR_PS).
 * Return: 0; CXL_EIO (cannot open or read); CXL_EINVAL (empty, a .cxt).
 * On failure im->cs may be set: trc__champsim_close releases it.
 */
int trc__champsim_open(trc_import *im, const char *path, const trc_import_opts *o,
		       cxl_err *err);

/**
 * trc__champsim_next - trc_import_next for ChampSim: the next access (64 B,
 * line-aligned) of the instructions' memory operands.
 * Return: 1 with @rec, 0 at the end, CXL_EINVAL "FILE: instruction N: ..."
 * (truncated record, bad branch byte, bad compressed data), CXL_EIO.
 */
int trc__champsim_next(trc_import *im, trc_rec *rec, cxl_err *err);

/* trc__champsim_close - release im->cs (NULL-safe). */
void trc__champsim_close(trc_import *im);

#endif
