/*
 * core/cfg_suggest.c - "unknown key" and "unknown group" errors, with the
 * closest known name as a suggestion (part of the cfg module; map in
 * cfg_int.h).
 *
 * Candidates are every schema key path (for a key) or every proper group
 * prefix of one (for a group).  Each is scored by Levenshtein distance,
 * ASCII case folded, between the full paths or between their last
 * components, whichever is smaller, so "simulation.lps" finds "phold.lps";
 * the full-path distance breaks ties, then schema path order.  A candidate
 * that differs in more than a third of the compared text is not suggested.
 *
 * Cost: O(keys x depth x len^2) per error, paid only on the error path;
 * a candidate whose length alone rules it out costs O(1), so a huge name
 * is rejected at once.
 */
#include "core/cfg_int.h"

#include <ctype.h>
#include <stdlib.h>

#include "core/xmalloc.h"

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
static size_t gap(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

static void consider(match *m, const char *name, const char *cand, size_t clen)
{
	const size_t nlen = strlen(name);
	const size_t nl = last_part(name, nlen), cl = last_part(cand, clen);

	/* a distance is at least the difference in length: when that alone is too
	 * far on both scores, skip the O(len^2) work (a 1 MB name took 2.6 s) */
	if (gap(nlen, clen) * 3 > max2(nlen, clen) &&
	    gap(nlen - nl, clen - cl) * 3 > max2(nlen - nl, clen - cl))
		return;
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

/**
 * cfg__unknown - report that @name is no key (or no group) of @c's schemas.
 * @c:          configuration being loaded (its slot table is complete)
 * @where:      location prefix, "FILE:LINE" or "--set PATH=VALUE"
 * @name:       the dotted path that was given
 * @want_group: nonzero if @name was written as a group
 * @err:        OUT error record, may be NULL
 *
 * The message is "WHERE: unknown key "NAME" (did you mean "X"?)", or says
 * there is no such key in any schema when no name is close enough.
 *
 * Return: CXL_EINVAL.
 */
int cfg__unknown(const cfg *c, const char *where, const char *name,
		 int want_group, cxl_err *err)
{
	const match m = closest(c, name, want_group);
	const char *what = want_group ? "group" : "key";
	char shown[128];
	size_t len = strlen(name);

	/* a name longer than any key is shown by its start and its length */
	if (len > 80)
		snprintf(shown, sizeof(shown), "\"%.60s...\" (%zu characters)", name, len);
	else
		snprintf(shown, sizeof(shown), "\"%s\"", name);
	if (m.s)
		return cxl_err_set(err, CXL_EINVAL, "%s: unknown %s %s (did you mean \"%.*s\"?)",
				   where, what, shown, (int)m.len, m.s);
	return cxl_err_set(err, CXL_EINVAL,
			   "%s: unknown %s %s (no such %s in any schema; see --help-config)",
			   where, what, shown, what);
}
