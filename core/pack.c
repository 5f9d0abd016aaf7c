/*
 * core/pack.c - byte buffers for packing (see pack.h).
 */
#include "core/pack.h"

#include <stdint.h>
#include <string.h>

#include "core/xmalloc.h"

void pack_put(pack_w *w, const void *src, size_t len)
{
	if (!len)
		return;
	if (w->n + len > w->cap) {
		while (w->n + len > w->cap)
			w->cap = w->cap ? 2 * w->cap : 4096;
		w->p = xrealloc(w->p, w->cap);
	}
	memcpy(w->p + w->n, src, len);
	w->n += len;
}

void pack_put_name(pack_w *w, const char *name)
{
	uint16_t nl = (uint16_t)strlen(name);

	pack_put(w, &nl, sizeof(nl));
	pack_put(w, name, nl);
}

int pack_get_name(pack_r *r, char *buf)
{
	uint16_t nl = 0;

	pack_get(r, &nl, sizeof(nl));
	pack_get(r, buf, nl);
	buf[r->bad ? 0 : nl] = '\0';
	return !r->bad;
}

void pack_get(pack_r *r, void *dst, size_t len)
{
	if (!len)
		return;
	if (r->bad || r->off + len > r->n) {
		r->bad = 1;
		memset(dst, 0, len);
		return;
	}
	memcpy(dst, r->p + r->off, len);
	r->off += len;
}
