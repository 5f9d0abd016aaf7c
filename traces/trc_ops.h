/*
 * traces/trc_ops.h - whole-trace operations behind the cxlfab-trace
 * subcommands: convert, cat, info, gen, split.
 *
 * Each streams: memory is a few blocks per open trace, whatever the trace
 * length, except `info`, whose footprint count keeps a set of the distinct
 * 64-byte lines (16 bytes per line, amortised).  Each writes its output
 * through trc_writer (atomic rename), so a failed operation leaves no
 * partial .cxt behind.  Errors follow core/err.h; messages name the file and
 * the line (text) or the record (.cxt).
 */
#ifndef CXL_TRACES_TRC_OPS_H
#define CXL_TRACES_TRC_OPS_H

#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "core/rng.h"
#include "traces/trc.h"
#include "traces/trc_text.h"

/**
 * trc_convert - import a text trace into a .cxt file.
 * @in:       text file (plain or gzip), "-" for standard input
 * @out:      .cxt file to create
 * @o:        import options (format, clock, ESF tick meaning)
 * @cap:      records per block, 0 for the default
 * @noncanon: OUT lines not in canonical form (see trc_text.h)
 * @first:    OUT the first such line
 * @err:      OUT error record, may be NULL
 *
 * Return: 0 or a CXL_E* code ("IN:LINE: ..." for bad input).
 */
int trc_convert(const char *in, const char *out, const trc_import_opts *o, uint32_t cap,
		uint64_t *noncanon, uint64_t *first, cxl_err *err);

/**
 * trc_cat - print a .cxt trace as text.
 * @in:        .cxt file
 * @out:       stream to print to
 * @to:        TRC_FMT_NONE for the origin format, else the target
 * @clock_ps:  clock of a target other than the origin (0: 1 ns)
 * @esf_delay: ESF target other than the origin: ticks as delays
 * @err:       OUT error record, may be NULL
 *
 * Return: 0 or a CXL_E* code; a record the target cannot express is
 * CXL_EINVAL "IN: record N: ...".
 */
int trc_cat(const char *in, FILE *out, int to, uint64_t clock_ps, int esf_delay, cxl_err *err);

typedef struct trc_info trc_info;
struct trc_info {
	trc_origin origin;   /* from the header */
	uint32_t cap;        /* block capacity, records */
	uint64_t records;    /* records read (= the header's count) */
	uint64_t reads;      /* read records */
	uint64_t writes;     /* write records */
	uint64_t lines;      /* distinct 64-byte lines touched (by the first byte of each record) */
	uint64_t bytes;      /* sum of record sizes, bytes */
	uint64_t addr_min;   /* lowest address (0 if no records) */
	uint64_t addr_max;   /* highest address */
	uint64_t t_first;    /* first record's time, ps */
	uint64_t t_last;     /* last record's time, ps */
	uint64_t file_bytes; /* size of the .cxt file, bytes */
	unsigned version;    /* the file's format version */
	uint32_t threads;    /* distinct thread indices among the records (1 without threads) */
	uint16_t thread_max; /* the highest of them */
};

/* Bytes of one record uncompressed, for compression ratios: time 8, address 8, size 4, op 1. */
#define TRC_RAW_RECORD 21

/**
 * trc_info_scan - read a whole trace and summarise it.
 * Return: 0 or a CXL_E* code (damage as in trc_reader_next).
 */
int trc_info_scan(const char *in, trc_info *info, cxl_err *err);

/**
 * trc_info_blocks - print the block table of a .cxt file (offset, compressed
 * and payload bytes, records, first record), one block per line, from the
 * block headers alone (nothing is inflated).  For debugging and for tests
 * that splice damaged files.
 * Return: 0 or a CXL_E* code.
 */
int trc_info_blocks(const char *in, FILE *out, cxl_err *err);

enum { TRC_GEN_STREAM, TRC_GEN_RANDOM, TRC_GEN_HOTCOLD };

typedef struct trc_gen_opts trc_gen_opts;
struct trc_gen_opts {
	int pattern;          /* TRC_GEN_* */
	uint64_t records;     /* records to generate */
	uint64_t seed;        /* random seed */
	uint64_t footprint;   /* bytes touched, a multiple of 64, >= 64 */
	uint64_t base;        /* address of the first line, a multiple of 64 */
	double read_ratio;    /* probability of a read */
	double hot_fraction;  /* hotcold: share of records to the hot set */
	double hot_footprint; /* hotcold: hot share of the footprint (at least one line) */
	uint64_t interval_ps; /* time between two records, ps (first at 0) */
	uint32_t size;        /* bytes per record */
};

typedef struct trc_gen trc_gen;
struct trc_gen {
	trc_gen_opts o;       /* the options */
	cxl_rng rng;          /* stream (seed, 0) */
	uint64_t lines;       /* footprint in lines */
	uint64_t hot;         /* hot lines (hotcold) */
	uint64_t i;           /* records generated */
};

/* trc_gen_defaults - the defaults of `cxlfab-trace gen` (random, 1000 records, seed 1, 1 MiB). */
void trc_gen_defaults(trc_gen_opts *o);

/**
 * trc_gen_init - start a generator; the patterns are those of the requester
 * model (models/host/req.c): stream walks the lines in order and wraps, random
 * draws them uniformly, hotcold sends hot_fraction of the records uniformly
 * to the first hot_footprint of the lines and the rest to the others.
 * Return: 0, or CXL_EINVAL for options out of range (message names the option).
 */
int trc_gen_init(trc_gen *g, const trc_gen_opts *o, cxl_err *err);

/* trc_gen_next - the next record (deterministic in the options and seed). */
void trc_gen_next(trc_gen *g, trc_rec *rec);

/* trc_gen_write - generate a whole trace into @out (.cxt). Return: 0 or CXL_E*. */
int trc_gen_write(const char *out, const trc_gen_opts *o, uint32_t cap, cxl_err *err);

enum { TRC_SPLIT_RANGE, TRC_SPLIT_ROUNDROBIN, TRC_SPLIT_THREAD };

#define TRC_SPLIT_HOSTS_MAX 65536

/**
 * trc_split - split a trace among @hosts hosts.
 * @in:      .cxt file
 * @pattern: output names, with exactly one %d (the host, 0-based) and no
 *           other % but %%
 * @hosts:   1..TRC_SPLIT_HOSTS_MAX
 * @by:      TRC_SPLIT_RANGE: host h gets the h-th contiguous run of records
 *           (sizes differ by at most one); TRC_SPLIT_ROUNDROBIN: record i
 *           goes to host i mod hosts; TRC_SPLIT_THREAD: a record of thread
 *           t goes to host t mod hosts (with as many hosts as threads, one
 *           thread each; a trace without threads is all thread 0)
 * @cap:     records per block of the outputs, 0 for the default (lowered
 *           for roundrobin and thread with many hosts, to bound the memory
 *           of the open writers to ~256 MiB)
 * @rebase:  1: each output's times start at 0 (its first record's time is
 *           subtracted from all of its records); 0: times are kept
 * @err:     OUT error record, may be NULL
 *
 * Sizes, threads and the origin are kept, so every output is a valid trace
 * of the same format; every record lands in exactly one output, in order.
 * Return: 0 or a CXL_E* code.
 */
int trc_split(const char *in, const char *pattern, unsigned hosts, int by, uint32_t cap,
	      int rebase, cxl_err *err);

/**
 * trc_split_name - the output name of @host under @pattern into @buf.
 * Return: 0, or -1 if the pattern is not valid or the name does not fit.
 */
int trc_split_name(const char *pattern, unsigned host, char *buf, size_t size);

#endif
