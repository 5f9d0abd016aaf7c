/*
 * core/sim_report.c - what the engine reports about a run, apart from the
 * window loop (core/sync.c) that it watches:
 *   - the progress line: rank 0 prints at most once a second (when
 *     enabled), from its own clock, checked every SIM_PROGRESS_MASK+1
 *     events by the dispatch loop - no communication.  Done is the larger
 *     of simulated time / simulation.end and the work its components
 *     registered (sim_progress_work: requests issued / to issue), so a run
 *     that stops after a number of requests long before its end still gets
 *     an ETA; after simulation.end it says it is draining;
 *   - collection at the end: the finish hooks, then every rank's
 *     statistics and rank figures (events, windows, peak RSS, MPI wait)
 *     gathered to rank 0 through the transport and merged in component-id
 *     order (so the table does not depend on the rank count);
 *   - the time series likewise (when sampling is on), after every rank has
 *     ended them at the run's last event: the latest time any rank
 *     executed, one collective, the same for any partition.
 */
#include "core/sim_int.h"

#include <inttypes.h>
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
	double frac = (double)e->now / (double)e->opt.end, el = now - e->run_start;
	uint64_t done = 0;
	char ts[STIME_FMT_LEN], te[STIME_FMT_LEN];

	for (uint32_t k = 0; k < e->nwork; k++)
		done += *e->work_done[k];
	if (e->work_total && (double)done / (double)e->work_total > frac)
		frac = (double)done / (double)e->work_total;
	if (e->now >= e->opt.end) {
		fprintf(stderr, "cxlfab: sim %s, draining after the end (%s): answering the "
			"requests in flight, %.2f M ev/s on rank 0\n", stime_format(e->now, ts),
			stime_format(e->opt.end, te), (double)e->events / el / 1e6);
		return;
	}
	fprintf(stderr, "cxlfab: sim %s / %s (%.1f%% done), %.2f M ev/s on rank 0, ETA %.0f s\n",
		stime_format(e->now, ts), stime_format(e->opt.end, te), 100.0 * frac,
		(double)e->events / el / 1e6, frac > 0 ? el * (1 - frac) / frac : 0.0);
}

static uint64_t peak_rss_bytes(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss * 1024;
}

#ifdef CXL_EVPROF
/* evprof_print - the event profile of this rank (sim_int.h) to stderr. */
static void evprof_print(const sim_engine *e)
{
	for (unsigned t = 0; t < SIM_EVPROF_TYPES && e->evprof_ops[t]; t++)
		for (unsigned k = 0; k < SIM_EVPROF_KINDS; k++)
			if (e->evprof[t][k])
				fprintf(stderr, "evprof: rank %d %s kind %u%s: %" PRIu64 " events (%.1f%%)\n",
					e->rank, e->evprof_ops[t]->name, k,
					k == SIM_EVPROF_KINDS - 1 ? "+" : "", e->evprof[t][k],
					e->events ? 100.0 * (double)e->evprof[t][k] / (double)e->events : 0.0);
}
#else
static void evprof_print(const sim_engine *e)
{
	(void)e;
}
#endif

int sim_engine_collect(sim_engine *e, stats_set *table, sim_rank_info *info,
		       cxl_err *err)
{
	evprof_print(e);
	if (e->before_finish)
		e->before_finish(e->hook_comp);
	for (uint32_t k = 0; k < e->nlocal; k++) {
		sim_comp *c = &e->comps[k];
		if (c->ops->finish)
			c->ops->finish(c, c->state);
	}
	sim_rank_info mine = {
		.events = e->events, .lazy_events = e->lazy_events, .windows = e->windows,
		.remote_out = e->remote_out,
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

/* Rank 0 merges every rank's packed bytes @all (lengths @lens) into @t. */
static int merge_series(const sim_engine *e, series_set *t, const char *all,
			const size_t *lens, cxl_err *err)
{
	size_t off = 0;
	int rc = 0;

	for (int r = 0; r < e->nranks && !rc; r++) {
		rc = series_table_add(t, all + off, lens[r], err);
		off += lens[r];
	}
	return rc ? rc : series_table_sort(t, err);
}

/**
 * sim_engine_collect_series - close the series at the run's last event
 * (the latest over ranks: one collective), gather them and merge them into
 * @table at rank 0 (engine.h).  Every rank calls it; off: returns 0 at once.
 * Returns 0 or CXL_EINTERNAL (rank 0 only) when the bytes do not merge.
 */
int sim_engine_collect_series(sim_engine *e, series_set *table, cxl_err *err)
{
	if (!e->series.period)
		return 0;
	sim_time end = e->last_time;
	if (e->nranks > 1)
		end = ~xport_min_u64(~end);
	series_close(&e->series, end);
	size_t len, *lens = xcalloc((size_t)e->nranks, sizeof(*lens));
	void *buf = series_pack(&e->series, &len);
	char *all = buf;
	int rc = 0;

	lens[0] = len;
	if (e->nranks > 1)
		all = xport_gather(buf, len, lens);
	if (e->rank == 0)
		rc = merge_series(e, table, all, lens, err);
	if (all != buf)
		free(all);
	free(buf);
	free(lens);
	return rc;
}
