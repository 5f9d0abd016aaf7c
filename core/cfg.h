/*
 * core/cfg.h - strict configuration loader (libconfig files + --set overrides).
 *
 * The mechanism every config in cxlfab goes through: PHOLD now, fabric
 * configs (topology, host, bus, switch, memory, link, workload) later, by
 * adding schemas, never by special-casing.
 *
 * A schema is a static const table of cfg_key: dotted path, type, default,
 * range, documentation.  cfg_load() reads a libconfig file, checks EVERY
 * setting in it against the union of the schemas given (unknown key -> error
 * naming the closest known key; wrong type; out of range; bad unit), then
 * applies `--set PATH=VALUE` overrides with the same checks, then fills the
 * defaults.  Models read values with the typed getters; asking for a path
 * that is in no schema, or with the wrong getter, is a programming error and
 * panics.
 *
 * Types and text forms (in the file / in --set):
 *   CFG_INT    integer literal            4096          / 4096
 *   CFG_FLOAT  integer or float literal   0.25          / 0.25
 *   CFG_BOOL   true | false               true          / true
 *   CFG_STRING string                     "x"           / x
 *   CFG_ENUM   string, one of `choices`   "metis"       / metis
 *   CFG_TIME   string with unit (stime.h) "100ps"       / 100ps
 *   CFG_LIST   array or list of strings   ["a", "b c"]  / a,b c
 *   CFG_SIZE   bytes: integer, or string  4096, "4KiB"  / 4096, 4KiB
 *              with a unit (size.h)
 * Ranges (`min`, `max`) are texts in the type's own form ("1", "0.0",
 * "1ps", "64B"), inclusive, NULL for unbounded.  A NULL default makes a key
 * required.
 *
 * CFG_TIME is at most CFG_TIME_LIMIT (3600s = 3.6 x 10^15 ps, below 2^52),
 * whatever the source: a time key without a `max` has this one, and a
 * schema `max` above it is a programming error (panic).  So a time from a
 * config can enter sums without overflow checks: the current time (below
 * simulation.end, itself a time key) plus thousands of such times stays far
 * below 2^64 ps.  A time that would pass it ("18446744073709551615ps") is a
 * range error naming the key, never a wrapped sum.
 *
 * CFG_SIZE is a whole number of bytes, 0 to 2^63-1: a plain integer is
 * bytes (so configs written before sizes had units keep working), a string
 * carries a unit B, KiB, MiB, GiB, TiB (1024-based) or kB, MB, GB, TB
 * (1000-based), fractions allowed when exact ("1.5MiB"; "1.3KiB" is an
 * error).  cfg_size() returns it as uint64_t: a size is never negative and
 * the models' address arithmetic is unsigned; cfg_int() on a size key
 * panics like any wrong getter, so no model reads a size as a count by
 * accident.  cfg_dump() writes sizes as strings in their shortest exact
 * unit form ("4KiB", "1MB", "1536B").
 *
 * CFG_LIST is a list of strings (e.g. the switch names of a custom
 * topology).  In the file it is an array [...] or a list (...) whose
 * elements are all strings.  Its --set form (and so its default) is
 * comma-separated: each element is trimmed of surrounding white space, and
 * an empty or blank value is the empty list; an element that contains a
 * comma, or starts or ends with a space, can only be written in the file.
 * Its `min`/`max` bound the NUMBER of elements (non-negative integers).
 *
 * Errors (cxl_err message, code CXL_EINVAL, or CXL_EIO for an unreadable file):
 *   FILE:LINE: unknown key "phold.lp" (did you mean "phold.lps"?)
 *   FILE:LINE: phold.lps: wrong type: got a string (expected an integer)
 *   FILE:LINE: phold.remote: 1.5 is out of range (expected 0 to 1)
 *   FILE:LINE: phold.lookahead: negative time "-5ns" (a time is >= 0)
 *   FILE:LINE: workload.footprint: size "1.3KiB" is not a whole number of bytes
 *   FILE:LINE: topo.links: wrong type: got an integer (expected a list of strings)
 *   FILE:LINE: topo.links[1]: wrong type: got an integer (expected a string)
 *   FILE:LINE: topo.links: 3 elements is out of range (expected 1 to 2)
 *   FILE:LINE: syntax error: <libconfig's text>
 *   FILE: missing required key "phold.lps" (an integer)
 *   --set phold.lp=3: unknown key "phold.lp" (did you mean "phold.lps"?)
 * Models that find a semantic error later use cfg_error_at(), which prefixes
 * the key's own FILE:LINE (or "--set KEY=VALUE", or "FILE: default").
 */
#ifndef CXL_CORE_CFG_H
#define CXL_CORE_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "core/stime.h"

/* The largest value of every CFG_TIME key (see above), and its text form. */
#define CFG_TIME_LIMIT ((sim_time)3600 * SIM_S)
#define CFG_TIME_LIMIT_TEXT "3600s"

enum cfg_type {
	CFG_INT, CFG_FLOAT, CFG_BOOL, CFG_STRING, CFG_ENUM, CFG_TIME, CFG_LIST, CFG_SIZE,
};

typedef struct cfg_key cfg_key;
struct cfg_key {
	const char *path;    /* dotted path, e.g. "phold.lps" */
	enum cfg_type type;  /* value type */
	const char *def;     /* default in --set text form; NULL = required */
	const char *min;     /* inclusive lower bound in text form, NULL = none
				(CFG_LIST: least number of elements) */
	const char *max;     /* inclusive upper bound in text form, NULL = none
				(CFG_LIST: most number of elements) */
	const char *choices; /* CFG_ENUM only: "a|b|c" */
	const char *doc;     /* one line for --help-config and the README */
};

typedef struct cfg_schema cfg_schema;
struct cfg_schema {
	const char *name;    /* "simulation", "phold", ... (for --help-config) */
	const cfg_key *keys; /* the keys */
	size_t nkeys;        /* number of keys */
};

typedef struct cfg cfg;

/**
 * cfg_load - read, check and complete a configuration.
 * @out:      OUT the loaded configuration (free with cfg_free)
 * @path:     config file; NULL means "no file": defaults and --set only
 * @schemas:  the schemas that together define every valid key
 * @nschemas: number of schemas
 * @sets:     --set overrides, each "PATH=VALUE"
 * @nsets:    number of overrides
 * @err:      OUT error record, may be NULL
 *
 * Return: 0, or CXL_EINVAL / CXL_EIO with @err filled and *@out untouched.
 * A path defined by two schemas is a programming error (panic).
 */
int cfg_load(cfg **out, const char *path, const cfg_schema *const *schemas,
	     size_t nschemas, const char *const *sets, size_t nsets, cxl_err *err);
void cfg_free(cfg *c);

/*
 * cfg_file_check - the config at @path, and every file it @includes, must
 * be a regular file (a FIFO would block every rank in fopen()): else
 * CXL_EINVAL "PATH: a FIFO (expected a regular file)" or "FILE:LINE:
 * @include "X": a folder (...)".  Never blocks; a missing file passes (the
 * load reports it).  cfg_load() calls it; callers that read the file before
 * (cfg_peek_group) call it first.
 */
int cfg_file_check(const char *path, cxl_err *err);

/* Typed getters: the validated value, from the file, --set, or the default. */
int64_t cfg_int(const cfg *c, const char *path);
double cfg_float(const cfg *c, const char *path);
int cfg_bool(const cfg *c, const char *path);
const char *cfg_str(const cfg *c, const char *path);  /* CFG_STRING, CFG_ENUM */
int cfg_enum(const cfg *c, const char *path);         /* index into choices */
sim_time cfg_time(const cfg *c, const char *path);
uint64_t cfg_size(const cfg *c, const char *path);    /* bytes, <= 2^63-1 */
/*
 * cfg_list - the elements of the CFG_LIST key @path, *@n of them (@n may be
 * NULL).  The array is NULL-terminated (never NULL itself, also when empty)
 * and owned by @c, valid until cfg_free().
 */
const char *const *cfg_list(const cfg *c, const char *path, size_t *n);

/* cfg_is_set - 1 if @path was given in the file or by --set, 0 if defaulted. */
int cfg_is_set(const cfg *c, const char *path);

/* cfg_has_group - 1 if the file or a --set mentions any key under @group. */
int cfg_has_group(const cfg *c, const char *group);

/* cfg_file - the config file path given to cfg_load (NULL if none). */
const char *cfg_file(const cfg *c);

/**
 * cfg_error_at - fill @err with "WHERE: PATH: <fmt>" where WHERE is the
 * FILE:LINE that set @path (or "--set PATH=VALUE", or "FILE: default").
 * Returns CXL_EINVAL.
 */
int cfg_error_at(const cfg *c, const char *path, cxl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Per-component overrides (contract in cfg_override.c): in the file,
 * `G = { ...; overrides = ( { match = "GLOB"; KEY = VALUE; ... } ); };` for
 * a top-level group G; on the command line `--set G[GLOB].KEY=VALUE`.
 * Models never see entries: each component gets cfg_for() its view.
 */
size_t cfg_overrides(const cfg *c);
int cfg_override_applies(const cfg *c, size_t i, const char *name, const char *groups);
int cfg_override_error(const cfg *c, size_t i, cxl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *cfg_override_label(const cfg *c, size_t i, char *buf, size_t n);
const cfg *cfg_for(const cfg *c, const char *name, const char *groups);

/* cfg_dump - the effective configuration (every key) in libconfig syntax. */
void cfg_dump(const cfg *c, FILE *f);

/* cfg_help - reference of every key: path, type, default, range, doc. */
void cfg_help(const cfg_schema *const *schemas, size_t nschemas, FILE *f);

#endif
