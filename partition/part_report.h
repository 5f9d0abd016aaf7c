/*
 * partition/part_report.h - the quality of a partition, for --partition-only
 * and for `-v` runs: edge cut, load imbalance, resulting lookahead and
 * components per rank; printed as text and written as partition.json.
 *
 * partition.json (design §5), one object:
 *   ranks, method, components, links, edge_cut, cut_fraction (edge_cut /
 *   links), imbalance (max/mean - 1 of the per-rank sums of component
 *   weights), imbalance_floor (the heaviest single component over the
 *   mean load, minus 1, or 0: the imbalance no partition can go below
 *   when ranks outnumber what the heavy components allow), lookahead_ps (smallest cut link latency, bounded by the
 *   graph's global lookahead; null if nothing limits it), cut_floor_ps,
 *   cut_below_floor (cut links shorter than the floor), empty_ranks, and
 *   per-rank lists components_per_rank and load_per_rank.
 * Everything depends only on the graph and the map: any process can compute
 * it for any rank count, which is how a 2-core machine reports 512 ranks.
 */
#ifndef CXL_PARTITION_PART_REPORT_H
#define CXL_PARTITION_PART_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "core/graph.h"
#include "core/stime.h"

typedef struct part_report part_report;
struct part_report {
	const char *method;       /* partitioner name */
	int nranks;               /* ranks */
	uint32_t ncomp, nlink;    /* graph size */
	uint64_t edge_cut;        /* links whose ends are on different ranks */
	double cut_fraction;      /* edge_cut / links */
	double imbalance;         /* max / mean - 1 of load_per_rank */
	double imbalance_floor;   /* heaviest component / mean - 1 (>= 0): no map does better */
	sim_time lookahead;       /* cross-rank lookahead, ps; SIM_TIME_MAX if none */
	sim_time cut_floor;       /* the graph's cut floor, ps */
	uint64_t cut_below_floor; /* cut links shorter than the floor */
	uint32_t empty_ranks;     /* ranks without a component */
	uint64_t *comps;          /* [rank] components (owned) */
	uint64_t *load;           /* [rank] summed component weights (owned) */
};

/* part_report_compute - the figures of map @rank_of of @g over @nranks ranks. */
void part_report_compute(part_report *r, const sim_graph *g, int nranks,
			 const int32_t *rank_of, const char *method);
void part_report_free(part_report *r);

/* part_report_print - a few lines of text. */
void part_report_print(const part_report *r, FILE *f);

/* part_report_json - partition.json; an output_writer_fn (ctx = part_report). */
void part_report_json(const void *ctx, FILE *f);

#endif
