/*
 * traces/trc_header.c - the file header and block header of a .cxt file:
 * encoding, checking and decoding (layout in trc_format.h), and the origin
 * description they carry.
 *
 * Everything here is pure: byte buffers in, byte buffers or structs out.
 * trc_write.c and trc_read.c do the I/O; tests use these to craft files.
 */
#include "traces/trc_int.h"

#include <string.h>

static const char *const fmt_names[TRC_FMT_COUNT] = {
	"none", "esf", "dramsim3", "csv", "lackey", "ramulator", "ramulator2", "ramulator-cpu",
	"drcachesim", "champsim",
};

/**
 * trc_fmt_name - name of a text format.
 * @fmt: TRC_FMT_*
 *
 * Return: its name ("none", "esf", ..., the names of enum trc_fmt in lower
 * case, "ramulator-cpu" for TRC_FMT_RAMULATOR_CPU), or "?" for anything else.
 */
const char *trc_fmt_name(int fmt)
{
	return (fmt >= 0 && fmt < TRC_FMT_COUNT) ? fmt_names[fmt] : "?";
}

/**
 * trc__origin_check - check that @o can be stored in a header.
 * @o:   the origin
 * @err: OUT error record, may be NULL
 *
 * ESF and DRAMsim3 need a clock, and so do the formats whose time counts
 * instructions (lackey, ramulator-cpu, drcachesim, champsim: the time of one
 * instruction); a Ramulator memory trace has no time and no clock;
 * TRC_ORIGIN_ESF_DELAY is only for ESF (TRC_ORIGIN_THREADS is for any
 * format); the text is only for CSV, at most
 * TRC_ORIGIN_TEXT_MAX bytes, without newline.
 * Return: 0 or CXL_EINVAL.
 */
int trc__origin_check(const trc_origin *o, cxl_err *err)
{
	size_t len = strnlen(o->text, sizeof(o->text));

	if (o->fmt < 0 || o->fmt >= TRC_FMT_COUNT)
		return cxl_err_set(err, CXL_EINVAL, "unknown origin format %d", o->fmt);
	if (o->flags & ~(TRC_ORIGIN_ESF_DELAY | TRC_ORIGIN_THREADS) ||
	    ((o->flags & TRC_ORIGIN_ESF_DELAY) && o->fmt != TRC_FMT_ESF))
		return cxl_err_set(err, CXL_EINVAL, "origin flags 0x%x not valid for %s",
				   (unsigned)o->flags, trc_fmt_name(o->fmt));
	if ((o->fmt == TRC_FMT_ESF || o->fmt == TRC_FMT_DRAMSIM3 || o->fmt == TRC_FMT_LACKEY ||
	     o->fmt == TRC_FMT_RAMULATOR_CPU || o->fmt == TRC_FMT_DRCACHESIM ||
	     o->fmt == TRC_FMT_CHAMPSIM) && !o->clock_ps)
		return cxl_err_set(err, CXL_EINVAL, "%s origin needs a clock", trc_fmt_name(o->fmt));
	if (o->fmt == TRC_FMT_RAMULATOR && o->clock_ps)
		return cxl_err_set(err, CXL_EINVAL, "ramulator origin has no clock");
	if (len > TRC_ORIGIN_TEXT_MAX || (len && o->fmt != TRC_FMT_CSV) || strchr(o->text, '\n'))
		return cxl_err_set(err, CXL_EINVAL, "origin text not valid for %s (CSV header "
				   "line of at most %d bytes)", trc_fmt_name(o->fmt),
				   TRC_ORIGIN_TEXT_MAX);
	return 0;
}

/**
 * trc__header_encode - encode a file header.
 * @buf: OUT TRC_HDR_MAX bytes
 * @h:   the fields (origin already checked by trc__origin_check)
 *
 * The version is 3 if the origin has TRC_ORIGIN_THREADS, else 2.
 * Return: the header length, TRC_HDR_MIN + strlen(origin text).
 */
size_t trc__header_encode(uint8_t *buf, const trc_hdr *h)
{
	size_t len = strlen(h->origin.text);

	memcpy(buf, TRC_MAGIC, TRC_MAGIC_LEN);
	trc_put16(buf + 8, (h->origin.flags & TRC_ORIGIN_THREADS) ? TRC_VERSION
								  : TRC_VERSION_NOTHREADS);
	trc_put16(buf + 10, (uint16_t)(TRC_HDR_MIN + len));
	trc_put32(buf + 12, (uint32_t)h->origin.fmt | h->origin.flags);
	trc_put64(buf + 16, h->count);
	trc_put64(buf + 24, h->origin.clock_ps);
	trc_put32(buf + 32, h->cap);
	trc_put32(buf + 36, h->crc);
	trc_put16(buf + 40, (uint16_t)len);
	trc_put16(buf + 42, 0);
	memcpy(buf + TRC_HDR_FIXED, h->origin.text, len);
	trc_put32(buf + TRC_HDR_FIXED + len,
		  (uint32_t)crc32(0, buf, (uInt)(TRC_HDR_FIXED + len)));
	return TRC_HDR_MIN + len;
}

/**
 * trc__header_len - check magic, version and lengths of a header's first
 * TRC_HDR_FIXED bytes.
 * @fixed: those bytes
 * @why:   OUT static reason on failure
 *
 * Return: the whole header's length, or 0.
 */
size_t trc__header_len(const uint8_t *fixed, const char **why)
{
	unsigned hlen = trc_get16(fixed + 10), tlen = trc_get16(fixed + 40);

	if (memcmp(fixed, TRC_MAGIC, TRC_MAGIC_LEN)) {
		*why = "not a .cxt file (bad magic)";
		return 0;
	}
	_Static_assert(TRC_VERSION_MIN == 1 && TRC_VERSION == 3, "the message below names them");
	if (trc_get16(fixed + 8) < TRC_VERSION_MIN || trc_get16(fixed + 8) > TRC_VERSION) {
		*why = "unsupported .cxt version (this reader takes 1 to 3)";
		return 0;
	}
	if (tlen > TRC_ORIGIN_TEXT_MAX || hlen != TRC_HDR_MIN + tlen) {
		*why = "header checksum mismatch (bad header length)";
		return 0;
	}
	return hlen;
}

/**
 * trc__header_decode - check a whole header and decode it.
 * @buf: the header, @len bytes (from trc__header_len)
 * @len: its length
 * @h:   OUT the fields
 * @why: OUT static reason on failure
 *
 * Return: 0, or -1 if the CRC does not match or a field is out of range.
 */
int trc__header_decode(const uint8_t *buf, size_t len, trc_hdr *h, const char **why)
{
	size_t tlen = len - TRC_HDR_MIN;
	uint32_t flags = trc_get32(buf + 12);

	if (trc_get32(buf + len - 4) != (uint32_t)crc32(0, buf, (uInt)(len - 4))) {
		*why = "header checksum mismatch";
		return -1;
	}
	memset(h, 0, sizeof(*h));
	h->origin.fmt = (int)(flags & 0xff);
	h->origin.flags = flags & ~0xffu;
	h->origin.clock_ps = trc_get64(buf + 24);
	memcpy(h->origin.text, buf + TRC_HDR_FIXED, tlen);
	h->count = trc_get64(buf + 16);
	h->cap = trc_get32(buf + 32);
	h->crc = trc_get32(buf + 36);
	h->version = trc_get16(buf + 8);
	if (memchr(h->origin.text, 0, tlen) || trc__origin_check(&h->origin, NULL) ||
	    !(h->origin.flags & TRC_ORIGIN_THREADS) != (h->version < TRC_VERSION)) {
		*why = "bad origin in header";
		return -1;
	}
	if (!h->cap || h->cap > TRC_CAP_MAX || trc_get16(buf + 42)) {
		*why = "bad block capacity in header";
		return -1;
	}
	return 0;
}

/**
 * trc__block_header - encode a block header.
 * @hdr:   OUT TRC_BLK_HDR bytes
 * @z:     the compressed bytes
 * @zlen:  their length
 * @n:     records in the block
 * @plen:  payload length
 * @first: index of the block's first record
 */
void trc__block_header(uint8_t *hdr, const uint8_t *z, uint32_t zlen, uint32_t n,
		       uint32_t plen, uint64_t first)
{
	memcpy(hdr, TRC_BLK_MAGIC, 4);
	trc_put32(hdr + 4, zlen);
	trc_put32(hdr + 8, n);
	trc_put32(hdr + 12, plen);
	trc_put64(hdr + 16, first);
	trc_put32(hdr + 24, (uint32_t)crc32(0, z, zlen));
	trc_put32(hdr + 28, (uint32_t)crc32(0, hdr, 28));
}
