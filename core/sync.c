/*
 * core/sync.c - conservative synchronisation in windows (design §3).
 *
 * Each window:
 *   exchange the cross-rank events of the last window (and of init) with
 *            the neighbours, one message each way (point to point)
 *   T    = global minimum of every rank's next event time: the minimum of
 *          the bounds carried in the messages when every rank is a neighbour
 *          (no collective), else one allreduce (the ONE collective)
 *   stop if T >= end
 *   run every local event with time < min(T + L, end)       (L = lookahead)
 * Safety: an event sent across ranks during the window is at least L after
 * the event that sent it, so at or after T + L: it belongs to a later window.
 * The loop starts with an exchange so that events sent by init hooks are
 * delivered before the first window.  Idle stretches cost nothing: T jumps
 * to the next event anywhere.
 *
 * With one rank there is no collective and no exchange: L is infinite and
 * the loop runs once, straight to the end.
 *
 * Progress: rank 0 prints at most once a second (when enabled), from its
 * own clock, checked every SIM_PROGRESS_MASK+1 events - no communication.
 */
#include "core/sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "core/xmalloc.h"

void sim__progress(sim_engine *e)
{
	double now = sim__wall();

	if (now - e->progress_last < 1.0)
		return;
	e->progress_last = now;
	double frac = (double)e->now / (double)e->opt.end;
	double el = now - e->run_start;
	char ts[STIME_FMT_LEN], te[STIME_FMT_LEN];
	fprintf(stderr, "cxlfab: sim %s / %s (%.1f%%), %.2f M ev/s on rank 0, ETA %.0f s\n",
		stime_format(e->now, ts), stime_format(e->opt.end, te), 100.0 * frac,
		(double)e->events / el / 1e6, frac > 0 ? el * (1 - frac) / frac : 0.0);
}

/* Exchange the last window's cross-rank events and agree on the next T. */
static sim_time window_start(sim_engine *e)
{
	sim_time t = evq_peek_time(&e->q);

	if (!e->xp)
		return t;
	double w0 = sim__wall();
	sim_time bound = t < e->sent_min ? t : e->sent_min;
	e->sent_min = SIM_TIME_MAX;
	t = xport_exchange(e->xp, bound, sim__deliver, e);
	if (!xport_complete(e->xp))
		t = xport_min_u64(evq_peek_time(&e->q));
	e->wait_s += sim__wall() - w0;
	return t;
}

void sim_engine_run(sim_engine *e)
{
	e->run_start = e->progress_last = sim__wall();
	e->show_progress = e->opt.progress && e->rank == 0;

	for (;;) {
		sim_time t = window_start(e);
		if (t >= e->opt.end)
			break;
		sim_time until = stime_add_sat(t, e->lookahead);
		sim__process(e, until < e->opt.end ? until : e->opt.end);
		e->windows++;
	}
	e->loop_s = sim__wall() - e->run_start;
}

static uint64_t peak_rss_bytes(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss * 1024;
}

int sim_engine_collect(sim_engine *e, stats_set *table, sim_rank_info *info,
		       cxl_err *err)
{
	if (e->before_finish)
		e->before_finish(e->hook_comp);
	for (uint32_t k = 0; k < e->nlocal; k++) {
		sim_comp *c = &e->comps[k];
		if (c->ops->finish)
			c->ops->finish(c, c->state);
	}
	sim_rank_info mine = {
		.events = e->events, .windows = e->windows, .remote_out = e->remote_out,
		.components = e->nlocal, .peak_rss = peak_rss_bytes(),
		.peak_events = e->pool.peak, .loop_s = e->loop_s, .wait_s = e->wait_s,
		.sim_time = e->last_time,
	};
	size_t len, *lens = e->rank == 0 ? xcalloc((size_t)e->nranks, sizeof(*lens)) : NULL;
	void *buf = stats_pack(&e->stats, &len);
	int rc = 0;

	if (e->nranks == 1) {
		rc = stats_table_add(table, buf, len, err);
		info[0] = mine;
	} else {
		char *all = xport_gather(buf, len, lens);
		size_t *ilens = e->rank == 0 ? xcalloc((size_t)e->nranks, sizeof(*ilens)) : NULL;
		sim_rank_info *infos = xport_gather(&mine, sizeof(mine), ilens);
		if (e->rank == 0) {
			size_t off = 0;
			for (int r = 0; r < e->nranks && !rc; r++) {
				rc = stats_table_add(table, all + off, lens[r], err);
				off += lens[r];
			}
			for (int r = 0; r < e->nranks; r++)
				info[r] = infos[r];
		}
		free(all);
		free(infos);
		free(ilens);
	}
	if (e->rank == 0 && !rc)
		rc = stats_table_sort(table, err);
	free(buf);
	free(lens);
	return rc;
}
