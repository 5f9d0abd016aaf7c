/*
 * core/graph.h - the simulated system as a graph: components and links.
 *
 * Every rank builds the same graph from the same config (builders are
 * deterministic), the partitioner maps components to ranks, and each rank
 * instantiates only its own components.  Component ids are the indices in
 * `comp` (dense, 0..ncomp-1), assigned in build order; they are the global
 * ids of the ordering key and of the RNG streams, so they must not depend on
 * the rank count.
 *
 * A link joins (a, aport) and (b, bport) in both directions with one latency
 * (> 0).  Port numbers are per component, dense from 0.  The port tables the
 * engine derives are CSR arrays: O(components + links) memory.
 *
 * `global_lookahead` > 0 declares that components may also send to ANY
 * component with a delay of at least that much (PHOLD does); it then bounds
 * the lookahead between every pair of ranks.
 */
#ifndef CXL_CORE_GRAPH_H
#define CXL_CORE_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "core/stime.h"

typedef struct model_ops model_ops;

typedef struct graph_comp graph_comp;
struct graph_comp {
	const model_ops *ops; /* model type */
	char *name;           /* unique instance name, e.g. "lp17", "sw3" (owned) */
	uint32_t weight;      /* expected relative event load, for partitioners */
};

typedef struct graph_link graph_link;
struct graph_link {
	uint32_t a, b;        /* component ids */
	uint16_t aport, bport;/* port numbers at a and at b */
	sim_time latency;     /* one-way latency, ps, > 0 */
	uint32_t weight;      /* expected relative traffic, for partitioners */
};

typedef struct sim_graph sim_graph;
struct sim_graph {
	graph_comp *comp;          /* components, index = id */
	uint32_t ncomp;            /* number of components */
	uint32_t cap_comp;         /* capacity of comp */
	graph_link *link;          /* links */
	uint32_t nlink;            /* number of links */
	uint32_t cap_link;         /* capacity of link */
	sim_time global_lookahead; /* > 0: any-to-any sends allowed with this floor */
	sim_time cut_floor;        /* partitioners that honour it (metis) never cut a
				      link with latency below this, ps; 0 = none */
	int unweighted;            /* set before the build: nothing will be partitioned
				      over ranks (one rank, no --partition-only or
				      --profile-ranks), so a system may leave every weight
				      1 instead of estimating them (0 = estimate) */
};

void graph_init(sim_graph *g);
void graph_free(sim_graph *g);

/* graph_add_comp - append a component; returns its id.  @name is copied. */
uint32_t graph_add_comp(sim_graph *g, const model_ops *ops, const char *name,
			uint32_t weight);

/* graph_add_link - join (a, aport) and (b, bport); latency must be > 0. */
void graph_add_link(sim_graph *g, uint32_t a, uint16_t aport, uint32_t b,
		    uint16_t bport, sim_time latency, uint32_t weight);

/**
 * graph_cut - links whose ends are on different ranks under @rank_of, and
 * the smallest latency among them (SIM_TIME_MAX if none) in *@min_latency.
 */
uint64_t graph_cut(const sim_graph *g, const int32_t *rank_of, sim_time *min_latency);

/**
 * graph_lookahead - the lookahead of a run on @nranks ranks under @rank_of:
 * the smallest latency of the links it cuts, or the declared global
 * lookahead if smaller; SIM_TIME_MAX with one rank or nothing cut.  *@cut
 * receives the links cut.  The engine's rule, shared with the rank profile.
 */
sim_time graph_lookahead(const sim_graph *g, const int32_t *rank_of, int nranks,
			 uint64_t *cut);

#endif
