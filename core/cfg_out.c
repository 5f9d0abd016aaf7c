/*
 * core/cfg_out.c - the output side of the cfg module (map in cfg_int.h):
 * cfg_dump() writes a loaded configuration back as a libconfig file, and
 * cfg_help() prints the reference table of a set of schemas.
 *
 * cfg_dump() walks the sorted slot table once, opening and closing groups
 * as the path prefix changes (the keys of a group are contiguous); each
 * value is written by cfg__value_write().  cfg_help() needs no loaded cfg,
 * only the schemas: two passes, one for the column widths, one to print.
 * Both write to the caller's stream and keep no state.
 */
#include "core/cfg_int.h"

/**
 * cfg_dump - write the effective configuration in libconfig syntax.
 * @c: loaded configuration
 * @f: output stream
 *
 * Every key is written, in path order, nested in its groups, with each
 * top-level group's per-component `overrides` at its end.  Keys that hold
 * their default are written commented out ("# key = value;  (default)"):
 * the value is on record, and reloading the dump sets exactly the keys
 * the original set, so checks that depend on what was given (a key that
 * does not apply to the topology kind) see the same.  Loading the output
 * with the same schemas gives the same values and overrides.
 */
void cfg_dump(const cfg *c, FILE *f)
{
	const char *open = "";  /* path whose first olen chars name the open group */
	size_t olen = 0;
	int depth = 0;

	for (size_t i = 0; i < c->nslots; i++) {
		const cfg_slot *s = &c->slots[i];
		const char *p = s->key->path;
		while (depth > 0 && !cfg__is_under(p, open, olen)) {
			if (depth == 1)
				cfg__override_dump(c, f, open, olen);
			fprintf(f, "%*s};\n", 2 * --depth, "");
			olen = cfg__parent_len(open, olen);
		}
		open = p;
		const char *name = p + (olen ? olen + 1 : 0);
		for (const char *dot; (dot = strchr(name, '.')); name = dot + 1) {
			fprintf(f, "%*s%.*s = {\n", 2 * depth++, "", (int)(dot - name), name);
			olen = (size_t)(dot - p);
		}
		int def = s->origin == CFG_ORIGIN_DEFAULT;
		fprintf(f, "%*s%s%s = ", 2 * depth, "", def ? "# " : "", name);
		cfg__value_write(f, s->key, &s->val);
		fputs(def ? ";  (default)\n" : ";\n", f);
	}
	while (depth > 0) {
		if (depth == 1)
			cfg__override_dump(c, f, open, olen);
		fprintf(f, "%*s};\n", 2 * --depth, "");
		olen = cfg__parent_len(open, olen);
	}
}

enum { COL_PATH, COL_TYPE, COL_DEF, COL_RANGE, COL_CHOICES, NCOLS };

typedef struct help_row help_row;
struct help_row {
	const char *cell[NCOLS];  /* column texts */
	char def[256];            /* storage for a quoted string or list default */
	char range[256];          /* storage for the range text */
};

/* @k's list default as the file writes it, ["a", "b"], truncated to @n. */
static const char *list_default(const cfg_key *k, char *buf, size_t n)
{
	cfg_value v = { 0 };
	size_t len = 1;

	cfg__value_default(k, &v);
	snprintf(buf, n, "[");
	for (size_t i = 0; i < v.nlist && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s\"%s\"", i ? ", " : "",
					v.list[i]);
	if (len < n)
		snprintf(buf + len, n - len, "]");
	cfg__value_free(&v);
	return buf;
}

static void help_fill(help_row *r, const cfg_key *k)
{
	r->cell[COL_PATH] = k->path;
	r->cell[COL_TYPE] = cfg__type_name(k->type);
	r->cell[COL_DEF] = k->def ? k->def : "(required)";
	if (k->def && k->type == CFG_STRING) {
		snprintf(r->def, sizeof(r->def), "\"%s\"", k->def);
		r->cell[COL_DEF] = r->def;
	}
	if (k->def && k->type == CFG_LIST)
		r->cell[COL_DEF] = list_default(k, r->def, sizeof(r->def));
	r->cell[COL_RANGE] = cfg__range_text(k, r->range, sizeof(r->range));
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

/* The units of the time and size keys, after a blank line, if @schemas have any. */
static void help_units(const cfg_schema *const *schemas, size_t nschemas, FILE *f)
{
	unsigned types = 0;

	for (size_t s = 0; s < nschemas; s++)
		for (size_t j = 0; j < schemas[s]->nkeys; j++)
			types |= 1u << schemas[s]->keys[j].type;
	if (types & ((1u << CFG_TIME) | (1u << CFG_SIZE)))
		fputc('\n', f);
	if (types & (1u << CFG_TIME))
		fputs("time: a string with a unit ps|ns|us|ms|s, e.g. \"25ns\", \"1.5us\"\n", f);
	if (types & (1u << CFG_SIZE))
		fputs("size: bytes, an integer (4096) or a string with a unit B|KiB|MiB|GiB|TiB "
		      "(1024-based) or kB|MB|GB|TB (1000-based), e.g. \"4KiB\", \"1.5MiB\"\n", f);
}

/**
 * cfg_help - print every key of @schemas as an aligned table.
 * @schemas:  the schemas
 * @nschemas: number of schemas
 * @f:        output stream
 *
 * One section per schema; columns KEY, TYPE, DEFAULT ("(required)" for a
 * required key; strings quoted, lists as ["a", "b"]), RANGE (inclusive; the
 * element count for a list), CHOICES (enums) and DESCRIPTION; then, after a
 * blank line, the units of the time and size types if any key has one.
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
	help_units(schemas, nschemas, f);
}
