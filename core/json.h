/*
 * core/json.h - a small streaming JSON writer with deterministic output.
 *
 * Used for stats.json and partition.json.  The writer tracks nesting and
 * commas; numbers are printed the same way on every rank and every run
 * (integers exactly, doubles with "%.9g", non-finite doubles as null), which
 * is what lets two runs' files be compared byte for byte.  Objects nest with
 * two-space indentation; an object or array opened with the _inline variant
 * stays on one line (used for small leaf objects such as histogram digests).
 */
#ifndef CXL_CORE_JSON_H
#define CXL_CORE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

typedef struct json_w json_w;
struct json_w {
	FILE *f;                     /* output */
	int depth;                   /* open containers */
	int count[JSON_MAX_DEPTH];   /* items written in each open container */
	int inl[JSON_MAX_DEPTH];     /* 1 if that container is on one line */
	char close[JSON_MAX_DEPTH];  /* '}' or ']' for each open container */
	int after_key;               /* a key was written; its value comes next */
};

void json_init(json_w *w, FILE *f);
/* json_key - the key of the next value (inside an object only). */
void json_key(json_w *w, const char *key);
void json_obj(json_w *w);        /* { on its own lines */
void json_obj_inline(json_w *w); /* { on one line */
void json_arr(json_w *w);
void json_arr_inline(json_w *w);
void json_end(json_w *w);        /* } or ] */
void json_u64(json_w *w, uint64_t v);
void json_i64(json_w *w, int64_t v);
void json_dbl(json_w *w, double v);
void json_str(json_w *w, const char *s);
void json_null(json_w *w);
void json_bool(json_w *w, int v);
/* Key and value in one call (inside an object only). */
static inline void json_kv_u64(json_w *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_u64(w, v);
}

static inline void json_kv_dbl(json_w *w, const char *key, double v)
{
	json_key(w, key);
	json_dbl(w, v);
}

static inline void json_kv_str(json_w *w, const char *key, const char *s)
{
	json_key(w, key);
	json_str(w, s);
}

/* json_kv_u64_or_null - @v, or null when it equals @none (e.g. no lookahead). */
static inline void json_kv_u64_or_null(json_w *w, const char *key, uint64_t v, uint64_t none)
{
	json_key(w, key);
	if (v == none)
		json_null(w);
	else
		json_u64(w, v);
}

/* json_kv_dbl_or_null - @v, or null when @have is 0 (a figure not measured). */
static inline void json_kv_dbl_or_null(json_w *w, const char *key, double v, int have)
{
	json_key(w, key);
	if (have)
		json_dbl(w, v);
	else
		json_null(w);
}

/* json_finish - newline after the top-level value. */
void json_finish(json_w *w);

#endif
