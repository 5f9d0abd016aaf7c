/*
 * models/phold.c - the classic PHOLD benchmark as a cxlfab system.
 *
 * N logical processes (components 0..N-1, no links).  Each starts with
 * `start_events` events.  Handling an event schedules exactly one new one:
 * with probability `remote` to an LP drawn uniformly from all N (possibly
 * itself), otherwise to itself, after a delay of
 *     lookahead + Exp(mean - lookahead)
 * so the mean delay is `mean` and no delay is below `lookahead`.  The
 * lookahead is declared as the graph's global lookahead: PHOLD sends to
 * arbitrary LPs, which conservative engines allow only above that floor.
 * The handled event itself is re-sent (zero allocation per event).
 *
 * Neighbourhood (`phold.neighbours`):
 *   "all"   the classic PHOLD above: a remote event goes to any LP, sent
 *           with sim_send_global above the declared global lookahead;
 *   "ring"  the LPs form a ring of links of latency `lookahead`; a remote
 *           event goes to the left or right neighbour over its link (same
 *           delay distribution: the exponential part plus the link).  The
 *           lookahead then comes from the links a partition cuts, and a rank
 *           talks to its ring neighbours only: this is the mode that
 *           exercises link sends and sparse neighbour sets across ranks.
 *
 * The population of events is constant (N x start_events), which is what
 * makes PHOLD a clean measure of engine overhead: compare committed events
 * per second with other PDES engines on the same parameters.
 *
 * Statistics per LP: events, sent_remote (to another LP), delay_sum_ps (sum
 * of the delays drawn, start events included), counted in the LP's state
 * and published by the finish hook: the registry's counters each sit in their
 * own cache line (core/stats.c's 80-byte entries), which cost 3 of PHOLD's
 * ~12 L1 misses per event.  Summary: totals, the remote
 * share, events per LP, the mean delay.  No per-event histogram: it would
 * measure the cache, not the engine (PHOLD's state must stay small).
 */
#include "core/sim.h"

#include <inttypes.h>
#include <stddef.h>

#include "core/json.h"
#include "models/registry.h"

typedef struct phold_lp phold_lp;
struct phold_lp {
	/* what every event reads and writes: the first 64 bytes (one cache line) */
	double remote;         /* probability of a uniformly random destination */
	sim_time lookahead;    /* minimum delay, ps */
	double extra_mean;     /* mean of the exponential part, ps */
	uint32_t nlps;         /* LPs in the system */
	int ring;              /* 1: remote events go to a ring neighbour */
	uint64_t n_events;     /* events handled */
	uint64_t n_remote;     /* events sent to another LP */
	uint64_t n_delay;      /* sum of the delays drawn, ps */
	/* the rest: init and finish */
	uint32_t start;        /* start events of this LP */
	uint64_t *events;      /* statistic "events": n_events at the end */
	uint64_t *sent_remote; /* statistic "sent_remote": n_remote at the end */
	uint64_t *delay_sum;   /* statistic "delay_sum_ps": n_delay at the end */
};

static const cfg_key phold_keys[] = {
	{ "phold.lps", CFG_INT, "4096", "1", "1048576", NULL,
	  "number of logical processes" },
	{ "phold.start_events", CFG_INT, "1", "1", "1000", NULL,
	  "events each LP starts with (the event population is lps x start_events)" },
	{ "phold.remote", CFG_FLOAT, "0.25", "0", "1", NULL,
	  "probability that an event goes to a uniformly random LP instead of itself" },
	{ "phold.lookahead", CFG_TIME, "100ps", "1ps", NULL, NULL,
	  "minimum delay of every event; declared as the global lookahead" },
	{ "phold.mean", CFG_TIME, "1ns", "1ps", NULL, NULL,
	  "mean delay: lookahead + exponential with mean (mean - lookahead)" },
	{ "phold.neighbours", CFG_ENUM, "all", NULL, NULL, "all|ring",
	  "all: remote events go to any LP (classic); ring: to a ring neighbour over a link" },
};

static const cfg_schema phold_schema = {
	"phold", phold_keys, sizeof(phold_keys) / sizeof(phold_keys[0]),
};

/*
 * The cast cannot overflow, by the config's bound rather than a check per
 * event: rng_exp() is at most 36.8 x its mean (-log(2^-53)), and phold.mean
 * is at most 3600s like every time key (CFG_TIME_LIMIT), so a draw is below
 * 1.4e17 ps < 2^57 ps; a larger mean is refused at load (exit 2).
 */
static sim_time draw_delay(sim_comp *c, const phold_lp *p)
{
	return p->lookahead + (sim_time)rng_exp(sim_rng(c), p->extra_mean);
}

static int lp_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	phold_lp *p = state;

	(void)err;
	p->nlps = (uint32_t)cfg_int(cf, "phold.lps");
	p->start = (uint32_t)cfg_int(cf, "phold.start_events");
	p->remote = cfg_float(cf, "phold.remote");
	p->lookahead = cfg_time(cf, "phold.lookahead");
	p->extra_mean = (double)(cfg_time(cf, "phold.mean") - p->lookahead);
	p->ring = cfg_enum(cf, "phold.neighbours") == 1;
	p->events = sim_stat_counter(c, "events");
	p->sent_remote = sim_stat_counter(c, "sent_remote");
	p->delay_sum = sim_stat_counter(c, "delay_sum_ps");
	for (uint32_t i = 0; i < p->start; i++) {
		sim_time d = draw_delay(c, p);
		p->n_delay += d;
		sim_send_self(c, sim_event_new(c), d);
	}
	return 0;
}

static void lp_event(sim_comp *c, void *state, cxl_event *ev)
{
	phold_lp *p = state;
	uint32_t dst = c->id;

	p->n_events++;
	int remote = rng_uniform(sim_rng(c)) < p->remote;
	sim_time d = draw_delay(c, p);
	p->n_delay += d;
	if (p->ring) {
		if (remote) {
			p->n_remote++;
			/* the link adds the lookahead: send the rest of the delay */
			sim_send_port(c, ev, (uint16_t)rng_below(sim_rng(c), 2), d - p->lookahead);
		} else {
			sim_send_self(c, ev, d);
		}
		return;
	}
	if (remote)
		dst = (uint32_t)rng_below(sim_rng(c), p->nlps);
	p->n_remote += dst != c->id;
	sim_send_global(c, ev, dst, d);
}

/* Publish the counts: kept in the LP's own cache line while the run runs. */
static void lp_finish(sim_comp *c, void *state)
{
	phold_lp *p = state;

	(void)c;
	*p->events = p->n_events;
	*p->sent_remote = p->n_remote;
	*p->delay_sum = p->n_delay;
}

/*
 * Checkpoint: an LP's state is its parameters (init), its counts, and its
 * random stream and send counter, which the engine saves itself; its events
 * are all in the queue.  The counts reach the statistics only at finish, so
 * the record carries them.
 */
static void lp_ckpt(sim_comp *c, void *state, ckpt *k)
{
	phold_lp *p = state;

	(void)c;
	ckpt_mark(k, 0x50484f4cu, "phold");
	CKPT(k, p->n_events);
	CKPT(k, p->n_remote);
	CKPT(k, p->n_delay);
}

_Static_assert(offsetof(phold_lp, start) <= 64, "the hot fields fill one cache line");

static const model_ops phold_ops = {
	.name = "phold",
	.state_size = sizeof(phold_lp),
	.init = lp_init,
	.event = lp_event,
	.finish = lp_finish,
	.ckpt = lp_ckpt,
};

static int build(const cfg *cf, sim_graph *g, void **sys, cxl_err *err)
{
	sim_time la = cfg_time(cf, "phold.lookahead"), mean = cfg_time(cf, "phold.mean");
	int64_t n = cfg_int(cf, "phold.lps");
	char name[32];

	*sys = NULL;
	if (mean < la) {
		char a[STIME_FMT_LEN], b[STIME_FMT_LEN];
		return cfg_error_at(cf, "phold.mean", err,
				    "%s is below phold.lookahead %s (the mean delay includes the lookahead)",
				    stime_format(mean, a), stime_format(la, b));
	}
	for (int64_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "lp%" PRId64, i);
		graph_add_comp(g, &phold_ops, name, 1);
	}
	if (cfg_enum(cf, "phold.neighbours") == 0) {
		g->global_lookahead = la;
		return 0;
	}
	if (n < 2)
		return cfg_error_at(cf, "phold.lps", err, "a ring needs at least 2 LPs (got %" PRId64 ")", n);
	/* port 1 of lp i joins port 0 of lp i+1 */
	for (int64_t i = 0; i < n; i++)
		graph_add_link(g, (uint32_t)i, 1, (uint32_t)((i + 1) % n), 0, la, 1);
	return 0;
}

static uint64_t counter(const stats_comp *c, const char *name)
{
	const stats_entry *e = stats_get(c, name);
	return e ? *e->value : 0;
}

static void summary(const cfg *cf, const sim_graph *g, const stats_set *t, json_w *w)
{
	uint64_t events = 0, remote = 0, lo = UINT64_MAX, hi = 0, dsum = 0;

	for (size_t i = 0; i < t->n; i++) {
		uint64_t ev = counter(&t->c[i], "events");
		events += ev;
		remote += counter(&t->c[i], "sent_remote");
		lo = ev < lo ? ev : lo;
		hi = ev > hi ? ev : hi;
		dsum += counter(&t->c[i], "delay_sum_ps");
	}
	json_key(w, "lps");
	json_u64(w, g->ncomp);
	json_key(w, "events");
	json_u64(w, events);
	json_key(w, "sent_remote");
	json_u64(w, remote);
	json_key(w, "remote_share");
	json_dbl(w, events ? (double)remote / (double)events : 0.0);
	json_key(w, "events_per_lp");
	json_obj_inline(w);
	json_key(w, "min");
	json_u64(w, t->n ? lo : 0);
	json_key(w, "mean");
	json_dbl(w, t->n ? (double)events / (double)t->n : 0.0);
	json_key(w, "max");
	json_u64(w, hi);
	json_end(w);
	/* every event handled and every start event drew one delay */
	uint64_t draws = events + (uint64_t)cfg_int(cf, "phold.start_events") * g->ncomp;
	json_key(w, "mean_delay_ns");
	json_dbl(w, draws ? (double)dsum / (double)draws / 1e3 : 0.0);
}

static size_t schemas(const cfg_schema **out, size_t cap)
{
	if (cap)
		out[0] = &phold_schema;
	return 1;
}

const sys_builder sys_phold = {
	.name = "phold",
	.group = "phold",
	.doc = "the PHOLD benchmark: N LPs exchanging events at random (engine speed)",
	.schemas = schemas,
	.build = build,
	.summary = summary,
};
