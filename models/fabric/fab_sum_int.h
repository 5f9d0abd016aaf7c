/*
 * models/fabric/fab_sum_int.h - the totals of a fabric run, shared by the
 * files that turn the merged statistics table into results:
 *   fab_summary.c  gathers them from the table and writes stats.json's
 *                  `summary` section
 *   fab_window.c   the measurement window: its bounds, the throughput and
 *                  offered load over it, the warnings, and the short report
 *                  printed at the end of a run
 * Everything here comes from the table and the config only, so it is the
 * same for any rank count.  Private to models/fabric/.
 */
#ifndef CXL_MODELS_FABRIC_FAB_SUM_INT_H
#define CXL_MODELS_FABRIC_FAB_SUM_INT_H

#include <stdint.h>
#include <stdio.h>

#include "core/cfg.h"
#include "core/graph.h"
#include "core/json.h"
#include "core/stats.h"
#include "models/proto/cxl_lat.h"

#define FAB_SUM_HOPS 32   /* as REQ_HOP_NAMES in req.c: lat_hops_00 .. lat_hops_62 */
#define FAB_SUM_WARN 8    /* warnings kept */
#define FAB_SUM_WARN_LEN 320 /* bytes per warning */
#define FAB_WINDOW_LATENCIES 10 /* a window shorter than this many mean latencies is suspect */

typedef struct fab_totals fab_totals;
struct fab_totals {
	uint64_t reads, writes, bytes, hops_sum, issued, completed;
	uint64_t t_first, t_last;     /* first measured issue, last measured answer, ps */
	stats_hist rd, wr, all;       /* latency of measured requests, ps */
	stats_hist hops[FAB_SUM_HOPS + 1]; /* latency by round-trip buses / 2; last: more */
	uint64_t bd[CXL_LAT_N];       /* latency breakdown of measured requests, ps */
	uint64_t bd_hops[FAB_SUM_HOPS + 1][CXL_LAT_N]; /* the same by hop count */
	uint64_t bd_ovf;              /* measured requests without a breakdown (overflow) */
	uint64_t wire, payload;       /* bus bytes */
	double util_sum, util_max;    /* over bus directions */
	uint64_t ndir;                /* bus directions that moved data */
	int coherent;                 /* some memory device has a DCOH */
	uint64_t bisnp, birsp, evictions, conflicts; /* over the DCOHs */
	uint64_t hits, misses, writebacks;           /* over the requesters' caches */
	/* the measurement window (fab_window.c) */
	uint64_t win_bytes;           /* data delivered inside the window, bytes */
	uint64_t drained;             /* answered after simulation.end (in flight at it) */
	uint64_t unanswered;          /* still open when the run stopped */
	uint64_t t_done;              /* last answer of any request, ps */
	uint64_t nactive;             /* requesters with requests to issue */
	uint64_t nclosed;             /* of those, closed-loop (no issue interval) */
	double offered;               /* sum of the others' offered loads, GB/s */
	double host_min, host_max;    /* per-requester throughput over the window, GB/s */
	int time_bounded;             /* simulation.end cut some requester short */
	uint64_t trc_records;         /* records of the traces replayed, over requesters */
	uint64_t trc_replayed;        /* of those, read (replayed) */
	uint64_t trc_cut;             /* requesters whose replay simulation.end cut short */
	uint64_t w0, w1;              /* the window [w0, w1), ps */
	uint64_t end, drain;          /* simulation.end, simulation.drain, ps */
	uint32_t nwarn;               /* warnings */
	char warn[FAB_SUM_WARN][FAB_SUM_WARN_LEN];
};

/* fab_summary.c */
uint64_t fab__counter(const stats_comp *c, const char *name); /* 0 if absent */
unsigned fab__roles_of(const sim_graph *g, uint32_t id);
void fab__totals_gather(fab_totals *t, const cfg *cf, const sim_graph *g,
			const stats_set *table);
void fab__totals_free(fab_totals *t);

/* fab_window.c */
void fab__window_add_requester(fab_totals *t, const stats_comp *c);
void fab__window_finish(fab_totals *t, const cfg *cf, const sim_graph *g,
			const stats_set *table);
void fab__window_json(json_w *w, const fab_totals *t);
void fab__report(const fab_totals *t, FILE *out, FILE *warn);

#endif
