/*
 * core/json.c - streaming JSON writer (see json.h).
 */
#include "core/json.h"

#include <inttypes.h>
#include <math.h>

#include "core/err.h"

void json_init(json_w *w, FILE *f)
{
	*w = (json_w){ .f = f };
}

static void newline(json_w *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator and indentation before a new item of the current container. */
static void item(json_w *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->count[w->depth - 1]++)
		fputc(',', w->f);
	if (w->inl[w->depth - 1])
		fputc(' ', w->f);
	else
		newline(w);
}

static void str_raw(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_key(json_w *w, const char *key)
{
	CXL_ASSERT(w->depth > 0);
	CXL_ASSERT(w->close[w->depth - 1] == '}');
	item(w);
	str_raw(w->f, key);
	fputs(": ", w->f);
	w->after_key = 1;
}

static void open_container(json_w *w, char open, char close, int inl)
{
	item(w);
	if (w->depth >= JSON_MAX_DEPTH)
		CXL_PANIC("JSON nesting deeper than %d", JSON_MAX_DEPTH);
	fputc(open, w->f);
	w->count[w->depth] = 0;
	w->inl[w->depth] = inl || (w->depth > 0 && w->inl[w->depth - 1]);
	w->close[w->depth] = close;
	w->depth++;
}

void json_obj(json_w *w) { open_container(w, '{', '}', 0); }
void json_obj_inline(json_w *w) { open_container(w, '{', '}', 1); }
void json_arr(json_w *w) { open_container(w, '[', ']', 0); }
void json_arr_inline(json_w *w) { open_container(w, '[', ']', 1); }

void json_end(json_w *w)
{
	CXL_ASSERT(w->depth > 0);
	CXL_ASSERT(!w->after_key);
	w->depth--;
	if (w->count[w->depth]) {
		if (w->inl[w->depth])
			fputc(' ', w->f);
		else
			newline(w);
	}
	fputc(w->close[w->depth], w->f);
}

void json_u64(json_w *w, uint64_t v)
{
	item(w);
	fprintf(w->f, "%" PRIu64, v);
}

void json_i64(json_w *w, int64_t v)
{
	item(w);
	fprintf(w->f, "%" PRId64, v);
}

void json_dbl(json_w *w, double v)
{
	item(w);
	if (isfinite(v))
		fprintf(w->f, "%.9g", v);
	else
		fputs("null", w->f);
}

void json_str(json_w *w, const char *s)
{
	item(w);
	str_raw(w->f, s);
}

void json_bool(json_w *w, int v)
{
	item(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(json_w *w)
{
	item(w);
	fputs("null", w->f);
}

void json_finish(json_w *w)
{
	CXL_ASSERT(w->depth == 0);
	fputc('\n', w->f);
}
