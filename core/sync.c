/*
 * core/sync.c - conservative synchronisation in windows (design §3).
 *
 * Each window:
 *   exchange the cross-rank events of the last window (and of init) with
 *            the neighbours, one message each way (point to point)
 *   T    = global minimum of every rank's next event time: the minimum of
 *          the bounds carried in the messages when every rank is a neighbour
 *          (no collective), else one allreduce (the ONE collective), whose
 *          result is read one boundary later ("The delayed minimum" below)
 *   stop if T >= end
 *   run every local event with time < min(T + L, end)       (L = lookahead)
 * Safety: an event sent across ranks during the window is at least L after
 * the event that sent it, so at or after T + L: it belongs to a later window.
 * The loop starts with an exchange so that events sent by init hooks are
 * delivered before the first window.  Idle stretches cost nothing: T jumps
 * to the next event anywhere (with the delayed minimum after one empty
 * window).
 *
 * With one rank there is no collective and no exchange: L is infinite and
 * the loop runs once, straight to the end.
 *
 * The end is simulation.end plus the drain the system asks for (a fabric
 * lets the requests in flight at simulation.end finish; its requesters
 * issue nothing after it): the loop stops at end + drain, or earlier when no
 * rank has an event left (T is then SIM_TIME_MAX).
 *
 * Stopping early (SIGTERM, SIGUSR1, SIGINT; main.c's handler only sets the
 * flag sim_opts.stop points to): each rank reads the flag at the start of
 * a window and the ranks agree on it in the window's own communication, no
 * extra message: the exchange headers carry it when every rank is a
 * neighbour (each rank then sees every rank's flag), the allreduce does
 * otherwise (MIN over {T, ~flag}; read one boundary later, the delayed
 * minimum, so the ranks stop one window later).  So every rank stops at
 * the same window boundary, with every event before it executed and every
 * event sent across ranks delivered; e->interrupted records the signal.
 * With one rank there is no window boundary to wait for: the dispatch loop
 * looks at the flag every SIM_PROGRESS_MASK+1 events (sim.c), then runs the
 * rest of the events of the current time and stops: the end of a window,
 * cut at that time + 1.
 *
 * Checkpoints (sim_opts.ckpt_*): a window never runs past the next cut C, so
 * at some window boundary every event before C has run and none after: the
 * ranks agree on that (the boundary's T >= C is global) and all call the
 * writer there.  A stop signal writes one too, cut at the last window's end.
 *
 * Only the loop lives here; the bookkeeping around it (progress lines,
 * statistics collection, peak RSS) is core/sim_report.c's.
 */
#include "core/sim_int.h"

/*
 * The delayed minimum (a run whose ranks do not all neighbour each other):
 * at boundary j the window's allreduce of {queue minimum, stop flag} is
 * started (MPI_Iallreduce) and read at boundary j+1, so its steps progress
 * during the next exchange's messages instead of after them.  Boundary j
 * uses the minimum G_{j-1} agreed by the collective started at j-1:
 *     T_j = max(U_{j-1}, G_{j-1})      (U_{j-1}: where the last window ended)
 * which is safe: every event below U_{j-1} has run, no event is ever sent
 * into the past, so the pending minimum G_j >= max(U_{j-1}, G_{j-1}) = T_j;
 * and nothing is lost in [U_{j-1}, T_j), which holds no event.  The
 * first boundary (no collective started yet) takes a blocking allreduce;
 * the signal agreed at j is that of the ranks at j-1; a boundary that stops
 * starts no collective (every rank decides from the same agreed values),
 * except one whose checkpoint write failed: xport_destroy completes that
 * one.  The price: windows follow each other from U instead of starting at
 * the next event, so an idle stretch costs one empty window before T jumps,
 * the end one more, and gaps shorter than L can add windows too (L = 10 ps,
 * events at 0, 12, 21: [0,10) [10,20) [20,30) [30,40) against the exact
 * minimum's [0,10) [12,22)).  Checkpoint cuts in an idle stretch are one
 * state, written once (same_state below).
 */
static sim_time delayed_start(sim_engine *e, int *stop)
{
	int mine = *stop;
	sim_time g, t;

	if (!e->windows)
		return xport_min_stop(evq_peek_time(&e->q), stop);
	if (xport_min_stop_started(e->xp)) {
		g = xport_min_stop_end(e->xp, stop);
	} else {
		g = 0; /* the second boundary: the first's exact minimum is behind U */
		*stop = 0;
	}
	t = e->window_end > g ? e->window_end : g;
	e->last_idle = g >= e->window_end; /* nothing below U was pending at j-1 */
	if (!*stop && t < stime_add_sat(e->opt.end, e->opt.drain))
		xport_min_stop_begin(e->xp, evq_peek_time(&e->q), mine);
	return t;
}

/*
 * Exchange the last window's cross-rank events and agree on the next T and
 * on stopping: *@stop gets the agreed signal number (0: go on).
 */
static sim_time window_start(sim_engine *e, int *stop)
{
	sim_time t = evq_peek_time(&e->q);

	*stop = e->opt.stop ? (int)(uint16_t)*e->opt.stop : 0;
	if (!e->xp)
		return t;
	double w0 = sim__wall();
	sim_time bound = t < e->sent_min ? t : e->sent_min;
	e->sent_min = SIM_TIME_MAX;
	int mine = *stop;
	t = xport_exchange(e->xp, bound, stop, sim__deliver, e);
	if (!xport_complete(e->xp)) {
		*stop = mine;
		t = delayed_start(e, stop);
	}
	e->wait_s += sim__wall() - w0;
	return t;
}

/* The first checkpoint cut after @t (SIM_TIME_MAX: none). */
static sim_time next_cut(const sim_engine *e, sim_time t)
{
	sim_time best = SIM_TIME_MAX, p = e->opt.ckpt_period;

	if (!e->opt.ckpt_write)
		return SIM_TIME_MAX;
	for (int i = 0; i < e->opt.nckpt; i++)
		if (e->opt.ckpt_at[i] > t) {
			best = e->opt.ckpt_at[i];
			break;
		}
	if (p && t / p < SIM_TIME_MAX / p - 1) {
		sim_time q = (t / p + 1) * p;
		best = q < best ? q : best;
	}
	return best;
}

/* Every rank at the same boundary: write the checkpoint cut at @cut. */
static void checkpoint(sim_engine *e, sim_time cut)
{
	sim__lazy_settle(e, cut); /* lazy events before the cut: handled; the rest are saved */
	e->ckpt_rc = e->opt.ckpt_write(e->opt.ckpt_ctx, e, cut, &e->ckpt_err);
	sim__lazy_resume(e);
	e->ckpt_window = e->windows + 1;
}

/*
 * lazy_left - does some rank hold a lazy credit before @stop?  Only asked at a
 * stop signal (every rank agrees on it, so every rank makes the collective;
 * one rank: its own):
 * in a run's last stretch only credits may be left, which the queue's
 * minimum t does not show (core/sim_lazy.c).
 */
static int lazy_left(const sim_engine *e, sim_time stop)
{
	uint64_t m = sim__lazy_min(e);

	return (e->xp ? xport_min_u64(m) : m) < stop;
}

/*
 * Is the state at this boundary the one the last checkpoint holds?  Only
 * with the delayed minimum: a checkpoint written at the boundary before, and
 * the window between ran no event anywhere (agreed: e->last_idle).  Then
 * the cuts now due fall in the same idle stretch as the written one, and
 * are not written again (with the exact minimum T jumps over them at once).
 */
static int same_state(const sim_engine *e)
{
	return e->ckpt_window == e->windows && e->last_idle;
}

void sim_engine_run(sim_engine *e)
{
	sim_time stop = stime_add_sat(e->opt.end, e->opt.drain);

	e->run_start = e->progress_last = sim__wall();
	e->show_progress = e->opt.progress && e->rank == 0;
	e->ckpt_next = next_cut(e, e->resumed_at);
	for (;;) {
		int sig;
		sim_time t = window_start(e, &sig);
		if (sig)
			e->interrupted = sig;
		/* a cut is due once every event before it has run: all ranks see the same t */
		if (e->ckpt_next <= t && e->ckpt_next < stop) {
			if (!same_state(e))
				checkpoint(e, e->ckpt_next);
			e->ckpt_next = next_cut(e, t);
		} else if (sig && e->opt.ckpt_write && (t < stop || lazy_left(e, stop))) {
			checkpoint(e, e->window_end);
		}
		if (sig || t >= stop || e->ckpt_rc)
			break;
		sim_time until = stime_add_sat(t, e->lookahead);
		until = until < stop ? until : stop;
		until = until < e->ckpt_next ? until : e->ckpt_next;
		sim__process(e, until);
		e->windows++;
		if (e->interrupted) { /* one rank: stopped after the events of one time */
			if (e->opt.ckpt_write && (evq_peek_time(&e->q) < stop || lazy_left(e, stop)))
				checkpoint(e, e->window_end);
			break;
		}
	}
	/* lazy events still waiting: those before the point the run reached are handled */
	sim__lazy_finish(e, e->interrupted || e->ckpt_rc ? e->window_end : stop);
	e->loop_s = sim__wall() - e->run_start;
}
