/*
 * partition/part.h - partitioners: map every component of the graph to a rank.
 *
 * A partitioner is a `part_ops` table listed in partition/registry.c and
 * chosen by name (--partition).  assign() must be deterministic (same graph
 * and rank count -> same map on every rank, since every rank computes it),
 * cover every component exactly once, and return a rank in [0, nranks) for
 * each.  Results never depend on the partitioner (determinism, design §4):
 * only speed does.
 */
#ifndef CXL_PARTITION_PART_H
#define CXL_PARTITION_PART_H

#include <stdint.h>

#include "core/err.h"
#include "core/graph.h"

typedef int part_assign_fn(const sim_graph *g, int nranks, int32_t *rank_of,
			   cxl_err *err);

typedef struct part_ops part_ops;
struct part_ops {
	const char *name;       /* as given to --partition */
	const char *doc;        /* one line for --help */
	part_assign_fn *assign; /* fills rank_of[0..ncomp-1] */
};

extern const part_ops part_block;
extern const part_ops part_roundrobin;
extern const part_ops part_metis;

/* part_lookup - the partitioner called @name, or NULL. */
const part_ops *part_lookup(const char *name);
/* part_list - the registered partitioners; *@n receives the count. */
const part_ops *const *part_list(int *n);

/* part_check - 0 if @rank_of maps every component into [0, nranks). */
int part_check(const sim_graph *g, int nranks, const int32_t *rank_of, cxl_err *err);

#endif
