/*
 * core/profile.c - the rank profile: the send log, its replay for P ranks
 * and the cluster model (see profile.h); its output is profile_out.c's.
 *
 * Cost: sorting the log O(n log n) once; each replay O(n + remote log
 * remote + W log W + links log links + P) time and O(P + remote + cells)
 * memory, where n = records, W = windows.
 */
#include "core/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

void prof_log_init(prof_log *l)
{
	*l = (prof_log){ 0 };
}

void prof_log_free(prof_log *l)
{
	free(l->r);
	prof_log_init(l);
}

void prof__grow(prof_log *l)
{
	l->cap = l->cap ? 2 * l->cap : 65536;
	l->r = xrealloc(l->r, l->cap * sizeof(*l->r));
}

static int rec_cmp(const void *pa, const void *pb)
{
	const prof_rec *a = pa, *b = pb;

	return (a->time > b->time) - (a->time < b->time);
}

size_t prof_log_sort(prof_log *l, sim_time stop)
{
	size_t lo = 0, hi;

	if (l->n)
		qsort(l->r, l->n, sizeof(*l->r), rec_cmp);
	hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->r[mid].time < stop)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* "12.5GB/s" or "800MB/s" in bytes per second. */
static int parse_bw(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v > 0) || !isfinite(v))
		return -1;
	if (!strcmp(end, "GB/s"))
		v *= 1e9;
	else if (!strcmp(end, "MB/s"))
		v *= 1e6;
	else
		return -1;
	*out = v;
	return 0;
}

int prof_net_parse(const char *s, prof_net *out, cxl_err *err)
{
	char buf[128], *f[4], *save = NULL;
	sim_time lat, step, ev = 0;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: too long", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n < 4)
			f[n] = t;
		n++;
	}
	if (n != 3 && n != 4)
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: expected LATENCY,BANDWIDTH,STEP"
				   "[,EVENT] (e.g. %s)", s, PROF_NET_DEFAULT);
	if (stime_parse(f[0], &lat, NULL) || lat == SIM_TIME_MAX)
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: message latency '%s' is not a "
				   "time (e.g. 1.5us)", s, f[0]);
	if (parse_bw(f[1], &out->bytes_per_s))
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: bandwidth '%s' is not a "
				   "positive number with GB/s or MB/s (e.g. 12.5GB/s)", s, f[1]);
	if (stime_parse(f[2], &step, NULL) || step == SIM_TIME_MAX)
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: allreduce step '%s' is not a "
				   "time (e.g. 1.5us)", s, f[2]);
	if (n == 4 && (stime_parse(f[3], &ev, NULL) || ev == SIM_TIME_MAX || !ev))
		return cxl_err_set(err, CXL_EINVAL, "--profile-net %s: event cost '%s' is not a "
				   "time above 0 (e.g. 280ns)", s, f[3]);
	out->event_s = (double)ev * 1e-12;
	out->msg_s = (double)lat * 1e-12;
	out->step_s = (double)step * 1e-12;
	return 0;
}

/* --- neighbours ------------------------------------------------------------ */

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/*
 * Neighbours of every rank, as core/sim.c's neighbours() gives them to the
 * transport: every other rank when the system declares global sends, else
 * the ranks joined to it by a cut link.  Returns whether every rank
 * neighbours every other (xport_complete: then no window takes a collective).
 */
static int count_neighbours(const sim_graph *g, const int32_t *rank_of, int P, uint32_t *nb)
{
	uint64_t *pairs = xmalloc((g->nlink ? g->nlink : 1) * sizeof(*pairs));
	size_t n = 0;
	int complete = P > 1;

	memset(nb, 0, (size_t)P * sizeof(*nb));
	if (g->global_lookahead && P > 1) {
		for (int r = 0; r < P; r++)
			nb[r] = (uint32_t)P - 1;
		free(pairs);
		return 1;
	}
	for (uint32_t i = 0; i < g->nlink; i++) {
		uint64_t a = (uint32_t)rank_of[g->link[i].a], b = (uint32_t)rank_of[g->link[i].b];
		if (a != b)
			pairs[n++] = a < b ? a << 32 | b : b << 32 | a;
	}
	if (n)
		qsort(pairs, n, sizeof(*pairs), u64_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && pairs[i] == pairs[i - 1])
			continue;
		nb[pairs[i] >> 32]++;
		nb[pairs[i] & 0xffffffffu]++;
	}
	for (int r = 0; r < P; r++)
		complete &= nb[r] == (uint32_t)P - 1;
	free(pairs);
	return complete;
}

/* --- windows ----------------------------------------------------------------- */

static int i32_cmp(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return (a > b) - (a < b);
}

static void add_cell(prof_result *out, size_t *cap, const prof_cell *c)
{
	if (out->ncells == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		out->cells = xrealloc(out->cells, *cap * sizeof(*out->cells));
	}
	out->cells[out->ncells++] = *c;
}

/*
 * Why the replay's windows are those of a real P-rank run (core/sync.c).
 *
 * Let E be the events a run executes and stop = end + drain.  E and every
 * event's key do not depend on the partition (design §4: the handlers run
 * in key order per component, whatever the rank count, and make the same
 * sends), so the one-rank run's E - the log's records with time < stop,
 * since one rank executes every queued event before stop - is E for every P.
 *
 * A real run's loop (sync.c) is: T = window_start(); if T >= stop, stop;
 * run every local event with time < U = min(T + L, stop); repeat.  L is
 * graph_lookahead(), the same on every rank.
 *  (1) T is the exact global minimum of the pending events (but see (4)
 *      for the delayed minimum, where T can be below it).  window_start
 *      first delivers every event sent in the last window (each neighbour
 *      gets a message each window, and sends only go to neighbours).  With
 *      a collective, T = min over ranks of the queue minimum after that
 *      delivery.  Without (every rank neighbours every other), T = min over
 *      ranks of min(queue minimum before delivery, earliest event sent
 *      since the last exchange): every pending event is in a queue or was
 *      sent since, so the minimum is the same.
 *  (2) Window k executes exactly the events of E with time in [T_k, U_k):
 *      by induction every event before T_k has run; an event with time in
 *      [T_k, U_k) is pending at the start (then in its rank's queue), or is
 *      sent during the window by an event at time >= T_k - by one on the
 *      same rank (pushed into that queue, so executed, its time being
 *      < U_k), never by one on another rank (cross-rank sends arrive at or
 *      after the sender's U_k, the panic in sim.c's enqueue).
 *  (3) So after window k every pending event has time >= U_k, and as no
 *      event's delay is negative the pending minimum is the minimum of
 *      every event still to come: T_{k+1} = min { t in E : t >= U_k }, or
 *      the run stops when there is none (the pending minimum is >= stop:
 *      idle stretches are skipped because T jumps to the next event); with
 *      the delayed minimum of (4) the same holds of G_{k+1}, and T_{k+1}
 *      follows (4).
 *  T_1 = min E (init's sends are delivered by the first window_start).
 *  (4) The delayed minimum (sync.c; a run whose ranks do not all
 *      neighbour each other): boundary j >= 2 starts at
 *      T_j = max(U_{j-1}, G_{j-1}), G_{j-1} the exact pending minimum of
 *      boundary j-1 - by (3) min { t in E : t >= U_{j-2} }, the log's first
 *      record not yet walked when window j-1 began.  (2) holds for these
 *      windows too (T_j <= G_j, and [U_{j-1}, T_j) holds no event).
 * That is the walk below over the time-sorted prefix.  With one rank L is
 * SIM_TIME_MAX and there is one window, as in sync.c (no transport).
 * E holds the records that are events of the partition (is_event: a lazy
 * send still waiting is one only across a cut).
 * run.windows counts the windows run; run.events_per_rank counts E by the
 * rank of dst; run.remote_events (sim.c's remote_out) counts every send
 * whose src and dst are on different ranks, executed before stop or not:
 * that is every record of the log, not only the prefix.
 *
 * walk_windows fills the windows and the per-(window, rank) event counts
 * (cells: events only; predict() merges the cross-rank counts in).
 */
/*
 * is_event - is record @x an event of the run partitioned by @rank_of?  A
 * lazy send still waiting (PROF_LAZY) is one only where its link is cut:
 * a message to another rank is queued where it arrives (core/sim_lazy.c).
 */
static int is_event(const prof_rec *x, const int32_t *rank_of)
{
	return !(x->dst & PROF_LAZY) || rank_of[x->src] != rank_of[x->dst & ~PROF_LAZY];
}

/* next_event - the first record from @i on that is an event (is_event), or @n. */
static size_t next_event(const prof_rec *r, size_t i, size_t n, const int32_t *rank_of)
{
	while (i < n && !is_event(&r[i], rank_of))
		i++;
	return i;
}

static void walk_windows(const prof_input *in, const int32_t *rank_of, int P, sim_time L,
			 prof_result *out)
{
	const prof_rec *r = in->log->r;
	size_t n = in->executed, i = 0, cap = 64, capc = 0;
	uint64_t *cnt = xcalloc((size_t)P, sizeof(*cnt));
	int32_t *touched = xmalloc((size_t)P * sizeof(*touched));

	/* the delayed minimum: the boundary's own minimum, and the last window's */
	int delayed = P > 1 && !out->complete;
	sim_time g_last = 0, u_last = 0;

	out->win = xcalloc(cap, sizeof(*out->win)); /* [0]: init's exchange */
	out->win[0].busiest_rank = -1;
	for (;;) {
		i = next_event(r, i, n, rank_of);
		sim_time g = i < n ? r[i].time : SIM_TIME_MAX; /* >= stop: none left */
		sim_time t = g;
		if (delayed && out->windows)
			t = u_last > g_last ? u_last : g_last;
		if (t >= in->stop)
			break;
		prof_window w = { .start = t, .busiest_rank = -1 };
		sim_time u = stime_add_sat(w.start, L);
		int nt = 0;
		w.end = u < in->stop ? u : in->stop;
		g_last = g;
		u_last = w.end;
		for (; i < n && r[i].time < w.end; i++) {
			if (!is_event(&r[i], rank_of))
				continue;
			int32_t k = rank_of[r[i].dst & ~PROF_LAZY];
			if (!cnt[k]++)
				touched[nt++] = k;
		}
		qsort(touched, (size_t)nt, sizeof(*touched), i32_cmp);
		if (++out->windows == cap) {
			cap *= 2;
			out->win = xrealloc(out->win, cap * sizeof(*out->win));
		}
		for (int t = 0; t < nt; t++) {
			int32_t k = touched[t];
			prof_cell c = { (uint32_t)out->windows, k, cnt[k], 0, 0 };
			add_cell(out, &capc, &c);
			w.events += cnt[k];
			out->events_per_rank[k] += cnt[k];
			if (cnt[k] > w.busiest)
				w.busiest = cnt[k], w.busiest_rank = k;
			cnt[k] = 0;
		}
		out->events += w.events;
		out->busiest_sum += w.busiest;
		out->win[out->windows] = w;
	}
	free(touched);
	free(cnt);
}

/* --- cross-rank sends -------------------------------------------------------- */

typedef struct xsend xsend;
struct xsend {
	uint32_t window; /* window it is sent in (0: init) */
	int32_t from, to; /* ranks */
};

static int xsend_cmp(const void *pa, const void *pb)
{
	const xsend *a = pa, *b = pb;

	if (a->window != b->window)
		return a->window < b->window ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

/* The window a send made at @sent belongs to: the last one starting at or before it. */
static uint32_t send_window(const prof_result *out, sim_time sent)
{
	uint64_t lo = 1, hi = out->windows + 1;

	if (sent == PROF_SENT_INIT || !out->windows)
		return 0;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (out->win[mid].start <= sent)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(lo > 1 ? lo - 1 : 1);
}

/*
 * Every record (executed or not) whose ends are on different ranks, as
 * pairs; and the smallest delay among those an event sent (init's sends
 * have no sender time).  That delay is a witness: a send of that delay was
 * made, so no lookahead above it is a lower bound on cross-rank delays.
 */
static void cross_pairs(const prof_input *in, const int32_t *rank_of, prof_result *out)
{
	const prof_log *l = in->log;
	size_t n = 0, cap = 0;
	xsend *x = NULL;

	out->min_cross_delay = SIM_TIME_MAX;
	for (size_t i = 0; i < l->n; i++) {
		int32_t a = rank_of[l->r[i].src], b = rank_of[l->r[i].dst & ~PROF_LAZY];
		if (a == b)
			continue;
		if (l->r[i].sent != PROF_SENT_INIT && l->r[i].time - l->r[i].sent < out->min_cross_delay)
			out->min_cross_delay = l->r[i].time - l->r[i].sent;
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			x = xrealloc(x, cap * sizeof(*x));
		}
		x[n++] = (xsend){ send_window(out, l->r[i].sent), a, b };
	}
	if (n)
		qsort(x, n, sizeof(*x), xsend_cmp);
	out->pairs = xmalloc((n ? n : 1) * sizeof(*out->pairs));
	for (size_t i = 0; i < n; i++) {
		prof_pair *p = out->npairs ? &out->pairs[out->npairs - 1] : NULL;
		if (!p || p->window != x[i].window || p->from != x[i].from || p->to != x[i].to)
			out->pairs[out->npairs++] = (prof_pair){ x[i].window, x[i].from, x[i].to, 0 };
		out->pairs[out->npairs - 1].events++;
		out->remote_per_rank[x[i].from]++;
	}
	out->remote = n;
	free(x);
}

/* --- exchanges and the cluster model ------------------------------------------ */

typedef struct scratch scratch;
struct scratch {
	uint64_t *out, *in; /* [P] cross-rank events sent / received this window */
	int32_t *touched;   /* ranks with traffic this window */
	int nt;             /* entries of touched */
};

static void touch(scratch *s, int32_t r)
{
	if (!s->out[r] && !s->in[r])
		s->touched[s->nt++] = r;
}

/* Seconds a rank with @nb neighbours and @ev events in its larger direction spends. */
static double msg_time(const prof_input *in, uint32_t nb, uint64_t ev, uint64_t *bytes)
{
	*bytes = PROF_EVENT_BYTES * (nb + ev);
	return in->net.msg_s * nb + (double)*bytes / in->net.bytes_per_s;
}

/*
 * Exchange j, which carries the pairs sent in window j (from *@pi on):
 * fills the window's remote count and largest per-rank bytes, leaves the
 * per-rank counts in @s (sorted ranks) and returns the slowest rank's
 * message time (at least @base, that of a rank with no traffic).
 */
static double exchange(const prof_input *in, prof_result *out, uint32_t j, size_t *pi,
		       scratch *s, double base, uint64_t base_bytes)
{
	double worst = base;
	prof_window *w = &out->win[j];

	w->max_bytes = base_bytes;
	s->nt = 0;
	for (; *pi < out->npairs && out->pairs[*pi].window == j; (*pi)++) {
		const prof_pair *p = &out->pairs[*pi];
		touch(s, p->from);
		touch(s, p->to);
		s->out[p->from] += p->events;
		s->in[p->to] += p->events;
		w->remote += p->events;
	}
	qsort(s->touched, (size_t)s->nt, sizeof(*s->touched), i32_cmp);
	for (int t = 0; t < s->nt; t++) {
		int32_t r = s->touched[t];
		uint64_t ev = s->out[r] > s->in[r] ? s->out[r] : s->in[r], b;
		double x = msg_time(in, out->neighbours[r], ev, &b);
		worst = x > worst ? x : worst;
		w->max_bytes = b > w->max_bytes ? b : w->max_bytes;
	}
	return worst;
}

/* Merge the window's per-rank traffic (scratch, sorted) into the cells from *@ci. */
static void merge_cells(prof_result *out, const prof_cell *old, size_t nold, size_t *ci,
			uint32_t j, scratch *s, size_t *capc)
{
	int t = 0;

	while ((*ci < nold && old[*ci].window == j) || t < s->nt) {
		int32_t r = t < s->nt ? s->touched[t] : INT32_MAX;
		prof_cell c;
		if (*ci < nold && old[*ci].window == j && old[*ci].rank <= r)
			c = old[(*ci)++];
		else
			c = (prof_cell){ j, r, 0, 0, 0 };
		if (t < s->nt && c.rank == r) {
			c.remote_out = s->out[r];
			c.remote_in = s->in[r];
			s->out[r] = s->in[r] = 0;
			t++;
		}
		add_cell(out, capc, &c);
	}
}

static void predict(const prof_input *in, prof_result *out, int P)
{
	prof_cell *old = out->cells;
	size_t nold = out->ncells, ci = 0, pi = 0, capc = 0;
	scratch s = { xcalloc((size_t)P, sizeof(uint64_t)), xcalloc((size_t)P, sizeof(uint64_t)),
		      xmalloc((size_t)P * sizeof(int32_t)), 0 };
	double base = 0, coll = 0;
	uint64_t base_bytes = 0, b;
	int steps = 0;

	while ((1L << steps) < P)
		steps++;
	if (P > 1 && !out->complete)
		coll = in->net.step_s * steps;
	for (int r = 0; r < P; r++) {
		double x = msg_time(in, out->neighbours[r], 0, &b);
		base = x > base ? x : base;
		base_bytes = out->neighbours[r] && b > base_bytes ? b : base_bytes;
	}
	out->cells = NULL;
	out->ncells = 0;
	for (uint64_t j = 0; j <= out->windows; j++) {
		double x = exchange(in, out, (uint32_t)j, &pi, &s, base, base_bytes);
		merge_cells(out, old, nold, &ci, (uint32_t)j, &s, &capc);
		/* the delayed minimum (sync.c): exchange 0 waits for its allreduce;
		 * exchange 1 waits for none; exchange j >= 2 waits for the one
		 * started at exchange j-1, whose steps run during exchange j's messages */
		double c = coll;
		if (!out->complete && j >= 1)
			c = j == 1 || coll <= x ? 0 : coll - x;
		out->win[j].exchange_s = P > 1 ? x + c : 0;
		out->message_s += P > 1 ? x : 0;
		out->collective_s += P > 1 ? c : 0;
	}
	free(old);
	free(s.out);
	free(s.in);
	free(s.touched);
	out->compute_s = in->event_s * (double)out->busiest_sum;
	out->loop_s = out->compute_s + out->message_s + out->collective_s;
	out->ceiling = out->busiest_sum ? (double)out->events / (double)out->busiest_sum : 1.0;
	out->speedup = out->loop_s > 0 ? in->event_s * (double)out->events / out->loop_s : 1.0;
	out->efficiency = out->speedup / P;
}

void prof_replay(const prof_input *in, const int32_t *rank_of, int nranks, prof_result *out)
{
	*out = (prof_result){ .nranks = nranks };
	out->events_per_rank = xcalloc((size_t)nranks, sizeof(uint64_t));
	out->remote_per_rank = xcalloc((size_t)nranks, sizeof(uint64_t));
	out->neighbours = xcalloc((size_t)nranks, sizeof(uint32_t));
	out->lookahead = graph_lookahead(in->g, rank_of, nranks, &out->edge_cut);
	out->complete = count_neighbours(in->g, rank_of, nranks, out->neighbours);
	walk_windows(in, rank_of, nranks, out->lookahead, out);
	cross_pairs(in, rank_of, out);
	predict(in, out, nranks);
}

void prof_result_free(prof_result *r)
{
	free(r->events_per_rank);
	free(r->remote_per_rank);
	free(r->neighbours);
	free(r->win);
	free(r->cells);
	free(r->pairs);
	*r = (prof_result){ 0 };
}
