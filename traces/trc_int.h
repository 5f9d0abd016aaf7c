/*
 * traces/trc_int.h - internals of the .cxt library shared by traces/trc_*.c
 * and the unit tests: the block codec, the reader and writer structs.
 *
 * The codec (trc_codec.c) turns up to TRC_CAP_MAX records into a block
 * payload and back (layout in trc_format.h); it does no I/O and no
 * allocation.  trc_write.c deflates payloads into blocks, trc_read.c reads
 * and checks them.  Tests craft damaged files with these pieces.
 */
#ifndef CXL_TRACES_TRC_INT_H
#define CXL_TRACES_TRC_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "traces/trc.h"

/* Why a payload did not decode, and at which record of its block. */
typedef struct trc_derr trc_derr;
struct trc_derr {
	const char *why; /* static text, e.g. "mantissa column too short" */
	uint32_t at;     /* index within the block of the first bad record */
};

/* Sections of a payload, deflated each with Huffman codes of its own. */
#define TRC_SECTIONS 8

/**
 * trc__encode_block - encode @n records (1..TRC_CAP_MAX, valid and sorted)
 * into a block payload.
 * @recs:    the records
 * @n:       their number
 * @payload: OUT at least TRC_PAYLOAD_MAX(n) bytes
 * @cut:     OUT end offsets of the sections: preamble and tags, classes,
 *           high bytes, low bits, time deltas, sizes, threads, mantissas (absent columns give
 *           empty sections); cut[TRC_SECTIONS - 1] is the payload length
 *
 * Return: the payload length.  Deterministic: equal records give equal bytes.
 */
size_t trc__encode_block(const trc_rec *recs, uint32_t n, uint8_t *payload,
			 size_t cut[TRC_SECTIONS]);

/**
 * trc__decode_block - decode a block payload into @n records.
 * @payload: the payload; the 8 bytes after it must be readable (the reader
 *           keeps them zero): the bit reader loads whole words
 * @len:     payload length, bytes
 * @n:       records the block header announces
 * @recs:    OUT n records
 * @e:       OUT reason and record of a failure
 *
 * Checks everything the layout fixes (flags, column lengths, classes, tags,
 * absolute base, width and high bytes, address range, time overflow, sizes,
 * spare bits) and that every byte is used.  Return: 0, or -1 with @e filled.
 */
int trc__decode_block(const uint8_t *payload, size_t len, uint32_t n, trc_rec *recs,
		      trc_derr *e);

/* trc__rec_crc - update a records CRC with @n records (their 24-byte images). */
uint32_t trc__rec_crc(uint32_t crc, const trc_rec *recs, size_t n);

/* trc__origin_check - validate an origin (format known, flags, clock, text length). */
int trc__origin_check(const trc_origin *o, cxl_err *err);

/* The fields of a file header. */
typedef struct trc_hdr trc_hdr;
struct trc_hdr {
	trc_origin origin; /* format, flags, clock, CSV header text */
	uint64_t count;    /* records */
	uint32_t cap;      /* block capacity, records */
	uint32_t crc;      /* records CRC */
	unsigned version;  /* decoded: the file's version (encode derives it from the origin) */
};

#define TRC_HDR_MAX (TRC_HDR_MIN + TRC_ORIGIN_TEXT_MAX)

/* trc__header_encode - the file header of @h into @buf (TRC_HDR_MAX bytes);
 * returns its length. */
size_t trc__header_encode(uint8_t *buf, const trc_hdr *h);

/**
 * trc__header_len - check the first TRC_HDR_FIXED bytes of a file (magic,
 * version, lengths) and give the whole header's length.
 * Return: the length (TRC_HDR_MIN..TRC_HDR_MAX), or 0 with *@why set.
 */
size_t trc__header_len(const uint8_t *fixed, const char **why);

/**
 * trc__header_decode - check and decode a whole header of @len bytes (its
 * CRC, flags, capacity, origin) into @h.
 * Return: 0, or -1 with *@why set to a static reason.
 */
int trc__header_decode(const uint8_t *buf, size_t len, trc_hdr *h, const char **why);

/* trc__block_header - the 32-byte block header for a compressed block. */
void trc__block_header(uint8_t *hdr, const uint8_t *z, uint32_t zlen, uint32_t n,
		       uint32_t plen, uint64_t first);

int trc__writer_finish(trc_writer *w, cxl_err *err);
int trc__writer_commit(trc_writer *w, cxl_err *err);

struct trc_writer {
	FILE *fp;            /* the temporary file */
	char *path;          /* final name */
	char *tmp;           /* temporary name, renamed to path at close */
	trc_origin origin;   /* recorded in the header */
	uint32_t cap;        /* records per block */
	trc_rec *recs;       /* the block being filled, cap records */
	uint32_t n;          /* records in it */
	uint8_t *payload;    /* TRC_PAYLOAD_MAX(cap) bytes */
	uint8_t *z;          /* trc_zbound(TRC_PAYLOAD_MAX(cap)) bytes */
	uint64_t count;      /* records added */
	uint32_t crc;        /* records CRC so far */
	uint64_t last_time;  /* time of the last record added, ps */
	int failed;          /* CXL_E* code of the first failure, 0 if none */
};

struct trc_reader {
	FILE *fp;            /* the file, read sequentially */
	char *name;          /* for messages */
	trc_origin origin;   /* from the header */
	unsigned version;    /* the file's version, 1..TRC_VERSION */
	uint64_t count;      /* records the header announces */
	uint32_t cap;        /* block capacity */
	uint32_t crc_want;   /* records CRC from the header */
	uint32_t crc;        /* records CRC of the records decoded so far */
	uint64_t index;      /* records returned */
	uint64_t decoded;    /* records decoded (index of the next block's first) */
	uint64_t offset;     /* file offset of the next block, bytes */
	trc_rec *recs;       /* the current block's records */
	uint32_t nrec;       /* records in it */
	uint32_t pos;        /* next one to return */
	uint32_t recs_cap;   /* records allocated */
	uint8_t *z;          /* compressed bytes of the current block */
	size_t z_cap;        /* bytes allocated */
	uint8_t *payload;    /* inflated payload (+8 zero bytes) */
	size_t payload_cap;  /* bytes allocated */
	z_stream zs;         /* inflate state, reused for every block */
	int zs_live;         /* inflateInit done */
	uint64_t last_time;  /* time of the last decoded record, ps */
	int done;            /* 1 once the end was reached and checked */
	int failed;          /* sticky CXL_E* code, 0 if none */
	cxl_err saved;       /* the sticky error, repeated on later calls */
	size_t mem;          /* bytes allocated now (buffers + zlib) */
	size_t mem_peak;     /* largest mem so far */
	unsigned long nalloc; /* allocations made */
};

#endif
