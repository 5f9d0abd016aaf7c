/*
 * core/cfg_literal.c - the exact value of an integer written in a config
 * file (part of the cfg module; map in cfg_int.h).
 *
 * libconfig 1.5 converts an integer literal without the L suffix with
 * atoi() (decimal) or strtoul() (0x hex) into an int, silently: 4294967296
 * becomes 0, 9223372036854775807 and 0xffffffffffffffff become -1.  With
 * the suffix it uses atoll() or strtoull(): a decimal beyond 2^63-1
 * saturates, a hex literal above it wraps negative.  So `seed = 4294967296;`
 * ran with seed 0, and `seed = 0xffffffffffffffff;` was refused as "-1".
 *
 * cfg__int_literal() goes back to the setting's source line (libconfig
 * keeps file and line of every setting: the line of its name), finds
 * `NAME = LITERAL` or `NAME : LITERAL` starting there (white space and line
 * breaks allowed around the = or :) and reads the literal itself, exactly.
 * The literal is trusted only if libconfig's conversion of it gives
 * libconfig's value; when none does (a comment between name and value, a
 * config read from a string), libconfig's value stands, as before.
 *
 * Cost: each file is read once per load into c->src (the text and the
 * start of each line), so a config of thousands of overrides reads its
 * file once, not once per integer.  The cache lives only while cfg_load()
 * reads the file (cfg__src_free()).
 */
#include "core/cfg_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "core/xmalloc.h"

/* Make c->src hold @path; 0, or -1 if it cannot be read. */
static int src_load(cfg *c, const char *path)
{
	cfg_src *s = &c->src;

	if (s->path && !strcmp(s->path, path))
		return 0;
	cfg__src_free(c);
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, len = 0, got;
	char *text = xmalloc(cap);
	while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap)
			text = xrealloc(text, cap *= 2);
	}
	fclose(f);
	text[len] = '\0';
	size_t nl = 1;
	for (size_t i = 0; i < len; i++)
		nl += text[i] == '\n';
	s->line = xmalloc(nl * sizeof(*s->line));
	s->nlines = 0;
	s->line[s->nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			s->line[s->nlines++] = i + 1;
	s->path = xstrdup(path);
	s->text = text;
	return 0;
}

/* libconfig's name characters (scanner.l: [A-Za-z*][-A-Za-z0-9_*]*). */
static int name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '-' || ch == '_' || ch == '*';
}

/* Length of the literal at @p: [-+]?(0[xX][0-9a-fA-F]+|[0-9]+)(L|LL)?, 0 if none. */
static size_t literal_len(const char *p, int *hex, int *suffix)
{
	size_t i = (*p == '-' || *p == '+'), d;

	*hex = p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X');
	if (*hex && i)
		return 0; /* libconfig has no signed hex */
	i += *hex ? 2 : 0;
	for (d = 0;; d++) {
		const unsigned char ch = (unsigned char)p[i + d];
		if (!(*hex ? isxdigit(ch) : isdigit(ch)))
			break;
	}
	if (!d)
		return 0;
	i += d;
	*suffix = p[i] == 'L';
	i += *suffix + (*suffix && p[i + 1] == 'L');
	return name_char(p[i]) || p[i] == '.' ? 0 : i;
}

/* What libconfig 1.5 makes of literal @t (scanner.l), as its setting holds it. */
static long long libconfig_value(const char *t, int hex, int suffix)
{
	if (suffix)
		return hex ? (long long)strtoull(t, NULL, 16) : atoll(t);
	return hex ? (int)strtoul(t, NULL, 16) : atoi(t);
}

/* The exact value of literal @t: 0, or 1 if it does not fit in int64. */
static int exact_value(const char *t, int hex, int64_t *out)
{
	errno = 0;
	if (hex) {
		unsigned long long u = strtoull(t, NULL, 16);
		if (errno || u > INT64_MAX)
			return 1;
		*out = (int64_t)u;
		return 0;
	}
	long long v = strtoll(t, NULL, 10);
	if (errno)
		return 1;
	*out = v;
	return 0;
}

/**
 * cfg__int_literal - the integer the file setting @s was written as.
 * @c:   the configuration being loaded (its source cache, c->src)
 * @s:   an integer setting (CONFIG_TYPE_INT or CONFIG_TYPE_INT64)
 * @out: OUT the value: exact, or libconfig's when the literal is not found
 * @lit: OUT the literal as written (NUL-terminated, cut to @n - 1 bytes)
 * @n:   size of @lit, at least 1
 *
 * Return: 0 with *@out set, or 1 if the literal does not fit in a signed
 * 64-bit integer (*@out untouched; @lit names it for the error message).
 */
int cfg__int_literal(cfg *c, const config_setting_t *s, int64_t *out, char *lit, size_t n)
{
	const long long have = config_setting_get_int64(s);
	const char *file = config_setting_source_file(s) ? config_setting_source_file(s) : c->file;
	const char *name = config_setting_name(s);
	const unsigned line = config_setting_source_line(s);

	*out = have;
	snprintf(lit, n, "%lld", have);
	if (!file || !name || !line || src_load(c, file) || line > c->src.nlines)
		return 0;
	const size_t nlen = strlen(name);
	const char *p = c->src.text + c->src.line[line - 1], *end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	for (const char *q = p; (q = strstr(q, name)) && q < end; q++) {
		if ((q > p && name_char(q[-1])) || name_char(q[nlen]))
			continue;
		const char *v = q + nlen + strspn(q + nlen, " \t\r\n");
		if (*v != '=' && *v != ':')
			continue;
		v += 1 + strspn(v + 1, " \t\r\n");
		int hex, suffix;
		size_t len = literal_len(v, &hex, &suffix);
		char t[64];
		if (!len || len >= sizeof(t))
			continue;
		memcpy(t, v, len);
		t[len] = '\0';
		if (libconfig_value(t, hex, suffix) != have)
			continue;
		snprintf(lit, n, "%s", t);
		return exact_value(t, hex, out);
	}
	return 0;
}

/* cfg__src_free - drop the source cache of @c (safe when empty). */
void cfg__src_free(cfg *c)
{
	free(c->src.path);
	free(c->src.text);
	free(c->src.line);
	c->src = (cfg_src){ 0 };
}
