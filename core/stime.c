/*
 * core/stime.c - exact parsing and printing of picosecond times (see stime.h).
 */
#include "core/stime.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	sim_time ps;
} units[] = {
	{ "ps", SIM_PS }, { "ns", SIM_NS }, { "us", SIM_US },
	{ "ms", SIM_MS }, { "s", SIM_S },
};

#define NUNITS (sizeof(units) / sizeof(units[0]))

static int unit_lookup(const char *u, size_t len, sim_time *ps)
{
	for (size_t i = 0; i < NUNITS; i++) {
		if (strlen(units[i].name) == len && !memcmp(units[i].name, u, len)) {
			*ps = units[i].ps;
			return 0;
		}
	}
	return -1;
}

/* Accumulate decimal digits into *v; -1 on overflow. */
static int add_digit(uint64_t *v, int d)
{
	if (*v > (UINT64_MAX - (uint64_t)d) / 10)
		return -1;
	*v = *v * 10 + (uint64_t)d;
	return 0;
}

int stime_parse(const char *s, sim_time *out, cxl_err *err)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0, frac_scale = 1;
	int ndigits = 0;
	sim_time unit;

	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "never", 5)) {
		const char *q = p + 5;
		while (isspace((unsigned char)*q))
			q++;
		if (!*q) {
			*out = SIM_TIME_MAX;
			return 0;
		}
	}
	if (*p == '-')
		return cxl_err_set(err, CXL_EINVAL, "negative time \"%s\" (a time is >= 0)", s);
	for (; isdigit((unsigned char)*p); p++, ndigits++)
		if (add_digit(&whole, *p - '0'))
			goto too_big;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, ndigits++) {
			if (frac_scale > UINT64_MAX / 10 || frac > UINT64_MAX / 10) {
				if (*p != '0') /* beyond 19 digits only zeros can be exact */
					goto too_fine;
				continue;
			}
			add_digit(&frac, *p - '0');
			frac_scale *= 10;
		}
	}
	if (ndigits == 0)
		return cxl_err_set(err, CXL_EINVAL, "bad time \"%s\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")", s);
	const char *u = p;
	while (isalpha((unsigned char)*p))
		p++;
	size_t ulen = (size_t)(p - u);
	while (isspace((unsigned char)*p))
		p++;
	if (*p || ulen == 0 || unit_lookup(u, ulen, &unit))
		return cxl_err_set(err, CXL_EINVAL, "bad time \"%s\" (a number with a unit ps|ns|us|ms|s, e.g. \"25ns\")", s);
	if (whole > UINT64_MAX / unit)
		goto too_big;
	/* frac/frac_scale of a unit must be a whole number of ps */
	if (frac_scale > unit) {
		uint64_t div = frac_scale / unit;
		if (frac % div)
			goto too_fine;
		frac /= div;
		frac_scale = 1;
	} else {
		frac *= unit / frac_scale;
	}
	if (whole * unit > UINT64_MAX - frac)
		goto too_big;
	*out = whole * unit + frac;
	return 0;
too_big:
	return cxl_err_set(err, CXL_EINVAL, "time \"%s\" too large (at most 2^64-1 ps)", s);
too_fine:
	return cxl_err_set(err, CXL_EINVAL, "time \"%s\" is not a whole number of picoseconds", s);
}

char *stime_format(sim_time t, char *buf)
{
	size_t i = NUNITS;

	if (t == SIM_TIME_MAX) {
		snprintf(buf, STIME_FMT_LEN, "never");
		return buf;
	}
	while (i > 1 && t < units[i - 1].ps)
		i--;
	sim_time u = units[i - 1].ps;
	sim_time whole = t / u, frac = t % u;
	if (!frac) {
		snprintf(buf, STIME_FMT_LEN, "%llu%s", (unsigned long long)whole, units[i - 1].name);
		return buf;
	}
	/* frac has as many decimal digits as the unit has zeros: write them all */
	char fb[24];
	size_t n = 0;
	for (sim_time x = u / 10; x > 0; x /= 10)
		fb[n++] = (char)('0' + (frac / x) % 10);
	while (n > 0 && fb[n - 1] == '0')
		n--;
	fb[n] = '\0';
	snprintf(buf, STIME_FMT_LEN, "%llu.%.12s%s", (unsigned long long)whole, fb, units[i - 1].name);
	return buf;
}
