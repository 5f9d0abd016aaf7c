/*
 * traces/trc_text.h - text trace formats: importers (text -> records) and
 * exporters (records -> text), for ESF, DRAMsim3 and CSV, and importers for
 * the text output of valgrind lackey, Ramulator, Ramulator2 and DynamoRIO
 * drcachesim.
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
 *             size (bytes, default 64), thread (a thread index, 0..65535;
 *             the trace then has TRC_ORIGIN_THREADS), and at most one time column:
 *             time_ps, time_ns, time_us, or time / cycle in ticks of the
 *             clock (which must then be given).  Without a time column every
 *             record has time 0 and TRC_REC_NOTIME.
 *   ramulator ADDR R|W               ["0x%llx %c\n"]
 *             Ramulator's memory trace (ramulator src/Processor.cpp,
 *             Trace::get_request: ADDR read as hex, "0x" optional; R or W,
 *             a missing op is a read).  No time: time 0, TRC_REC_NOTIME.
 *   ramulator2 LD|ST ADDR            ["LD 0x%llx\n"]
 *             Ramulator2's LoadStoreTrace (ramulator2 src/frontend/impl/
 *             memory_trace/loadstore_trace.cpp: ADDR 0x-hex or decimal).  No
 *             time.  Also accepted, when the first line has one, a bubble
 *             count first: BUBBLES LD|ST ADDR ["%llu LD 0x%llx\n"], BUBBLES
 *             non-memory instructions before the access, which then has a
 *             time (below).  Upstream's reader takes two fields only.
 *
 * Every record of these is 64 bytes (no size field).
 *
 * Tools' output where a line gives no record or several (records keep the
 * byte address and size, split at 64-byte line boundaries so that each
 * stays within one line; `cat` prints them as CSV time_ps,addr,op,size, as
 * the text cannot be rebuilt from them):
 *
 *   lackey    valgrind --tool=lackey --trace-mem=yes (valgrind
 *             lackey/lk_main.c prints "I  %08lx,%lu", " L %08lx,%lu",
 *             " S ...", " M ..."): I an instruction (no record), L a read,
 *             S a write, M a modify: a read, then a write of the same bytes.
 *             valgrind's own lines (==PID==, --PID--, **PID**) and SB lines
 *             (--trace-superblocks=yes) are skipped.
 *   ramulator-cpu  BUBBLES ADDR [WBADDR]: Ramulator's CPU trace (Processor.cpp
 *             as above: ADDR in C notation, 0x-hex or decimal) and Ramulator2's
 *             SimpleO3 trace (src/frontend/impl/processor/simpleO3/trace.cpp):
 *             BUBBLES non-memory instructions, then a load of ADDR (a 64 B
 *             read) and, with WBADDR, the write-back it evicts (a 64 B write
 *             at the load's time).  A decimal address with a leading zero is
 *             refused (octal to Ramulator, decimal to Ramulator2).
 *   drcachesim  the view tool's output (DynamoRIO clients/drcachesim/tools/
 *             view.cpp and view.h print_prefix): records
 *             "RECORD# INSTR#: TID DETAILS", or "RECORD#: T<TID> DETAILS"
 *             before DynamoRIO 10; DETAILS "read|write N byte(s) @ 0xADDR
 *             [by PC 0x...]" is an access, "ifetch ..." an instruction;
 *             markers, prefetches, flushes, headers and any other line are
 *             skipped.  Thread ids (TID, T<TID>, or W<N>.T<TID> with several
 *             workloads) become thread indices, 0.. in order of first
 *             appearance (trc_tidmap.h; at most 65536), kept in trc_rec.thread
 *             (TRC_ORIGIN_THREADS, a version-3 .cxt).
 *
 * A binary format (traces/trc_import_champsim.c has the layout):
 *
 *   champsim  ChampSim traces (tracer/pin/champsim_tracer.cpp,
 *             trace_instr_format_t; plain, .gz or .xz): 64-byte instruction
 *             records; each non-zero source_memory is a 64 B read of its
 *             line, then each non-zero destination_memory a 64 B write.
 *             Detected by the xz magic or a name holding ".champsim";
 *             otherwise give the format.  Errors "FILE: instruction N: ...".
 *
 * Time of the formats that count instructions (lackey, ramulator-cpu,
 * ramulator2 with bubbles, drcachesim, champsim): the index of the access's
 * instruction, from 0, times the clock, which is then the time of one
 * instruction (default TRC_DEFAULT_INSTR_PS, one instruction per ns).
 * lackey counts I lines; drcachesim takes INSTR# (the view tool's count of
 * instructions so far, the access's own included), or counts ifetch lines
 * in the old format; ramulator-cpu and ramulator2 add BUBBLES + 1 per line.
 * Accesses of one instruction share its time.  An access of lackey or
 * drcachesim is at most 65536 bytes (an instruction's operand; larger is an
 * error), so a line gives at most 2 x 1025 records.
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
 * The tools' formats without an exporter have no canonical form (nothing is
 * counted); their errors name the field: "FILE:LINE: field NAME: what".
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
#define TRC_DEFAULT_INSTR_PS 1000 /* time of one instruction unless given: 1 ns */

typedef struct trc_import trc_import;

/* trc_fmt_exports - 1 if `cat` can print @fmt (ESF, DRAMsim3, CSV, ramulator, ramulator2). */
static inline int trc_fmt_exports(int fmt)
{
	return fmt == TRC_FMT_ESF || fmt == TRC_FMT_DRAMSIM3 || fmt == TRC_FMT_CSV ||
	       fmt == TRC_FMT_RAMULATOR || fmt == TRC_FMT_RAMULATOR2;
}

/* trc_fmt_counts_instructions - 1 if @fmt's time is an instruction count (the
 * clock is then the time of one instruction); ramulator2 only with bubbles
 * (@clock_ps not 0). */
static inline int trc_fmt_counts_instructions(int fmt, uint64_t clock_ps)
{
	return fmt == TRC_FMT_LACKEY || fmt == TRC_FMT_RAMULATOR_CPU ||
	       fmt == TRC_FMT_DRCACHESIM || fmt == TRC_FMT_CHAMPSIM ||
	       (fmt == TRC_FMT_RAMULATOR2 && clock_ps);
}

typedef struct trc_import_opts trc_import_opts;
struct trc_import_opts {
	int fmt;           /* TRC_FMT_*; TRC_FMT_NONE detects it from the first line */
	uint64_t clock_ps; /* ps per tick/cycle; 0: default (ESF, DRAMsim3) or none (CSV) */
	int esf_delay;     /* ESF ticks are delays since the previous record */
	int instr_only;    /* clock_ps is a time per instruction (--ipns): refuse formats
			      that do not count instructions */
};

/* CSV column kinds. */
enum trc_col {
	TRC_COL_TIME_PS, TRC_COL_TIME_NS, TRC_COL_TIME_US, TRC_COL_TIME_CLK,
	TRC_COL_ADDR, TRC_COL_OP, TRC_COL_SIZE, TRC_COL_THREAD,
};

typedef struct trc_export trc_export;
struct trc_export {
	int fmt;                 /* TRC_FMT_ESF, _DRAMSIM3 or _CSV */
	uint64_t clock_ps;       /* ps per tick/cycle (ESF, DRAMsim3, CSV time/cycle) */
	int esf_delay;           /* ESF: print delays */
	int bubbles;             /* ramulator2: print bubble counts (time / clock_ps) */
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
 * @to:       target format (one trc_fmt_exports() accepts); TRC_FMT_NONE
 *            means the origin's, or CSV when the origin has no exporter
 *            (TRC_FMT_NONE, lackey, ramulator-cpu, drcachesim)
 * @clock_ps: ps per tick/cycle for a target other than the origin (0: 1 ns);
 *            for ramulator2, the time of one instruction: bubble counts are
 *            printed if it is not 0
 * @esf_delay: ESF target other than the origin: print delays
 * @err:      OUT error record, may be NULL
 *
 * A CSV target other than the origin gets the header "time_ps,addr,op,size",
 * with ",thread" if the origin has TRC_ORIGIN_THREADS (other targets drop
 * the thread).
 * Return: 0 or CXL_EINVAL (bad CSV header in @o, a target without exporter).
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
 * target format (size other than 64 B for ESF, DRAMsim3, ramulator and
 * ramulator2, a time that is not a whole number of ticks, two ramulator2
 * accesses of one instruction).
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
