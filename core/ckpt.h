/*
 * core/ckpt.h - the checkpoint visitor: how a model saves and restores the
 * state it changes while the run runs.
 *
 * A checkpoint is taken at a cut time C: every event before C has run, none
 * at or after it.  That state does not depend on the partition, so a
 * checkpoint written by any number of ranks restarts on any other
 * (design §3).  The engine saves, per component: its send counter, random
 * stream, every statistic it registered, then calls its model's `ckpt` hook
 * (model_ops, sim.h) with a saving visitor.  Restarting, the engine builds
 * the system as a fresh run would, runs every init hook (parameters,
 * tables, statistics registration: what is built from the config), throws
 * away the events init sent, then calls the hook with a loading visitor and
 * puts the saved pending events back.
 *
 * So a hook visits what changes after init - never what init derives from
 * the config - and ONE function serves both directions: each call below
 * writes the field when saving and overwrites it when loading.
 *
 *   static void bus_ckpt(sim_comp *c, void *state, ckpt *k)
 *   {
 *           bus *b = state;
 *           CKPT(k, b->busy_until);               // POD fields
 *           CKPT(k, b->credits);                  // arrays of POD too
 *           uint32_t n = ckpt_count(k, b->q.n, b->q.cap);
 *           if (ckpt_loading(k)) { drop what init queued; b->q.head = 0; b->q.n = n; }
 *           for (uint32_t i = 0; i < n; i++)
 *                   ckpt_event(k, &b->q.ev[(b->q.head + i) % b->q.cap]);
 *   }
 *
 * Rules:
 *   - CKPT() only on fields with no pointer inside; a pointer is saved as
 *     what it points to (an index, a count) and rebuilt on load.
 *   - An event the model keeps (sim_event_keep/hold/new) is visited with
 *     ckpt_event(): saved by value, restored as a new event the model owns.
 *     Every kept event is reached exactly once.
 *   - Counts read back are bounded by ckpt_count(): a damaged checkpoint is
 *     a clear error, never an overrun.
 *   - What a hook cannot restore it refuses with ckpt_fail() (the whole
 *     restart is then one error naming the component).
 *   - Model state outside the hook's reach (a static variable) is a bug.
 * Visiting order must be the same in both directions: the bytes carry no
 * field names.  ckpt_mark() puts a check word between sections so that a
 * hook whose two directions drift apart fails at once, named.
 *
 * A model without a hook (model_ops.ckpt NULL) cannot be checkpointed: a
 * checkpoint of a system holding it is refused before the run starts.
 */
#ifndef CXL_CORE_CKPT_H
#define CXL_CORE_CKPT_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/pack.h"
#include "core/stats.h"

typedef struct sim_comp sim_comp;

typedef struct ckpt ckpt;
struct ckpt {
	int loading;        /* 0: saving into w, 1: loading from r */
	pack_w *w;          /* saving */
	pack_r *r;          /* loading */
	sim_comp *c;        /* the component visited (its engine's event pool) */
	char why[200];      /* first failure (loading), "" if none */
};

/* ckpt_loading - 1 when the visitor restores state, 0 when it saves it. */
static inline int ckpt_loading(const ckpt *k)
{
	return k->loading;
}

/* ckpt_bytes - save or restore @n raw bytes at @p (no pointers inside). */
void ckpt_bytes(ckpt *k, void *p, size_t n);

/* CKPT - save or restore field (lvalue) @x of a type with no pointers. */
#define CKPT(k, x) ckpt_bytes((k), &(x), sizeof(x))

/*
 * ckpt_count - a count of things visited next: saving writes @n and returns
 * it; loading returns the count read, or 0 with the visitor failed if it is
 * above @max (a damaged checkpoint, or a config that does not match it).
 */
uint32_t ckpt_count(ckpt *k, uint32_t n, uint32_t max);

/*
 * ckpt_event - an event the model owns, or NULL: saving writes it by value;
 * loading frees the event *@ev holds (what init kept) and stores a new one
 * with the saved contents, owned by the model (or NULL).
 */
void ckpt_event(ckpt *k, cxl_event **ev);

/* ckpt_hist - a histogram the model keeps outside the statistics registry. */
void ckpt_hist(ckpt *k, stats_hist *h);

/*
 * ckpt_same - a value the config sets, saved so that a restart into another
 * config fails naming it: "WHAT is V in the checkpoint, W now".
 */
void ckpt_same(ckpt *k, uint64_t v, const char *what);

/* ckpt_mark - a check word: loading fails (naming @what) unless it reads @tag. */
void ckpt_mark(ckpt *k, uint32_t tag, const char *what);

/* ckpt_fail - loading cannot go on: the restart ends with this message. */
void ckpt_fail(ckpt *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ckpt_failed - the visitor has failed (then every later visit is a no-op). */
int ckpt_failed(const ckpt *k);

#endif
