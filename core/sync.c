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
 * The end is simulation.end plus the drain the system asks for (a fabric
 * lets the requests in flight at simulation.end finish; its requesters
 * issue nothing after it): the loop stops at end + drain, or earlier when no
 * rank has an event left (T is then SIM_TIME_MAX).
 *
 * Only the loop lives here; the bookkeeping around it (progress lines,
 * statistics collection, peak RSS) is core/sim_report.c's.
 */
#include "core/sim_int.h"

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
	sim_time stop = stime_add_sat(e->opt.end, e->opt.drain);

	e->run_start = e->progress_last = sim__wall();
	e->show_progress = e->opt.progress && e->rank == 0;
	for (;;) {
		sim_time t = window_start(e);
		if (t >= stop)
			break;
		sim_time until = stime_add_sat(t, e->lookahead);
		sim__process(e, until < stop ? until : stop);
		e->windows++;
	}
	e->loop_s = sim__wall() - e->run_start;
}
