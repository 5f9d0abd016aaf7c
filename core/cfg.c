/*
 * core/cfg.c - strict configuration loader: loading, validation and the
 * getters (contract in cfg.h; the module's other files in cfg_int.h).
 *
 * Loading fills the slots with rising priority: schema defaults, then the
 * libconfig file (walked recursively; every setting must be a key or a
 * known group), then each --set in order (last wins), then checks that no
 * required key is left empty.  Each slot keeps its winning value and where
 * it came from ("FILE:LINE" or "--set PATH=VALUE") for cfg_error_at().
 *
 * Lookups are bsearch on the sorted slot table; a group "a.b" is known if
 * the run of paths starting "a.b." is not empty (group_start()), which
 * answers unknown-group errors and cfg_has_group() alike.  Values are
 * parsed and checked by cfg_value.c, whose "PATH: what (expected)" texts
 * get their location here (cfg__fail_at()); unknown names go to cfg_suggest.c.
 *
 * Schema mistakes (a path defined twice, a path that is both a key and a
 * group, a name libconfig cannot write back, a bad default or bound) are
 * programming errors: cfg_load() panics on them.
 *
 * Ownership: the cfg owns copies of all its strings; cfg_str(), cfg_list()
 * and cfg_file() results live until cfg_free().  A cfg is read-only after
 * cfg_load(), so concurrent readers are safe.
 *
 * libconfig 1.5 silently wraps integer literals beyond 32 bits that lack
 * the L suffix (4294967296 reads as 0): cfg_literal.c reads every integer
 * of the file again from its source line, exactly, so 4294967296 is
 * 4294967296 and a literal beyond 64 bits is an error that shows it as
 * written.  cfg_dump() still writes the suffix, for other readers.
 */
#include "core/cfg.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/cfg_int.h"
#include "core/xmalloc.h"

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

char *cfg__strfmt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *s = vstrfmt(fmt, ap);
	va_end(ap);
	return s;
}

/* cfg__fail_at - set @err to "WHERE: <fmt>" with code CXL_EINVAL. */
int cfg__fail_at(cxl_err *err, const char *where, const char *fmt, ...)
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

/* ---- the slot table ----------------------------------------------------- */

static int slot_cmp(const void *a, const void *b)
{
	const cfg_slot *sa = a, *sb = b;

	return strcmp(sa->key->path, sb->key->path);
}

static int slot_find_cmp(const void *path, const void *elem)
{
	return strcmp(path, ((const cfg_slot *)elem)->key->path);
}

cfg_slot *cfg__find(const cfg *c, const char *path)
{
	return bsearch(path, c->slots, c->nslots, sizeof(cfg_slot), slot_find_cmp);
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

int cfg__group_known(const cfg *c, const char *g, size_t glen)
{
	size_t i = group_start(c, g, glen);

	return i < c->nslots && cfg__is_under(c->slots[i].key->path, g, glen);
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
	if (cfg__group_known(c, k->path, strlen(k->path)))
		CXL_PANIC("cfg: schema path \"%s\" is both a key and a group", k->path);
}

static cfg *cfg_new(const char *path, const cfg_schema *const *schemas,
		    size_t nschemas)
{
	cfg *c = xcalloc(1, sizeof(*c));
	size_t n = 0;

	c->file = path ? xstrdup(path) : NULL;
	for (size_t i = 0; i < nschemas; i++)
		n += schemas[i]->nkeys;
	c->slots = xcalloc(n, sizeof(cfg_slot));
	for (size_t i = 0; i < nschemas; i++)
		for (size_t j = 0; j < schemas[i]->nkeys; j++)
			c->slots[c->nslots++].key = &schemas[i]->keys[j];
	qsort(c->slots, c->nslots, sizeof(cfg_slot), slot_cmp);
	for (size_t i = 0; i < c->nslots; i++) {
		check_key(c, i);
		c->slots[i].has_val = cfg__value_default(c->slots[i].key, &c->slots[i].val);
	}
	return c;
}

/* Replace @s's value with @v (taken over) from @origin at @where (copied). */
static void slot_store(cfg_slot *s, cfg_value *v, enum cfg_origin origin,
		       const char *where)
{
	cfg__value_free(&s->val);
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

/* ---- the file ----------------------------------------------------------- */

static char *join(const char *prefix, const char *name)
{
	return prefix ? cfg__strfmt("%s.%s", prefix, name) : xstrdup(name);
}

static char *setting_where(const cfg *c, const config_setting_t *s)
{
	const char *f = config_setting_source_file(s);

	return cfg__strfmt("%s:%u", f ? f : c->file,
		      (unsigned)config_setting_source_line(s));
}

static int walk_group(cfg *c, const config_setting_t *g, const char *prefix,
		      cxl_err *err);

static int file_group(cfg *c, const config_setting_t *s, const char *path,
		      const char *where, cxl_err *err)
{
	const cfg_slot *sl = cfg__find(c, path);
	char buf[256];

	if (sl)
		return cfg__fail_at(err, where, "%s: wrong type: got a group (expected %s)",
			       path, cfg__expected(sl->key, buf, sizeof(buf)));
	if (!cfg__group_known(c, path, strlen(path)))
		return cfg__unknown(c, where, path, 1, err);
	remember_group(c, path);
	return walk_group(c, s, path, err);
}

/**
 * cfg__leaf - check the file setting @s as the value of key @path.
 * @c:     configuration being loaded
 * @s:     the (non-group) setting
 * @path:  its full dotted path
 * @where: "FILE:LINE" of @s, for errors
 * @slot:  OUT the key's slot
 * @v:     OUT the parsed value (the caller owns it)
 * @err:   OUT error record
 *
 * Return: 0, or CXL_EINVAL for an unknown key, a group path, a list for a
 * scalar key, or a bad value.
 */
int cfg__leaf(cfg *c, const config_setting_t *s, const char *path, const char *where,
	      cfg_slot **slot, cfg_value *v, cxl_err *err)
{
	cfg_slot *sl = cfg__find(c, path);
	cxl_err e = { 0 };
	char buf[256];

	if (!sl && cfg__group_known(c, path, strlen(path)))
		return cfg__fail_at(err, where, "%s: wrong type: got %s (expected a group)",
			       path, cfg__setting_type_text(config_setting_type(s)));
	if (!sl)
		return cfg__unknown(c, where, path, 0, err);
	if (config_setting_is_aggregate(s) && sl->key->type != CFG_LIST)
		return cfg__fail_at(err, where, "%s: lists are not supported for this key (expected %s)",
			       path, cfg__expected(sl->key, buf, sizeof(buf)));
	const int t = config_setting_type(s);
	int64_t exact = 0;
	if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
		char lit[64];
		if (cfg__int_literal(c, s, &exact, lit, sizeof(lit))) {
			cfg__int_range_error(sl->key, lit, &e);
			return cfg__fail_at(err, where, "%s", e.msg);
		}
	}
	if (cfg__value_from_setting(sl->key, s, exact, v, &e))
		return cfg__fail_at(err, where, "%s", e.msg);
	*slot = sl;
	return 0;
}

static int file_leaf(cfg *c, const config_setting_t *s, const char *path,
		     const char *where, cxl_err *err)
{
	cfg_slot *sl = NULL;
	cfg_value v = { 0 };
	int rc = cfg__leaf(c, s, path, where, &sl, &v, err);

	if (!rc)
		slot_store(sl, &v, CFG_ORIGIN_FILE, where);
	return rc;
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
		if (prefix && !strchr(prefix, '.') && !strcmp(config_setting_name(s), "overrides"))
			rc = cfg__override_file(c, s, prefix, where, err);
		else if (config_setting_is_group(s))
			rc = file_group(c, s, path, where, err);
		else
			rc = file_leaf(c, s, path, where, err);
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
	if (!strcmp(config_error_text(lc), "syntax error")) /* bison's text, saying nothing more */
		return cxl_err_set(err, CXL_EINVAL, "%s:%d: syntax error (expected settings "
				   "NAME = VALUE; with strings in double quotes and every {, ( and "
				   "[ closed; the mistake may be on an earlier line)", f,
				   config_error_line(lc));
	return cxl_err_set(err, CXL_EINVAL, "%s:%d: syntax error: %s", f,
			   config_error_line(lc), config_error_text(lc));
}

static int load_file(cfg *c, cxl_err *err)
{
	int rc = cfg_file_check(c->file, err);

	if (rc)
		return rc;
	FILE *f = fopen(c->file, "r");

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", c->file,
				   strerror(errno));
	fclose(f);

	config_t lc;
	config_init(&lc);
	rc = config_read_file(&lc, c->file)
			 ? walk_group(c, config_root_setting(&lc), NULL, err)
			 : read_error(c, &lc, err);
	config_destroy(&lc);
	cfg__src_free(c);
	return rc;
}

/* ---- --set and required keys --------------------------------------------- */

static int set_value(cfg *c, const char *path, const char *text,
		     const char *where, cxl_err *err)
{
	cfg_slot *sl = cfg__find(c, path);
	cfg_value v = { 0 };
	cxl_err e = { 0 };

	if (!sl)
		return cfg__unknown(c, where, path, 0, err);
	if (cfg__value_parse(sl->key, text, &v, &e))
		return cfg__fail_at(err, where, "%s", e.msg);
	slot_store(sl, &v, CFG_ORIGIN_SET, where);
	return 0;
}

static int apply_set(cfg *c, const char *set, cxl_err *err)
{
	const char *eq = strchr(set, '=');
	char *where = cfg__strfmt("--set %s", set);
	int rc;

	if (!eq) {
		rc = cfg__fail_at(err, where, "missing '=' (expected PATH=VALUE)");
	} else if (memchr(set, '[', (size_t)(eq - set))) {
		rc = cfg__override_set(c, set, eq, where, err);
	} else {
		char *path = cfg__strfmt("%.*s", (int)(eq - set), set);
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
					   cfg__expected(k, buf, sizeof(buf)));
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
	if (c->base)
		CXL_PANIC("cfg_free: a component's view belongs to its configuration");
	cfg__override_free(c);
	for (size_t i = 0; i < c->nslots; i++) {
		cfg__value_free(&c->slots[i].val);
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

/* The slot of @path, asked for by public function @fn; panics if unknown. */
static const cfg_slot *known(const cfg *c, const char *path, const char *fn)
{
	const cfg_slot *s = cfg__find(c, path);

	if (!s)
		CXL_PANIC("cfg: %s(\"%s\"): no such key in any schema", fn, path);
	return s;
}

/* The slot of @path, which must be of a type in @types (a bit mask). */
static const cfg_slot *typed(const cfg *c, const char *path, unsigned types,
			     const char *getter)
{
	const cfg_slot *s = known(c, path, getter);

	if (!(types & (1u << s->key->type)))
		CXL_PANIC("cfg: %s(\"%s\"): the key is a %s", getter, path,
			  cfg__type_name(s->key->type));
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
 * cfg_size - value in bytes of the CFG_SIZE key @path (0 to 2^63-1).
 * @c:    loaded configuration
 * @path: dotted key path
 */
uint64_t cfg_size(const cfg *c, const char *path)
{
	return (uint64_t)typed(c, path, 1u << CFG_SIZE, "cfg_size")->val.i;
}

/**
 * cfg_list - elements of the CFG_LIST key @path.
 * @c:    loaded configuration
 * @path: dotted key path
 * @n:    OUT number of elements; may be NULL
 *
 * Return: the elements followed by a NULL (never NULL itself), owned by
 * @c, valid until cfg_free().
 */
const char *const *cfg_list(const cfg *c, const char *path, size_t *n)
{
	const cfg_slot *s = typed(c, path, 1u << CFG_LIST, "cfg_list");

	if (n)
		*n = s->val.nlist;
	return (const char *const *)s->val.list;
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
	return known(c, path, "cfg_is_set")->origin != CFG_ORIGIN_DEFAULT;
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
		if (!strcmp(c->groups[i], group) || cfg__is_under(c->groups[i], group, glen))
			return 1;
	for (size_t i = group_start(c, group, glen);
	     i < c->nslots && cfg__is_under(c->slots[i].key->path, group, glen); i++)
		if (c->slots[i].origin != CFG_ORIGIN_DEFAULT)
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
	const cfg_slot *s = known(c, path, "cfg_error_at");
	va_list ap;

	va_start(ap, fmt);
	char *msg = vstrfmt(fmt, ap);
	va_end(ap);
	int rc;
	if (s->origin == CFG_ORIGIN_DEFAULT)
		rc = cxl_err_set(err, CXL_EINVAL, "%s: default: %s: %s",
				 file_label(c), path, msg);
	else
		rc = cxl_err_set(err, CXL_EINVAL, "%s: %s: %s", s->where, path, msg);
	free(msg);
	return rc;
}
