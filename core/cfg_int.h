/*
 * core/cfg_int.h - internals of the cfg module: the struct bodies of a
 * loaded configuration and the cfg__ helpers its files share.  Models and
 * other modules use cfg.h only; tests may include this.
 *
 * The module's files:
 *   cfg.c          loading and validation: the slot table, the file walk,
 *                  --set, required keys, the getters, cfg_error_at()
 *   cfg_value.c    the value of one key: from text or a libconfig setting
 *                  to a typed, range-checked cfg_value, and back to text
 *   cfg_suggest.c  "unknown key/group" errors with the closest known name
 *   cfg_out.c      cfg_dump() and cfg_help()
 *   cfg_override.c per-component overrides (`G.overrides` in the file,
 *                  `--set G[GLOB].KEY=VALUE`) and the views cfg_for()
 *                  builds from them
 *   cfg_literal.c  the exact value of an integer in the file (libconfig
 *                  1.5 wraps those beyond 32 bits)
 *   cfg_file.c     the config and its @includes must be regular files
 *                  (checked without blocking, before libconfig opens them)
 *
 * A loaded cfg is one table of slots, one per schema key, sorted by dotted
 * path.  The keys under a group "a.b" are the contiguous run of paths that
 * start with "a.b." (strings sharing a prefix are contiguous in
 * lexicographic order); cfg.c's lookups and cfg_dump()'s nesting rely on it.
 *
 * Error texts from cfg_value.c are "PATH: what (expected ...)", without a
 * location; the caller prefixes "FILE:LINE" or "--set PATH=VALUE".
 * A cfg is read-only after cfg_load(): concurrent readers are safe.
 */
#ifndef CXL_CORE_CFG_INT_H
#define CXL_CORE_CFG_INT_H

#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "core/cfg.h"

/* Where a slot's value came from, in rising priority. */
enum cfg_origin { CFG_ORIGIN_DEFAULT, CFG_ORIGIN_FILE, CFG_ORIGIN_SET };

typedef struct cfg_value cfg_value;
struct cfg_value {
	int64_t i;     /* CFG_INT; CFG_SIZE: bytes, 0 to 2^63-1 */
	double f;      /* CFG_FLOAT */
	int b;         /* CFG_BOOL: 0 or 1 */
	int idx;       /* CFG_ENUM: index into choices */
	sim_time t;    /* CFG_TIME, ps */
	char *s;       /* CFG_STRING, CFG_ENUM: the text, owned */
	char **list;   /* CFG_LIST: nlist elements then NULL, all owned; NULL if none */
	size_t nlist;  /* CFG_LIST: number of elements (of a bound: the count) */
};

typedef struct cfg_slot cfg_slot;
struct cfg_slot {
	const cfg_key *key;      /* schema entry, borrowed from the caller's table */
	cfg_value val;           /* the winning value, valid if has_val */
	int has_val;             /* 0 only while a required key has no value */
	enum cfg_origin origin;  /* where val came from */
	char *where;             /* "FILE:LINE" or "--set P=V", owned; NULL for defaults */
};

/* One key set by an override entry. */
typedef struct cfg_ovr_key cfg_ovr_key;
struct cfg_ovr_key {
	size_t slot;     /* index of the key's slot in the base table */
	cfg_value val;   /* the value, owned */
	char *where;     /* "FILE:LINE" or "--set ...", owned */
};

/* One entry of `G.overrides`, or one `--set G[GLOB].KEY=VALUE`. */
typedef struct cfg_override cfg_override;
struct cfg_override {
	char *group;        /* top-level group G, owned */
	char *match;        /* fnmatch(3) pattern on component names, owned */
	char *where;        /* where the entry starts, owned */
	enum cfg_origin origin;  /* CFG_ORIGIN_FILE or CFG_ORIGIN_SET */
	cfg_ovr_key *keys;  /* the keys it sets, in file order */
	size_t nkeys;       /* used entries of keys */
};

/* The text of one config file, while cfg_load() reads it (cfg_literal.c). */
typedef struct cfg_src cfg_src;
struct cfg_src {
	char *path;     /* the file, owned; NULL when empty */
	char *text;     /* its whole text, NUL-terminated, owned */
	size_t *line;   /* offset in text of the start of each line, owned */
	size_t nlines;  /* entries of line */
};

/*
 * A loaded configuration, or a view of one (base != NULL): a view is what
 * one component sees, the base's slots with the matching overrides
 * applied.  A view owns only its slot array and sel; every string it hands
 * out belongs to the base, and the base frees its views.
 */
struct cfg {
	const cfg *base;    /* NULL, or the configuration this is a view of */
	uint32_t *sel;      /* view: indices of the overrides applied, in order */
	size_t nsel;        /* view: entries of sel */
	cfg_override *ovr;  /* base: override entries, file ones then --set */
	size_t novr;        /* base: entries of ovr */
	cfg **views;        /* base: views made so far by cfg_for() (memo) */
	size_t nviews;      /* base: entries of views */
	char *file;         /* config path as given, owned; NULL if none */
	cfg_slot *slots;    /* one per schema key, sorted by path */
	size_t nslots;      /* number of slots */
	char **groups;      /* group paths written in the file, owned */
	size_t ngroups;     /* used entries of groups */
	size_t groups_cap;  /* allocated entries of groups */
	cfg_src src;        /* base, while loading: the file integers are read from */
};

/* cfg__is_under - is @path inside group @g (length @glen): does it start "g."? */
static inline int cfg__is_under(const char *path, const char *g, size_t glen)
{
	return !strncmp(path, g, glen) && path[glen] == '.';
}

/* cfg__parent_len - length of the parent of the group @open[0..@olen) (0 at the top). */
static inline size_t cfg__parent_len(const char *open, size_t olen)
{
	while (olen > 0 && open[olen - 1] != '.')
		olen--;
	return olen > 0 ? olen - 1 : 0;
}

/* cfg_value.c: values of one key (contracts at the definitions). */
const char *cfg__type_name(enum cfg_type type);
const char *cfg__expected(const cfg_key *k, char *buf, size_t n);
const char *cfg__setting_type_text(int type);
char *cfg__range_text(const cfg_key *k, char *buf, size_t n);
int cfg__value_default(const cfg_key *k, cfg_value *v);
int cfg__value_parse(const cfg_key *k, const char *text, cfg_value *v, cxl_err *e);
int cfg__value_from_setting(const cfg_key *k, const config_setting_t *s, int64_t exact,
			    cfg_value *v, cxl_err *e);
void cfg__value_write(FILE *f, const cfg_key *k, const cfg_value *v);
int cfg__int_range_error(const cfg_key *k, const char *text, cxl_err *e);
void cfg__value_free(cfg_value *v);

/* cfg.c: shared by the module's files (contracts at the definitions). */
char *cfg__strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cfg__fail_at(cxl_err *err, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
cfg_slot *cfg__find(const cfg *c, const char *path);
int cfg__group_known(const cfg *c, const char *g, size_t glen);
int cfg__leaf(cfg *c, const config_setting_t *s, const char *path, const char *where,
	      cfg_slot **slot, cfg_value *v, cxl_err *err);

/* cfg_override.c: per-component overrides. */
int cfg__override_file(cfg *c, const config_setting_t *list, const char *group,
		       const char *where, cxl_err *err);
int cfg__override_set(cfg *c, const char *set, const char *eq, const char *where,
		      cxl_err *err);
void cfg__override_dump(const cfg *c, FILE *f, const char *group, size_t glen);
void cfg__override_free(cfg *c);

/* cfg_literal.c: integers as written in the file. */
#define CFG_INT_RANGE_TEXT "-2^63 to 2^63-1" /* what an integer can hold */
int cfg__int_literal(cfg *c, const config_setting_t *s, int64_t *out, char *lit, size_t n);
void cfg__src_free(cfg *c);

/* cfg_suggest.c: unknown names. */
int cfg__unknown(const cfg *c, const char *where, const char *name,
		 int want_group, cxl_err *err);

#endif
