/*
 * core/profile_out.c - the rank profile's files and summary (profile.h):
 *   profile.json         the recorded run, the model's parameters, and per
 *                        rank count the totals, per-rank lists and prediction
 *   profile_windows.csv  ranks,window,start_ps,end_ps,events,busiest_rank,
 *                        busiest_events,remote_events,max_rank_bytes,exchange_s
 *                        (window 0: the exchange of init's sends)
 *   profile_ranks.csv    ranks,window,rank,events,remote_out,remote_in
 *                        (rows with something to count)
 *   profile_pairs.csv    ranks,window,from,to,events,bytes (cross-rank events
 *                        sent in that window; bytes without the header)
 */
#include "core/profile.h"

#include <inttypes.h>

#include "core/json.h"
#include "core/output.h"

typedef struct prof_files prof_files;
struct prof_files {
	const prof_meta *m;      /* the recorded run */
	const prof_result *r;    /* one result per rank count */
	int n;                   /* results */
};

static void u64_list(json_w *w, const char *key, const uint64_t *v, int n)
{
	json_key(w, key);
	json_arr_inline(w);
	for (int i = 0; i < n; i++)
		json_u64(w, v[i]);
	json_end(w);
}

static void neighbour_stats(json_w *w, const prof_result *r)
{
	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;

	for (int i = 0; i < r->nranks; i++) {
		lo = r->neighbours[i] < lo ? r->neighbours[i] : lo;
		hi = r->neighbours[i] > hi ? r->neighbours[i] : hi;
		sum += r->neighbours[i];
	}
	json_key(w, "neighbours");
	json_obj_inline(w);
	json_kv_u64(w, "min", lo);
	json_kv_dbl(w, "mean", (double)sum / r->nranks);
	json_kv_u64(w, "max", hi);
	json_end(w);
	json_key(w, "neighbours_per_rank");
	json_arr_inline(w);
	for (int i = 0; i < r->nranks; i++)
		json_u64(w, r->neighbours[i]);
	json_end(w);
}

static void one_result(json_w *w, const prof_result *r)
{
	json_obj(w);
	json_kv_u64(w, "ranks", (uint64_t)r->nranks);
	json_kv_u64_or_null(w, "lookahead_ps", r->lookahead, SIM_TIME_MAX);
	json_kv_u64_or_null(w, "min_cross_delay_ps", r->min_cross_delay, SIM_TIME_MAX);
	json_kv_u64(w, "edge_cut", r->edge_cut);
	json_key(w, "collective");
	json_bool(w, r->nranks > 1 && !r->complete);
	json_kv_u64(w, "windows", r->windows);
	json_kv_dbl(w, "events_per_window", r->windows ? (double)r->events / r->windows : 0.0);
	json_kv_u64(w, "events", r->events);
	json_kv_u64(w, "remote_events", r->remote);
	json_kv_u64(w, "busiest_sum", r->busiest_sum);
	json_kv_dbl(w, "ceiling_speedup", r->ceiling);
	json_key(w, "predicted");
	json_obj_inline(w);
	json_kv_dbl(w, "loop_s", r->loop_s);
	json_kv_dbl(w, "compute_s", r->compute_s);
	json_kv_dbl(w, "message_s", r->message_s);
	json_kv_dbl(w, "collective_s", r->collective_s);
	json_kv_dbl(w, "speedup", r->speedup);
	json_kv_dbl(w, "efficiency", r->efficiency);
	json_end(w);
	neighbour_stats(w, r);
	u64_list(w, "events_per_rank", r->events_per_rank, r->nranks);
	u64_list(w, "remote_events_per_rank", r->remote_per_rank, r->nranks);
	json_end(w);
}

static void write_json(const void *ctx, FILE *f)
{
	const prof_files *pf = ctx;
	const prof_meta *m = pf->m;
	json_w w;

	json_init(&w, f);
	json_obj(&w);
	json_kv_str(&w, "config", m->config);
	json_kv_str(&w, "partitioner", m->partitioner);
	json_kv_u64(&w, "events", m->events);
	json_kv_u64(&w, "lazy_events", m->lazy_events);
	json_kv_u64(&w, "sends", m->records);
	json_kv_dbl(&w, "loop_s", m->loop_s);
	/* null: --profile-net gave c, no plain run was made */
	int plain = m->plain_loop_s > 0 && m->events;
	json_kv_dbl_or_null(&w, "plain_loop_s", m->plain_loop_s, plain);
	json_kv_dbl_or_null(&w, "event_ns_measured",
			    plain ? 1e9 * m->plain_loop_s / (double)m->events : 0, plain);
	json_kv_dbl(&w, "event_ns", 1e9 * m->event_s);
	json_kv_u64(&w, "stop_ps", m->stop);
	json_key(&w, "net");
	json_obj_inline(&w);
	json_kv_dbl(&w, "message_us", m->net.msg_s * 1e6);
	json_kv_dbl(&w, "bandwidth_GBps", m->net.bytes_per_s / 1e9);
	json_kv_dbl(&w, "allreduce_step_us", m->net.step_s * 1e6);
	json_end(&w);
	json_kv_str(&w, "model", "loop_s = sum_k event_s * max_r events(r,k) + sum_j [max_r "
		    "(message * neighbours(r) + 96 B * (neighbours(r) + max(sent, received)(r,j)) "
		    "/ bandwidth) + step * ceil(log2 P) unless every rank neighbours every other]");
	json_key(&w, "results");
	json_arr(&w);
	for (int i = 0; i < pf->n; i++)
		one_result(&w, &pf->r[i]);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
}

static void write_windows(const void *ctx, FILE *f)
{
	const prof_files *pf = ctx;

	fputs("ranks,window,start_ps,end_ps,events,busiest_rank,busiest_events,remote_events,"
	      "max_rank_bytes,exchange_s\n", f);
	for (int i = 0; i < pf->n; i++) {
		const prof_result *r = &pf->r[i];
		for (uint64_t k = 0; k <= r->windows; k++) {
			const prof_window *w = &r->win[k];
			fprintf(f, "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%.9g\n", r->nranks, k, w->start, w->end,
				w->events, w->busiest_rank, w->busiest, w->remote, w->max_bytes,
				w->exchange_s);
		}
	}
}

static void write_ranks(const void *ctx, FILE *f)
{
	const prof_files *pf = ctx;

	fputs("ranks,window,rank,events,remote_out,remote_in\n", f);
	for (int i = 0; i < pf->n; i++) {
		const prof_result *r = &pf->r[i];
		for (size_t k = 0; k < r->ncells; k++) {
			const prof_cell *c = &r->cells[k];
			fprintf(f, "%d,%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->nranks,
				c->window, c->rank, c->events, c->remote_out, c->remote_in);
		}
	}
}

static void write_pairs(const void *ctx, FILE *f)
{
	const prof_files *pf = ctx;

	fputs("ranks,window,from,to,events,bytes\n", f);
	for (int i = 0; i < pf->n; i++) {
		const prof_result *r = &pf->r[i];
		for (size_t k = 0; k < r->npairs; k++) {
			const prof_pair *p = &r->pairs[k];
			fprintf(f, "%d,%u,%d,%d,%" PRIu64 ",%" PRIu64 "\n", r->nranks, p->window,
				p->from, p->to, p->events, PROF_EVENT_BYTES * p->events);
		}
	}
}

int prof_write(const char *dir, const prof_meta *m, const prof_result *r, int nres,
	       cxl_err *err)
{
	prof_files pf = { m, r, nres };
	int rc = output_file(dir, "profile.json", write_json, &pf, err);

	if (!rc)
		rc = output_file(dir, "profile_windows.csv", write_windows, &pf, err);
	if (!rc)
		rc = output_file(dir, "profile_ranks.csv", write_ranks, &pf, err);
	if (!rc)
		rc = output_file(dir, "profile_pairs.csv", write_pairs, &pf, err);
	return rc;
}

void prof_print(FILE *f, const prof_meta *m, const prof_result *r, int nres)
{
	if (m->plain_loop_s > 0)
		fprintf(f, "rank profile: %" PRIu64 " events in %.3f s on 1 rank (%.1f ns per "
			"event; %.3f s while logging them); ", m->events, m->plain_loop_s,
			m->events ? 1e9 * m->plain_loop_s / (double)m->events : 0.0, m->loop_s);
	else
		fprintf(f, "rank profile: %" PRIu64 " events (%.3f s on 1 rank while logging "
			"them); ", m->events, m->loop_s);
	fprintf(f, "cluster model: %.1f ns per event, %.3g us per "
		"message, %.3g GB/s per rank, allreduce %.3g us x ceil(log2 P)\n",
		1e9 * m->event_s,
		m->net.msg_s * 1e6, m->net.bytes_per_s / 1e9, m->net.step_s * 1e6);
	fprintf(f, "%6s %9s %6s %7s %9s %8s %6s %9s %10s %9s %9s %9s %8s %6s\n", "ranks",
		"lookahead", "cut", "windows", "ev/window", "ceiling", "nb max", "remote",
		"pred loop", "compute", "messages", "collect.", "speedup", "eff.");
	for (int i = 0; i < nres; i++) {
		const prof_result *p = &r[i];
		uint32_t nb = 0;
		char la[STIME_FMT_LEN];
		for (int k = 0; k < p->nranks; k++)
			nb = p->neighbours[k] > nb ? p->neighbours[k] : nb;
		fprintf(f, "%6d %9s %6" PRIu64 " %7" PRIu64 " %9.0f %8.2f %6u %9" PRIu64
			" %9.4fs %8.4fs %8.4fs %8.4fs %8.2f %5.1f%%\n", p->nranks,
			p->lookahead == SIM_TIME_MAX ? "-" : stime_format(p->lookahead, la),
			p->edge_cut, p->windows, p->windows ? (double)p->events / p->windows : 0.0,
			p->ceiling, nb, p->remote, p->loop_s, p->compute_s, p->message_s,
			p->collective_s, p->speedup, 100.0 * p->efficiency);
	}
}
