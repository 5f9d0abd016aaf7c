/*
 * core/profile.h - the rank profile: predicting the windowed execution of a
 * run on P ranks from one run on one rank (`cxlfab --profile-ranks LIST`).
 *
 * Recording: with a prof_log attached (sim_engine_record), the engine
 * appends one 24-byte prof_rec per send (time, the sender's time, dst, src)
 * to one growable array: nothing is allocated per event (the array doubles).
 * A one-rank run executes every sent event with time < stop (end + drain),
 * so after sorting by time the log's prefix below stop IS the run's event
 * set, and the events left after it are the ones still pending at the end.
 *
 * Replay (prof_replay): for a rank count P, its partition (the partitioner's
 * map, computed by the caller exactly as a P-rank run computes it) and the
 * lookahead rule of the engine (graph_lookahead), it rebuilds the window
 * sequence a real P-rank run goes through and counts, per window, events
 * per rank, cross-rank events per rank pair (bytes = 96 per event plus a
 * 96-byte header per message) and neighbours per rank.  Why the window
 * sequence is that of a real run: see the comment at prof_replay in
 * profile.c.
 *
 * Cluster model (prof_net; documented in core/README.md, "Rank profile"):
 *   T_P = sum over windows k=1..W of c * max_r n(r,k)
 *       + sum over exchanges j=0..W of [ max_r (a * nb(r) + B(r,j) / b) + A(P) ]
 *   c     per-event cost: loop seconds / events of a plain run of the
 *         config made before the recorded one (or the one --profile-net gives)
 *   n     events rank r executes in window k
 *   nb(r) rank r's neighbours (one message each way per exchange)
 *   B     bytes rank r sends or receives (the larger) at exchange j:
 *         96 * (nb(r) + cross-rank events), exchange 0 carries init's sends
 *   a, b  message latency (s) and bandwidth per rank (bytes/s)
 *   A(P)  the window's allreduce, s * ceil(log2 P); 0 when every rank
 *         neighbours every other (the message headers then give T).  It is
 *         read one exchange after it starts (sync.c, the delayed minimum):
 *         exchange 0 pays A(P), exchange 1 nothing, exchange j >= 2 only
 *         max(0, A(P) - its own message time)
 * Predicted speedup T_1 / T_P with T_1 = c * events; efficiency speedup / P.
 * Ceiling speedup: events / sum over windows of the busiest rank's events.
 *
 * No MPI here; the partitioner is called by main_profile.c (core does not include
 * partition/).  Output: profile.json, profile_windows.csv,
 * profile_ranks.csv, profile_pairs.csv (prof_write).
 */
#ifndef CXL_CORE_PROFILE_H
#define CXL_CORE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "core/event.h"
#include "core/graph.h"
#include "core/stime.h"

/*
 * prof_rec.dst flag of a lazy send still waiting with its destination
 * (core/sim_lazy.c): an event of a P-rank run only if its link is cut.
 */
#define PROF_LAZY 0x80000000u
/* prof_rec.sent of a send made by an init hook (before the first window). */
#define PROF_SENT_INIT SIM_TIME_MAX
/* Bytes of one event on the wire, and of a message's header slot (xport.c sends
 * sizeof(cxl_event) contiguous bytes per event) */
#define PROF_EVENT_BYTES ((uint64_t)sizeof(cxl_event))

typedef struct prof_rec prof_rec;
struct prof_rec {
	sim_time time; /* delivery time, ps */
	sim_time sent; /* time of the event that sent it, ps; PROF_SENT_INIT from init */
	uint32_t dst;  /* destination component id */
	uint32_t src;  /* source component id */
};

typedef struct prof_log prof_log;
struct prof_log {
	prof_rec *r;   /* records, in send order until prof_log_sort */
	size_t n;      /* records in use */
	size_t cap;    /* capacity */
};

void prof_log_init(prof_log *l);
void prof_log_free(prof_log *l);
/* prof__grow - double the capacity (amortised O(1) per record). */
void prof__grow(prof_log *l);

static inline void prof_log_add(prof_log *l, sim_time time, sim_time sent, uint32_t dst,
				uint32_t src)
{
	if (l->n == l->cap)
		prof__grow(l);
	l->r[l->n++] = (prof_rec){ time, sent, dst, src };
}

/*
 * prof_log_sort - sort the records by time and return how many lie before
 * @stop (the events the run executed).
 */
size_t prof_log_sort(prof_log *l, sim_time stop);

/* The cluster model's parameters (profile.h top comment). */
typedef struct prof_net prof_net;
struct prof_net {
	double msg_s;       /* a: seconds per message */
	double bytes_per_s; /* b: bandwidth per rank, bytes/s */
	double step_s;      /* s: seconds per allreduce step (ceil(log2 P) steps) */
	double event_s;     /* c if > 0; 0: measured by a plain run (main_profile.c) */
};

#define PROF_NET_DEFAULT "1.5us,12.5GB/s,1.5us"

/**
 * prof_net_parse - "LATENCY,BANDWIDTH,STEP[,EVENT]", e.g. "1.5us,12.5GB/s,1.5us":
 * times with a unit (stime), bandwidth a number with GB/s or MB/s (1000-based);
 * EVENT, the per-event cost c, replaces the recorded run's own measure.
 * Return: 0, or CXL_EINVAL naming the bad field.
 */
int prof_net_parse(const char *s, prof_net *out, cxl_err *err);

/* One window of a replay (index 0: the exchange of init's sends, no events). */
typedef struct prof_window prof_window;
struct prof_window {
	sim_time start, end;  /* [start, end), ps */
	uint64_t events;      /* events executed in it */
	uint64_t busiest;     /* events of its busiest rank */
	int32_t busiest_rank; /* that rank (lowest on a tie) */
	uint64_t remote;      /* cross-rank events sent in it (exchanged after it) */
	uint64_t max_bytes;   /* most bytes one rank sends or receives in that exchange */
	double exchange_s;    /* predicted exchange + collective after it, s */
};

/* Events and cross-rank events of one rank in one window (non-zero only). */
typedef struct prof_cell prof_cell;
struct prof_cell {
	uint32_t window;      /* window index */
	int32_t rank;         /* rank */
	uint64_t events;      /* events it executes */
	uint64_t remote_out;  /* cross-rank events it sends */
	uint64_t remote_in;   /* cross-rank events sent to it */
};

/* Cross-rank events from one rank to another in one window (non-zero only). */
typedef struct prof_pair prof_pair;
struct prof_pair {
	uint32_t window;      /* window they are sent in */
	int32_t from, to;     /* ranks */
	uint64_t events;      /* events (bytes = 96 * events, plus the header) */
};

/* What a P-rank run would do, and its predicted time. */
typedef struct prof_result prof_result;
struct prof_result {
	int nranks;               /* P */
	sim_time lookahead;       /* ps; SIM_TIME_MAX: none */
	sim_time min_cross_delay; /* smallest delivery - send time of a cross-rank
				     send made by an event, ps (SIM_TIME_MAX: none):
				     no sound lookahead exceeds it (>= lookahead) */
	uint64_t edge_cut;        /* links cut */
	int complete;             /* every rank neighbours every other: no collective */
	uint64_t windows;         /* W */
	uint64_t events;          /* events executed */
	uint64_t remote;          /* cross-rank events sent (run.remote_events) */
	uint64_t busiest_sum;     /* sum over windows of the busiest rank's events */
	uint64_t *events_per_rank; /* [P] */
	uint64_t *remote_per_rank; /* [P] cross-rank events sent by each rank */
	uint32_t *neighbours;     /* [P] neighbour ranks of each rank */
	prof_window *win;         /* [W + 1] */
	prof_cell *cells;         /* per (window, rank), ascending */
	size_t ncells;            /* entries of cells */
	prof_pair *pairs;         /* per (window, from, to), ascending */
	size_t npairs;            /* entries of pairs */
	double ceiling;           /* events / busiest_sum */
	double compute_s;         /* c * busiest_sum */
	double message_s;         /* message latency and bandwidth terms */
	double collective_s;      /* allreduce terms */
	double loop_s;            /* predicted loop time T_P */
	double speedup;           /* T_1 / T_P */
	double efficiency;        /* speedup / P */
};

/* The recorded run a replay reads. */
typedef struct prof_input prof_input;
struct prof_input {
	const prof_log *log;  /* sorted (prof_log_sort) */
	size_t executed;      /* records before stop */
	sim_time stop;        /* end + drain: no event at or after it runs, ps */
	const sim_graph *g;   /* the system */
	double event_s;       /* c: seconds per event */
	prof_net net;         /* cluster model */
};

/**
 * prof_replay - the windows, counts and predicted time of a run of @in on
 * @nranks ranks partitioned by @rank_of.  Fills @out (prof_result_free).
 */
void prof_replay(const prof_input *in, const int32_t *rank_of, int nranks,
		 prof_result *out);
void prof_result_free(prof_result *r);

/* The plain run made before the logged one (main_profile.c), for the cost per event. */
typedef struct prof_plain prof_plain;
struct prof_plain {
	double loop_s;   /* its loop seconds; 0: none made (--profile-net gave c) */
	uint64_t events; /* its events */
};

/* What prof_write writes besides the results. */
typedef struct prof_meta prof_meta;
struct prof_meta {
	const char *config;       /* config path */
	const char *partitioner;  /* partitioner name */
	uint64_t events;          /* events of the recorded run */
	uint64_t lazy_events;     /* and its lazy events (core/sim_lazy.c): events only
				     where a partition cuts their link */
	uint64_t records;         /* sends recorded */
	double loop_s;            /* its loop seconds */
	double plain_loop_s;      /* the plain run's (main_profile.c), 0 if none was made */
	double event_s;           /* c the model used, s */
	sim_time stop;            /* end + drain, ps */
	prof_net net;             /* the model's parameters */
};

/**
 * prof_write - profile.json, profile_windows.csv, profile_ranks.csv and
 * profile_pairs.csv into @dir (each through a temp file and a rename).
 */
int prof_write(const char *dir, const prof_meta *m, const prof_result *r, int nres,
	       cxl_err *err);
/* prof_print - the summary table, one line per rank count. */
void prof_print(FILE *f, const prof_meta *m, const prof_result *r, int nres);

#endif
