/*
 * core/main_profile.c - bin/cxlfab's --profile-ranks driver: the plain run
 * that measures the cost per event, then, after the logged run main.c
 * makes, the replay for each rank count and the profile's files
 * (core/profile.h holds the model and the replay).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/main_int.h"
#include "core/xmalloc.h"

/*
 * main__plain_event_cost - --profile-ranks without a cost in --profile-net: one
 * plain run of the config (nothing logged, nothing written) before the
 * recorded one, for the model's per-event cost c = loop seconds / events.
 * Logging every send slows the loop (rack-4096 --end 2us: 1.284 s against
 * 1.055 s, +22 %), and c predicts runs that do not log.  The engine is
 * rebuilt from the same graph and config, so the run is the same one
 * (main__profile() checks that both ran the same number of events).  Made before
 * the logged run's engine exists, so the two never hold memory together.
 */
int main__plain_event_cost(app *a, const sim_opts *so, prof_plain *out, cxl_err *err)
{
	sim_opts o = *so;
	sim_rank_info info = { 0 };
	stats_set table;

	o.progress = 0;
	sim_engine *e = sim_engine_create(&a->g, a->rank_of, a->cf, &o, err);
	if (!e)
		return CXL_EINVAL;
	stats_set_init(&table);
	int rc = sim_engine_init(e, err);
	if (!rc) {
		main__install_signals(); /* as for any run: from the loop on */
		sim_engine_run(e);
		if ((a->interrupted = sim_engine_interrupted(e)))
			rc = cxl_err_set(err, CXL_EINVAL, "rank profile: stopped by %s during the "
					 "plain run that measures the cost per event",
					 main__signal_name(a->interrupted));
		int rcol = sim_engine_collect(e, &table, &info, rc ? NULL : err);
		rc = rc ? rc : rcol;
	}
	out->loop_s = info.loop_s;
	out->events = info.events;
	stats_set_free(&table);
	sim_engine_destroy(e);
	return rc;
}

/*
 * --profile-ranks: the one-rank run just made logged every send; replay it
 * for each rank count under the partition a run on that many ranks would
 * compute (main__partition(), the same call), then write and print the profile.
 */
int main__profile(app *a, prof_log *log, const sim_rank_info *info, sim_time stop,
		  const prof_plain *plain, cxl_err *err)
{
	prof_input in = { .log = log, .stop = stop, .g = &a->g, .net = a->opt.net };
	prof_result *res = xcalloc((size_t)a->opt.nprof, sizeof(*res));
	int32_t *own = a->rank_of;
	int rc = 0, n = 0;

	if (a->interrupted)
		return cxl_err_set(err, CXL_EINVAL, "rank profile: the run was stopped by %s "
				   "before the end; no profile written", main__signal_name(a->interrupted));
	if (!(in.net.event_s > 0) && plain->events != info[0].events)
		return cxl_err_set(err, CXL_EINTERNAL, "rank profile: the plain run executed %llu "
				   "events, the logged one %llu", (unsigned long long)plain->events,
				   (unsigned long long)info[0].events);
	in.executed = prof_log_sort(log, stop);
	in.event_s = plain->events ? plain->loop_s / (double)plain->events : 0;
	if (in.net.event_s > 0)
		in.event_s = in.net.event_s;
	if (in.executed != info[0].events + info[0].lazy_events)
		rc = cxl_err_set(err, CXL_EINTERNAL, "rank profile: %zu sends before the end, but "
				 "%llu events and %llu lazy ones ran", in.executed,
				 (unsigned long long)info[0].events,
				 (unsigned long long)info[0].lazy_events);
	for (; !rc && n < a->opt.nprof; n++) {
		a->rank_of = NULL;
		rc = main__partition(a, a->opt.prof_ranks[n], err);
		if (!rc)
			prof_replay(&in, a->rank_of, a->opt.prof_ranks[n], &res[n]);
		free(a->rank_of);
	}
	a->rank_of = own;
	prof_meta m = { .config = a->opt.config, .partitioner = a->part->name,
			.events = info[0].events, .lazy_events = info[0].lazy_events,
			.records = log->n, .loop_s = info[0].loop_s,
			.plain_loop_s = plain->loop_s, .event_s = in.event_s, .stop = stop, .net = a->opt.net };
	if (!rc)
		rc = prof_write(a->outdir, &m, res, n, err);
	if (!rc && !a->opt.quiet) {
		prof_print(stdout, &m, res, n);
		printf("  written to %s/profile.json\n", a->outdir);
	}
	for (int i = 0; i < n; i++)
		prof_result_free(&res[i]);
	free(res);
	return rc;
}
