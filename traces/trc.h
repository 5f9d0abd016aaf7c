/*
 * traces/trc.h - the .cxt compressed memory-access trace: records, the
 * streaming reader and the writer (design §6; byte layout in trc_format.h).
 *
 * A trace is a sequence of records sorted by time (equal times allowed):
 * absolute time in picoseconds, byte address, size, read or write, and
 * (with TRC_ORIGIN_THREADS, version 3) the index of the thread that made it.  The
 * writer delta-codes and deflates them in blocks of up to B records (default
 * TRC_CAP_DEFAULT = 4096); the reader decodes one block at a time, so its
 * memory is bounded by the block capacity and never grows with the trace
 * length: at most 24 B (records) + 29 B (payload) + its zlib bound
 * (compressed) bytes plus inflate's ~40 KiB, i.e. <= 350 KiB at the default
 * B, 70-140 KiB measured (the buffers grow to the largest block seen).
 * Each block is independently decodable and carries a CRC of
 * its compressed bytes; the header carries the record count and a CRC of all
 * records, checked when the last record has been read.
 *
 * Errors (core/err.h convention): functions that can fail return 0 or a
 * negative CXL_E* code and fill a caller-owned cxl_err (NULL accepted).
 * Damage in a .cxt file is CXL_EINVAL with the message
 * "FILE: record N: what is wrong", N being the index of the first record
 * that cannot be trusted (0 for a damaged header, the block's first record
 * for a damaged block); I/O failures are CXL_EIO.  Records returned before
 * an error are good: a block is decoded and checked whole before any of its
 * records is handed out.  No input makes the reader crash, loop or allocate
 * beyond its bound (fuzzed: test/traces/fuzz/trc_fuzz.c).
 *
 * Threads: a reader or writer is used by one thread at a time; separate
 * readers are independent (a rank opens only the traces of its own hosts).
 *
 * Plugs in: traces/trc_text.h (text importers and exporters) and the
 * cxlfab-trace tool (traces/trc_main.c) build on this; the requester model
 * replays a trace through trc_reader_next().
 */
#ifndef CXL_TRACES_TRC_H
#define CXL_TRACES_TRC_H

#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "traces/trc_format.h"

enum { TRC_READ = 0, TRC_WRITE = 1 };

/* Record flags. */
/* The source gave no time (ESF tick 0): the time is the previous record's. */
#define TRC_REC_NOTIME 0x02u

typedef struct trc_rec trc_rec;
struct trc_rec {
	uint64_t time;  /* issue time, ps; never below the previous record's */
	uint64_t addr;  /* byte address; addr + size - 1 <= 2^64 - 1 */
	uint32_t size;  /* bytes, >= 1 (64 for ESF and DRAMsim3 traces) */
	uint8_t op;     /* TRC_READ or TRC_WRITE */
	uint8_t flags;  /* TRC_REC_* */
	uint16_t thread; /* thread index, 0.. in order of first appearance (0 where the
			    trace has none: no TRC_ORIGIN_THREADS); keeps the struct
			    equal to its 24-byte image */
};

/* The text format a trace was converted from (header flags bits 0-7). */
enum trc_fmt {
	TRC_FMT_NONE = 0,     /* generated, or unknown: `cat` prints CSV */
	TRC_FMT_ESF = 1,      /* 0xADDR R|W TICK */
	TRC_FMT_DRAMSIM3 = 2, /* 0xADDR READ|WRITE CYCLE */
	TRC_FMT_CSV = 3,      /* header line naming the columns, then values */
	/* Tools' output (traces/trc_text.h); clock: time per instruction where
	 * the format counts instructions, 0 where it has no time. */
	TRC_FMT_LACKEY = 4,   /* valgrind --tool=lackey --trace-mem=yes: I, L, S, M lines */
	TRC_FMT_RAMULATOR = 5, /* Ramulator memory trace: ADDR R|W (no time) */
	TRC_FMT_RAMULATOR2 = 6, /* Ramulator2 LoadStoreTrace: LD|ST ADDR (bubbles: with time) */
	TRC_FMT_RAMULATOR_CPU = 7, /* Ramulator CPU / Ramulator2 SimpleO3: BUBBLES ADDR [WBADDR] */
	TRC_FMT_DRCACHESIM = 8, /* DynamoRIO drcachesim `view` output */
	TRC_FMT_CHAMPSIM = 9, /* ChampSim binary trace: 64-byte instruction records */
};
#define TRC_FMT_COUNT 10

#define TRC_ORIGIN_ESF_DELAY 0x100u /* ESF ticks were delays since the previous record */
#define TRC_ORIGIN_THREADS 0x200u /* records carry thread indices (.cxt version 3) */

typedef struct trc_origin trc_origin;
struct trc_origin {
	int fmt;                               /* enum trc_fmt */
	uint32_t flags;                        /* TRC_ORIGIN_* */
	uint64_t clock_ps;                     /* ps per tick or cycle of the text, 0 if none */
	char text[TRC_ORIGIN_TEXT_MAX + 1];    /* CSV header line, NUL-terminated; "" otherwise */
};

typedef struct trc_reader trc_reader;
typedef struct trc_writer trc_writer;

/* trc_fmt_name - "none", "esf", "dramsim3", "csv", "lackey", "ramulator",
 * "ramulator2", "ramulator-cpu", "drcachesim" or "champsim" ("?" out of range). */
const char *trc_fmt_name(int fmt);

/**
 * trc_reader_open - open a .cxt file for streaming.
 * @out:  OUT the reader (NULL on failure)
 * @path: file to read; "-" reads standard input
 * @err:  OUT error record, may be NULL
 *
 * Reads and checks the header only.  Return: 0; CXL_EIO if the file cannot
 * be opened; CXL_EINVAL if it is not a .cxt file or its header is damaged
 * ("PATH: record 0: ...").
 */
int trc_reader_open(trc_reader **out, const char *path, cxl_err *err);

/**
 * trc_reader_open_file - trc_reader_open() for a simulation's trace: @path
 * must be a regular file.  A FIFO (which would block the open until some
 * process writes into it, on every rank), a folder or a device is
 * CXL_EINVAL "PATH: a FIFO (expected a regular file)"; the check never
 * blocks (open with O_NONBLOCK, fstat on the descriptor).
 */
int trc_reader_open_file(trc_reader **out, const char *path, cxl_err *err);

/**
 * trc_reader_open_stream - trc_reader_open() on an open stream.
 * @out:  OUT the reader
 * @fp:   stream positioned at the header; the reader owns it (fclose at close,
 *        also on failure)
 * @name: file name for messages (copied)
 * @err:  OUT error record, may be NULL
 *
 * The stream is only read sequentially (fmemopen() and pipes work).
 */
int trc_reader_open_stream(trc_reader **out, FILE *fp, const char *name, cxl_err *err);

/**
 * trc_reader_next - the next record.
 * @r:   the reader
 * @rec: OUT the record (untouched unless 1 is returned)
 * @err: OUT error record, may be NULL
 *
 * Return: 1 with a record; 0 at the end, after the records CRC and the
 * record count were checked; CXL_EINVAL for a damaged or inconsistent file
 * (truncation, checksum mismatch, count disagreeing with the blocks,
 * decreasing time) naming the first bad record; CXL_EIO for a read error.
 * After an error, further calls return the same code without reading.
 */
int trc_reader_next(trc_reader *r, trc_rec *rec, cxl_err *err);

/**
 * trc_reader_read - up to @max next records into @recs (the batch form of
 * trc_reader_next, for replay loops that want fewer calls).
 *
 * Return: the number of records stored (0 at the end), or a negative
 * CXL_E* code as trc_reader_next; records stored before an error are not
 * reported (the error names the first bad record).
 */
long trc_reader_read(trc_reader *r, trc_rec *recs, long max, cxl_err *err);

/**
 * trc_reader_skip - pass over the next @n records without returning them
 * (a restarted replay going back to where its checkpoint left it).  The
 * blocks are read and checked as for trc_reader_next, so the records CRC
 * is still checked at the end.
 *
 * Return: 1 when @n records were skipped; 0 if the trace ended first
 * (trc_reader_index() says how many it had); a negative CXL_E* code as
 * trc_reader_next.
 */
int trc_reader_skip(trc_reader *r, uint64_t n, cxl_err *err);

/* trc_reader_count - records in the trace (from the header). */
uint64_t trc_reader_count(const trc_reader *r);

/* trc_reader_index - records returned so far (index of the next record). */
uint64_t trc_reader_index(const trc_reader *r);

/* trc_reader_origin - the text format the trace came from. */
const trc_origin *trc_reader_origin(const trc_reader *r);

/* trc_reader_version - the file's format version (1..TRC_VERSION). */
unsigned trc_reader_version(const trc_reader *r);

/* trc_reader_name - the file name given at open (for messages). */
const char *trc_reader_name(const trc_reader *r);

/* trc_reader_capacity - block capacity (records per block). */
uint32_t trc_reader_capacity(const trc_reader *r);

/* trc_reader_close - release everything; NULL is accepted. */
void trc_reader_close(trc_reader *r);

/**
 * trc_writer_open - start writing a .cxt file.
 * @out:      OUT the writer
 * @path:     file to create; written through a temporary file in the same
 *            directory and renamed at trc_writer_close(), so a failed or
 *            interrupted write never leaves a partial trace at @path
 * @origin:   text format to record in the header (NULL: TRC_FMT_NONE); with
 *            TRC_ORIGIN_THREADS the file is version 3 (records keep their
 *            thread), else version 2 (readable by older readers)
 * @capacity: records per block, 1..TRC_CAP_MAX; 0 means TRC_CAP_DEFAULT
 * @err:      OUT error record, may be NULL
 *
 * Return: 0; CXL_EIO if the temporary file cannot be created; CXL_EINVAL
 * for a bad capacity or origin (text too long, unknown format).
 */
int trc_writer_open(trc_writer **out, const char *path, const trc_origin *origin,
		    uint32_t capacity, cxl_err *err);

/**
 * trc_writer_add - append one record.
 * @w:   the writer
 * @rec: the record; its time must not be below the previous record's, its
 *       size at least 1, its op TRC_READ or TRC_WRITE, flags only
 *       TRC_REC_NOTIME, thread 0 unless the origin has TRC_ORIGIN_THREADS
 * @err: OUT error record, may be NULL
 *
 * Return: 0; CXL_EINVAL for a bad record ("record N: ..."); CXL_EIO when a
 * full block cannot be written.  After a failure only close/abort are valid.
 */
int trc_writer_add(trc_writer *w, const trc_rec *rec, cxl_err *err);

/* trc_writer_count - records added so far. */
uint64_t trc_writer_count(const trc_writer *w);

/**
 * trc_writer_close - write the last block and the final header, then
 * rename the file into place and free @w.
 *
 * Return: 0, or CXL_EIO (the temporary file is removed, @path untouched).
 * If an earlier trc_writer_add failed, this aborts and returns that code.
 */
int trc_writer_close(trc_writer *w, cxl_err *err);

/* trc_writer_abort - discard everything written, remove the temporary file, free @w. */
void trc_writer_abort(trc_writer *w);

#endif
