/*
 * core/cfg_value.c - the value of one config key: its text forms in, its
 * libconfig form out (part of the cfg module; map in cfg_int.h).
 *
 * One checking path for every source: text (defaults, bounds, --set values)
 * goes through parse_text(), file settings through from_setting(), and both
 * through check_range(); cfg__value_default(), cfg__value_parse() and
 * cfg__value_from_setting() are the entry points cfg.c uses.  Errors are
 * "PATH: what (expected ...)"; the caller adds the location.
 *
 * CFG_SIZE values are bytes (size.h) kept in cfg_value.i: from an integer
 * setting or text (bytes), or from a string with a unit; both go through
 * size_parse(), so a negative integer gets the same error as "-1KiB".
 *
 * CFG_TIME values are at most CFG_TIME_LIMIT (cfg.h): a time key without
 * a `max` gets it as its max (max_text()), so the limit is checked, printed
 * and reported like any other bound.
 *
 * CFG_LIST values are string lists: from an array or list setting whose
 * elements are all strings, or from comma-separated text (split_list());
 * their range is on the element count (a bound is a cfg_value whose nlist
 * is the count, so check_range() serves every ranged type alike).
 *
 * cfg__value_write() is the inverse for cfg_dump(): libconfig syntax that
 * reads back to the same value (floats in their shortest exact "%g" form,
 * integers beyond 32 bits with the L suffix libconfig 1.5 needs, times that
 * stime_parse() accepts, SIM_TIME_MAX included, sizes as strings in their
 * shortest exact unit form, lists as string arrays).
 *
 * A bad default or bound in a schema is a programming error: panic.
 * Ownership: a cfg_value owns its string and its list (the array and every
 * element); cfg__value_free() releases them.
 */
#include "core/cfg_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "core/size.h"
#include "core/xmalloc.h"

/* Short names, indexed by enum cfg_type. */
static const char *const type_names[] = {
	[CFG_INT] = "int",       [CFG_FLOAT] = "float", [CFG_BOOL] = "bool",
	[CFG_STRING] = "string", [CFG_ENUM] = "enum",   [CFG_TIME] = "time",
	[CFG_LIST] = "list",     [CFG_SIZE] = "size",
};

#define TIME_EXPECTED "a time with a unit ps|ns|us|ms|s, e.g. \"100ps\""
#define SIZE_EXPECTED "a size: bytes, or a string with a unit " SIZE_UNITS ", e.g. \"4KiB\""

/**
 * cfg__type_name - short name of a key type ("int", "time", ...).
 * @type: the type
 *
 * Return: a static string, for cfg_help() and getter panics.
 */
const char *cfg__type_name(enum cfg_type type)
{
	return type_names[type];
}

/**
 * cfg__expected - what a value of @k must look like, for "(expected ...)".
 * @k:   the key
 * @buf: OUT storage, used for enums ("one of a|b|c")
 * @n:   size of @buf
 *
 * Return: a static string or @buf.
 */
const char *cfg__expected(const cfg_key *k, char *buf, size_t n)
{
	switch (k->type) {
	case CFG_INT: return "an integer";
	case CFG_FLOAT: return "a number";
	case CFG_BOOL: return "true or false";
	case CFG_STRING: return "a string";
	case CFG_ENUM:
		snprintf(buf, n, "one of %s", k->choices);
		return buf;
	case CFG_TIME: return TIME_EXPECTED;
	case CFG_LIST: return "a list of strings";
	case CFG_SIZE: return SIZE_EXPECTED;
	}
	CXL_PANIC("cfg: %s: bad type %d", k->path, (int)k->type);
}

/* Shortest "%g" text that reads back as @d exactly. */
static char *float_text(double d, char *buf, size_t n)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return buf;
}

/* Like stime_format(), but SIM_TIME_MAX stays parseable. */
static char *time_text(sim_time t, char *buf)
{
	if (t == SIM_TIME_MAX) {
		snprintf(buf, STIME_FMT_LEN, "%llups", (unsigned long long)t);
		return buf;
	}
	return stime_format(t, buf);
}

/**
 * cfg__value_free - release the string and the list of @v (if any) and
 * clear them.
 * @v: the value
 */
void cfg__value_free(cfg_value *v)
{
	free(v->s);
	v->s = NULL;
	for (size_t i = 0; v->list && i < v->nlist; i++)
		free(v->list[i]);
	free(v->list);
	v->list = NULL;
	v->nlist = 0;
}

/* ---- parsing -------------------------------------------------------------- */

static int enum_index(const char *choices, const char *s)
{
	const char *p = choices;
	size_t len = strlen(s);

	for (int i = 0;; i++) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);
		if (n == len && !memcmp(p, s, n))
			return i;
		if (!bar)
			return -1;
		p = bar + 1;
	}
}

/* Take ownership of @s as the value of enum key @k if it is a choice. */
static int set_choice(const cfg_key *k, char *s, cfg_value *v, cxl_err *e)
{
	int idx = enum_index(k->choices, s);

	if (idx < 0) {
		cxl_err_set(e, CXL_EINVAL, "%s: bad choice \"%s\" (expected one of %s)",
			    k->path, s, k->choices);
		free(s);
		return CXL_EINVAL;
	}
	v->s = s;
	v->idx = idx;
	return 0;
}

static int parse_time(const cfg_key *k, const char *s, sim_time *t, cxl_err *e)
{
	cxl_err te = { 0 };

	if (stime_parse(s, t, &te))
		return cxl_err_set(e, CXL_EINVAL, "%s: %s", k->path, te.msg);
	return 0;
}

static int parse_size(const cfg_key *k, const char *s, int64_t *bytes, cxl_err *e)
{
	cxl_err se = { 0 };
	uint64_t b;

	if (size_parse(s, &b, &se))
		return cxl_err_set(e, CXL_EINVAL, "%s: %s", k->path, se.msg);
	*bytes = (int64_t)b; /* <= SIZE_BYTES_MAX = INT64_MAX */
	return 0;
}

/* Decimal integer @s: 0, -1 if it is not one, 1 if it does not fit in int64. */
static int parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+')
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end)
		return -1;
	if (errno)
		return errno == ERANGE ? 1 : -1;
	*out = v;
	return 0;
}

static int parse_float(const char *s, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	double v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcasecmp(s, "true"))
		*out = 1;
	else if (!strcasecmp(s, "false"))
		*out = 0;
	else
		return -1;
	return 0;
}

/* Copy of @s without one pair of surrounding double quotes. */
static char *unquote(const char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		char *r = xmalloc(n - 1);
		memcpy(r, s + 1, n - 2);
		r[n - 2] = '\0';
		return r;
	}
	return xstrdup(s);
}

/* Copy of @s[0..@n) without surrounding white space. */
static char *trimmed(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	char *r = xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* split_list - list value from "a, b,c": trimmed elements; "" or blank: none. */
static void split_list(const char *text, cfg_value *v)
{
	size_t n = 1;

	for (const char *p = text; *p; p++)
		n += *p == ',';
	if (!text[strspn(text, " \t\n\v\f\r")])
		n = 0;
	v->list = xcalloc(n + 1, sizeof(char *));
	for (const char *p = text; v->nlist < n; p++) {
		const size_t len = strcspn(p, ",");
		v->list[v->nlist++] = trimmed(p, len);
		p += len;
	}
}

static int bad_text(const cfg_key *k, const char *text, cxl_err *e)
{
	char buf[256];

	return cxl_err_set(e, CXL_EINVAL, "%s: bad value \"%s\" (expected %s)",
			   k->path, text, cfg__expected(k, buf, sizeof(buf)));
}

/* parse_text - value of @k from its text form (--set, default, bound). */
static int parse_text(const cfg_key *k, const char *text, cfg_value *v, cxl_err *e)
{
	switch (k->type) {
	case CFG_INT:
		switch (parse_int(text, &v->i)) {
		case 0: return 0;
		case 1: return cfg__int_range_error(k, text, e);
		default: return bad_text(k, text, e);
		}
	case CFG_FLOAT:
		return parse_float(text, &v->f) ? bad_text(k, text, e) : 0;
	case CFG_BOOL:
		return parse_bool(text, &v->b) ? bad_text(k, text, e) : 0;
	case CFG_STRING:
		v->s = unquote(text);
		return 0;
	case CFG_ENUM:
		return set_choice(k, unquote(text), v, e);
	case CFG_TIME:
		return parse_time(k, text, &v->t, e);
	case CFG_LIST:
		split_list(text, v);
		return 0;
	case CFG_SIZE:
		return parse_size(k, text, &v->i, e);
	}
	CXL_PANIC("cfg: %s: bad type %d", k->path, (int)k->type);
}

/**
 * cfg__setting_type_text - a libconfig setting type as "an integer", ...
 * @type: CONFIG_TYPE_*
 *
 * Return: a static string, for "got ..." in wrong-type errors.
 */
const char *cfg__setting_type_text(int type)
{
	switch (type) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a float";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_GROUP: return "a group";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	}
	return "an unknown setting type";
}

static int wrong_type(const cfg_key *k, const char *got, cxl_err *e)
{
	char buf[256];

	return cxl_err_set(e, CXL_EINVAL, "%s: wrong type: got %s (expected %s)",
			   k->path, got, cfg__expected(k, buf, sizeof(buf)));
}

/* from_list - value of list key @k from array or list setting @s. */
static int from_list(const cfg_key *k, const config_setting_t *s, cfg_value *v,
		     cxl_err *e)
{
	const int n = config_setting_length(s);

	v->list = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		const config_setting_t *el = config_setting_get_elem(s, (unsigned)i);
		const int t = config_setting_type(el);
		if (t != CONFIG_TYPE_STRING)
			return cxl_err_set(e, CXL_EINVAL,
					   "%s[%d]: wrong type: got %s (expected a string)",
					   k->path, i, cfg__setting_type_text(t));
		v->list[v->nlist++] = xstrdup(config_setting_get_string(el));
	}
	return 0;
}

/* from_setting - value of @k from a libconfig setting (not a group); an
 * integer setting has the value @exact (cfg__int_literal()). */
static int from_setting(const cfg_key *k, const config_setting_t *s, int64_t exact,
			cfg_value *v, cxl_err *e)
{
	const int t = config_setting_type(s);
	const int is_int = t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;

	switch (k->type) {
	case CFG_INT:
		if (!is_int)
			break;
		v->i = exact;
		return 0;
	case CFG_FLOAT:
		if (!is_int && t != CONFIG_TYPE_FLOAT)
			break;
		v->f = is_int ? (double)exact : config_setting_get_float(s);
		return 0;
	case CFG_BOOL:
		if (t != CONFIG_TYPE_BOOL)
			break;
		v->b = config_setting_get_bool(s);
		return 0;
	case CFG_STRING:
		if (t != CONFIG_TYPE_STRING)
			break;
		v->s = xstrdup(config_setting_get_string(s));
		return 0;
	case CFG_ENUM:
		if (t != CONFIG_TYPE_STRING)
			break;
		return set_choice(k, xstrdup(config_setting_get_string(s)), v, e);
	case CFG_TIME:
		if (t == CONFIG_TYPE_STRING)
			return parse_time(k, config_setting_get_string(s), &v->t, e);
		if (is_int || t == CONFIG_TYPE_FLOAT)
			return wrong_type(k, "a number without a unit", e);
		break;
	case CFG_LIST:
		if (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
			return from_list(k, s, v, e);
		break;
	case CFG_SIZE:
		if (t == CONFIG_TYPE_STRING)
			return parse_size(k, config_setting_get_string(s), &v->i, e);
		if (is_int) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%lld", (long long)exact);
			return parse_size(k, buf, &v->i, e);
		}
		break;
	}
	return wrong_type(k, cfg__setting_type_text(t), e);
}

/* ---- ranges ----------------------------------------------------------------- */

/* A bound of @k parsed from @text; a bad bound is a schema bug. */
static cfg_value bound(const cfg_key *k, const char *text)
{
	cfg_value v = { 0 };
	cxl_err e = { 0 };
	int64_t count;

	if (k->type != CFG_LIST) {
		if (parse_text(k, text, &v, &e))
			CXL_PANIC("cfg: schema bound of %s: %s", k->path, e.msg);
	} else if (parse_int(text, &count) || count < 0) {
		CXL_PANIC("cfg: schema bound of %s: bad element count \"%s\"", k->path, text);
	} else {
		v.nlist = (size_t)count;
	}
	return v;
}

static int value_cmp(const cfg_key *k, const cfg_value *a, const cfg_value *b)
{
	switch (k->type) {
	case CFG_INT:
	case CFG_SIZE: return (a->i > b->i) - (a->i < b->i);
	case CFG_FLOAT: return (a->f > b->f) - (a->f < b->f);
	case CFG_TIME: return (a->t > b->t) - (a->t < b->t);
	case CFG_LIST: return (a->nlist > b->nlist) - (a->nlist < b->nlist);
	default: return 0;
	}
}

/* The upper bound of @k as text: its own, or for a time CFG_TIME_LIMIT; NULL if none. */
static const char *max_text(const cfg_key *k)
{
	if (k->max || k->type != CFG_TIME)
		return k->max;
	return CFG_TIME_LIMIT_TEXT;
}

static int has_range(const cfg_key *k)
{
	return (k->min || max_text(k)) && (k->type == CFG_INT || k->type == CFG_FLOAT ||
					   k->type == CFG_TIME || k->type == CFG_LIST ||
					   k->type == CFG_SIZE);
}

/**
 * cfg__range_text - @k's inclusive range as "lo to hi", ">= lo", "<= hi",
 * or "-" when the key has none.
 * @k:   the key
 * @buf: OUT storage for the text
 * @n:   size of @buf
 *
 * Return: @buf.
 */
char *cfg__range_text(const cfg_key *k, char *buf, size_t n)
{
	const char *max = max_text(k);

	if (!has_range(k))
		snprintf(buf, n, "-");
	else if (k->min && max)
		snprintf(buf, n, "%s to %s", k->min, max);
	else if (k->min)
		snprintf(buf, n, ">= %s", k->min);
	else
		snprintf(buf, n, "<= %s", max);
	return buf;
}

/*
 * Text of a ranged value: a CFG_INT, CFG_FLOAT, CFG_TIME or CFG_SIZE
 * value, or the element count of a CFG_LIST ("3 elements");
 * @n >= STIME_FMT_LEN and SIZE_FMT_LEN.
 */
static char *number_text(const cfg_key *k, const cfg_value *v, char *buf, size_t n)
{
	if (k->type == CFG_LIST)
		snprintf(buf, n, "%zu element%s", v->nlist, v->nlist == 1 ? "" : "s");
	else if (k->type == CFG_INT)
		snprintf(buf, n, "%lld", (long long)v->i);
	else if (k->type == CFG_FLOAT)
		float_text(v->f, buf, n);
	else if (k->type == CFG_SIZE)
		size_format((uint64_t)v->i, buf);
	else
		time_text(v->t, buf);
	return buf;
}

/**
 * cfg__int_range_error - the error for integer @text of @k that does not fit
 * in int64: "PATH: TEXT is out of range (expected RANGE, within -2^63 to
 * 2^63-1)", the text as written (a hex literal stays hex).
 * @k:    the key (CFG_INT, or the integer setting of a CFG_FLOAT or CFG_SIZE)
 * @text: the integer as written
 * @e:    OUT error record, may be NULL
 *
 * Return: CXL_EINVAL.
 */
int cfg__int_range_error(const cfg_key *k, const char *text, cxl_err *e)
{
	char rbuf[256];

	if (k->type != CFG_INT || !has_range(k))
		return cxl_err_set(e, CXL_EINVAL, "%s: %s is out of range (expected an integer "
				   "within " CFG_INT_RANGE_TEXT ")", k->path, text);
	return cxl_err_set(e, CXL_EINVAL, "%s: %s is out of range (expected %s, within "
			   CFG_INT_RANGE_TEXT ")", k->path, text,
			   cfg__range_text(k, rbuf, sizeof(rbuf)));
}

/* check_range - error unless @v is within @k's inclusive bounds. */
static int check_range(const cfg_key *k, const cfg_value *v, cxl_err *e)
{
	if (!has_range(k))
		return 0;
	const cfg_value lo = k->min ? bound(k, k->min) : *v;
	const cfg_value hi = max_text(k) ? bound(k, max_text(k)) : *v;
	if (value_cmp(k, v, &lo) >= 0 && value_cmp(k, v, &hi) <= 0)
		return 0;
	char vbuf[64], rbuf[256];
	return cxl_err_set(e, CXL_EINVAL, "%s: %s is out of range (expected %s)",
			   k->path, number_text(k, v, vbuf, sizeof(vbuf)),
			   cfg__range_text(k, rbuf, sizeof(rbuf)));
}

/* ---- the entry points --------------------------------------------------------- */

/**
 * cfg__value_default - check the value side of schema key @k and parse its
 * default.
 * @k: the schema key
 * @v: OUT the default value, set only if @k has one
 *
 * Panics if @k is an enum without choices, or its bounds or default do not
 * parse, or the default is out of range.
 *
 * Return: 1 if @v now holds the default, 0 if @k is required.
 */
int cfg__value_default(const cfg_key *k, cfg_value *v)
{
	cxl_err e = { 0 };

	if (k->type == CFG_ENUM && (!k->choices || !*k->choices))
		CXL_PANIC("cfg: schema key \"%s\" is an enum without choices", k->path);
	if (has_range(k) && k->min)
		bound(k, k->min);
	if (has_range(k) && k->max)
		bound(k, k->max);
	if (k->type == CFG_TIME && k->max && bound(k, k->max).t > CFG_TIME_LIMIT)
		CXL_PANIC("cfg: schema bound of %s: max %s is above the limit of every time, %s",
			  k->path, k->max, CFG_TIME_LIMIT_TEXT);
	if (!k->def)
		return 0;
	if (parse_text(k, k->def, v, &e) || check_range(k, v, &e))
		CXL_PANIC("cfg: schema default of %s", e.msg);
	return 1;
}

/**
 * cfg__value_parse - value of @k from its --set text form, range-checked.
 * @k:    the key
 * @text: the text (strings and enums may be in double quotes; a list is
 *        comma-separated, see split_list())
 * @v:    OUT the value, zero-initialized by the caller; left empty on error
 * @e:    OUT error "PATH: what (expected ...)", may be NULL
 *
 * Return: 0, or CXL_EINVAL.
 */
int cfg__value_parse(const cfg_key *k, const char *text, cfg_value *v, cxl_err *e)
{
	if (parse_text(k, text, v, e) || check_range(k, v, e)) {
		cfg__value_free(v);
		return CXL_EINVAL;
	}
	return 0;
}

/**
 * cfg__value_from_setting - value of @k from a libconfig setting, type- and
 * range-checked.
 * @k: the key
 * @s: the setting: not a group; an array or list only for a CFG_LIST key
 * @exact: the value of an integer setting as written (cfg__int_literal();
 *         libconfig's own may be wrapped); ignored for other settings
 * @v: OUT the value, zero-initialized by the caller; left empty on error
 * @e: OUT error "PATH: what (expected ...)", may be NULL
 *
 * Return: 0, or CXL_EINVAL.
 */
int cfg__value_from_setting(const cfg_key *k, const config_setting_t *s, int64_t exact,
			    cfg_value *v, cxl_err *e)
{
	if (from_setting(k, s, exact, v, e) || check_range(k, v, e)) {
		cfg__value_free(v);
		return CXL_EINVAL;
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------------- */

static void write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		const unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void write_list(FILE *f, const cfg_value *v)
{
	fputc('[', f);
	for (size_t i = 0; i < v->nlist; i++) {
		fputs(i ? ", " : "", f);
		write_string(f, v->list[i]);
	}
	fputc(']', f);
}

/**
 * cfg__value_write - write @v in libconfig syntax that reads back equal.
 * @f: output stream
 * @k: the key @v belongs to
 * @v: the value
 */
void cfg__value_write(FILE *f, const cfg_key *k, const cfg_value *v)
{
	char buf[64];

	switch (k->type) {
	case CFG_INT:
		fprintf(f, "%s%s", number_text(k, v, buf, sizeof(buf)),
			(v->i < INT32_MIN || v->i > INT32_MAX) ? "L" : "");
		break;
	case CFG_FLOAT:
		number_text(k, v, buf, sizeof(buf));
		fprintf(f, "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
		break;
	case CFG_BOOL:
		fputs(v->b ? "true" : "false", f);
		break;
	case CFG_STRING:
	case CFG_ENUM:
		write_string(f, v->s);
		break;
	case CFG_TIME:
	case CFG_SIZE:
		fprintf(f, "\"%s\"", number_text(k, v, buf, sizeof(buf)));
		break;
	case CFG_LIST:
		write_list(f, v);
		break;
	}
}
