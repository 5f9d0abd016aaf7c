/*
 * core/memest.h - the memory a run will need per rank, estimated from the
 * config alone before any component initialises, and the memory there is.
 *
 * The system (models/registry.h comp_bytes, shared_bytes) estimates each
 * component's state; this adds its model's state_size and the engine's part
 * per component and link
 * (MEMEST_PER_COMP, MEMEST_PER_LINK: its tables, the stats registry's
 * fixed entries, the config views; measured) and the process itself
 * (MEMEST_BASE: binary, libraries, MPI), and sums by rank for a rank map.
 * It finds the component kind that weighs most on the worst rank and the
 * key its largest component named, so a refusal can say what to change.
 * Accuracy: see the table in models/fabric/README.md ("Memory estimate").
 * Pure: no MPI; every rank computes the same figures from the same map.
 */
#ifndef CXL_CORE_MEMEST_H
#define CXL_CORE_MEMEST_H

#include <stdint.h>

#include "core/cfg.h"
#include "core/graph.h"

#define MEMEST_BASE (4ull << 20)   /* bytes of the process before any config (measured) */
#define MEMEST_PER_COMP 3400ull    /* bytes per component beyond its model's state_size:
				      the engine's records, ports, about a dozen counters
				      (name, entry, pointer each), its config view; fitted
				      to --check RSS of spine-leaf fabrics (buses 90%) */
#define MEMEST_PER_LINK 64ull      /* engine bytes per link (measured) */

/* The bytes component @comp will hold, config view @cf; *@key: the key sizing most of it. */
typedef uint64_t memest_comp_fn(const void *ctx, const cfg *cf, const sim_graph *g,
				uint32_t comp, const char **key);

typedef struct memest memest;
struct memest {
	int worst;            /* rank with the largest estimate */
	uint64_t bytes;       /* its estimate, bytes */
	const char *kind;     /* the model type that weighs most there ("" if none) */
	uint64_t kind_bytes;  /* its bytes on that rank */
	const char *key;      /* the key that sizes most of its largest component ("" if none) */
};

/**
 * memest_compute - the estimate of the rank that needs most.
 * @g, @cf:   the graph and config
 * @shared:   bytes every rank holds (the system's description)
 * @fn, @ctx: the system's per-component estimate (NULL: engine part only)
 * @nranks:   ranks; @rank_of: component -> rank (NULL: every one on rank 0)
 * @m:        OUT the figures
 */
void memest_compute(const sim_graph *g, const cfg *cf, uint64_t shared, memest_comp_fn *fn,
		    const void *ctx, int nranks, const int32_t *rank_of, memest *m);

/* memest_available - MemAvailable of /proc/meminfo in bytes, 0 if unknown. */
uint64_t memest_available(void);

#endif
