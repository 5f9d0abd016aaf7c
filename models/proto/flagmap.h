/*
 * models/proto/flagmap.h - the values of flag lines: a map from line number to
 * a 16-bit value, for the few lines host programs use as flags
 * (models/host/prog.h).  The models track data values only for those lines,
 * so the rest of memory costs nothing; a host keeps the values of the flag
 * lines in its cache, a memory device those it holds.
 *
 * Open addressing with linear probing and tombstone-free deletion (backward
 * shift); the table doubles when it is 3/4 full, so inserting allocates
 * only when the number of flags grows, never per event.
 *
 * Values are taken modulo 2^16 and compared as serial numbers
 * (flag_reached()), so a counter that wraps keeps working as long as a
 * reader is never 32768 updates behind.
 *
 * How values travel in packets (CXL_PKT_FLAG, pkt.aux, CXL_PKT_FLAG_LINE)
 * is defined with the other packet flags in cxl_proto.h, included here.
 */
#ifndef CXL_MODELS_FLAGMAP_H
#define CXL_MODELS_FLAGMAP_H

#include <stdint.h>

#include "core/ckpt.h"
#include "models/proto/cxl_proto.h" /* the packet encoding: CXL_PKT_FLAG, CXL_PKT_FLAG_LINE */

typedef struct flagmap flagmap;
struct flagmap {
	uint64_t *key;   /* [cap] line + 1; 0 = empty */
	uint16_t *val;   /* [cap] its value */
	uint32_t cap;    /* slots, a power of two (0 before the first insert) */
	uint32_t n;      /* lines held */
};

/*
 * flagmap_ckpt - save or restore @m for a checkpoint (core/ckpt.h) as its
 * table: slots, keys, and the values of the held keys only (the others are
 * never read).  Restored as the same table, not by inserting the pairs
 * again, so its probe order is exactly the saved one.  A saved table that
 * is not a power of two or over 3/4 full fails the visitor.
 */
void flagmap_ckpt(flagmap *m, ckpt *k);

/* flagmap_get - the value of @line into *@v; return 1, or 0 if it holds none. */
int flagmap_get(const flagmap *m, uint64_t line, uint16_t *v);

/* flagmap_set - @line now holds @v (inserted if new). */
void flagmap_set(flagmap *m, uint64_t line, uint16_t v);

/* flagmap_del - forget @line; return 1 if it was held. */
int flagmap_del(flagmap *m, uint64_t line);

/* flagmap_free - release the table (the map is empty and usable again). */
void flagmap_free(flagmap *m);

/* flag_reached - has value @cur reached @want, as serial numbers mod 2^16? */
static inline int flag_reached(uint16_t cur, uint16_t want)
{
	return (int16_t)(uint16_t)(cur - want) >= 0;
}

#endif
