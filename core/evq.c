/*
 * core/evq.c - 4-ary min-heap of events with inline ordering keys (evq.h).
 */
#include "core/evq.h"

#include <stdlib.h>

#include "core/xmalloc.h"

#define ARITY 4

void evq_init(evq *q)
{
	*q = (evq){ 0 };
}

void evq_destroy(evq *q)
{
	free(q->a);
	*q = (evq){ 0 };
}

void evq_push(evq *q, cxl_event *ev)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->a = xrealloc(q->a, q->cap * sizeof(*q->a));
	}
	evq_entry e = evq_entry_of(ev);
	size_t i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;
		if (!evq_key_lt(&e, &q->a[parent]))
			break;
		q->a[i] = q->a[parent];
		i = parent;
	}
	q->a[i] = e;
}

cxl_event *evq_pop(evq *q)
{
	cxl_event *top = q->a[0].ev;
	evq_entry last = q->a[--q->n];
	size_t n = q->n, i = 0;

	for (;;) {
		size_t c = ARITY * i + 1;
		if (c >= n)
			break;
		size_t best = c, end = c + ARITY < n ? c + ARITY : n;
		for (size_t k = c + 1; k < end; k++)
			if (evq_key_lt(&q->a[k], &q->a[best]))
				best = k;
		if (!evq_key_lt(&q->a[best], &last))
			break;
		q->a[i] = q->a[best];
		i = best;
	}
	if (n)
		q->a[i] = last;
	return top;
}

size_t evq_check(const evq *q)
{
	size_t bad = 0;

	for (size_t i = 0; i < q->n; i++) {
		const evq_entry *e = &q->a[i];
		if (i > 0 && evq_key_lt(e, &q->a[(i - 1) / ARITY]))
			bad++;
		if (e->ev->owner != CXL_OWN_QUEUE || e->ev->time != e->time)
			bad++;
	}
	return bad;
}
