/*
 * core/size.c - exact parsing and printing of sizes in bytes (see size.h).
 *
 * Parsing keeps the number as integers: the whole part, and the fraction
 * as frac / scale with scale = 10^(decimals), at most 19 significant
 * decimals (more digits may follow only as zeros).  A fraction of a unit u
 * is a whole number of bytes iff (scale / gcd(scale, u)) divides frac;
 * its bytes are then frac / (scale / g) * (u / g) < u, so nothing
 * overflows before the final check against SIZE_BYTES_MAX.
 */
#include "core/size.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/numeric.h"

static const struct {
	const char *name;
	uint64_t bytes;
} units[] = {
	{ "B", 1 },
	{ "KiB", UINT64_C(1) << 10 }, { "MiB", UINT64_C(1) << 20 },
	{ "GiB", UINT64_C(1) << 30 }, { "TiB", UINT64_C(1) << 40 },
	{ "kB", UINT64_C(1000) }, { "MB", UINT64_C(1000000) },
	{ "GB", UINT64_C(1000000000) }, { "TB", UINT64_C(1000000000000) },
};

#define NUNITS (sizeof(units) / sizeof(units[0]))
#define BAD_SIZE "bad size \"%s\" (expected a number of bytes, or a number with a unit " \
	"B|KiB|MiB|GiB|TiB (1024-based) or kB|MB|GB|TB (1000-based), e.g. \"4KiB\")"

/* A number: whole + frac / scale, with ndigits digits in all. */
typedef struct number number;
struct number {
	uint64_t whole; /* integer part */
	uint64_t frac;  /* fraction digits as an integer */
	uint64_t scale; /* 10^(fraction digits kept) */
	int ndigits;    /* digits read, both parts */
	int too_big;    /* the integer part overflowed 64 bits */
	int too_fine;   /* a non-zero fraction digit beyond the 19th */
};

/* size_unit - bytes of the unit @u[0..@len); contract in size.h. */
int size_unit(const char *u, size_t len, uint64_t *bytes)
{
	for (size_t i = 0; i < NUNITS; i++) {
		if (strlen(units[i].name) == len && !memcmp(units[i].name, u, len)) {
			*bytes = units[i].bytes;
			return 0;
		}
	}
	return -1;
}

/* scan_number - read digits [. digits] at *@p into @n, advancing *@p. */
static void scan_number(const char **p, number *n)
{
	const char *q = *p;

	*n = (number){ .scale = 1 };
	for (; isdigit((unsigned char)*q); q++, n->ndigits++) {
		if (n->whole > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			n->too_big = 1;
		else
			n->whole = n->whole * 10 + (uint64_t)(*q - '0');
	}
	if (*q == '.') {
		for (q++; isdigit((unsigned char)*q); q++, n->ndigits++) {
			if (n->scale > UINT64_MAX / 10 / 10) {
				n->too_fine |= *q != '0';
				continue;
			}
			n->frac = n->frac * 10 + (uint64_t)(*q - '0');
			n->scale *= 10;
		}
	}
	*p = q;
}

/* size_parse - @s in bytes into *@out; contract in size.h. */
int size_parse(const char *s, uint64_t *out, cxl_err *err)
{
	const char *p = s;
	uint64_t unit = 1;
	number n;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return cxl_err_set(err, CXL_EINVAL, "negative size \"%s\" (a size is >= 0)", s);
	scan_number(&p, &n);
	const char *u = p;
	while (isalpha((unsigned char)*p))
		p++;
	const size_t ulen = (size_t)(p - u);
	while (isspace((unsigned char)*p))
		p++;
	if (*p || !n.ndigits || (ulen && size_unit(u, ulen, &unit)))
		return cxl_err_set(err, CXL_EINVAL, BAD_SIZE, s);
	if (n.too_fine)
		return cxl_err_set(err, CXL_EINVAL,
				   "size \"%s\" has too many decimals (at most 18)", s);
	const uint64_t g = cxl_gcd(n.scale, unit), q = n.scale / g;
	if (n.frac % q)
		return cxl_err_set(err, CXL_EINVAL, "size \"%s\" is not a whole number of bytes", s);
	const uint64_t fb = n.frac / q * (unit / g);
	if (n.too_big || n.whole > SIZE_BYTES_MAX / unit || n.whole * unit > SIZE_BYTES_MAX - fb)
		return cxl_err_set(err, CXL_EINVAL,
				   "size \"%s\" too large (at most 2^63-1 bytes)", s);
	*out = n.whole * unit + fb;
	return 0;
}

/*
 * in_unit - exact text of @bytes in unit @i into @buf (SIZE_FMT_LEN), or
 * 0 if it needs more than 6 decimals or its whole part is 0.
 */
static int in_unit(uint64_t bytes, size_t i, char *buf)
{
	const uint64_t u = units[i].bytes;
	uint64_t whole = bytes / u, rem = bytes % u;
	char fb[8];
	size_t n = 0;

	if (!whole && bytes)
		return 0;
	for (; rem && n < 6; n++) {
		rem *= 10; /* < 10 * 2^40: no overflow */
		fb[n] = (char)('0' + rem / u);
		rem %= u;
	}
	if (rem)
		return 0;
	fb[n] = '\0';
	snprintf(buf, SIZE_FMT_LEN, "%llu%s%s%s", (unsigned long long)whole, n ? "." : "", fb,
		 units[i].name);
	return 1;
}

/* size_format - shortest exact text of @bytes; contract in size.h. */
char *size_format(uint64_t bytes, char *buf)
{
	char cand[SIZE_FMT_LEN];

	in_unit(bytes, 0, buf); /* bytes: always exact */
	for (size_t i = 1; i < NUNITS; i++)
		if (in_unit(bytes, i, cand) && strlen(cand) < strlen(buf))
			memcpy(buf, cand, SIZE_FMT_LEN);
	return buf;
}
