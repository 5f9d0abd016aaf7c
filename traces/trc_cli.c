/*
 * traces/trc_cli.c - option and value parsing for cxlfab-trace (see
 * trc_cli.h).  Strict: trailing garbage, signs, empty values, overflow and
 * unknown names are errors naming the option.
 */
#include "traces/trc_cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/stime.h"

static trc_opt *find_opt(trc_opt *opts, int nopts, const char *name, size_t len)
{
	for (int i = 0; i < nopts; i++)
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, name, len))
			return &opts[i];
	return NULL;
}

/**
 * trc_cli_parse - see trc_cli.h.
 */
int trc_cli_parse(const char *cmd, int argc, char **argv, trc_opt *opts, int nopts,
		  const char **pos, int npos, cxl_err *err)
{
	int n = 0, only_pos = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (only_pos || a[0] != '-' || !a[1]) {
			if (n == npos)
				return cxl_err_set(err, CXL_EINVAL, "%s: unexpected argument \"%s\" (see "
						   "cxlfab-trace %s --help)", cmd, a, cmd);
			pos[n++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		const char *eq = strchr(a, '=');
		trc_opt *o = find_opt(opts, nopts, a, eq ? (size_t)(eq - a) : strlen(a));
		if (!o)
			return cxl_err_set(err, CXL_EINVAL, "%s: unknown option %.*s (see cxlfab-trace "
					   "%s --help)", cmd, eq ? (int)(eq - a) : (int)strlen(a), a, cmd);
		if (o->flag && eq)
			return cxl_err_set(err, CXL_EINVAL, "%s: %s takes no value", cmd, o->name);
		if (o->flag)
			o->val = "1";
		else if (eq)
			o->val = eq + 1;
		else if (i + 1 < argc)
			o->val = argv[++i];
		else
			return cxl_err_set(err, CXL_EINVAL, "%s: %s needs a value", cmd, o->name);
	}
	if (n != npos)
		return cxl_err_set(err, CXL_EINVAL, "%s: expected %d argument%s, got %d (see "
				   "cxlfab-trace %s --help)", cmd, npos, npos == 1 ? "" : "s", n, cmd);
	return 0;
}

/**
 * trc_cli_wants_help - see trc_cli.h.
 */
int trc_cli_wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

/* Digits of @s as an unsigned integer; *end gets the first non-digit. */
static int digits(const char *s, uint64_t *v, const char **end)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *e;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, hex ? 16 : 10);
	if (errno || e == s + (hex ? 2 : 0))
		return -1;
	*end = e;
	return 0;
}

/**
 * trc_cli_u64 - see trc_cli.h.
 */
int trc_cli_u64(const char *opt, const char *s, uint64_t *v, cxl_err *err)
{
	const char *end;

	if (digits(s, v, &end) || *end)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: not an unsigned integer", opt, s);
	return 0;
}

/**
 * trc_cli_bytes - see trc_cli.h.
 */
int trc_cli_bytes(const char *opt, const char *s, uint64_t *v, cxl_err *err)
{
	static const char sfx[] = "KMGT";
	const char *end, *p;
	uint64_t x;

	if (digits(s, &x, &end))
		goto bad;
	if (*end) {
		if (!(p = strchr(sfx, toupper((unsigned char)*end))) || !*p)
			goto bad;
		if (end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
			goto bad;
		for (int k = 0; k <= p - sfx; k++) {
			if (x > UINT64_MAX / 1024)
				goto bad;
			x *= 1024;
		}
	}
	*v = x;
	return 0;
bad:
	return cxl_err_set(err, CXL_EINVAL, "%s %s: not a byte count (expected an integer with an "
			   "optional K, M, G or T suffix, powers of 1024)", opt, s);
}

/**
 * trc_cli_fraction - see trc_cli.h.
 */
int trc_cli_fraction(const char *opt, const char *s, double *v, cxl_err *err)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !(*v >= 0.0 && *v <= 1.0))
		return cxl_err_set(err, CXL_EINVAL, "%s %s: not a number in [0, 1]", opt, s);
	return 0;
}

/**
 * trc_cli_time - see trc_cli.h.
 */
int trc_cli_time(const char *opt, const char *s, int positive, uint64_t *ps, cxl_err *err)
{
	cxl_err e = { 0 };
	sim_time t;

	if (stime_parse(s, &t, &e))
		return cxl_err_set(err, CXL_EINVAL, "%s %s: %s", opt, s, e.msg);
	if (positive && !t)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: must be above 0", opt, s);
	*ps = t;
	return 0;
}

/**
 * trc_cli_ipns - see trc_cli.h.
 */
int trc_cli_ipns(const char *opt, const char *s, uint64_t *ps, cxl_err *err)
{
	uint64_t m = 0, scale = 1;
	const char *p = s;
	int frac = -1;

	for (; *p; p++) {
		if (*p == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (!isdigit((unsigned char)*p) || m > UINT64_MAX / 10 / 1000 || frac == 9)
			return cxl_err_set(err, CXL_EINVAL, "%s %s: not a rate (expected instructions "
					   "per ns, e.g. 1, 2.5, 0.25)", opt, s);
		m = m * 10 + (uint64_t)(*p - '0');
		if (frac >= 0) {
			frac++;
			scale *= 10;
		}
	}
	if (p == s || frac == 0 || !m)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: not a rate above 0 (expected "
				   "instructions per ns, e.g. 1, 2.5, 0.25)", opt, s);
	/* rate = m / scale per ns, so one instruction takes 1000 * scale / m ps */
	if (1000 * scale < m)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: above 1000 per ns (an instruction "
				   "takes at least 1 ps)", opt, s);
	if ((1000 * scale) % m)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: one instruction would not take a whole "
				   "number of ps (give --clock, the time of one instruction, "
				   "e.g. --clock 333ps)", opt, s);
	*ps = 1000 * scale / m;
	return 0;
}

/**
 * trc_cli_choice - see trc_cli.h.
 */
int trc_cli_choice(const char *opt, const char *s, const char *const *names, int n, int *out,
		   cxl_err *err)
{
	char list[256] = "";

	for (int i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
		if (i)
			strncat(list, "|", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	return cxl_err_set(err, CXL_EINVAL, "%s %s: unknown (expected %s)", opt, s, list);
}
