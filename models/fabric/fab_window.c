/*
 * models/fabric/fab_window.c - the measurement window of a fabric run, as in
 * established network simulators: warm-up, then the window, then a drain.
 *
 *   window      [simulation.warmup, W1): W1 = simulation.end when the end
 *               cut some requester short (a time-bounded run), else the last
 *               answer of any request (a request-bounded run, one that ran
 *               out of requests or trace before its end)
 *   throughput  data delivered inside the window (every request answered in
 *               it, whatever its issue time) / the window's length, in total
 *               and per requester (min, mean, max), and as a fraction of the
 *               offered load (the sum of 64 B / workload.issue_interval of
 *               the requesters; none when one runs closed-loop)
 *   latency     every request issued inside the window, followed to its
 *               answer: requesters issue nothing at or after simulation.end
 *               and the run goes on (at most simulation.drain) until the
 *               requests in flight are answered; fab_summary.c writes it
 *
 * Warnings (summary.warnings, and stderr at the end of a run): a trace replay
 * that simulation.end cut short (how much of the traces was replayed), requests left
 * unanswered by the drain, a window shorter than FAB_WINDOW_LATENCIES mean
 * latencies, a warm-up that never ended.  The report is the few lines a
 * run prints: window, requests, throughput, latency, warnings.
 */
#include "models/fabric/fab_sum_int.h"

#include <stdarg.h>
#include <string.h>

#include "core/stime.h"
#include "models/fabric/fab_kind.h"

/* fab__window_add_requester - the window counters of requester @c. */
void fab__window_add_requester(fab_totals *t, const stats_comp *c)
{
	uint64_t iv = fab__counter(c, "offered_interval_ps"), done = fab__counter(c, "t_done_ps");

	t->win_bytes += fab__counter(c, "window_bytes");
	t->drained += fab__counter(c, "drained");
	t->unanswered += fab__counter(c, "outstanding_at_end");
	t->t_done = done > t->t_done ? done : t->t_done;
	t->time_bounded |= fab__counter(c, "cut_by_end") != 0;
	uint64_t recs = fab__counter(c, "trace_records"), got = fab__counter(c, "trace_replayed");
	t->trc_records += recs;
	t->trc_replayed += got;
	t->trc_cut += got < recs && fab__counter(c, "cut_by_end");
	if (!fab__counter(c, "issued"))
		return;
	t->nactive++;
	if (iv)
		t->offered += 64e3 / (double)iv; /* 64 B per interval ps, in GB/s */
	else
		t->nclosed++;
}

static void warn(fab_totals *t, const char *fmt, ...)
{
	va_list ap;

	if (t->nwarn == FAB_SUM_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(t->warn[t->nwarn++], FAB_SUM_WARN_LEN, fmt, ap);
	va_end(ap);
}

static double gbps(uint64_t bytes, uint64_t ps)
{
	return ps ? (double)bytes * 1e3 / (double)ps : 0.0;
}

/* Per-requester throughput over the window: min and max. */
static void per_requester(fab_totals *t, const sim_graph *g, const stats_set *table)
{
	int first = 1;

	for (size_t i = 0; i < table->n; i++) {
		const stats_comp *c = &table->c[i];
		if (!(fab__roles_of(g, c->id) & FAB_ROLE_REQUESTER) || !fab__counter(c, "issued"))
			continue;
		double b = gbps(fab__counter(c, "window_bytes"), t->w1 - t->w0);
		t->host_min = first || b < t->host_min ? b : t->host_min;
		t->host_max = first || b > t->host_max ? b : t->host_max;
		first = 0;
	}
}

static void warnings(fab_totals *t)
{
	char a[STIME_FMT_LEN], b[STIME_FMT_LEN];
	double mean = stats_hist_mean(&t->all);

	if (t->unanswered)
		warn(t, "%llu requests were still unanswered %s after simulation.end "
		     "(simulation.drain): their latency is missing; raise simulation.drain, or "
		     "look for a deadlock", (unsigned long long)t->unanswered,
		     stime_format(t->drain, a));
	if (t->trc_cut)
		warn(t, "simulation.end (%s) stopped the trace replay of %llu requester%s before "
		     "the end of its trace: %llu of %llu records replayed (%.1f%%; each "
		     "requester's trace_replayed of trace_records in components); lengthen "
		     "simulation.end to replay them whole", stime_format(t->end, a),
		     (unsigned long long)t->trc_cut, t->trc_cut == 1 ? "" : "s",
		     (unsigned long long)t->trc_replayed, (unsigned long long)t->trc_records,
		     t->trc_records ? 100.0 * (double)t->trc_replayed / (double)t->trc_records : 0.0);
	if (t->w1 <= t->w0 || (t->issued && !t->all.count))
		warn(t, "the warm-up (simulation.warmup = %s) never ended before the window "
		     "closed at %s: nothing was measured", stime_format(t->w0, a),
		     stime_format(t->w1, b));
	else if (mean > 0 && (double)(t->w1 - t->w0) < FAB_WINDOW_LATENCIES * mean)
		warn(t, "the measurement window (%s) is shorter than %d mean latencies "
		     "(%.1f ns): its edges dominate throughput and latency; lengthen "
		     "simulation.end or shorten simulation.warmup",
		     stime_format(t->w1 - t->w0, a), FAB_WINDOW_LATENCIES, mean / 1e3);
}

/* fab__window_finish - the window's bounds, per-requester figures, warnings. */
void fab__window_finish(fab_totals *t, const cfg *cf, const sim_graph *g,
			const stats_set *table)
{
	t->end = cfg_time(cf, "simulation.end");
	t->drain = cfg_time(cf, "simulation.drain");
	t->w0 = cfg_time(cf, "simulation.warmup");
	t->w1 = t->time_bounded ? t->end : t->t_done;
	if (t->w1 < t->w0)
		t->w1 = t->w0;
	per_requester(t, g, table);
	warnings(t);
}

/* fab__window_json - the window keys of the summary (inside its object). */
void fab__window_json(json_w *w, const fab_totals *t)
{
	uint64_t len = t->w1 - t->w0;
	double bw = gbps(t->win_bytes, len);

	json_key(w, "window");
	json_obj_inline(w);
	json_kv_dbl(w, "start_ns", (double)t->w0 / 1e3);
	json_kv_dbl(w, "end_ns", (double)t->w1 / 1e3);
	json_kv_dbl(w, "length_ns", (double)len / 1e3);
	json_kv_str(w, "bounded_by", t->time_bounded ? "time" : "requests");
	json_kv_u64(w, "bytes", t->win_bytes);
	json_end(w);
	json_kv_u64(w, "in_flight_at_end", t->drained + t->unanswered);
	json_kv_u64(w, "unanswered", t->unanswered);
	json_key(w, "offered_GBps");
	if (t->nclosed || !t->nactive)
		json_null(w); /* closed loop: as much as the fabric takes */
	else
		json_dbl(w, t->offered);
	json_key(w, "offered_fraction");
	if (t->nclosed || !t->nactive || t->offered <= 0)
		json_null(w);
	else
		json_dbl(w, bw / t->offered);
	json_key(w, "requester_GBps");
	json_obj_inline(w);
	json_kv_dbl(w, "min", t->host_min);
	json_kv_dbl(w, "mean", t->nactive ? bw / (double)t->nactive : 0.0);
	json_kv_dbl(w, "max", t->host_max);
	json_end(w);
	json_key(w, "warnings");
	json_arr(w);
	for (uint32_t i = 0; i < t->nwarn; i++)
		json_str(w, t->warn[i]);
	json_end(w);
}

/* fab__report - the end-of-run lines: to @out (NULL: none), warnings to @werr (NULL: none). */
void fab__report(const fab_totals *t, FILE *out, FILE *werr)
{
	char a[STIME_FMT_LEN], b[STIME_FMT_LEN];
	double bw = gbps(t->win_bytes, t->w1 - t->w0);

	if (out) {
		fprintf(out, "  window %s .. %s (%s-bounded), %llu requests in flight at its end%s\n",
			stime_format(t->w0, a), stime_format(t->w1, b),
			t->time_bounded ? "time" : "request",
			(unsigned long long)(t->drained + t->unanswered),
			t->unanswered ? "" : ", all answered");
		fprintf(out, "  requests %llu measured (%llu reads, %llu writes); throughput %.2f GB/s",
			(unsigned long long)(t->reads + t->writes), (unsigned long long)t->reads,
			(unsigned long long)t->writes, bw);
		if (!t->nclosed && t->nactive && t->offered > 0)
			fprintf(out, " (%.1f%% of the %.2f GB/s offered)", 100.0 * bw / t->offered,
				t->offered);
		fprintf(out, "\n  latency ns: mean %.1f, p50 %.1f, p99 %.1f, max %.1f\n",
			stats_hist_mean(&t->all) / 1e3, (double)stats_hist_quantile(&t->all, 0.5) / 1e3,
			(double)stats_hist_quantile(&t->all, 0.99) / 1e3, (double)t->all.max / 1e3);
		uint64_t n = t->reads + t->writes - t->bd_ovf;
		fprintf(out, "  where it goes, ns per request:");
		for (int j = 0; j < CXL_LAT_N; j++)
			fprintf(out, "%s %s %.1f", j ? "," : "", cxl_lat_name((enum cxl_lat)j),
				n ? (double)t->bd[j] / (double)n / 1e3 : 0.0);
		fprintf(out, "\n");
	}
	for (uint32_t i = 0; werr && i < t->nwarn; i++)
		fprintf(werr, "cxlfab: warning: %s\n", t->warn[i]);
}
