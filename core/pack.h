/*
 * core/pack.h - byte buffers for packing per-rank results before they are
 * gathered to rank 0 (stats.c's counters and histograms, series.c's time
 * series).
 *
 * Values are copied in native byte order: every rank runs the same binary,
 * so no conversion is needed.  A writer grows by doubling (amortised O(1)
 * per byte, no allocation per value once warm).  A reader never reads past
 * its end: an overrun sets `bad`, returns zeros and every later read is a
 * no-op, so a decoder checks `bad` once at the end instead of after every
 * field.  Neither owns anything but the writer's buffer, which the caller
 * takes over (free()) when done.
 */
#ifndef CXL_CORE_PACK_H
#define CXL_CORE_PACK_H

#include <stddef.h>

typedef struct pack_w pack_w;
struct pack_w {
	unsigned char *p; /* buffer (malloc'd; the caller frees it) */
	size_t n;         /* bytes used */
	size_t cap;       /* bytes allocated */
};

typedef struct pack_r pack_r;
struct pack_r {
	const unsigned char *p; /* bytes (borrowed) */
	size_t n;               /* total */
	size_t off;             /* read offset */
	int bad;                /* set on overrun, or by a decoder on bad content */
};

/* pack_put - append @len bytes from @src to @w. */
void pack_put(pack_w *w, const void *src, size_t len);
/* pack_get - read @len bytes into @dst; zeros and r->bad = 1 on overrun. */
void pack_get(pack_r *r, void *dst, size_t len);

/* PACK_NAME_MAX - room pack_get_name needs: a u16 length and the NUL. */
#define PACK_NAME_MAX 65536
/* pack_put_name - append the string @name as a u16 length and its bytes. */
void pack_put_name(pack_w *w, const char *name);
/*
 * pack_get_name - read what pack_put_name wrote into @buf (PACK_NAME_MAX
 * bytes), NUL-terminated; "" and r->bad = 1 on overrun.  Returns !r->bad.
 */
int pack_get_name(pack_r *r, char *buf);

/* PACK_PUT - append the value of expression @v in its own type. */
#define PACK_PUT(w, v) \
	do { __typeof__(v) pack_tmp_ = (v); pack_put((w), &pack_tmp_, sizeof(pack_tmp_)); } while (0)

#endif
