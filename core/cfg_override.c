/*
 * core/cfg_override.c - per-component overrides and the views built from
 * them (map of the module in cfg_int.h; public contract in cfg.h).
 *
 * In the file, a top-level group G may hold a list `overrides`: each entry
 * is a group with a `match` glob (fnmatch(3), on component names) and any
 * keys of G, written as inside G (nested groups too):
 *
 *   memory = {
 *     latency = "40ns";
 *     overrides = ( { match = "mem0"; latency = "80ns"; dram = { preset = "DDR5-4800"; }; } );
 *   };
 *
 * On the command line, `--set G[GLOB].KEY=VALUE` adds a one-key entry after
 * the file's.  Keys are checked exactly like the group's own (unknown key
 * with a suggestion, type, range), when the file is loaded.
 *
 * The loader does not know components: which component types read which
 * groups is the models' business (model_ops.cfg_groups), and the engine
 * checks that every entry matches some component (sim_check_overrides()).
 * cfg_for() gives a component its view: the base slots with every
 * applicable entry applied in order (file order, then --set order; the
 * last entry that sets a key wins, and an override always beats the
 * group's plain value, from the file or --set).  Components that match the
 * same entries share one view; views are memoised in the base, so
 * cfg_for() is cheap after the first call but, unlike the getters, not
 * safe to call concurrently.
 *
 * Cost: a view is a copy of the slot table (about 100 bytes per key); a
 * view exists per distinct set of matching entries, not per component.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/cfg_int.h"
#include "core/xmalloc.h"

static cfg_override *ovr_new(cfg *c, const char *group, size_t glen, const char *match,
			     const char *where, enum cfg_origin origin)
{
	c->ovr = xrealloc(c->ovr, (c->novr + 1) * sizeof(*c->ovr));
	cfg_override *o = &c->ovr[c->novr++];
	*o = (cfg_override){ .group = cfg__strfmt("%.*s", (int)glen, group),
			     .match = xstrdup(match), .where = xstrdup(where),
			     .origin = origin };
	return o;
}

/* Record that @o sets @slot to @v (taken over) at @where. */
static void ovr_key(const cfg *c, cfg_override *o, const cfg_slot *slot, cfg_value *v,
		    const char *where)
{
	o->keys = xrealloc(o->keys, (o->nkeys + 1) * sizeof(*o->keys));
	o->keys[o->nkeys++] = (cfg_ovr_key){ .slot = (size_t)(slot - c->slots),
					     .val = *v, .where = xstrdup(where) };
}

static char *where_of(const cfg *c, const config_setting_t *s)
{
	const char *f = config_setting_source_file(s);

	return cfg__strfmt("%s:%u", f ? f : c->file, (unsigned)config_setting_source_line(s));
}

/* The keys of one entry's group @g (or a nested group), under @prefix. */
static int entry_keys(cfg *c, cfg_override *o, const config_setting_t *g,
		      const char *prefix, cxl_err *err)
{
	int rc = 0;

	for (int i = 0; !rc && i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		if (!strcmp(name, "match") && !strchr(prefix, '.'))
			continue;
		char *path = cfg__strfmt("%s.%s", prefix, name);
		char *where = where_of(c, s);
		const cfg_slot *key = cfg__find(c, path);
		char buf[256];
		if (config_setting_is_group(s) && key) {
			rc = cfg__fail_at(err, where, "%s: wrong type: got a group (expected %s)",
					  path, cfg__expected(key->key, buf, sizeof(buf)));
		} else if (config_setting_is_group(s)) {
			rc = cfg__group_known(c, path, strlen(path))
				     ? entry_keys(c, o, s, path, err)
				     : cfg__unknown(c, where, path, 1, err);
		} else {
			cfg_slot *sl = NULL;
			cfg_value v = { 0 };
			rc = cfg__leaf(c, s, path, where, &sl, &v, err);
			if (!rc)
				ovr_key(c, o, sl, &v, where);
		}
		free(where);
		free(path);
	}
	return rc;
}

/**
 * cfg__override_file - read the file setting @list = `GROUP.overrides`.
 * @c:     configuration being loaded
 * @list:  the setting
 * @group: the top-level group that holds it
 * @where: "FILE:LINE" of @list
 * @err:   OUT error record
 *
 * Return: 0, or CXL_EINVAL: not a list of groups, an entry without a
 * string `match`, or a bad key in an entry.
 */
int cfg__override_file(cfg *c, const config_setting_t *list, const char *group,
		       const char *where, cxl_err *err)
{
	const char *shape = "a list of groups ( { match = \"GLOB\"; KEY = VALUE; ... } )";

	if (!config_setting_is_list(list) && !config_setting_is_array(list))
		return cfg__fail_at(err, where, "%s.overrides: wrong type: got %s (expected %s)",
				    group, cfg__setting_type_text(config_setting_type(list)),
				    shape);
	int rc = 0;
	for (int i = 0; !rc && i < config_setting_length(list); i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		char *ew = where_of(c, e);
		const config_setting_t *m = config_setting_get_member(e, "match");
		if (!config_setting_is_group(e))
			rc = cfg__fail_at(err, ew, "%s.overrides[%d]: wrong type: got %s "
					  "(expected %s)", group, i,
					  cfg__setting_type_text(config_setting_type(e)), shape);
		else if (!m || config_setting_type(m) != CONFIG_TYPE_STRING ||
			 !*config_setting_get_string(m))
			rc = cfg__fail_at(err, ew, "%s.overrides[%d]: needs match = \"GLOB\" "
					  "(a component name or pattern, e.g. \"host3\" or "
					  "\"leaf*\")", group, i);
		else
			rc = entry_keys(c, ovr_new(c, group, strlen(group),
						   config_setting_get_string(m), ew,
						   CFG_ORIGIN_FILE),
					e, group, err);
		free(ew);
	}
	return rc;
}

/**
 * cfg__override_set - apply `--set G[GLOB].KEY=VALUE`.
 * @c:     configuration being loaded
 * @set:   the whole argument
 * @eq:    its '='
 * @where: "--set ..." for errors
 * @err:   OUT error record
 *
 * Return: 0, or CXL_EINVAL for a malformed path, an unknown group or key,
 * or a bad value.
 */
int cfg__override_set(cfg *c, const char *set, const char *eq, const char *where,
		      cxl_err *err)
{
	const char *lb = strchr(set, '['), *rb = NULL;

	for (const char *p = lb; p < eq; p++)  /* the last ']' before '=': globs have [] too */
		rb = *p == ']' ? p : rb;

	if (!rb || rb > eq || rb == lb + 1 || rb[1] != '.' || memchr(set, '.', (size_t)(lb - set)))
		return cfg__fail_at(err, where, "expected GROUP[GLOB].KEY=VALUE for a "
				    "per-component override (e.g. host[host3].latency=20ns)");
	size_t glen = (size_t)(lb - set);
	char *group = cfg__strfmt("%.*s", (int)glen, set);
	char *path = cfg__strfmt("%s%.*s", group, (int)(eq - rb - 1), rb + 1);
	char *match = cfg__strfmt("%.*s", (int)(rb - lb - 1), lb + 1);
	cfg_slot *sl = cfg__find(c, path);
	cfg_value v = { 0 };
	cxl_err e = { 0 };
	int rc = 0;

	if (!glen || !cfg__group_known(c, group, glen))
		rc = cfg__unknown(c, where, group, 1, err);
	else if (!sl)
		rc = cfg__unknown(c, where, path, 0, err);
	else if (cfg__value_parse(sl->key, eq + 1, &v, &e))
		rc = cfg__fail_at(err, where, "%s", e.msg);
	else
		ovr_key(c, ovr_new(c, group, glen, match, where, CFG_ORIGIN_SET), sl, &v, where);
	free(match);
	free(path);
	free(group);
	return rc;
}

/* cfg__override_free - free @c's override entries and views. */
void cfg__override_free(cfg *c)
{
	for (size_t i = 0; i < c->novr; i++) {
		cfg_override *o = &c->ovr[i];
		for (size_t k = 0; k < o->nkeys; k++) {
			cfg__value_free(&o->keys[k].val);
			free(o->keys[k].where);
		}
		free(o->keys);
		free(o->group);
		free(o->match);
		free(o->where);
	}
	free(c->ovr);
	for (size_t i = 0; i < c->nviews; i++) {
		free(c->views[i]->slots);
		free(c->views[i]->sel);
		free(c->views[i]);
	}
	free(c->views);
}

/* Is @word one of the space-separated words of @list? */
static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += *p == ' ') {
		if (!strncmp(p, word, n) && (p[n] == ' ' || !p[n]))
			return 1;
	}
	return 0;
}

/**
 * cfg_overrides - number of override entries (file entries, then --set).
 * @c: loaded configuration
 */
size_t cfg_overrides(const cfg *c)
{
	return c->novr;
}

/**
 * cfg_override_applies - whether entry @i applies to a component.
 * @c:      loaded configuration
 * @i:      entry, < cfg_overrides(@c)
 * @name:   the component's name
 * @groups: the config groups its model reads per component ("host workload"),
 *          or NULL for none
 *
 * Return: 1 if the entry's group is in @groups and its glob matches @name.
 */
int cfg_override_applies(const cfg *c, size_t i, const char *name, const char *groups)
{
	CXL_ASSERT(i < c->novr);
	return word_in(c->ovr[i].group, groups) && !fnmatch(c->ovr[i].match, name, 0);
}

/**
 * cfg_override_error - report a semantic error about override entry @i.
 * @c:   loaded configuration
 * @i:   entry
 * @err: OUT error record, may be NULL
 * @fmt: printf format of what is wrong
 *
 * The message is `WHERE: GROUP.overrides (match "GLOB"): <fmt>`.
 * Return: CXL_EINVAL.
 */
int cfg_override_error(const cfg *c, size_t i, cxl_err *err, const char *fmt, ...)
{
	const cfg_override *o = &c->ovr[i];
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cxl_err_set(err, CXL_EINVAL, "%s: %s.overrides (match \"%s\"): %s", o->where,
			   o->group, o->match, msg);
}

/**
 * cfg_override_label - "GROUP[GLOB] (WHERE)" of entry @i, for listings.
 * @c: loaded configuration
 * @i: entry
 * @buf, @n: storage (truncated to @n)
 * Return: @buf.
 */
const char *cfg_override_label(const cfg *c, size_t i, char *buf, size_t n)
{
	const cfg_override *o = &c->ovr[i];

	snprintf(buf, n, "%s[%s] (%s)", o->group, o->match, o->where);
	return buf;
}

/* The view of @c with entries sel[0..n) applied, made now. */
static cfg *view_new(const cfg *c, const uint32_t *sel, size_t n)
{
	cfg *v = xmalloc(sizeof(*v));

	*v = *c;
	v->base = c;
	v->ovr = NULL;
	v->novr = 0;
	v->views = NULL;
	v->nviews = 0;
	v->sel = xmalloc(n * sizeof(*sel));
	memcpy(v->sel, sel, n * sizeof(*sel));
	v->nsel = n;
	v->slots = xmalloc(c->nslots * sizeof(cfg_slot));
	memcpy(v->slots, c->slots, c->nslots * sizeof(cfg_slot));
	for (size_t i = 0; i < n; i++) {
		const cfg_override *o = &c->ovr[sel[i]];
		for (size_t k = 0; k < o->nkeys; k++) {
			cfg_slot *s = &v->slots[o->keys[k].slot];
			s->val = o->keys[k].val;
			s->has_val = 1;
			s->origin = o->origin;
			s->where = o->keys[k].where;
		}
	}
	return v;
}

/**
 * cfg_for - the configuration one component sees.
 * @c:      loaded configuration (not a view)
 * @name:   the component's name
 * @groups: config groups its model reads per component, space-separated
 *          ("host workload"); NULL or "" for none
 *
 * Return: @c itself when no override applies, else a view with the
 * applicable entries applied (see the file comment), owned by @c and
 * valid until cfg_free(@c).  Memoised inside @c: not thread-safe.
 */
const cfg *cfg_for(const cfg *c, const char *name, const char *groups)
{
	CXL_ASSERT(!c->base);
	if (!c->novr || !groups || !*groups)
		return c;

	uint32_t *sel = xmalloc(c->novr * sizeof(*sel));
	size_t n = 0;
	for (size_t i = 0; i < c->novr; i++)
		if (cfg_override_applies(c, i, name, groups))
			sel[n++] = (uint32_t)i;
	const cfg *v = c;
	for (size_t i = 0; n && v == c && i < c->nviews; i++)
		if (c->views[i]->nsel == n && !memcmp(c->views[i]->sel, sel, n * sizeof(*sel)))
			v = c->views[i];
	if (n && v == c) {
		cfg *m = (cfg *)c; /* the memo is not part of the value */
		m->views = xrealloc(m->views, (m->nviews + 1) * sizeof(*m->views));
		v = m->views[m->nviews++] = view_new(c, sel, n);
	}
	free(sel);
	return v;
}

static int key_slot_cmp(const void *a, const void *b)
{
	const cfg_ovr_key *x = *(const cfg_ovr_key *const *)a, *y = *(const cfg_ovr_key *const *)b;

	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* One entry's keys, sorted by path so nested groups open once each. */
static void dump_entry(const cfg *c, FILE *f, const cfg_override *o, size_t glen)
{
	const cfg_ovr_key **k = xmalloc((o->nkeys ? o->nkeys : 1) * sizeof(*k));
	const char *open = "";  /* relative path whose first olen chars are open */
	size_t olen = 0;

	for (size_t i = 0; i < o->nkeys; i++)
		k[i] = &o->keys[i];
	qsort(k, o->nkeys, sizeof(*k), key_slot_cmp);
	fprintf(f, "    { match = \"%s\";", o->match);
	for (size_t i = 0; i < o->nkeys; i++) {
		const cfg_key *key = c->slots[k[i]->slot].key;
		const char *rel = key->path + glen + 1;
		for (; olen && !cfg__is_under(rel, open, olen); olen = cfg__parent_len(open, olen))
			fputs(" };", f);
		open = rel;
		const char *name = rel + (olen ? olen + 1 : 0);
		for (const char *dot; (dot = strchr(name, '.')); name = dot + 1) {
			fprintf(f, " %.*s = {", (int)(dot - name), name);
			olen = (size_t)(dot - rel);
		}
		fprintf(f, " %s = ", name);
		cfg__value_write(f, key, &k[i]->val);
		fputc(';', f);
	}
	for (; olen; olen = cfg__parent_len(open, olen))
		fputs(" };", f);
	fputs(" }", f);
	free(k);
}

/**
 * cfg__override_dump - write the `overrides` list of top-level group
 * @group (length @glen) inside that group, in libconfig syntax, one entry
 * per line; nothing if it has none.
 */
void cfg__override_dump(const cfg *c, FILE *f, const char *group, size_t glen)
{
	int first = 1;

	for (size_t i = 0; i < c->novr; i++) {
		const cfg_override *o = &c->ovr[i];
		if (strlen(o->group) != glen || strncmp(o->group, group, glen))
			continue;
		fputs(first ? "  overrides = (\n" : ",\n", f);
		first = 0;
		dump_entry(c, f, o, glen);
	}
	if (!first)
		fputs("\n  );\n", f);
}
