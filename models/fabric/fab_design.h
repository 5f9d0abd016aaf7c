/*
 * models/fabric/fab_design.h - block designs for Octopus pods (fab_octo.h):
 * which hosts (points) share which multi-headed device (block).
 *
 * A 2-(v, k, lambda) design has v points and b blocks of k points each,
 * every point in r blocks, every pair of points in exactly lambda blocks;
 * then r (k - 1) = lambda (v - 1) and b k = v r.  With lambda = 1 (a
 * Steiner system S(2, k, v), a balanced incomplete block design) every pair
 * of hosts shares exactly one device: the "regular" Octopus pod of Berger
 * et al. (arXiv:2501.09020), hosts with X = r ports, devices with N = k,
 * v = 1 + X (N - 1) hosts.
 *
 * Constructions, all explicit (no search at run time; the only loops that
 * try candidates look for a primitive polynomial of GF(q) and a member of
 * a family that fits X and N):
 *   projective  PG(2, q), q a prime power: v = q^2 + q + 1, k = r = q + 1;
 *               points and lines are the 1- and 2-dimensional subspaces of
 *               GF(q)^3, a point on a line when their dot product is 0
 *   affine      AG(2, q), q a prime power: v = q^2, k = q, r = q + 1; lines
 *               y = m x + c and x = c over GF(q)
 *   radical     S(2, k, q) for k = 3 or 4, q a prime power: radical
 *               difference families (M. Buratti, "Constructions of (q,k,1)
 *               difference families with q a prime power and k = 4, 5",
 *               Discrete Math. 138, 1995; for k = 3 the base blocks of
 *               Netto's triple systems), e a primitive element, w =
 *               e^((q-1)/3) a cube root of unity:
 *                 k = 3, q = 1 mod 6: e^i {1, w, w^2}, i < (q-1)/6; their
 *                 differences e^i (w - 1) {+-1, +-w, +-w^2} cover each
 *                 coset of the sixth roots of unity once;
 *                 k = 4, q = 1 mod 12, -3 not a fourth power: {0} u
 *                 e^{2i} {1, w, w^2}, i < (q-1)/12; the differences are
 *                 the cosets e^{2i} U6 and e^{2i} (w - 1) U6, all of them
 *                 once when w - 1 is a non-square, which (w - 1)^2 = -3w
 *                 makes it exactly when -3 is no fourth power;
 *               every base block translated by every element of GF(q).
 *               S(2,4,25) (k = 4, r = 8: the 4-port device, 8-port host
 *               pod) is the radical design over GF(25): 2 base blocks, 50
 *               blocks.  The tests count every pair of every family.
 *   single      one block of all v = k points (all-to-all on one device):
 *               the trivial 2-(k, k, 1) design, r = 1
 *   full        the conventional pod: v = N points, b = X blocks each of
 *               all points: every host on every device, lambda = X (the
 *               only design here with lambda > 1)
 * Points are numbered 0..v-1 (GF(q) elements in their base-p digit form;
 * affine point (x, y) is x q + y; projective points in the order (1, a, b),
 * (0, 1, a), (0, 0, 1)); each block lists its points in ascending order.
 * Everything is a pure function of the arguments.
 */
#ifndef CXL_MODELS_FAB_DESIGN_H
#define CXL_MODELS_FAB_DESIGN_H

#include <stdint.h>

#include "core/err.h"

enum fab_design_kind {
	FAB_DESIGN_AUTO, FAB_DESIGN_PROJECTIVE, FAB_DESIGN_AFFINE, FAB_DESIGN_RADICAL,
	FAB_DESIGN_SINGLE, FAB_DESIGN_FULL,
};

/* The topology.design choices, in enum order. */
#define FAB_DESIGN_CHOICES "auto|projective|affine|radical|single|full"

#define FAB_DESIGN_MAX_V 4096u /* points a design may have (a pod has at most 4096 endpoints) */

typedef struct fab_design fab_design;
struct fab_design {
	enum fab_design_kind kind; /* the construction (never AUTO once made) */
	uint32_t q;         /* projective, affine, radical: the field's order; else 0 */
	uint32_t v;         /* points (hosts) */
	uint32_t k;         /* points per block (hosts per device) */
	uint32_t b;         /* blocks (devices) */
	uint32_t r;         /* blocks per point (devices per host) */
	uint32_t lambda;    /* blocks every pair of points shares */
	uint32_t *block;    /* [b * k]: block i's points at block[i * k ..], ascending; owned */
	char name[48];      /* e.g. "PG(2,3)", "AG(2,4)", "S(2,4,25)" */
};

/**
 * fab_design_make - build the design of family @kind (not AUTO) and order @q.
 * @d:    OUT the design (free with fab_design_free(); zeroed on error)
 * @kind: projective, affine, radical, single (@q points, one block), full
 *        (@q points, @aux blocks of all of them)
 * @q:    prime power (projective, affine, radical), points (single, full)
 * @aux:  radical: block size 3 or 4; full: blocks; else ignored
 * @err:  OUT error record (may be NULL)
 * Returns 0, or CXL_EINVAL: @q not a prime power, a radical family that does
 * not exist for @q, a design beyond FAB_DESIGN_MAX_V points, or a result
 * that fails fab_design_check() (a bug, reported rather than run).
 */
int fab_design_make(fab_design *d, enum fab_design_kind kind, uint32_t q, uint32_t aux,
		    cxl_err *err);

/**
 * fab_design_pick - choose the largest design of @kind (AUTO: any lambda = 1
 * family: projective, affine, radical, single) whose blocks fit @n device
 * ports and whose points fit @x host ports (k <= n, r <= x).
 * @d:   OUT its shape (kind, q, v, k, b, r, lambda, name) without blocks:
 *       cheap, so a caller can check the size before fab_design_build()
 * @kind, @x, @n: family, host ports X (>= 1), device ports N (>= 2)
 * @err: OUT error record
 * Largest means most points, then most blocks per point (the host ports
 * used), then the family order above.  So when a 2-(1 + x (n - 1), n, 1)
 * design of these families exists it is the one picked.
 * Returns 0, or CXL_EINVAL (message without location) when no member of
 * @kind fits.
 */
int fab_design_pick(fab_design *d, enum fab_design_kind kind, uint32_t x, uint32_t n,
		    cxl_err *err);

/**
 * fab_design_build - the blocks of a design fab_design_pick() chose, checked
 * by fab_design_check().  Returns 0 or CXL_EINVAL (then @d is freed).
 */
int fab_design_build(fab_design *d, cxl_err *err);

/**
 * fab_design_check - verify @d: every block has k distinct points below v
 * in ascending order, every point lies in r blocks, every pair of points in
 * exactly lambda blocks.  O(b k^2 + v^2) time, O(v^2) memory.
 * Returns 0, or CXL_EINVAL naming the first violation.
 */
int fab_design_check(const fab_design *d, cxl_err *err);

/* fab_design_free - release @d's blocks; @d is zeroed. */
void fab_design_free(fab_design *d);

/* fab_design_family - "projective", "affine", ... for @kind. */
const char *fab_design_family(enum fab_design_kind kind);

#endif
