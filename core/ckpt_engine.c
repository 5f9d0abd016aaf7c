/*
 * core/ckpt_engine.c - a rank's share of a checkpoint: saving it from the
 * engine at a cut, restoring it into an engine that has just run init.
 *
 * Body layout (native byte order, like core/pack.h; ckpt_dir.c frames it):
 *   u32 records, then per local component in id order:
 *     u32 id, u64 length, then the record:
 *       u8 n + n bytes   model type name (a restart into another config
 *                        fails here, named)
 *       u64              send counter (the last field of the ordering key)
 *       cxl_rng          random stream (key and counter: the key checks the seed)
 *       u32 entries      then per registered statistic: u16 n + name, u8
 *                        kind, u64 value (counter) or a packed histogram
 *       its time series  (sampling on: series_ckpt_comp(), core/series.c)
 *       u32 MARK_MODEL   then what the model's ckpt hook visits (ckpt.h)
 *       u32 MARK_END
 *   u64 events, then each pending event of the rank's queue, 96 bytes
 *   (owner and the free-list union are not meaningful on disk);
 *   u64 n, then n bytes: the rank's time-series aggregates (the per-period
 *   latency histograms its components share, series_hists_pack(); 0 bytes
 *   with sampling off).  Aggregates belong to a rank, not to a component:
 *   a restart adds every file's to rank 0's (bucket counts add, so the
 *   merge at the end is the one of the run never stopped).
 * Nothing depends on the partition: a record is the component's own and an
 * event is found by its destination, so a checkpoint restores on any
 * number of ranks.
 *
 * Restoring (after init, which built everything the config defines):
 * init's events are dropped (queue and outbound batches), then each local
 * component's record is read over what init set, then the pending events
 * whose destination is local are queued.  The ranks agree on the outcome
 * (one collective) and the lowest failing rank's message is reported.
 */
#include <stdlib.h>
#include <string.h>

#include "core/ckpt_dir.h"
#include "core/sim_int.h"
#include "core/xmalloc.h"

#define MARK_MODEL 0x4d4f444cu /* "MODL" */
#define MARK_END 0x454e4421u   /* "END!" */

int sim_can_checkpoint(const sim_graph *g, const char *why, cxl_err *err)
{
	for (uint32_t i = 0; i < g->ncomp; i++)
		if (!g->comp[i].ops->ckpt)
			return cxl_err_set(err, CXL_EINVAL, "%s: components of type %s (%s) cannot be "
					   "checkpointed yet (their model has no checkpoint hook)", why,
					   g->comp[i].ops->name, g->comp[i].name);
	return 0;
}

int sim_engine_ckpt_error(const sim_engine *e, cxl_err *err)
{
	if (e->ckpt_rc && err)
		cxl_err_set(err, e->ckpt_rc, "%s", e->ckpt_err.msg);
	return e->ckpt_rc;
}

/* --- saving ------------------------------------------------------------- */

static void save_stats(const sim_engine *e, const sim_comp *c, pack_w *w)
{
	const stats_comp *sc = &e->stats.c[c->stats_index];

	PACK_PUT(w, (uint32_t)sc->n);
	for (size_t j = 0; j < sc->n; j++) {
		const stats_entry *s = sc->e[j];
		pack_put_name(w, s->name);
		PACK_PUT(w, (uint8_t)s->kind);
		if (s->kind == STATS_COUNTER)
			PACK_PUT(w, *s->value);
		else
			stats_hist_pack(w, &s->h);
	}
}

static void save_record(sim_engine *e, sim_comp *c, pack_w *w)
{
	uint8_t nl = (uint8_t)strlen(c->ops->name);
	ckpt k = { .loading = 0, .w = w, .c = c };

	pack_put(w, &nl, 1);
	pack_put(w, c->ops->name, nl);
	PACK_PUT(w, c->send_seq);
	PACK_PUT(w, c->rng);
	save_stats(e, c, w);
	if (e->series.period)
		series_ckpt_comp(&e->series, c->id, &k);
	PACK_PUT(w, (uint32_t)MARK_MODEL);
	if (c->ops->ckpt)
		c->ops->ckpt(c, c->state, &k);
	PACK_PUT(w, (uint32_t)MARK_END);
}

void sim_engine_save(sim_engine *e, pack_w *w)
{
	PACK_PUT(w, e->nlocal);
	for (uint32_t i = 0; i < e->nlocal; i++) {
		sim_comp *c = &e->comps[i];
		size_t at;
		PACK_PUT(w, c->id);
		at = w->n;
		PACK_PUT(w, (uint64_t)0); /* length, filled below */
		save_record(e, c, w);
		uint64_t len = w->n - at - sizeof(uint64_t);
		memcpy(w->p + at, &len, sizeof(len));
	}
	/* the queue's events, in key order: taken out and put back */
	size_t n = evq_size(&e->q);
	cxl_event **all = xmalloc((n ? n : 1) * sizeof(*all));
	for (size_t i = 0; i < n; i++)
		all[i] = evq_pop(&e->q);
	uint64_t nl = 0;
	for (uint32_t i = 0; i < e->nlocal; i++)
		nl += e->comps[i].lazy_n - e->comps[i].lazy_lo;
	PACK_PUT(w, (uint64_t)n + nl);
	for (size_t i = 0; i < n; i++) {
		cxl_event ev = *all[i];
		ev.owner = 0;
		pack_put(w, &ev, sizeof(ev));
		evq_push(&e->q, all[i]);
	}
	for (uint32_t i = 0; i < e->nlocal; i++) /* lazy events after the cut: queued on restore */
		for (uint32_t j = e->comps[i].lazy_lo; j < e->comps[i].lazy_n; j++) {
			cxl_event ev = { 0 };
			sim__lazy_event(&e->comps[i], &e->comps[i].lazy[j], &ev);
			pack_put(w, &ev, sizeof(ev));
		}
	free(all);
	size_t at = w->n;
	PACK_PUT(w, (uint64_t)0);
	if (e->series.period)
		series_hists_pack(&e->series, w);
	uint64_t len = w->n - at - sizeof(uint64_t);
	memcpy(w->p + at, &len, sizeof(len));
}

/* --- restoring ---------------------------------------------------------- */

/* Drop every event init left: queued here, or batched for another rank. */
static void drop_init_events(sim_engine *e)
{
	while (evq_size(&e->q))
		evpool_put(&e->pool, evq_pop(&e->q));
	if (e->xp)
		xport_discard(e->xp);
	e->sent_min = SIM_TIME_MAX;
}

static int load_stats(sim_engine *e, sim_comp *c, pack_r *r, ckpt *k)
{
	stats_comp *sc = &e->stats.c[c->stats_index];
	uint32_t n = 0;
	char name[PACK_NAME_MAX];

	pack_get(r, &n, sizeof(n));
	if (!r->bad && n != sc->n) {
		ckpt_fail(k, "%u statistics saved, %zu registered (another config?)", n, sc->n);
		return -1;
	}
	for (size_t j = 0; j < sc->n && !r->bad; j++) {
		stats_entry *s = sc->e[j];
		uint8_t kind = 0;
		pack_get_name(r, name);
		pack_get(r, &kind, 1);
		if (r->bad)
			break;
		if (strcmp(name, s->name) || kind != s->kind) {
			ckpt_fail(k, "statistic %s saved where %s is registered (another config?)",
				  name, s->name);
			return -1;
		}
		if (s->kind == STATS_COUNTER) {
			pack_get(r, s->value, sizeof(*s->value));
		} else {
			stats_hist_free(&s->h);
			stats_hist_init(&s->h);
			stats_hist_unpack(r, &s->h);
		}
	}
	if (r->bad)
		ckpt_fail(k, "its statistics are damaged");
	return r->bad ? -1 : 0;
}

static void load_record(sim_engine *e, sim_comp *c, const unsigned char *p, size_t len,
			ckpt *k)
{
	pack_r r = { .p = p, .n = len };
	uint8_t nl = 0;
	char type[256];
	uint32_t mark = 0;
	cxl_rng rng;

	k->r = &r;
	pack_get(&r, &nl, 1);
	pack_get(&r, type, nl);
	type[r.bad ? 0 : nl] = '\0';
	if (!r.bad && strcmp(type, c->ops->name)) {
		ckpt_fail(k, "saved as a %s, built as a %s (another config)", type, c->ops->name);
		return;
	}
	pack_get(&r, &c->send_seq, sizeof(c->send_seq));
	pack_get(&r, &rng, sizeof(rng));
	if (!r.bad && (rng.key != c->rng.key || rng.gamma != c->rng.gamma)) {
		ckpt_fail(k, "its random stream is another seed's");
		return;
	}
	c->rng = rng;
	if (load_stats(e, c, &r, k))
		return;
	if (e->series.period)
		series_ckpt_comp(&e->series, c->id, k);
	if (ckpt_failed(k))
		return;
	pack_get(&r, &mark, sizeof(mark));
	if (r.bad || mark != MARK_MODEL) {
		ckpt_fail(k, "damaged before its model's state");
		return;
	}
	if (c->ops->ckpt)
		c->ops->ckpt(c, c->state, k);
	if (ckpt_failed(k))
		return;
	pack_get(&r, &mark, sizeof(mark));
	if (r.bad || mark != MARK_END || r.off != r.n)
		ckpt_fail(k, "its model's state has %s than the model reads (another build or "
			  "config?)", r.bad || mark != MARK_END ? "less" : "more");
}

/* Queue the saved events headed for local components; count the others. */
static int load_events(sim_engine *e, const ckpt_image *img, cxl_err *err)
{
	for (int f = 0; f < img->nfiles; f++)
		for (uint64_t i = 0; i < img->nev[f]; i++) {
			cxl_event tmp;
			memcpy(&tmp, img->evs[f] + i * sizeof(tmp), sizeof(tmp));
			if (tmp.dst >= e->g->ncomp || tmp.src >= e->g->ncomp || tmp.time < img->cut)
				return cxl_err_set(err, CXL_EINVAL, "%s: pending event %llu of file %d "
						   "is damaged (destination %u, time %llu ps)", img->dir,
						   (unsigned long long)i, f, tmp.dst,
						   (unsigned long long)tmp.time);
			if (!e->local[tmp.dst])
				continue;
			cxl_event *ev = evpool_get(&e->pool, CXL_OWN_QUEUE);
			*ev = tmp;
			ev->owner = CXL_OWN_QUEUE;
			evq_push(&e->q, ev);
		}
	return 0;
}

int sim_engine_restore(sim_engine *e, const ckpt_image *img, cxl_err *err)
{
	cxl_err local = { 0 };
	int rc = 0;

	if (img->ncomp != e->g->ncomp)
		rc = cxl_err_set(&local, CXL_EINVAL, "%s: holds %u components, the config builds %u",
				 img->dir, img->ncomp, e->g->ncomp);
	if (!rc)
		drop_init_events(e);
	e->now = img->cut;
	for (uint32_t i = 0; i < e->nlocal && !rc; i++) {
		sim_comp *c = &e->comps[i];
		ckpt k = { .loading = 1, .c = c };
		load_record(e, c, img->rec[c->id], img->rec_len[c->id], &k);
		if (ckpt_failed(&k))
			rc = cxl_err_set(&local, CXL_EINVAL, "%s: component %s does not restore: %s",
					 img->dir, c->name, k.why);
	}
	if (!rc)
		rc = load_events(e, img, &local);
	for (int f = 0; !rc && e->rank == 0 && f < img->nfiles; f++)
		if (img->aggr_len[f] && (!e->series.period ||
					 series_hists_add(&e->series, img->aggr[f], img->aggr_len[f])))
			rc = cxl_err_set(&local, CXL_EINVAL, "%s: the time-series histograms of "
					 "file %d do not restore", img->dir, f);
	if (!rc) {
		e->window_end = e->last_time = img->cut;
		e->resumed_at = img->cut;
	}
	if (e->nranks > 1) {
		int bad = xport_max_int(rc ? e->nranks - e->rank : 0);
		if (!bad)
			return 0;
		int code = -xport_max_int(-rc);
		if (rc && e->nranks - e->rank == bad)
			cxl_err_set(err, local.code, "%s", local.msg);
		return code ? code : CXL_EINVAL;
	}
	if (rc)
		cxl_err_set(err, local.code, "%s", local.msg);
	return rc;
}
