/*
 * models/fabric/fab_design.c - block designs for Octopus pods (see
 * fab_design.h): GF(q) arithmetic, the projective, affine, radical, single
 * and full constructions, the choice among them, and the pair check.
 *
 * GF(p^e) elements are the integers 0..q-1 read as base-p digit vectors
 * (coefficients of a polynomial in x, lowest digit first).  Addition is
 * digit by digit mod p; multiplication goes through log/antilog tables of
 * x modulo the first primitive polynomial x^e + c (c counted up from 0),
 * found by walking the powers of x: at most q candidates of q - 1 steps,
 * O(q^2 e) for the q <= 193 a pod can ask for.  For e = 1 that walk finds
 * the smallest primitive root -c mod p.
 *
 * Costs: projective O(v^2) dot products (v = q^2 + q + 1), affine and
 * radical O(b k), the check O(b k^2 + v^2) time and v^2 / 2 counters.
 */
#include "models/fabric/fab_design.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

typedef struct gf gf;
struct gf {
	uint32_t q, p, e; /* order q = p^e, p prime */
	uint32_t *exp;    /* [2 (q - 1)]: exp[i] = x^i, x primitive (twice over: no mod) */
	uint32_t *log;    /* [q]: log[exp[i]] = i; log[0] unused */
};

/* Is @q = p^e for a prime p?  Sets *@p and *@e if so. */
static int prime_power(uint32_t q, uint32_t *p, uint32_t *e)
{
	uint32_t d = 2;

	if (q < 2)
		return 0;
	while (d * d <= q && q % d)
		d++;
	if (q % d)
		d = q;
	*p = d;
	for (*e = 0; q % d == 0; q /= d)
		(*e)++;
	return q == 1;
}

static uint32_t gf_add(const gf *g, uint32_t a, uint32_t b)
{
	uint32_t s = 0;

	for (uint32_t w = 1; a || b; w *= g->p, a /= g->p, b /= g->p)
		s += (a % g->p + b % g->p) % g->p * w;
	return s;
}

/* @a times the prime-field element @c (0 <= c < p), digit by digit. */
static uint32_t gf_scale(const gf *g, uint32_t a, uint32_t c)
{
	uint32_t s = 0;

	for (uint32_t w = 1; a; w *= g->p, a /= g->p)
		s += a % g->p * c % g->p * w;
	return s;
}

static uint32_t gf_mul(const gf *g, uint32_t a, uint32_t b)
{
	return a && b ? g->exp[g->log[a] + g->log[b]] : 0;
}

/* @a times x modulo x^e + @c; @top = p^(e-1), the weight of the top digit. */
static uint32_t times_x(const gf *g, uint32_t a, uint32_t c, uint32_t top)
{
	uint32_t t = a / top;

	return gf_add(g, a % top * g->p, gf_scale(g, c, (g->p - t) % g->p));
}

/* Do the powers of x modulo x^e + @c run through every nonzero element?
 * Fills g->exp and g->log if so (then x^e + c is primitive). */
static int primitive(gf *g, uint32_t c, uint32_t top)
{
	uint32_t a = 1;

	for (uint32_t i = 0; i < g->q; i++)
		g->log[i] = UINT32_MAX;
	for (uint32_t i = 0; i + 1 < g->q; i++) {
		if (!a || g->log[a] != UINT32_MAX)
			return 0;
		g->log[a] = i;
		g->exp[i] = g->exp[i + g->q - 1] = a;
		a = times_x(g, a, c, top);
	}
	return 1;
}

/* GF(@q); 0 if @q is no prime power. */
static int gf_init(gf *g, uint32_t q)
{
	uint32_t top = 1;

	*g = (gf){ .q = q };
	if (!prime_power(q, &g->p, &g->e))
		return 0;
	for (uint32_t i = 1; i < g->e; i++)
		top *= g->p;
	g->exp = xmalloc(2 * (q - 1) * sizeof(*g->exp));
	g->log = xmalloc(q * sizeof(*g->log));
	for (uint32_t c = 0; c < q; c++)
		if (primitive(g, c, top))
			return 1;
	CXL_PANIC("GF(%u): no primitive polynomial", q);
}

static void gf_free(gf *g)
{
	free(g->exp);
	free(g->log);
}

/* Does the radical S(2, @k, q) family exist over @g (fab_design.h)? */
static int radical_exists(const gf *g, uint32_t k)
{
	if (k == 3)
		return g->q % 6 == 1;
	/* -3 is a square (q = 1 mod 3); the family needs it not a fourth power */
	return k == 4 && g->q % 12 == 1 && g->log[g->p - 3] % 4 != 0;
}

static int radical_ok(uint32_t q, uint32_t k)
{
	gf g;
	int ok = gf_init(&g, q) && radical_exists(&g, k);

	gf_free(&g);
	return ok;
}

/* --- shapes ---------------------------------------------------------------- */

/* fab_design_family - the family's name, as topology.design spells it (fab_design.h). */
const char *fab_design_family(enum fab_design_kind kind)
{
	static const char *const names[] = {
		[FAB_DESIGN_AUTO] = "auto", [FAB_DESIGN_PROJECTIVE] = "projective",
		[FAB_DESIGN_AFFINE] = "affine", [FAB_DESIGN_RADICAL] = "radical",
		[FAB_DESIGN_SINGLE] = "single", [FAB_DESIGN_FULL] = "full",
	};

	return names[kind];
}

static void set(fab_design *d, uint32_t v, uint32_t k, uint32_t b, uint32_t r, uint32_t lambda)
{
	d->v = v;
	d->k = k;
	d->b = b;
	d->r = r;
	d->lambda = lambda;
}

/* v, k, b, r, lambda and the name of a design; 0, or why it cannot be built. */
static int shape(fab_design *d, enum fab_design_kind kind, uint32_t q, uint32_t aux,
		 cxl_err *err)
{
	uint32_t p, e, t = q ? (q - 1) / (aux == 3 ? 6 : 12) : 0;
	int field = kind == FAB_DESIGN_PROJECTIVE || kind == FAB_DESIGN_AFFINE ||
		    kind == FAB_DESIGN_RADICAL;

	*d = (fab_design){ .kind = kind, .q = field ? q : 0 };
	if (field && !prime_power(q, &p, &e))
		return cxl_err_set(err, CXL_EINVAL, "%s design: %u is not a prime power",
				   fab_design_family(kind), q);
	if (kind == FAB_DESIGN_RADICAL && !radical_ok(q, aux))
		return cxl_err_set(err, CXL_EINVAL, "no radical S(2,%u,%u) difference family "
				   "(k = 3 needs q = 1 mod 6; k = 4 q = 1 mod 12, -3 no fourth power)",
				   aux, q);
	switch (kind) {
	case FAB_DESIGN_PROJECTIVE:
		set(d, q * q + q + 1, q + 1, q * q + q + 1, q + 1, 1);
		snprintf(d->name, sizeof(d->name), "PG(2,%u)", q);
		break;
	case FAB_DESIGN_AFFINE:
		set(d, q * q, q, q * q + q, q + 1, 1);
		snprintf(d->name, sizeof(d->name), "AG(2,%u)", q);
		break;
	case FAB_DESIGN_RADICAL:
		set(d, q, aux, t * q, aux * t, 1);
		snprintf(d->name, sizeof(d->name), "S(2,%u,%u)", aux, q);
		break;
	case FAB_DESIGN_SINGLE:
		set(d, q, q, 1, 1, 1);
		snprintf(d->name, sizeof(d->name), "one %u-headed device", q);
		break;
	case FAB_DESIGN_FULL:
		set(d, q, q, aux, aux, aux);
		snprintf(d->name, sizeof(d->name), "K(%u,%u)", q, aux);
		break;
	case FAB_DESIGN_AUTO:
		CXL_PANIC("shape: AUTO is no design");
	}
	if (d->v < 2 || d->v > FAB_DESIGN_MAX_V || !d->b)
		return cxl_err_set(err, CXL_EINVAL, "%s %s: %u points (2 to %u) and %u blocks",
				   fab_design_family(kind), d->name, d->v, FAB_DESIGN_MAX_V, d->b);
	return 0;
}

/* --- constructions ---------------------------------------------------------- */

static uint32_t dot(const gf *g, const uint32_t *a, const uint32_t *b)
{
	return gf_add(g, gf_add(g, gf_mul(g, a[0], b[0]), gf_mul(g, a[1], b[1])),
		      gf_mul(g, a[2], b[2]));
}

/* PG(2,q): the normalised vectors (1,a,b), (0,1,a), (0,0,1) are the points
 * and, as coefficients, the lines; point on line when the dot product is 0. */
static void make_projective(fab_design *d, const gf *g)
{
	uint32_t q = g->q, n = 0, (*pt)[3] = xmalloc(d->v * sizeof(*pt));

	for (uint32_t a = 0; a < q; a++)
		for (uint32_t b = 0; b < q; b++)
			memcpy(pt[n++], (uint32_t[3]){ 1, a, b }, sizeof(pt[0]));
	for (uint32_t a = 0; a < q; a++)
		memcpy(pt[n++], (uint32_t[3]){ 0, 1, a }, sizeof(pt[0]));
	memcpy(pt[n++], (uint32_t[3]){ 0, 0, 1 }, sizeof(pt[0]));
	for (uint32_t l = 0; l < d->b; l++) {
		uint32_t m = 0;
		for (uint32_t p = 0; p < d->v; p++)
			if (!dot(g, pt[l], pt[p])) {
				CXL_ASSERT(m < d->k);
				d->block[l * d->k + m++] = p;
			}
		CXL_ASSERT(m == d->k);
	}
	free(pt);
}

/* AG(2,q): point (x, y) is x q + y; lines y = m x + c, then x = c. */
static void make_affine(fab_design *d, const gf *g)
{
	uint32_t q = g->q, *bl = d->block;

	for (uint32_t m = 0; m < q; m++)
		for (uint32_t c = 0; c < q; c++)
			for (uint32_t x = 0; x < q; x++)
				*bl++ = x * q + gf_add(g, gf_mul(g, m, x), c);
	for (uint32_t c = 0; c < q; c++)
		for (uint32_t y = 0; y < q; y++)
			*bl++ = c * q + y;
}

static void sort_block(uint32_t *b, uint32_t k)
{
	for (uint32_t i = 1; i < k; i++)
		for (uint32_t j = i; j > 0 && b[j - 1] > b[j]; j--) {
			uint32_t t = b[j];
			b[j] = b[j - 1];
			b[j - 1] = t;
		}
}

/* Radical difference family (fab_design.h): each base block, translated by
 * every element of GF(q) in order. */
static void make_radical(fab_design *d, const gf *g)
{
	uint32_t q = g->q, k = d->k, t = d->b / q, w = (q - 1) / 3, base[4], *bl = d->block;

	for (uint32_t i = 0; i < t; i++) {
		uint32_t x = k == 3 ? i : 2 * i, n = 0;
		if (k == 4)
			base[n++] = 0;
		for (uint32_t j = 0; j < 3; j++)
			base[n++] = g->exp[x + j * w];
		for (uint32_t s = 0; s < q; s++, bl += k) {
			for (uint32_t j = 0; j < k; j++)
				bl[j] = gf_add(g, base[j], s);
			sort_block(bl, k);
		}
	}
}

/*
 * fab_design_build - fill the blocks of the picked design @d by its
 * construction, then fab_design_check() it (contract in fab_design.h).
 */
int fab_design_build(fab_design *d, cxl_err *err)
{
	gf g = { 0 };
	int rc;

	CXL_ASSERT(!d->block && d->kind != FAB_DESIGN_AUTO);
	d->block = xmalloc((size_t)d->b * d->k * sizeof(*d->block));
	if (d->q) {
		int ok = gf_init(&g, d->q);
		CXL_ASSERT(ok);
	}
	if (d->kind == FAB_DESIGN_PROJECTIVE)
		make_projective(d, &g);
	else if (d->kind == FAB_DESIGN_AFFINE)
		make_affine(d, &g);
	else if (d->kind == FAB_DESIGN_RADICAL)
		make_radical(d, &g);
	else
		for (size_t i = 0; i < (size_t)d->b * d->k; i++)
			d->block[i] = (uint32_t)(i % d->k);
	gf_free(&g);
	if ((rc = fab_design_check(d, err)))
		fab_design_free(d);
	return rc;
}

/* fab_design_make - shape(), then fab_design_build() (contract in fab_design.h). */
int fab_design_make(fab_design *d, enum fab_design_kind kind, uint32_t q, uint32_t aux,
		    cxl_err *err)
{
	int rc = shape(d, kind, q, aux, err);

	if (rc)
		*d = (fab_design){ 0 };
	return rc ? rc : fab_design_build(d, err);
}

/* fab_design_free - release the blocks; @d is zeroed. */
void fab_design_free(fab_design *d)
{
	free(d->block);
	*d = (fab_design){ 0 };
}

/* --- the choice ------------------------------------------------------------- */

typedef struct cand cand;
struct cand {
	enum fab_design_kind kind; /* family; AUTO: none yet */
	uint32_t q, aux;           /* fab_design_make()'s arguments */
	uint32_t v, r;             /* its points and blocks per point */
};

static void consider(cand *best, enum fab_design_kind kind, uint32_t q, uint32_t aux,
		     uint32_t v, uint32_t r)
{
	uint32_t p, e;

	if (v > FAB_DESIGN_MAX_V || (kind != FAB_DESIGN_SINGLE && kind != FAB_DESIGN_FULL &&
				      !prime_power(q, &p, &e)))
		return;
	if (kind == FAB_DESIGN_RADICAL && !radical_ok(q, aux))
		return;
	if (best->kind == FAB_DESIGN_AUTO || v > best->v || (v == best->v && r > best->r))
		*best = (cand){ kind, q, aux, v, r };
}

/* Every member of @kind (AUTO: the lambda = 1 families) with k <= n, r <= x. */
static void candidates(cand *best, enum fab_design_kind kind, uint32_t x, uint32_t n)
{
	int any = kind == FAB_DESIGN_AUTO;

	if (any || kind == FAB_DESIGN_PROJECTIVE)
		for (uint32_t q = 2; q + 1 <= n && q + 1 <= x; q++)
			consider(best, FAB_DESIGN_PROJECTIVE, q, 0, q * q + q + 1, q + 1);
	if (any || kind == FAB_DESIGN_AFFINE)
		for (uint32_t q = 2; q <= n && q + 1 <= x; q++)
			consider(best, FAB_DESIGN_AFFINE, q, 0, q * q, q + 1);
	if (any || kind == FAB_DESIGN_RADICAL)
		for (uint32_t k = 3; k <= 4 && k <= n; k++)
			for (uint32_t q = 7; (q - 1) / (k - 1) <= x; q += 6)
				consider(best, FAB_DESIGN_RADICAL, q, k, q, (q - 1) / (k - 1));
	if (any || kind == FAB_DESIGN_SINGLE)
		consider(best, FAB_DESIGN_SINGLE, n, 0, n, 1);
	if (kind == FAB_DESIGN_FULL)
		consider(best, FAB_DESIGN_FULL, n, x, n, x);
}

static const char *const needs[FAB_DESIGN_FULL + 1] = {
	[FAB_DESIGN_PROJECTIVE] = "PG(2,q) needs q + 1 <= device ports and q + 1 <= host ports, "
				  "q >= 2 a prime power",
	[FAB_DESIGN_AFFINE] = "AG(2,q) needs q <= device ports and q + 1 <= host ports, "
			      "q >= 2 a prime power",
	[FAB_DESIGN_RADICAL] = "S(2,k,q) needs k = 3 or 4 <= device ports and (q - 1) / (k - 1) "
			       "<= host ports, q >= 7 a prime power",
};

/*
 * fab_design_pick - the best candidate of @kind for @x host ports and @n
 * device ports, shaped but not built (contract in fab_design.h).
 */
int fab_design_pick(fab_design *d, enum fab_design_kind kind, uint32_t x, uint32_t n,
		    cxl_err *err)
{
	cand best = { FAB_DESIGN_AUTO, 0, 0, 0, 0 };

	CXL_ASSERT(x >= 1 && n >= 2);
	candidates(&best, kind, x, n);
	*d = (fab_design){ 0 };
	if (best.kind == FAB_DESIGN_AUTO)
		return cxl_err_set(err, CXL_EINVAL, "no %s design fits %u host ports and %u device "
				   "ports (%s)", fab_design_family(kind), x, n,
				   needs[kind] ? needs[kind] : "?");
	return shape(d, best.kind, best.q, best.aux, err);
}

/* --- the check -------------------------------------------------------------- */

/* Blocks: k ascending points below v; every point in r of them. */
static int check_blocks(const fab_design *d, cxl_err *err)
{
	uint32_t *deg = xcalloc(d->v, sizeof(*deg));
	int rc = 0;

	for (uint32_t i = 0; !rc && i < d->b; i++) {
		const uint32_t *bl = &d->block[(size_t)i * d->k];
		for (uint32_t j = 0; !rc && j < d->k; j++) {
			if (bl[j] >= d->v || (j && bl[j] <= bl[j - 1]))
				rc = cxl_err_set(err, CXL_EINVAL, "%s: block %u is not %u ascending "
						 "points below %u", d->name, i, d->k, d->v);
			else
				deg[bl[j]]++;
		}
	}
	for (uint32_t p = 0; !rc && p < d->v; p++)
		if (deg[p] != d->r)
			rc = cxl_err_set(err, CXL_EINVAL, "%s: point %u lies in %u blocks, not %u",
					 d->name, p, deg[p], d->r);
	free(deg);
	return rc;
}

/* Index of the pair a < b in a triangle of v points. */
static size_t pair_index(uint32_t v, uint32_t a, uint32_t b)
{
	return (size_t)a * v - (size_t)a * (a + 1) / 2 + (b - a - 1);
}

/* Every pair of points in exactly lambda blocks. */
static int check_pairs(const fab_design *d, cxl_err *err)
{
	uint16_t *n = xcalloc((size_t)d->v * (d->v - 1) / 2 + 1, sizeof(*n));
	int rc = 0;

	for (uint32_t i = 0; i < d->b; i++) {
		const uint32_t *bl = &d->block[(size_t)i * d->k];
		for (uint32_t j = 0; j < d->k; j++)
			for (uint32_t m = j + 1; m < d->k; m++) {
				uint16_t *c = &n[pair_index(d->v, bl[j], bl[m])];
				*c += *c < UINT16_MAX;
			}
	}
	for (uint32_t a = 0; !rc && a < d->v; a++)
		for (uint32_t b = a + 1; !rc && b < d->v; b++)
			if (n[pair_index(d->v, a, b)] != d->lambda)
				rc = cxl_err_set(err, CXL_EINVAL, "%s: points %u and %u share %u blocks, "
						 "not %u", d->name, a, b, n[pair_index(d->v, a, b)],
						 d->lambda);
	free(n);
	return rc;
}

/* fab_design_check - blocks, then pairs (contract in fab_design.h). */
int fab_design_check(const fab_design *d, cxl_err *err)
{
	if (d->v < 2 || d->v > FAB_DESIGN_MAX_V || !d->block ||
	    (uint64_t)d->b * d->k != (uint64_t)d->v * d->r)
		return cxl_err_set(err, CXL_EINVAL, "%s: not a design (v %u, k %u, b %u, r %u)",
				   d->name, d->v, d->k, d->b, d->r);
	int rc = check_blocks(d, err);
	return rc ? rc : check_pairs(d, err);
}
