/*
 * traces/trc_format.h - the byte layout of a .cxt trace file (versions 2
 * and 3; readers also take version 1, which is version 2 without absolute
 * lines).
 *
 * Versions: 1 (no absolute lines), 2 (absolute lines), 3 (thread indices:
 * header flag TRC_ORIGIN_THREADS, block flag THREADS and its column).  The
 * writer writes 3 exactly when the origin has TRC_ORIGIN_THREADS and 2
 * otherwise, so traces without threads stay readable by version-2 readers;
 * a version-2 reader refuses a version-3 file by its version.
 *
 * Every integer is little-endian.  CRC32 is zlib's crc32() (the ISO-HDLC /
 * gzip polynomial).  A file is one header followed by blocks; nothing follows
 * the last block.
 *
 * File header (48 + L bytes):
 *
 *   offset size  field
 *   0      8     magic 89 'C' 'X' 'T' 0d 0a 1a 0a (PNG-style: catches 7-bit
 *                and CRLF-mangling transfers)
 *   8      2     version: 3 with TRC_ORIGIN_THREADS, else 2 (1 is read too;
 *                it never has the ABS flag)
 *   10     2     header length H = 48 + L (bytes, CRC included)
 *   12     4     flags: bits 0-7 origin text format (TRC_FMT_*, 0..9; values
 *                4..9, the tools' formats, came later than version 2, and a
 *                reader built before them refuses such a file as "bad origin
 *                in header"), bit 8 TRC_ORIGIN_ESF_DELAY (ESF ticks were
 *                delays), bit 9 TRC_ORIGIN_THREADS (records carry thread
 *                indices; set exactly in version 3); other bits 0
 *   16     8     record count N
 *   24     8     clock: ps per tick/cycle of the origin text, or per
 *                instruction for formats that count instructions; 0 if none
 *   32     4     block capacity B: most records in one block, 1..2^20
 *   36     4     records CRC: CRC32 over the N records, each serialised as
 *                its 24-byte record image (below), in order
 *   40     2     origin text length L, 0..TRC_ORIGIN_TEXT_MAX
 *   42     2     reserved, 0
 *   44     L     origin text: the CSV header line (no newline); empty for
 *                other formats
 *   44+L   4     header CRC: CRC32 of bytes 0 .. 43+L
 *
 * Block (32 + C bytes), repeated; blocks hold records in order, every block
 * but possibly the last holds exactly B records:
 *
 *   0      4     magic 'C' 'X' 'B' '1'
 *   4      4     compressed length C, 1 .. bound(P)
 *   8      4     record count n, 1 .. B
 *   12     4     payload length P (inflated bytes), 1 .. TRC_PAYLOAD_MAX(n)
 *   16     8     index of the block's first record (records before it)
 *   24     4     CRC32 of the C compressed bytes
 *   28     4     CRC32 of block bytes 0 .. 27
 *   32     C     one zlib stream (RFC 1950) that inflates to the payload
 *
 * Block payload (P bytes, fields in this order; varint = LEB128, unsigned,
 * at most 10 bytes):
 *
 *   u8      block flags: bit 0 ALIGNED (every address is a multiple of 64:
 *           no low-bits column), bit 1 UNIFORM_SIZE (one size for all
 *           records), bit 2 NO_DT (every time delta is 0: no delta column),
 *           bit 3 ABS (some records are absolute lines; set exactly when
 *           one is), bit 4 THREADS (some record has a thread index other
 *           than 0; only in version 3); other bits 0
 *   varint  time of the block's first record, ps (absolute)
 *   varint  with UNIFORM_SIZE the size of every record (1 .. 2^32-1
 *           bytes), else the length of the size column, bytes
 *   varint  length of the delta column, bytes   (only without NO_DT)
 *   varint  absolute base line b, < 2^58          (only with ABS)
 *   u8      absolute width w, 1..58               (only with ABS)
 *   varint  length of the thread column, bytes   (only with THREADS)
 *   n x u8  tag column: bit 0 op (0 read, 1 write), bit 1 TRC_REC_NOTIME,
 *           bit 2 ABS (the line is absolute; then r is 0), bit 3 zero,
 *           bits 4-7 reference r (0..15)
 *   m x u8  class column, for the m records without the ABS tag bit: bit
 *           length k (0..64) of the zigzag line delta z
 *   a x u8  high column, for the a = n - m records with the ABS tag bit:
 *           bits s .. w-1 of v = line - b, where s = max(w - 8, 0)
 *   n x u8  low column: address bits 0-5          (only without ALIGNED)
 *   varints delta column: time of record i minus time of record i-1, for
 *           i = 1 .. n-1, ps                       (only without NO_DT)
 *   varints size column: n sizes, bytes, 1 .. 2^32-1 (only without
 *           UNIFORM_SIZE)
 *   varints thread column: n thread indices, 0 .. 65535 (only with THREADS)
 *   bytes   mantissa column: for each record in order, the low k-1 bits
 *           of z if it has a class k >= 2, or the low s bits of v if it is
 *           absolute; packed LSB-first; the rest of the payload, < 8 bits
 *           spare
 *
 * Addresses are coded in 64-byte line units, line = address >> 6 (so an
 * address is below 2^64 and a line below 2^58).  Each record refers to one
 * of the 16 previous lines of its block, ring[r] (r = 0: the previous
 * record's line; lines before the block's first record are 0), and stores
 * z = zigzag(line - ring[r]) (zigzag(d) = 2d for d >= 0, -2d-1 for d < 0)
 * as the class k = bit length of z and the k-1 bits below z's top bit.  The
 * writer picks the r that gives the smallest z.  A record far from all 16
 * (a fresh random pointer) is better stored absolute: v = line - b where b
 * is the block's lowest line and w the bit length of its highest v, the top
 * 8 bits of v in the high column, whose skew deflate's Huffman codes learn
 * (where the program's memory lies), the rest raw.  The writer stores a
 * record absolute when its class k > 8 and k > w - 16 (a policy, not part
 * of the format).  Columns are split by field before deflate so that each
 * compresses with statistics of its own.
 *
 * Record image (24 bytes, for the records CRC): time u64, address u64,
 * size u32, op u8, flags u8, thread u16 (0 before version 3) - exactly
 * `struct trc_rec` on a little-endian machine.
 */
#ifndef CXL_TRACES_TRC_FORMAT_H
#define CXL_TRACES_TRC_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TRC_MAGIC "\x89" "CXT\r\n\x1a\n"
#define TRC_MAGIC_LEN 8
#define TRC_VERSION 3              /* the newest version written (with threads) */
#define TRC_VERSION_NOTHREADS 2    /* the version written for traces without threads */
#define TRC_VERSION_MIN 1          /* the oldest version read */
#define TRC_HDR_FIXED 44          /* header bytes before the origin text */
#define TRC_HDR_MIN 48            /* header length with an empty origin text */
#define TRC_ORIGIN_TEXT_MAX 1024  /* longest origin text, bytes */
#define TRC_CAP_MAX (1u << 20)    /* largest block capacity, records */
#define TRC_CAP_DEFAULT 4096      /* block capacity the writer uses by default */

#define TRC_BLK_MAGIC "CXB1"
#define TRC_BLK_HDR 32            /* block header bytes */

#define TRC_BLK_ALIGNED 0x01u
#define TRC_BLK_UNIFORM_SIZE 0x02u
#define TRC_BLK_NO_DT 0x04u
#define TRC_BLK_ABS 0x08u
#define TRC_BLK_THREADS 0x10u
#define TRC_BLK_FLAGS_ALL 0x1fu

#define TRC_REFS 16               /* previous lines a record can refer to */
#define TRC_TAG_OP 0x01u
#define TRC_TAG_NOTIME 0x02u
#define TRC_TAG_ABS 0x04u
#define TRC_TAG_RESERVED 0x08u
#define TRC_TAG_REF_SHIFT 4

#define TRC_LINE_SHIFT 6
#define TRC_LINE_BITS 58          /* lines are below 2^58 */
#define TRC_HIGH_BITS 8           /* bits of an absolute v in the high column */
#define TRC_REC_IMAGE 24          /* bytes of one record in the records CRC */

/* Largest payload of an n-record block: preamble + per record tag, class,
 * low, delta (10), size (5), thread (3) and mantissa (8) bytes. */
#define TRC_PAYLOAD_MAX(n) (64 + (size_t)(n) * 29)

/* Largest zlib stream for a payload of p bytes (zlib's compressBound plus slack). */
static inline size_t trc_zbound(size_t p)
{
	return p + (p >> 12) + (p >> 14) + (p >> 25) + 13 + 64;
}

static inline void trc_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void trc_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void trc_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t trc_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t trc_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline uint64_t trc_get64(const uint8_t *p)
{
	return (uint64_t)trc_get32(p) | ((uint64_t)trc_get32(p + 4) << 32);
}

static inline uint64_t trc_zigzag(int64_t d)
{
	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

static inline int64_t trc_unzigzag(uint64_t z)
{
	return (int64_t)((z >> 1) ^ (0 - (z & 1)));
}

/* trc_put_varint - append @v as LEB128 at @p; returns the bytes written (1..10). */
static inline size_t trc_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * trc_get_varint - read a LEB128 value from [*p, end) into *v and advance
 * *p.  Returns 0, or -1 if it runs past @end, is longer than 10 bytes or
 * does not fit 64 bits.
 */
static inline int trc_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t x = 0;

	for (unsigned shift = 0; q < end; shift += 7) {
		uint8_t b = *q++;
		if (shift == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			*p = q;
			return 0;
		}
		if (shift == 63)
			return -1;
	}
	return -1;
}

#endif
