/*
 * models/fabric/fab_route.h - PBR routing tables: per switch, destination PBR id ->
 * every minimal egress port (design §5).
 *
 * A port of switch s is minimal towards edge switch t (a switch with
 * endpoints attached) if the switch behind it is one hop closer to t; at t
 * itself the port is the edge port of the destination endpoint.  Distances
 * count switch-to-switch hops; every connection counts one.  They come from
 * BFS over the graph of twin classes (switches with the same neighbours), so
 * the build is near-linear in connections (fab_route.c).
 *
 * Layout, per switch s (sets deduplicated per switch, so a leaf of a
 * spine-leaf fabric holds one set "all spines" plus one per local endpoint):
 *     set_of[s * npbr + dst]          -> local set index j (uint16)
 *     set_start[sw_set0[s] + j .. +1] -> range in ports[]
 * Memory: O(switches x edge ports) for set_of plus the distinct sets, never
 * O(edge ports^2).  Built identically on every rank (no randomness, fixed
 * iteration order); fab_route_checksum() lets ranks and tests compare.
 *
 * Choosing among minimal ports:
 *   oblivious  fab_route_oblivious(): a fixed hash of (source, destination)
 *              picks one, so a flow keeps its path and the choice depends on
 *              nothing but the two PBR ids;
 *   adaptive   fab_route_adaptive(): the least-loaded port by the caller's
 *              per-port load, ties broken starting from the oblivious pick.
 * A destination no switch path reaches (an endpoint wired straight to
 * another endpoint) has FAB_ROUTE_NONE.
 */
#ifndef CXL_MODELS_FAB_ROUTE_H
#define CXL_MODELS_FAB_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define FAB_ROUTE_NONE 0xffffu  /* set_of entry: destination not reachable */

typedef struct fabric fabric;

typedef struct fab_route fab_route;
struct fab_route {
	uint32_t nnode;        /* fabric nodes (size of sw_of) */
	uint32_t nsw;          /* switches */
	uint32_t npbr;         /* destinations (PBR ids) */
	uint32_t *sw_of;       /* node -> switch index, UINT32_MAX for endpoints */
	uint32_t *sw_node;     /* switch index -> node */
	uint16_t *set_of;      /* [s * npbr + dst] -> local set index, or FAB_ROUTE_NONE */
	uint32_t *sw_set0;     /* [s] -> first global set of switch s; [nsw] = nsets */
	uint32_t *set_start;   /* [global set] -> first port in ports; [nsets] = nports */
	uint16_t *ports;       /* egress port numbers, ascending within a set */
	uint32_t nsets;        /* distinct sets, all switches */
	uint32_t nports;       /* entries of ports */
	uint32_t max_hops;     /* most switch-to-switch hops between two edge switches */
	uint64_t multipath;    /* (switch, destination) pairs with more than one port */
	uint32_t nclass;       /* twin classes of switches the build found (see fab_route.c) */
	uint64_t build_work;   /* steps the build took (adjacency entries, ports scanned,
				  (switch, edge switch) pairs); tests bound it */
};

/**
 * fab_route_build - the tables of fabric @f (nodes, connections and PBR ids
 * final).  Returns 0, or CXL_EINVAL with @err ("switch X cannot reach
 * switch Y") when the switch graph is not connected.
 */
int fab_route_build(const fabric *f, fab_route *r, cxl_err *err);
void fab_route_free(fab_route *r);

/* fab_route_ports - the minimal egress ports of switch @s towards @dst; *@n = count (0: none). */
static inline const uint16_t *fab_route_ports(const fab_route *r, uint32_t s,
					      uint32_t dst, uint32_t *n)
{
	uint16_t j = r->set_of[(size_t)s * r->npbr + dst];
	if (j == FAB_ROUTE_NONE) {
		*n = 0;
		return NULL;
	}
	uint32_t g = r->sw_set0[s] + j;
	*n = r->set_start[g + 1] - r->set_start[g];
	return &r->ports[r->set_start[g]];
}

/*
 * fab_route_adaptive_by - fab_route_adaptive() with the load of each port
 * from @load(@ctx, port); a port of load UINT32_MAX is chosen only if no
 * minimal port has less (a sliced switch marks ports it cannot use so).
 */
typedef uint32_t fab_load_fn(const void *ctx, uint32_t port);
int fab_route_adaptive_by(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst,
			  fab_load_fn *load, const void *ctx);

/* fab_route_oblivious - the port a flow @src -> @dst takes at switch @s (-1: none). */
int fab_route_oblivious(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst);

/**
 * fab_route_adaptive - the minimal port with the smallest @load[port]
 * (indexed by port number of switch @s); ties go to the first in rotation
 * order starting at the oblivious pick.  -1 if none.
 */
int fab_route_adaptive(const fab_route *r, uint32_t s, uint32_t src, uint32_t dst,
		       const uint32_t *load);

/* fab_route_checksum - FNV-1a over every table, for cross-rank comparison. */
uint64_t fab_route_checksum(const fab_route *r);

/* fab_route_bytes - memory held by the tables. */
size_t fab_route_bytes(const fab_route *r);

#endif
