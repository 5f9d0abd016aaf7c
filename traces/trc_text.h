/*
 * traces/trc_text.h - text trace formats: importers (text -> records) and
 * exporters (records -> text), for ESF, DRAMsim3 and CSV.
 *
 * Formats, one access per line (canonical form in brackets):
 *
 *   ESF       0xADDR R|W TICK        ["0x%llx %c %llu\n"]
 *             TICK is the issue time in ticks of the clock (default 1 ns,
 *             Xerxes' Tick); 0 means "as soon as the queue allows" and takes
 *             the previous record's time with TRC_REC_NOTIME set.  With
 *             esf_delay, TICK is instead the delay since the previous record.
 *   DRAMsim3  0xADDR READ|WRITE CYCLE ["0x%llx %s %llu\n"]
 *             CYCLE is the absolute cycle of the DRAM clock (default 1 ns;
 *             give the DRAM's tCK, e.g. 0.625ns for DDR4-3200).
 *   CSV       a header line naming the columns, then one line per access
 *             ["%s,%s,...\n", no blanks].  Columns, any order, each at most
 *             once: addr (or address, required), op (required, R|W),
 *             size (bytes, default 64), and at most one time column:
 *             time_ps, time_ns, time_us, or time / cycle in ticks of the
 *             clock (which must then be given).  Without a time column every
 *             record has time 0 and TRC_REC_NOTIME.
 *
 * Canonical text: addresses "0x" + lower-case hex without leading zeros
 * ("0x0" for zero; CSV addresses too), decimal numbers without leading
 * zeros, one separator (a space; a comma for CSV), LF line ends, a final
 * newline.  For canonical text, import + export gives the text back byte for
 * byte (the CSV header line is stored verbatim in the trace).  The importer
 * also accepts, and normalises: upper-case hex or "0X", leading zeros, runs
 * of blanks/tabs (blanks around CSV fields), CRLF line ends, a missing final
 * newline, blank lines (skipped), ops in any case (also READ/WRITE for ESF
 * and CSV, R/W for DRAMsim3), decimal CSV addresses.  It counts such lines
 * (trc_import_noncanonical) so the tool can say that `cat` will print the
 * normalised form; anything else is an error "FILE:LINE: what (expected)".
 *
 * Input may be gzip-compressed (zlib gzopen reads both transparently).
 * Times must not decrease (the writer's rule); the importer reports the line.
 */
#ifndef CXL_TRACES_TRC_TEXT_H
#define CXL_TRACES_TRC_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "traces/trc.h"

#define TRC_TEXT_LINE_MAX 4096 /* longest input line, bytes (newline included) */
#define TRC_EXPORT_LINE_MAX 160 /* longest line an exporter writes, newline included */
#define TRC_CSV_COLS 8          /* most CSV columns */
#define TRC_DEFAULT_CLOCK_PS 1000 /* ESF and DRAMsim3 clock unless given: 1 ns */

typedef struct trc_import trc_import;

typedef struct trc_import_opts trc_import_opts;
struct trc_import_opts {
	int fmt;           /* TRC_FMT_*; TRC_FMT_NONE detects it from the first line */
	uint64_t clock_ps; /* ps per tick/cycle; 0: default (ESF, DRAMsim3) or none (CSV) */
	int esf_delay;     /* ESF ticks are delays since the previous record */
};

/* CSV column kinds. */
enum trc_col {
	TRC_COL_TIME_PS, TRC_COL_TIME_NS, TRC_COL_TIME_US, TRC_COL_TIME_CLK,
	TRC_COL_ADDR, TRC_COL_OP, TRC_COL_SIZE,
};

typedef struct trc_export trc_export;
struct trc_export {
	int fmt;                 /* TRC_FMT_ESF, _DRAMSIM3 or _CSV */
	uint64_t clock_ps;       /* ps per tick/cycle (ESF, DRAMsim3, CSV time/cycle) */
	int esf_delay;           /* ESF: print delays */
	int ncol;                /* CSV: number of columns */
	int col[TRC_CSV_COLS];   /* CSV: enum trc_col of each column */
	char header[TRC_ORIGIN_TEXT_MAX + 2]; /* CSV: header line with newline; "" otherwise */
	uint64_t prev_time;      /* time of the previous record exported, ps */
	uint64_t index;          /* records exported */
};

/**
 * trc_import_open - open a text trace (plain or gzip) for import.
 * @out:  OUT the importer
 * @path: file, "-" for standard input
 * @o:    options (NULL: detect, default clocks)
 * @err:  OUT error record, may be NULL
 *
 * Reads the first line to detect the format (unless given) and, for CSV,
 * parses the header.  Return: 0; CXL_EIO (cannot open); CXL_EINVAL (empty,
 * a .cxt file, unrecognised format, bad CSV header, bad clock).
 */
int trc_import_open(trc_import **out, const char *path, const trc_import_opts *o, cxl_err *err);

/**
 * trc_import_next - parse the next record.
 * Return: 1 with @rec; 0 at the end; CXL_EINVAL "FILE:LINE: ..." for a bad
 * line or a time before the previous record's; CXL_EIO on a read error.
 */
int trc_import_next(trc_import *im, trc_rec *rec, cxl_err *err);

/* trc_import_origin - format, clock and CSV header, to store in the .cxt header. */
const trc_origin *trc_import_origin(const trc_import *im);

/* trc_import_line - line number of the last line read (1-based). */
uint64_t trc_import_line(const trc_import *im);

/**
 * trc_import_noncanonical - number of lines that were not canonical (and
 * blank lines skipped); *@first (may be NULL) gets the first one's number.
 */
uint64_t trc_import_noncanonical(const trc_import *im, uint64_t *first);

/* trc_import_close - close and free; NULL is accepted. */
void trc_import_close(trc_import *im);

/**
 * trc_export_init - prepare printing records as text.
 * @ex:       OUT the exporter
 * @o:        origin of the records (its clock, flags and CSV header are used
 *            when @to is the origin format: the original text comes back)
 * @to:       target format; TRC_FMT_NONE means the origin's, or CSV when
 *            the origin is TRC_FMT_NONE
 * @clock_ps: ps per tick/cycle for a target other than the origin (0: 1 ns)
 * @esf_delay: ESF target other than the origin: print delays
 * @err:      OUT error record, may be NULL
 *
 * A CSV target other than the origin gets the header "time_ps,addr,op,size".
 * Return: 0 or CXL_EINVAL (bad CSV header in @o).
 */
int trc_export_init(trc_export *ex, const trc_origin *o, int to, uint64_t clock_ps,
		    int esf_delay, cxl_err *err);

/**
 * trc_export_line - the text line of @rec (with newline, NUL-terminated).
 * @ex:  the exporter; records must come in trace order
 * @rec: the record
 * @buf: OUT TRC_EXPORT_LINE_MAX bytes
 * @why: OUT static reason on failure
 *
 * Return: the line length, or -1 when the record cannot be written in the
 * target format (size other than 64 B for ESF/DRAMsim3, a time that is not a
 * whole number of ticks).
 */
int trc_export_line(trc_export *ex, const trc_rec *rec, char *buf, const char **why);

/**
 * trc_csv_columns - parse a CSV header line into column kinds.
 * @line: the header, without newline
 * @col:  OUT TRC_CSV_COLS kinds
 * @bad:  OUT static reason on failure
 *
 * Return: the number of columns, or -1.
 */
int trc_csv_columns(const char *line, int *col, const char **bad);

#endif
