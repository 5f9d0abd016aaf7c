/*
 * traces/trc_codec.c - block payload encoding and decoding (layout in
 * trc_format.h, contracts in trc_int.h).
 *
 * Encoding is a column split: a tag byte (op, no-time flag, reference or
 * absolute), a class byte (bit length of the zigzag line delta) or a high
 * byte (top bits of an absolute line), optional low address bits, varint
 * time deltas, optional varint sizes, optional varint thread indices
 * (version 3), then the remaining address bits packed.  Deflate then sees
 * homogeneous runs: the tag and class columns have small alphabets that
 * Huffman-code well, the high column has the skew of where the program's
 * memory lies, constant columns vanish, and the
 * packed bits (the actual entropy of irregular address streams) are left
 * alone.  The reference to one of the 16 previous lines lets interleaved
 * streams (a pointer chase beside a sequential scan) each keep small deltas.
 *
 * Cost: encoding tries all 16 references per record (O(16 n)); decoding is
 * a single pass, a few loads and one unaligned 8-byte load per record.
 */
#include "traces/trc_int.h"

#include <string.h>

typedef struct bitw bitw;
struct bitw {
	uint8_t *p;    /* next byte to write */
	uint64_t acc;  /* pending bits, LSB first */
	unsigned nacc; /* number of pending bits, < 8 between calls */
};

/* Append the low @nb (<= 32) bits of @v. */
static void bitw_put32(bitw *w, uint64_t v, unsigned nb)
{
	w->acc |= (v & ((1ull << nb) - 1)) << w->nacc;
	w->nacc += nb;
	while (w->nacc >= 8) {
		*w->p++ = (uint8_t)w->acc;
		w->acc >>= 8;
		w->nacc -= 8;
	}
}

static void bitw_put(bitw *w, uint64_t v, unsigned nb)
{
	if (nb > 32) {
		bitw_put32(w, v, 32);
		v >>= 32;
		nb -= 32;
	}
	bitw_put32(w, v, nb);
}

static void bitw_flush(bitw *w)
{
	if (w->nacc)
		*w->p++ = (uint8_t)w->acc;
	w->acc = 0;
	w->nacc = 0;
}

static unsigned bitlen(uint64_t z)
{
	return z ? 64u - (unsigned)__builtin_clzll(z) : 0u;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* The reference (0..15) whose line is closest to @line, and its zigzag delta. */
static unsigned best_ref(const uint64_t *ring, unsigned head, uint64_t line, uint64_t *zout)
{
	unsigned best = 0;
	uint64_t bz = trc_zigzag((int64_t)(line - ring[head]));

	for (unsigned j = 1; j < TRC_REFS && bz; j++) {
		uint64_t z = trc_zigzag((int64_t)(line - ring[(head - j) & (TRC_REFS - 1)]));
		if (z < bz) {
			bz = z;
			best = j;
		}
	}
	*zout = bz;
	return best;
}

/* Block flags and the lengths of the three varint columns. */
static unsigned block_shape(const trc_rec *r, uint32_t n, size_t *dtlen, size_t *szlen,
			    size_t *thlen)
{
	unsigned fl = TRC_BLK_ALIGNED | TRC_BLK_UNIFORM_SIZE | TRC_BLK_NO_DT;

	*dtlen = 0;
	*szlen = 0;
	*thlen = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (r[i].thread)
			fl |= TRC_BLK_THREADS;
		*thlen += varint_len(r[i].thread);
		if (r[i].addr & 63)
			fl &= ~TRC_BLK_ALIGNED;
		if (r[i].size != r[0].size)
			fl &= ~TRC_BLK_UNIFORM_SIZE;
		if (i && r[i].time != r[i - 1].time)
			fl &= ~TRC_BLK_NO_DT;
		if (i)
			*dtlen += varint_len(r[i].time - r[i - 1].time);
		*szlen += varint_len(r[i].size);
	}
	return fl;
}

/* The block's lowest line (*base) and the bit length of its highest line minus that. */
static unsigned abs_width(const trc_rec *r, uint32_t n, uint64_t *base)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t line = r[i].addr >> TRC_LINE_SHIFT;
		lo = line < lo ? line : lo;
		hi = line > hi ? line : hi;
	}
	*base = lo;
	return bitlen(hi - lo);
}

/* Bits of an absolute v that go to the mantissa column (below the high byte). */
static unsigned abs_shift(unsigned w)
{
	return w > TRC_HIGH_BITS ? w - TRC_HIGH_BITS : 0;
}

/*
 * The writer's policy: store absolute a line whose delta class is above 8
 * and within 16 bits of the width.  On the three ESF traces this is 5 %
 * smaller than deltas alone (7 % on BTree), and margins of 12 to 20 bits
 * were within 0.6 % of each other; near deltas (streams, class <= 8) never
 * switch.
 */
static int prefer_abs(unsigned k, unsigned w)
{
	return w && k > 8 && k + 16 > w;
}

/*
 * Pass 1: each record's tag and class (or absolute) into @tag and @cls
 * (n bytes each; classes of absolute records are left out, so @cls ends
 * early).  Returns the number of absolute records.
 */
static uint32_t choose(const trc_rec *r, uint32_t n, unsigned w, uint8_t *tag, uint8_t *cls)
{
	uint64_t ring[TRC_REFS] = { 0 };
	unsigned head = 0;
	uint32_t nabs = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t line = r[i].addr >> TRC_LINE_SHIFT, z;
		unsigned ref = best_ref(ring, head, line, &z), k = bitlen(z);
		unsigned t = r[i].op | (r[i].flags & TRC_REC_NOTIME);

		if (prefer_abs(k, w)) {
			t |= TRC_TAG_ABS;
			nabs++;
		} else {
			t |= ref << TRC_TAG_REF_SHIFT;
			*cls++ = (uint8_t)k;
		}
		tag[i] = (uint8_t)t;
		head = (head + 1) & (TRC_REFS - 1);
		ring[head] = line;
	}
	return nabs;
}

/* Largest preamble: flags, five varints (the base below 2^58) and the width. */
#define PREAMBLE_MAX (1 + 10 + 10 + 10 + 9 + 1 + 10)

/**
 * trc__encode_block - see trc_int.h.  Two passes: the first tries every
 * reference per record and keeps the first of the smallest zigzag deltas,
 * or goes absolute; the second writes the columns after the tags.
 */
size_t trc__encode_block(const trc_rec *r, uint32_t n, uint8_t *payload,
			 size_t cut[TRC_SECTIONS])
{
	size_t dtlen, szlen, thlen;
	unsigned fl = block_shape(r, n, &dtlen, &szlen, &thlen);
	uint64_t base;
	unsigned w = abs_width(r, n, &base), sh = abs_shift(w);
	/* pass 1 writes past the largest preamble, then moves down */
	uint8_t *tag1 = payload + PREAMBLE_MAX, *p = payload;
	uint32_t nabs = choose(r, n, w, tag1, tag1 + n);

	if (nabs)
		fl |= TRC_BLK_ABS;
	*p++ = (uint8_t)fl;
	p += trc_put_varint(p, r[0].time);
	if (fl & TRC_BLK_UNIFORM_SIZE)
		p += trc_put_varint(p, r[0].size);
	else
		p += trc_put_varint(p, szlen);
	if (!(fl & TRC_BLK_NO_DT))
		p += trc_put_varint(p, dtlen);
	if (fl & TRC_BLK_ABS) {
		p += trc_put_varint(p, base);
		*p++ = (uint8_t)w;
	}
	if (fl & TRC_BLK_THREADS)
		p += trc_put_varint(p, thlen);
	/* tags then classes move down by the same distance; no overlap in order */
	memmove(p, tag1, 2 * (size_t)n - nabs);

	uint8_t *tag = p, *cls = tag + n, *hi = cls + (n - nabs), *low = hi + nabs;
	uint8_t *dt = low + ((fl & TRC_BLK_ALIGNED) ? 0 : n);
	uint8_t *sz = dt + ((fl & TRC_BLK_NO_DT) ? 0 : dtlen);
	uint8_t *th = sz + ((fl & TRC_BLK_UNIFORM_SIZE) ? 0 : szlen);
	bitw bw = { th + ((fl & TRC_BLK_THREADS) ? thlen : 0), 0, 0 };
	uint64_t ring[TRC_REFS] = { 0 };
	unsigned head = 0;
	const uint8_t *k = cls;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t line = r[i].addr >> TRC_LINE_SHIFT;

		if (tag[i] & TRC_TAG_ABS) {
			uint64_t v = line - base;
			*hi++ = (uint8_t)(v >> sh);
			bitw_put(&bw, v, sh);
		} else {
			uint64_t ref = ring[(head - (tag[i] >> TRC_TAG_REF_SHIFT)) & (TRC_REFS - 1)];
			if (*k >= 2)
				bitw_put(&bw, trc_zigzag((int64_t)(line - ref)), *k - 1u);
			k++;
		}
		head = (head + 1) & (TRC_REFS - 1);
		ring[head] = line;
		if (!(fl & TRC_BLK_ALIGNED))
			low[i] = (uint8_t)(r[i].addr & 63);
		if (i && !(fl & TRC_BLK_NO_DT))
			dt += trc_put_varint(dt, r[i].time - r[i - 1].time);
		if (!(fl & TRC_BLK_UNIFORM_SIZE))
			sz += trc_put_varint(sz, r[i].size);
		if (fl & TRC_BLK_THREADS)
			th += trc_put_varint(th, r[i].thread);
	}
	bitw_flush(&bw);
	cut[0] = (size_t)(cls - payload);
	cut[1] = (size_t)(cls + (n - nabs) - payload);
	cut[2] = (size_t)(low - payload);
	cut[3] = cut[2] + ((fl & TRC_BLK_ALIGNED) ? 0 : n);
	cut[4] = cut[3] + ((fl & TRC_BLK_NO_DT) ? 0 : dtlen);
	cut[5] = cut[4] + ((fl & TRC_BLK_UNIFORM_SIZE) ? 0 : szlen);
	cut[6] = cut[5] + ((fl & TRC_BLK_THREADS) ? thlen : 0);
	cut[7] = (size_t)(bw.p - payload);
	return cut[7];
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* @nb (<= 63) bits at bit @pos of @m, LSB first; m + pos/8 + 8 must be readable. */
static inline uint64_t bits_at(const uint8_t *m, uint64_t pos, unsigned nb)
{
	if (nb > 56) {
		uint64_t lo = load_le64(m + (pos >> 3)) >> (pos & 7);
		lo &= 0xffffffffull;
		return lo | (bits_at(m, pos + 32, nb - 32) << 32);
	}
	return (load_le64(m + (pos >> 3)) >> (pos & 7)) & ((1ull << nb) - 1);
}

/* Column cursors of a payload being decoded. */
typedef struct cols cols;
struct cols {
	unsigned flags;               /* TRC_BLK_* */
	uint64_t base;                /* first record's time, ps */
	uint64_t size;                /* the size with UNIFORM_SIZE */
	uint64_t abs_base;            /* with ABS: the base line b */
	unsigned abs_w, abs_sh;       /* with ABS: the width w and max(w - 8, 0) */
	const uint8_t *tag, *cls, *hi, *low; /* fixed columns (low NULL if ALIGNED) */
	const uint8_t *dt, *dt_end;   /* time delta varints */
	const uint8_t *sz, *sz_end;   /* size varints */
	const uint8_t *th, *th_end;   /* thread varints (empty without THREADS) */
	const uint8_t *mant;          /* mantissa bytes */
	uint64_t mant_bits;           /* their number of bits */
};

static int fail(trc_derr *e, const char *why, uint32_t at)
{
	e->why = why;
	e->at = at;
	return -1;
}

/* Parse the preamble and lay out the columns. */
static int parse_cols(const uint8_t *p, const uint8_t *end, uint32_t n, cols *c, trc_derr *e)
{
	uint64_t dtlen = 0, szlen = 0, thlen = 0;

	if (p >= end)
		return fail(e, "empty payload", 0);
	c->flags = *p++;
	if (c->flags & ~TRC_BLK_FLAGS_ALL)
		return fail(e, "unknown block flags", 0);
	if (trc_get_varint(&p, end, &c->base))
		return fail(e, "bad base time", 0);
	if (c->flags & TRC_BLK_UNIFORM_SIZE) {
		if (trc_get_varint(&p, end, &c->size) || !c->size || c->size > UINT32_MAX)
			return fail(e, "bad uniform size", 0);
	} else if (trc_get_varint(&p, end, &szlen)) {
		return fail(e, "bad size column length", 0);
	}
	if (!(c->flags & TRC_BLK_NO_DT) && trc_get_varint(&p, end, &dtlen))
		return fail(e, "bad delta column length", 0);
	if (c->flags & TRC_BLK_ABS) {
		if (trc_get_varint(&p, end, &c->abs_base) || c->abs_base >> TRC_LINE_BITS)
			return fail(e, "bad absolute base", 0);
		if (p >= end || !*p || *p > TRC_LINE_BITS)
			return fail(e, "bad absolute width", 0);
		c->abs_w = *p++;
		c->abs_sh = abs_shift(c->abs_w);
	}
	if ((c->flags & TRC_BLK_THREADS) && trc_get_varint(&p, end, &thlen))
		return fail(e, "bad thread column length", 0);

	uint64_t fixed = (uint64_t)n * ((c->flags & TRC_BLK_ALIGNED) ? 2 : 3);
	uint64_t left = (uint64_t)(end - p);
	if (fixed > left || dtlen > left - fixed || szlen > left - fixed - dtlen ||
	    thlen > left - fixed - dtlen - szlen)
		return fail(e, "columns longer than the payload", 0);
	c->tag = p;
	/* classes for the records without the ABS tag bit, high bytes for those with it */
	uint32_t nabs = 0, first_abs = n;
	for (uint32_t i = 0; i < n; i++) {
		if (p[i] & TRC_TAG_ABS) {
			first_abs = nabs ? first_abs : i;
			nabs++;
		}
	}
	if (nabs && !(c->flags & TRC_BLK_ABS))
		return fail(e, "absolute record in a block without a base", first_abs);
	if (!nabs && (c->flags & TRC_BLK_ABS))
		return fail(e, "absolute flag on a block without absolute records", 0);
	c->cls = p + n;
	c->hi = c->cls + (n - nabs);
	c->low = (c->flags & TRC_BLK_ALIGNED) ? NULL : p + 2 * (size_t)n;
	c->dt = p + fixed;
	c->dt_end = c->dt + dtlen;
	c->sz = c->dt_end;
	c->sz_end = c->sz + szlen;
	c->th = c->sz_end;
	c->th_end = c->th + thlen;
	c->mant = c->th_end;
	c->mant_bits = (uint64_t)(end - c->mant) * 8;
	return 0;
}

/* The line of an absolute record: base plus its high byte and low bits. */
static int abs_line(cols *c, uint32_t i, uint64_t *bitpos, uint64_t *line, trc_derr *e)
{
	uint64_t v = *c->hi++;

	if (v >> (c->abs_w - c->abs_sh))
		return fail(e, "absolute line wider than its block", i);
	if (c->abs_sh) {
		if (c->abs_sh > c->mant_bits - *bitpos)
			return fail(e, "mantissa column too short", i);
		v = v << c->abs_sh | bits_at(c->mant, *bitpos, c->abs_sh);
		*bitpos += c->abs_sh;
	}
	*line = c->abs_base + v;
	return 0;
}

/* The line of a delta record: one of the ring's lines plus the delta of class @k. */
static int delta_line(cols *c, uint32_t i, unsigned tg, const uint64_t *ring, unsigned head,
		      uint64_t *bitpos, uint64_t *line, trc_derr *e)
{
	unsigned k = *c->cls++;
	uint64_t z = k ? 1 : 0;

	if (k > 64)
		return fail(e, "address class above 64", i);
	if (k >= 2) {
		if (k - 1 > c->mant_bits - *bitpos)
			return fail(e, "mantissa column too short", i);
		z = (1ull << (k - 1)) | bits_at(c->mant, *bitpos, k - 1);
		*bitpos += k - 1;
	}
	*line = ring[(head - (tg >> TRC_TAG_REF_SHIFT)) & (TRC_REFS - 1)] +
		(uint64_t)trc_unzigzag(z);
	return 0;
}

/* Address of record @i from its tag and class or high byte; updates the ring. */
static int decode_addr(cols *c, uint32_t i, uint64_t *ring, unsigned *head, uint64_t *bitpos,
		       uint64_t *addr, trc_derr *e)
{
	unsigned tg = c->tag[i];
	uint64_t line;

	if (tg & TRC_TAG_RESERVED)
		return fail(e, "reserved tag bits set", i);
	if (tg & TRC_TAG_ABS) {
		if (tg >> TRC_TAG_REF_SHIFT)
			return fail(e, "reference on an absolute record", i);
		if (abs_line(c, i, bitpos, &line, e))
			return -1;
	} else if (delta_line(c, i, tg, ring, *head, bitpos, &line, e)) {
		return -1;
	}
	if (line >> TRC_LINE_BITS)
		return fail(e, "address above 2^64", i);
	*head = (*head + 1) & (TRC_REFS - 1);
	ring[*head] = line;
	*addr = line << TRC_LINE_SHIFT;
	if (c->low) {
		if (c->low[i] > 63)
			return fail(e, "low address bits above 63", i);
		*addr |= c->low[i];
	}
	return 0;
}

/* Thread index of record @i (only with THREADS). */
static int decode_thread(cols *c, uint32_t i, uint16_t *thread, trc_derr *e)
{
	uint64_t t;

	if (trc_get_varint(&c->th, c->th_end, &t) || t > UINT16_MAX)
		return fail(e, "bad thread index", i);
	*thread = (uint16_t)t;
	return 0;
}

/* Time and size of record @i. */
static int decode_time_size(cols *c, uint32_t i, uint64_t *time, uint64_t *size, trc_derr *e)
{
	if (i && !(c->flags & TRC_BLK_NO_DT)) {
		uint64_t dt;
		if (trc_get_varint(&c->dt, c->dt_end, &dt))
			return fail(e, "time delta column too short", i);
		if (*time + dt < *time)
			return fail(e, "time overflows 2^64 ps", i);
		*time += dt;
	}
	if (c->flags & TRC_BLK_UNIFORM_SIZE) {
		*size = c->size;
	} else if (trc_get_varint(&c->sz, c->sz_end, size) || !*size || *size > UINT32_MAX) {
		return fail(e, "bad size", i);
	}
	return 0;
}

/**
 * trc__decode_block - see trc_int.h.  One pass; every column cursor is
 * bounds-checked before use.
 */
int trc__decode_block(const uint8_t *payload, size_t len, uint32_t n, trc_rec *recs,
		      trc_derr *e)
{
	cols c = { 0 };
	uint64_t ring[TRC_REFS] = { 0 }, bitpos = 0, time, size, addr;
	unsigned head = 0;

	if (!n)
		return fail(e, "empty block", 0);
	if (parse_cols(payload, payload + len, n, &c, e))
		return -1;
	time = c.base;
	for (uint32_t i = 0; i < n; i++) {
		if (decode_addr(&c, i, ring, &head, &bitpos, &addr, e) ||
		    decode_time_size(&c, i, &time, &size, e))
			return -1;
		if (addr > UINT64_MAX - (size - 1))
			return fail(e, "address + size past 2^64", i);
		recs[i].time = time;
		recs[i].addr = addr;
		recs[i].size = (uint32_t)size;
		recs[i].op = c.tag[i] & TRC_TAG_OP;
		recs[i].flags = c.tag[i] & TRC_TAG_NOTIME;
		recs[i].thread = 0;
	}
	if (c.flags & TRC_BLK_THREADS) {
		uint16_t any = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (decode_thread(&c, i, &recs[i].thread, e))
				return -1;
			any |= recs[i].thread;
		}
		if (!any)
			return fail(e, "thread flag on a block without threads", 0);
	}
	if (c.dt != c.dt_end || c.sz != c.sz_end || c.th != c.th_end)
		return fail(e, "varint column longer than its records", n - 1);
	if (c.mant_bits - bitpos >= 8)
		return fail(e, "mantissa column longer than its records", n - 1);
	if (bitpos & 7 && (c.mant[bitpos >> 3] >> (bitpos & 7)))
		return fail(e, "spare mantissa bits set", n - 1);
	return 0;
}

/**
 * trc__rec_crc - see trc_int.h.  On a little-endian machine the records
 * are their own images, so the CRC runs over the array directly.
 */
uint32_t trc__rec_crc(uint32_t crc, const trc_rec *recs, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(sizeof(trc_rec) == TRC_REC_IMAGE, "trc_rec must be its 24-byte image");
	return (uint32_t)crc32(crc, (const Bytef *)recs, (uInt)(n * TRC_REC_IMAGE));
#else
	uint8_t img[TRC_REC_IMAGE];

	for (size_t i = 0; i < n; i++) {
		trc_put64(img, recs[i].time);
		trc_put64(img + 8, recs[i].addr);
		trc_put32(img + 16, recs[i].size);
		img[20] = recs[i].op;
		img[21] = recs[i].flags;
		trc_put16(img + 22, recs[i].thread);
		crc = (uint32_t)crc32(crc, img, TRC_REC_IMAGE);
	}
	return crc;
#endif
}
