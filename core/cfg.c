/*
 * core/cfg.c - strict configuration loader (contract in cfg.h).
 *
 * A loaded cfg is one table of slots, one per schema key, sorted by dotted
 * path.  Lookups are bsearch; the keys under a group "a.b" are the
 * contiguous run of paths that start with "a.b." (in lexicographic order the
 * strings sharing a prefix are always contiguous), which answers "is this a
 * known group", cfg_has_group() and the nesting of cfg_dump() alike.
 *
 * Loading fills the slots with rising priority: schema defaults, then the
 * libconfig file (walked recursively; every setting must be a key or a
 * known group), then each --set in order (last wins), then checks that no
 * required key is left empty.  Each slot keeps its winning value and where
 * it came from ("FILE:LINE" or "--set PATH=VALUE") for cfg_error_at().
 *
 * One checking path for every source: text (defaults, bounds, --set values)
 * goes through parse_text(), file settings through from_setting(), and both
 * through check_range().  Messages are first built as "PATH: what (expected)"
 * and then prefixed with their location by fail_at().
 *
 * Schema mistakes (a path defined twice, a path that is both a key and a
 * group, a name libconfig cannot write back, a bad default or bound) are
 * programming errors: cfg_load() panics on them.
 *
 * Ownership: the cfg owns copies of all its strings; cfg_str() and
 * cfg_file() results live until cfg_free().  A cfg is read-only after
 * cfg_load(), so concurrent readers are safe.
 *
 * Limitation: libconfig 1.5 silently wraps integer literals beyond 32 bits
 * that lack the L suffix (write 4294967296L); cfg_dump() writes the suffix.
 */
#include "core/cfg.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xmalloc.h"

enum origin { ORIGIN_DEFAULT, ORIGIN_FILE, ORIGIN_SET };

typedef struct value value;
struct value {
	int64_t i;   /* CFG_INT */
	double f;    /* CFG_FLOAT */
	int b;       /* CFG_BOOL: 0 or 1 */
	int idx;     /* CFG_ENUM: index into choices */
	sim_time t;  /* CFG_TIME, ps */
	char *s;     /* CFG_STRING, CFG_ENUM: the text, owned */
};

typedef struct slot slot;
struct slot {
	const cfg_key *key;  /* schema entry, borrowed from the caller's table */
	value val;           /* the winning value, valid if has_val */
	int has_val;         /* 0 only while a required key has no value */
	enum origin origin;  /* where val came from */
	char *where;         /* "FILE:LINE" or "--set P=V", owned; NULL for defaults */
};

struct cfg {
	char *file;         /* config path as given, owned; NULL if none */
	slot *slots;        /* one per schema key, sorted by path */
	size_t nslots;      /* number of slots */
	char **groups;      /* group paths written in the file, owned */
	size_t ngroups;     /* used entries of groups */
	size_t groups_cap;  /* allocated entries of groups */
};

/* Short names for cfg_help(), indexed by enum cfg_type. */
static const char *const type_names[] = {
	[CFG_INT] = "int",       [CFG_FLOAT] = "float", [CFG_BOOL] = "bool",
	[CFG_STRING] = "string", [CFG_ENUM] = "enum",   [CFG_TIME] = "time",
};

#define TIME_EXPECTED "a time with a unit ps|ns|us|ms|s, e.g. \"100ps\""

/* ---- small text helpers ------------------------------------------------ */

static char *vstrfmt(const char *fmt, va_list ap)
{
	va_list ap2;

	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	CXL_ASSERT(n >= 0);
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *strfmt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *s = vstrfmt(fmt, ap);
	va_end(ap);
	return s;
}

/* fail_at - set @err to "WHERE: <fmt>" with code CXL_EINVAL. */
static int fail_at(cxl_err *err, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(cxl_err *err, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *msg = vstrfmt(fmt, ap);
	va_end(ap);
	int rc = cxl_err_set(err, CXL_EINVAL, "%s: %s", where, msg);
	free(msg);
	return rc;
}

static const char *file_label(const cfg *c)
{
	return c->file ? c->file : "(no file)";
}

/* What a key's value must look like, for the "(expected ...)" part. */
static const char *expected(const cfg_key *k, char *buf, size_t n)
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

/* ---- values: parse, check, free ---------------------------------------- */

static void value_free(value *v)
{
	free(v->s);
	v->s = NULL;
}

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
static int set_choice(const cfg_key *k, char *s, value *v, cxl_err *e)
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

static int parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+')
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
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

static int bad_text(const cfg_key *k, const char *text, cxl_err *e)
{
	char buf[256];

	return cxl_err_set(e, CXL_EINVAL, "%s: bad value \"%s\" (expected %s)",
			   k->path, text, expected(k, buf, sizeof(buf)));
}

/* parse_text - value of @k from its text form (--set, default, bound). */
static int parse_text(const cfg_key *k, const char *text, value *v, cxl_err *e)
{
	switch (k->type) {
	case CFG_INT:
		return parse_int(text, &v->i) ? bad_text(k, text, e) : 0;
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
	}
	CXL_PANIC("cfg: %s: bad type %d", k->path, (int)k->type);
}

static const char *setting_type_text(int type)
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
			   k->path, got, expected(k, buf, sizeof(buf)));
}

/* from_setting - value of @k from a scalar libconfig setting. */
static int from_setting(const cfg_key *k, const config_setting_t *s, value *v,
			cxl_err *e)
{
	const int t = config_setting_type(s);
	const int is_int = t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;

	switch (k->type) {
	case CFG_INT:
		if (!is_int)
			break;
		v->i = config_setting_get_int64(s);
		return 0;
	case CFG_FLOAT:
		if (!is_int && t != CONFIG_TYPE_FLOAT)
			break;
		v->f = is_int ? (double)config_setting_get_int64(s)
			      : config_setting_get_float(s);
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
	}
	return wrong_type(k, setting_type_text(t), e);
}

/* A bound of @k parsed from @text; a bad bound is a schema bug. */
static value bound(const cfg_key *k, const char *text)
{
	value v = { 0 };
	cxl_err e = { 0 };

	if (parse_text(k, text, &v, &e))
		CXL_PANIC("cfg: schema bound of %s: %s", k->path, e.msg);
	return v;
}

static int value_cmp(const cfg_key *k, const value *a, const value *b)
{
	switch (k->type) {
	case CFG_INT: return (a->i > b->i) - (a->i < b->i);
	case CFG_FLOAT: return (a->f > b->f) - (a->f < b->f);
	case CFG_TIME: return (a->t > b->t) - (a->t < b->t);
	default: return 0;
	}
}

static int has_range(const cfg_key *k)
{
	return (k->min || k->max) && (k->type == CFG_INT || k->type == CFG_FLOAT ||
				      k->type == CFG_TIME);
}

/* "lo to hi", ">= lo", "<= hi" or "-" */
static char *range_text(const cfg_key *k, char *buf, size_t n)
{
	if (!has_range(k))
		snprintf(buf, n, "-");
	else if (k->min && k->max)
		snprintf(buf, n, "%s to %s", k->min, k->max);
	else if (k->min)
		snprintf(buf, n, ">= %s", k->min);
	else
		snprintf(buf, n, "<= %s", k->max);
	return buf;
}

static char *number_text(const cfg_key *k, const value *v, char *buf, size_t n)
{
	if (k->type == CFG_INT)
		snprintf(buf, n, "%lld", (long long)v->i);
	else if (k->type == CFG_FLOAT)
		float_text(v->f, buf, n);
	else
		time_text(v->t, buf);
	return buf;
}

/* check_range - error unless @v is within @k's inclusive bounds. */
static int check_range(const cfg_key *k, const value *v, cxl_err *e)
{
	if (!has_range(k))
		return 0;
	const value lo = k->min ? bound(k, k->min) : *v;
	const value hi = k->max ? bound(k, k->max) : *v;
	if (value_cmp(k, v, &lo) >= 0 && value_cmp(k, v, &hi) <= 0)
		return 0;
	char vbuf[64], rbuf[256];
	return cxl_err_set(e, CXL_EINVAL, "%s: %s is out of range (expected %s)",
			   k->path, number_text(k, v, vbuf, sizeof(vbuf)),
			   range_text(k, rbuf, sizeof(rbuf)));
}

/* ---- the slot table ----------------------------------------------------- */

static int slot_cmp(const void *a, const void *b)
{
	return strcmp(((const slot *)a)->key->path, ((const slot *)b)->key->path);
}

static int slot_find_cmp(const void *path, const void *elem)
{
	return strcmp(path, ((const slot *)elem)->key->path);
}

static slot *find(const cfg *c, const char *path)
{
	return bsearch(path, c->slots, c->nslots, sizeof(slot), slot_find_cmp);
}

/* Is @path inside group @g (length @glen), i.e. does it start with "g."? */
static int is_under(const char *path, const char *g, size_t glen)
{
	return !strncmp(path, g, glen) && path[glen] == '.';
}

/* Index of the first slot whose path is >= "g." (the group's run). */
static size_t group_start(const cfg *c, const char *g, size_t glen)
{
	size_t lo = 0, hi = c->nslots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = c->slots[mid].key->path;
		int r = strncmp(p, g, glen);
		if (!r)
			r = (unsigned char)p[glen] - '.';
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int group_known(const cfg *c, const char *g, size_t glen)
{
	size_t i = group_start(c, g, glen);

	return i < c->nslots && is_under(c->slots[i].key->path, g, glen);
}

/* A dotted path libconfig can read back: [A-Za-z*][-A-Za-z0-9_*]* parts. */
static int path_ok(const char *p)
{
	int start = 1;

	for (; *p; p++) {
		if (*p == '.' && !start) {
			start = 1;
			continue;
		}
		if (!(isalpha((unsigned char)*p) || *p == '*' ||
		      (!start && (isdigit((unsigned char)*p) || *p == '-' || *p == '_'))))
			return 0;
		start = 0;
	}
	return !start;
}

static void check_key(const cfg *c, size_t i)
{
	const cfg_key *k = c->slots[i].key;

	if (!path_ok(k->path))
		CXL_PANIC("cfg: schema key \"%s\" is not a valid dotted path", k->path);
	if (i > 0 && !strcmp(k->path, c->slots[i - 1].key->path))
		CXL_PANIC("cfg: schema key \"%s\" is defined twice", k->path);
	if (group_known(c, k->path, strlen(k->path)))
		CXL_PANIC("cfg: schema path \"%s\" is both a key and a group", k->path);
	if (k->type == CFG_ENUM && (!k->choices || !*k->choices))
		CXL_PANIC("cfg: schema key \"%s\" is an enum without choices", k->path);
	if (has_range(k) && k->min)
		bound(k, k->min);
	if (has_range(k) && k->max)
		bound(k, k->max);
}

static void load_default(slot *s)
{
	const cfg_key *k = s->key;
	cxl_err e = { 0 };

	if (!k->def)
		return;
	if (parse_text(k, k->def, &s->val, &e) || check_range(k, &s->val, &e))
		CXL_PANIC("cfg: schema default of %s", e.msg);
	s->has_val = 1;
}

static cfg *cfg_new(const char *path, const cfg_schema *const *schemas,
		    size_t nschemas)
{
	cfg *c = xcalloc(1, sizeof(*c));
	size_t n = 0;

	c->file = path ? xstrdup(path) : NULL;
	for (size_t i = 0; i < nschemas; i++)
		n += schemas[i]->nkeys;
	c->slots = xcalloc(n, sizeof(slot));
	for (size_t i = 0; i < nschemas; i++)
		for (size_t j = 0; j < schemas[i]->nkeys; j++)
			c->slots[c->nslots++].key = &schemas[i]->keys[j];
	qsort(c->slots, c->nslots, sizeof(slot), slot_cmp);
	for (size_t i = 0; i < c->nslots; i++) {
		check_key(c, i);
		load_default(&c->slots[i]);
	}
	return c;
}

/* Replace @s's value with @v (taken over) from @origin at @where (copied). */
static void slot_store(slot *s, value *v, enum origin origin, const char *where)
{
	value_free(&s->val);
	free(s->where);
	s->val = *v;
	s->has_val = 1;
	s->origin = origin;
	s->where = xstrdup(where);
}

static void remember_group(cfg *c, const char *path)
{
	if (c->ngroups == c->groups_cap) {
		c->groups_cap = c->groups_cap ? 2 * c->groups_cap : 8;
		c->groups = xrealloc(c->groups, c->groups_cap * sizeof(char *));
	}
	c->groups[c->ngroups++] = xstrdup(path);
}

/* ---- unknown names: closest known name by edit distance ----------------- */

/* Levenshtein distance, ASCII case folded. */
static size_t lev(const char *a, size_t na, const char *b, size_t nb)
{
	size_t *row = xmalloc((nb + 1) * sizeof(size_t));

	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j];
			size_t sub = diag + (tolower((unsigned char)a[i - 1]) !=
					     tolower((unsigned char)b[j - 1]));
			size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			diag = up;
		}
	}
	size_t d = row[nb];
	free(row);
	return d;
}

typedef struct match match;
struct match {
	const char *s;  /* best candidate so far (not NUL-terminated), NULL if none */
	size_t len;     /* its length */
	size_t score;   /* min(full-path distance, last-component distance) */
	size_t full;    /* full-path distance, the tie-breaker */
};

static size_t last_part(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && s[i - 1] != '.')
		i--;
	return i;
}

static size_t max2(size_t a, size_t b)
{
	return a > b ? a : b;
}

/*
 * Candidate @cand (length @clen) for the misspelt @name: scored by the
 * distance between the full paths or between their last components
 * ("simulation.lps" finds "phold.lps"); a candidate that differs in more
 * than a third of the compared text is too far to suggest.
 */
static void consider(match *m, const char *name, const char *cand, size_t clen)
{
	const size_t nlen = strlen(name);
	const size_t nl = last_part(name, nlen), cl = last_part(cand, clen);
	const size_t full = lev(name, nlen, cand, clen);
	const size_t last = lev(name + nl, nlen - nl, cand + cl, clen - cl);
	const size_t score = full < last ? full : last;
	const size_t span = full <= last ? max2(nlen, clen) : max2(nlen - nl, clen - cl);

	if (score * 3 > span)
		return;
	if (!m->s || score < m->score || (score == m->score && full < m->full))
		*m = (match){ .s = cand, .len = clen, .score = score, .full = full };
}

static match closest(const cfg *c, const char *name, int want_group)
{
	match m = { 0 };

	for (size_t i = 0; i < c->nslots; i++) {
		const char *p = c->slots[i].key->path;
		if (!want_group) {
			consider(&m, name, p, strlen(p));
			continue;
		}
		for (const char *dot = strchr(p, '.'); dot; dot = strchr(dot + 1, '.'))
			consider(&m, name, p, (size_t)(dot - p));
	}
	return m;
}

static int unknown(const cfg *c, const char *where, const char *name,
		   int want_group, cxl_err *err)
{
	const match m = closest(c, name, want_group);
	const char *what = want_group ? "group" : "key";

	if (m.s)
		return fail_at(err, where, "unknown %s \"%s\" (did you mean \"%.*s\"?)",
			       what, name, (int)m.len, m.s);
	return fail_at(err, where, "unknown %s \"%s\" (no such %s in any schema; see --help-config)",
		       what, name, what);
}

/* ---- the file ----------------------------------------------------------- */

static char *join(const char *prefix, const char *name)
{
	return prefix ? strfmt("%s.%s", prefix, name) : xstrdup(name);
}

static char *setting_where(const cfg *c, const config_setting_t *s)
{
	const char *f = config_setting_source_file(s);

	return strfmt("%s:%u", f ? f : c->file,
		      (unsigned)config_setting_source_line(s));
}

static int walk_group(cfg *c, const config_setting_t *g, const char *prefix,
		      cxl_err *err);

static int file_group(cfg *c, const config_setting_t *s, const char *path,
		      const char *where, cxl_err *err)
{
	const slot *sl = find(c, path);
	char buf[256];

	if (sl)
		return fail_at(err, where, "%s: wrong type: got a group (expected %s)",
			       path, expected(sl->key, buf, sizeof(buf)));
	if (!group_known(c, path, strlen(path)))
		return unknown(c, where, path, 1, err);
	remember_group(c, path);
	return walk_group(c, s, path, err);
}

static int file_value(slot *sl, const config_setting_t *s, const char *where,
		      cxl_err *err)
{
	value v = { 0 };
	cxl_err e = { 0 };

	if (from_setting(sl->key, s, &v, &e) || check_range(sl->key, &v, &e)) {
		value_free(&v);
		return fail_at(err, where, "%s", e.msg);
	}
	slot_store(sl, &v, ORIGIN_FILE, where);
	return 0;
}

static int file_leaf(cfg *c, const config_setting_t *s, const char *path,
		     const char *where, cxl_err *err)
{
	slot *sl = find(c, path);
	char buf[256];

	if (!sl && group_known(c, path, strlen(path)))
		return fail_at(err, where, "%s: wrong type: got %s (expected a group)",
			       path, setting_type_text(config_setting_type(s)));
	if (!sl)
		return unknown(c, where, path, 0, err);
	if (config_setting_is_aggregate(s))
		return fail_at(err, where, "%s: lists are not supported for this key (expected %s)",
			       path, expected(sl->key, buf, sizeof(buf)));
	return file_value(sl, s, where, err);
}

static int walk_group(cfg *c, const config_setting_t *g, const char *prefix,
		      cxl_err *err)
{
	const int n = config_setting_length(g);
	int rc = 0;

	for (int i = 0; !rc && i < n; i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		char *path = join(prefix, config_setting_name(s));
		char *where = setting_where(c, s);
		rc = config_setting_is_group(s) ? file_group(c, s, path, where, err)
						: file_leaf(c, s, path, where, err);
		free(where);
		free(path);
	}
	return rc;
}

static int read_error(const cfg *c, const config_t *lc, cxl_err *err)
{
	const char *f = config_error_file(lc) ? config_error_file(lc) : c->file;

	if (config_error_type(lc) == CONFIG_ERR_FILE_IO)
		return cxl_err_set(err, CXL_EIO, "%s: cannot read: %s", f,
				   config_error_text(lc));
	return cxl_err_set(err, CXL_EINVAL, "%s:%d: syntax error: %s", f,
			   config_error_line(lc), config_error_text(lc));
}

static int load_file(cfg *c, cxl_err *err)
{
	FILE *f = fopen(c->file, "r");

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", c->file,
				   strerror(errno));
	fclose(f);

	config_t lc;
	config_init(&lc);
	int rc = config_read_file(&lc, c->file)
			 ? walk_group(c, config_root_setting(&lc), NULL, err)
			 : read_error(c, &lc, err);
	config_destroy(&lc);
	return rc;
}

/* ---- --set and required keys --------------------------------------------- */

static int set_value(cfg *c, const char *path, const char *text,
		     const char *where, cxl_err *err)
{
	slot *sl = find(c, path);
	value v = { 0 };
	cxl_err e = { 0 };

	if (!sl)
		return unknown(c, where, path, 0, err);
	if (parse_text(sl->key, text, &v, &e) || check_range(sl->key, &v, &e)) {
		value_free(&v);
		return fail_at(err, where, "%s", e.msg);
	}
	slot_store(sl, &v, ORIGIN_SET, where);
	return 0;
}

static int apply_set(cfg *c, const char *set, cxl_err *err)
{
	const char *eq = strchr(set, '=');
	char *where = strfmt("--set %s", set);
	int rc;

	if (!eq) {
		rc = fail_at(err, where, "missing '=' (expected PATH=VALUE)");
	} else {
		char *path = strfmt("%.*s", (int)(eq - set), set);
		rc = set_value(c, path, eq + 1, where, err);
		free(path);
	}
	free(where);
	return rc;
}

static int check_required(const cfg *c, cxl_err *err)
{
	char buf[256];

	for (size_t i = 0; i < c->nslots; i++) {
		const cfg_key *k = c->slots[i].key;
		if (!c->slots[i].has_val)
			return cxl_err_set(err, CXL_EINVAL,
					   "%s: missing required key \"%s\" (%s)",
					   file_label(c), k->path,
					   expected(k, buf, sizeof(buf)));
	}
	return 0;
}

/**
 * cfg_load - read, check and complete a configuration (see cfg.h).
 * @out:      OUT the configuration, set only on success
 * @path:     libconfig file, or NULL for defaults and --set only
 * @schemas:  the schemas whose keys are valid
 * @nschemas: number of schemas
 * @sets:     "PATH=VALUE" overrides, applied in order (last wins)
 * @nsets:    number of overrides
 * @err:      OUT error record, may be NULL
 *
 * Return: 0; CXL_EIO if the file cannot be opened or read; CXL_EINVAL for
 * a syntax error, an unknown key or group, a bad value or a missing
 * required key.  Only the first error is reported.  Panics on a schema bug.
 */
int cfg_load(cfg **out, const char *path, const cfg_schema *const *schemas,
	     size_t nschemas, const char *const *sets, size_t nsets, cxl_err *err)
{
	cfg *c = cfg_new(path, schemas, nschemas);
	int rc = path ? load_file(c, err) : 0;

	for (size_t i = 0; !rc && i < nsets; i++)
		rc = apply_set(c, sets[i], err);
	if (!rc)
		rc = check_required(c, err);
	if (rc) {
		cfg_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

/**
 * cfg_free - release a configuration and every string it handed out.
 * @c: configuration from cfg_load(), or NULL
 */
void cfg_free(cfg *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nslots; i++) {
		value_free(&c->slots[i].val);
		free(c->slots[i].where);
	}
	for (size_t i = 0; i < c->ngroups; i++)
		free(c->groups[i]);
	free(c->groups);
	free(c->slots);
	free(c->file);
	free(c);
}

/* ---- getters ------------------------------------------------------------ */

/* The slot of @path, which must be of a type in @types (a bit mask). */
static const slot *typed(const cfg *c, const char *path, unsigned types,
			 const char *getter)
{
	const slot *s = find(c, path);

	if (!s)
		CXL_PANIC("cfg: %s(\"%s\"): no such key in any schema", getter, path);
	if (!(types & (1u << s->key->type)))
		CXL_PANIC("cfg: %s(\"%s\"): the key is a %s", getter, path,
			  type_names[s->key->type]);
	CXL_ASSERT(s->has_val);
	return s;
}

/**
 * cfg_int - value of the CFG_INT key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 *
 * Panics if @path is not a CFG_INT key of the schemas (same for all getters).
 */
int64_t cfg_int(const cfg *c, const char *path)
{
	return typed(c, path, 1u << CFG_INT, "cfg_int")->val.i;
}

/**
 * cfg_float - value of the CFG_FLOAT key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 */
double cfg_float(const cfg *c, const char *path)
{
	return typed(c, path, 1u << CFG_FLOAT, "cfg_float")->val.f;
}

/**
 * cfg_bool - value (0 or 1) of the CFG_BOOL key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 */
int cfg_bool(const cfg *c, const char *path)
{
	return typed(c, path, 1u << CFG_BOOL, "cfg_bool")->val.b;
}

/**
 * cfg_str - text of the CFG_STRING or CFG_ENUM key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 *
 * Return: a string owned by @c, valid until cfg_free().
 */
const char *cfg_str(const cfg *c, const char *path)
{
	return typed(c, path, (1u << CFG_STRING) | (1u << CFG_ENUM), "cfg_str")->val.s;
}

/**
 * cfg_enum - index in the key's choices of the CFG_ENUM key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 */
int cfg_enum(const cfg *c, const char *path)
{
	return typed(c, path, 1u << CFG_ENUM, "cfg_enum")->val.idx;
}

/**
 * cfg_time - value in ps of the CFG_TIME key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 */
sim_time cfg_time(const cfg *c, const char *path)
{
	return typed(c, path, 1u << CFG_TIME, "cfg_time")->val.t;
}

/**
 * cfg_is_set - whether @path was given in the file or by --set.
 * @c:    loaded configuration
 * @path: dotted key path (panics if it is in no schema)
 *
 * Return: 1 if given, 0 if it holds its default.
 */
int cfg_is_set(const cfg *c, const char *path)
{
	const slot *s = find(c, path);

	if (!s)
		CXL_PANIC("cfg_is_set(\"%s\"): no such key in any schema", path);
	return s->origin != ORIGIN_DEFAULT;
}

/**
 * cfg_has_group - whether the file or a --set mentions @group.
 * @c:     loaded configuration
 * @group: dotted group path, e.g. "phold" or "fabric.link"
 *
 * Return: 1 if a key under @group was given, or the file contains the
 * group (even empty: "memory = {};" asks for a memory with defaults); else 0.
 */
int cfg_has_group(const cfg *c, const char *group)
{
	const size_t glen = strlen(group);

	for (size_t i = 0; i < c->ngroups; i++)
		if (!strcmp(c->groups[i], group) || is_under(c->groups[i], group, glen))
			return 1;
	for (size_t i = group_start(c, group, glen);
	     i < c->nslots && is_under(c->slots[i].key->path, group, glen); i++)
		if (c->slots[i].origin != ORIGIN_DEFAULT)
			return 1;
	return 0;
}

/**
 * cfg_file - the config file path given to cfg_load().
 * @c: loaded configuration
 *
 * Return: the path (owned by @c), or NULL if there was no file.
 */
const char *cfg_file(const cfg *c)
{
	return c->file;
}

/**
 * cfg_error_at - report a semantic error about the value of @path.
 * @c:    loaded configuration
 * @path: dotted key path (panics if it is in no schema)
 * @err:  OUT error record, may be NULL
 * @fmt:  printf format of "what is wrong (what was expected)"
 *
 * The message is "WHERE: PATH: <fmt>" with WHERE the FILE:LINE of the
 * setting, "--set PATH=VALUE", or "FILE: default" ("(no file): default"
 * without a file).
 *
 * Return: CXL_EINVAL.
 */
int cfg_error_at(const cfg *c, const char *path, cxl_err *err, const char *fmt, ...)
{
	const slot *s = find(c, path);
	va_list ap;

	if (!s)
		CXL_PANIC("cfg_error_at(\"%s\"): no such key in any schema", path);
	va_start(ap, fmt);
	char *msg = vstrfmt(fmt, ap);
	va_end(ap);
	int rc;
	if (s->origin == ORIGIN_DEFAULT)
		rc = cxl_err_set(err, CXL_EINVAL, "%s: default: %s: %s",
				 file_label(c), path, msg);
	else
		rc = cxl_err_set(err, CXL_EINVAL, "%s: %s: %s", s->where, path, msg);
	free(msg);
	return rc;
}

/* ---- dump and help ------------------------------------------------------ */

static void dump_string(FILE *f, const char *s)
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

static void dump_value(FILE *f, const slot *s)
{
	char buf[64];

	switch (s->key->type) {
	case CFG_INT:
		fprintf(f, "%lld%s", (long long)s->val.i,
			(s->val.i < INT32_MIN || s->val.i > INT32_MAX) ? "L" : "");
		break;
	case CFG_FLOAT:
		float_text(s->val.f, buf, sizeof(buf));
		fprintf(f, "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
		break;
	case CFG_BOOL:
		fputs(s->val.b ? "true" : "false", f);
		break;
	case CFG_STRING:
	case CFG_ENUM:
		dump_string(f, s->val.s);
		break;
	case CFG_TIME:
		fprintf(f, "\"%s\"", time_text(s->val.t, buf));
		break;
	}
}

/* Length of the parent group of the group open[0..olen). */
static size_t parent_len(const char *open, size_t olen)
{
	while (olen > 0 && open[olen - 1] != '.')
		olen--;
	return olen > 0 ? olen - 1 : 0;
}

/**
 * cfg_dump - write the effective configuration in libconfig syntax.
 * @c: loaded configuration
 * @f: output stream
 *
 * Every key is written, in path order, nested in its groups; loading the
 * output with the same schemas gives the same values.
 */
void cfg_dump(const cfg *c, FILE *f)
{
	const char *open = "";  /* path whose first olen chars name the open group */
	size_t olen = 0;
	int depth = 0;

	for (size_t i = 0; i < c->nslots; i++) {
		const char *p = c->slots[i].key->path;
		while (depth > 0 && !is_under(p, open, olen)) {
			fprintf(f, "%*s};\n", 2 * --depth, "");
			olen = parent_len(open, olen);
		}
		open = p;
		const char *name = p + (olen ? olen + 1 : 0);
		for (const char *dot; (dot = strchr(name, '.')); name = dot + 1) {
			fprintf(f, "%*s%.*s = {\n", 2 * depth++, "", (int)(dot - name), name);
			olen = (size_t)(dot - p);
		}
		fprintf(f, "%*s%s = ", 2 * depth, "", name);
		dump_value(f, &c->slots[i]);
		fputs(";\n", f);
	}
	while (depth > 0)
		fprintf(f, "%*s};\n", 2 * --depth, "");
}

enum { COL_PATH, COL_TYPE, COL_DEF, COL_RANGE, COL_CHOICES, NCOLS };

typedef struct help_row help_row;
struct help_row {
	const char *cell[NCOLS];  /* column texts */
	char def[256];            /* storage for a quoted string default */
	char range[256];          /* storage for the range text */
};

static void help_fill(help_row *r, const cfg_key *k)
{
	r->cell[COL_PATH] = k->path;
	r->cell[COL_TYPE] = type_names[k->type];
	r->cell[COL_DEF] = k->def ? k->def : "(required)";
	if (k->def && k->type == CFG_STRING) {
		snprintf(r->def, sizeof(r->def), "\"%s\"", k->def);
		r->cell[COL_DEF] = r->def;
	}
	r->cell[COL_RANGE] = range_text(k, r->range, sizeof(r->range));
	r->cell[COL_CHOICES] = k->type == CFG_ENUM ? k->choices : "-";
}

static void help_print(FILE *f, const help_row *r, const int *w, const char *doc)
{
	for (int i = 0; i < NCOLS; i++)
		fprintf(f, "  %-*s", w[i], r->cell[i]);
	fprintf(f, "  %s\n", doc);
}

static void help_widths(const cfg_schema *const *schemas, size_t nschemas,
			const help_row *head, int *w)
{
	help_row r;

	for (int i = 0; i < NCOLS; i++)
		w[i] = (int)strlen(head->cell[i]);
	for (size_t s = 0; s < nschemas; s++) {
		for (size_t j = 0; j < schemas[s]->nkeys; j++) {
			help_fill(&r, &schemas[s]->keys[j]);
			for (int i = 0; i < NCOLS; i++)
				if ((int)strlen(r.cell[i]) > w[i])
					w[i] = (int)strlen(r.cell[i]);
		}
	}
}

/**
 * cfg_help - print every key of @schemas as an aligned table.
 * @schemas:  the schemas
 * @nschemas: number of schemas
 * @f:        output stream
 *
 * One section per schema; columns KEY, TYPE, DEFAULT ("(required)" for a
 * required key), RANGE (inclusive), CHOICES (enums) and DESCRIPTION.
 */
void cfg_help(const cfg_schema *const *schemas, size_t nschemas, FILE *f)
{
	const help_row head = { .cell = { "KEY", "TYPE", "DEFAULT", "RANGE", "CHOICES" } };
	int w[NCOLS];
	help_row r;

	help_widths(schemas, nschemas, &head, w);
	for (size_t s = 0; s < nschemas; s++) {
		fprintf(f, "%s[%s]\n", s ? "\n" : "", schemas[s]->name);
		help_print(f, &head, w, "DESCRIPTION");
		for (size_t j = 0; j < schemas[s]->nkeys; j++) {
			const cfg_key *k = &schemas[s]->keys[j];
			help_fill(&r, k);
			help_print(f, &r, w, k->doc ? k->doc : "");
		}
	}
}
