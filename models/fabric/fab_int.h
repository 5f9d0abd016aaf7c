/*
 * models/fabric/fab_int.h - the interconnect layer: a CXL/PCIe fabric as switches,
 * endpoints and physical connections, its PBR ids, and its expansion into
 * the engine's component/link graph.
 *
 * A fabric is built by a topology generator (fab_topo.c) through three
 * calls: fab_add_node() for switches and endpoints (hosts, accelerators,
 * memory devices), fab_connect() for each physical connection, then
 * fab_finish(), which assigns PBR ids, builds the routing tables
 * (fab_route.h), estimates traffic and emits the graph.  Every rank builds
 * the same fabric from the same config: nothing here depends on ranks.
 *
 * Ports: a node's port k is its k-th connection, in connection order.  A
 * host or accelerator has exactly one connection; the switch port it
 * attaches to is an "edge port".  A memory device has one, or several
 * (a multi-headed device, the pooled memory of cMPI): then every head
 * connects straight to a host or accelerator, no switch between.  Each endpoint gets a 12-bit PBR id, in node order
 * (0..npbr-1, at most FAB_MAX_PBR); more is a config error.
 *
 * The graph (design §5): every node is a component, and every connection
 * becomes a bus component joined to its two nodes by two links of latency
 * `link.latency` (the port-to-port latency, which gives the lookahead):
 *     node a, port pa  --link--  bus port 0 | bus port 1  --link--  node b, port pb
 * Component ids follow node order; a connection's bus comes right after
 * the later of its two nodes, so neighbours get neighbouring ids (the block
 * partitioner relies on that).
 *
 * A switch may be split into `slices` components (switch.slices, for big
 * switches that outweigh a rank): switch port p belongs to slice p % S, as
 * its local port p / S; after its external ports each slice has one
 * internal port per other slice (to slice j: nE + (j < k ? j : j - 1)),
 * joined by internal links of latency slice_latency.  Slice k of switch X
 * is named "X:k" (fab_slice_port() maps a switch port to a slice port).
 *
 * Weights for partitioners come from expected traffic: every requester
 * (host, accelerator) sends to every memory device it reaches (a regular
 * sample of them beyond FAB_TRAFFIC_PAIRS pairs) along its oblivious route,
 * and back; a connection's weight is the packets crossing it, a node's or
 * bus's load is the packets it handles.  Both are scaled to
 * 1..FAB_WEIGHT_SCALE.
 *
 * An Octopus pod (fab_octo.h) has no switch: f->pod keeps its design and
 * which host each host-port requester belongs to, for --check.
 *
 * Memory: O(nodes + connections) for the fabric, plus the routing tables.
 */
#ifndef CXL_MODELS_FABRIC_FAB_INT_H
#define CXL_MODELS_FABRIC_FAB_INT_H

#include <stdint.h>
#include <stdio.h>

#include "core/cfg.h"
#include "core/err.h"
#include "core/graph.h"
#include "core/json.h"
#include "core/series.h"
#include "core/stats.h"
#include "core/stime.h"
#include "models/fabric/fab_kind.h"
#include "models/fabric/fab_octo.h"
#include "models/fabric/fab_route.h"
#include "models/fabric/fab_view.h"

#define FAB_MAX_PBR 4096        /* 12-bit PBR ids */
#define FAB_MAX_PORTS 65535     /* ports per node (uint16) */
#define FAB_MAX_SLICES 64       /* components a switch may be split into */
#define FAB_WEIGHT_SCALE 1000   /* weights are scaled to 1..this */
#define FAB_TRAFFIC_PAIRS (1u << 20) /* requester-memory pairs the estimate walks */

typedef struct fab_node fab_node;
struct fab_node {
	uint8_t kind;       /* row of fab_kinds[] (never the bus) */
	uint16_t pbr;       /* endpoint: PBR id; switch: FAB_NO_PBR */
	uint32_t nports;    /* connections so far = ports */
	uint32_t comp;      /* component id in the graph (after fab_finish); a sliced
			       switch's slices are comp .. comp + slices - 1 */
	uint16_t slices;    /* switch: components it is split into (>= 1; 0 = 1) */
	sim_time slice_latency; /* sliced switch: latency of its internal links, ps */
	uint32_t adj;       /* first entry in fabric.adj (after fab_finish) */
	uint32_t req_index; /* requester: its index among the requesters, in node order */
	char *name;         /* instance name, owned */
};

typedef struct fab_conn fab_conn;
struct fab_conn {
	uint32_t a, b;      /* node indices */
	uint16_t aport;     /* port number at a */
	uint16_t bport;     /* port number at b */
	uint32_t bus;       /* component id of its bus (after fab_finish) */
	uint64_t traffic;   /* expected packets crossing it (both ways) */
};

typedef sim_time fab_latency_fn(const void *ctx, const char *bus);

struct fabric { /* typedef'd as fabric and, opaque, as fab_view (fab_view.h) */
	const char *kind_name;   /* topology kind, e.g. "spine_leaf" */
	fab_node *node;          /* nodes, index = node id */
	uint32_t nnode, cap_node;/* count, capacity */
	fab_conn *conn;          /* connections */
	uint32_t nconn, cap_conn;/* count, capacity */
	uint32_t *adj;           /* node's connections in port order: adj[node.adj + port] */
	uint32_t *pbr_node;      /* PBR id -> node */
	uint32_t npbr;           /* edge ports = endpoints */
	uint32_t count[FAB_MAX_KINDS]; /* nodes by kind; the bus row: connections */
	uint32_t nreq;           /* requesters (nodes of FAB_ROLE_REQUESTER kinds) */
	uint32_t *node_of_comp;  /* component id -> node, UINT32_MAX for buses */
	uint32_t *conn_of_comp;  /* component id -> connection, UINT32_MAX for nodes */
	uint32_t trunk_slowdown; /* switch-to-switch buses serialise this much slower (>= 1) */
	uint32_t ncomp;          /* components in the graph */
	uint16_t *mem_pbr;       /* PBR ids of the memory devices, ascending */
	uint32_t nmem;           /* memory devices */
	uint32_t nmem_switched;  /* of those, attached to a switch (not multi-headed) */
	uint16_t *dev_pbr;       /* PBR ids of the devices (FAB_ROLE_DEVICE), ascending */
	uint32_t ndev;           /* devices */
	sim_time link_latency;   /* latency of every link, ps (unless latency_of says else) */
	fab_latency_fn *latency_of; /* NULL, or the latency of the two links of the bus
				       named @bus (per-bus overrides), ps */
	const void *latency_ctx; /* argument of latency_of */
	fab_route route;         /* routing tables (after fab_finish) */
	fab_pod *pod;            /* octopus: the pod's design and hosts (fab_octo.h), owned;
				    NULL for the other kinds */
	/* memory groups (fab_group.c): requesters reaching the same devices */
	uint32_t *req_group;     /* [requester index] its group */
	uint32_t *req_gindex;    /* [requester index] its index in the group, node order */
	uint32_t *group_size;    /* [group] requesters */
	uint32_t ngroups;        /* groups */
	uint32_t group_max;      /* requesters of the largest group */
	/* fab_view_route_len's cache (a cache, not state: its answers are the walk's) */
	uint32_t *len_row;       /* [pbr] route length from a one-port endpoint on switch
				    len_sw1[pbr] - 1 */
	uint32_t *len_sw1;       /* [pbr] 1 + that switch's index; 0: none yet */
};

void fab_init(fabric *f, const char *kind_name, sim_time link_latency);
void fab_free(fabric *f);

/* fab_add_node - a new node of kind @kind (a row of fab_kinds[], not the bus)
 * named @name (copied); returns its id. */
uint32_t fab_add_node(fabric *f, uint32_t kind, const char *name);

/**
 * fab_connect - a physical connection between nodes @a and @b.
 * Returns 0, or CXL_EINVAL (message without location) when a node would
 * exceed FAB_MAX_PORTS, an endpoint would get a second connection, or a == b.
 */
int fab_connect(fabric *f, uint32_t a, uint32_t b, cxl_err *err);

/* fab_find - the node called @name, or UINT32_MAX.  O(nodes). */
uint32_t fab_find(const fabric *f, const char *name);

/**
 * fab_finish - PBR ids, routing tables, traffic estimate, and the graph.
 * @f:   the fabric, every node and connection added
 * @g:   OUT graph (initialised by the caller, empty); each component's model
 *       is its kind's (fab_kinds[].ops)
 * @err: OUT error record
 * Errors (CXL_EINVAL, message without location): more than FAB_MAX_PBR
 * endpoints, an endpoint without a connection, a fabric whose endpoints
 * cannot all reach each other.
 */
int fab_finish(fabric *f, sim_graph *g, cxl_err *err);

/* fab_fnv - FNV-1a of @len bytes at @data, continuing hash @h (route checksum, group table). */
static inline uint64_t fab_fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *c = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

/* fab_group_requesters - the memory groups (fab_group.c); at the end of fab_finish. */
void fab_group_requesters(fabric *f);

/* fab_peer - the node at the other end of port @port of node @n. */
static inline uint32_t fab_peer(const fabric *f, uint32_t n, uint32_t port)
{
	const fab_conn *c = &f->conn[f->adj[f->node[n].adj + port]];
	return c->a == n ? c->b : c->a;
}

/* fab_has - does node @n's kind have every role of @roles (FAB_ROLE_*)? */
static inline int fab_has(const fab_node *n, unsigned roles)
{
	return fab_kind_has(n->kind, roles);
}

/* fab_is_endpoint - a node of an endpoint kind (it has a PBR id). */
static inline int fab_is_endpoint(const fab_node *n)
{
	return fab_has(n, FAB_ROLE_ENDPOINT);
}

/* fab_route_len - buses on the oblivious route from node @src to node @dst (0: none). */
uint32_t fab_route_len(const fabric *f, uint32_t src, uint32_t dst);

/* fab_slices - the components switch node @n is split into (1 = one). */
static inline uint32_t fab_slices(const fab_node *n)
{
	return n->slices ? n->slices : 1;
}

/* fab_node_of - the fabric node of component @comp (UINT32_MAX for a bus). */
static inline uint32_t fab_node_of(const fabric *f, uint32_t comp)
{
	return comp < f->ncomp ? f->node_of_comp[comp] : UINT32_MAX;
}

/* fab_is_trunk - does connection @c join two switches? */
static inline int fab_is_trunk(const fabric *f, uint32_t c)
{
	return fab_has(&f->node[f->conn[c].a], FAB_ROLE_SWITCH) &&
	       fab_has(&f->node[f->conn[c].b], FAB_ROLE_SWITCH);
}

/* fab_bisection - switch-to-switch connections a balanced 2-way cut crosses (-1: < 2 switches). */
int64_t fab_bisection(const fabric *f);

/* fab_describe - the --check summary: counts, radix, diameter, bisection. */
void fab_describe(const fabric *f, FILE *out);

/* fab_write_summary - the summary keys of a fabric run (fab_summary.c). */
void fab_write_summary(const cfg *cf, const sim_graph *g, const stats_set *table, json_w *w);

/* fab_requests_completed - requests completed in the run, warm-up included (fab_summary.c). */
uint64_t fab_requests_completed(const cfg *cf, const sim_graph *g, const stats_set *table);

/* fab_report - the end-of-run lines to @out, warnings to @warn (either NULL: none). */
void fab_report(const cfg *cf, const sim_graph *g, const stats_set *table, FILE *out,
		FILE *warn);

/* fab_write_series_summary - timeseries_summary.csv of a fabric run (fab_series.c). */
void fab_write_series_summary(const sim_graph *g, const series_set *t, FILE *f);

/* fab_estimate_comp - bytes component @comp will hold at its peak (fab_estimate.c). */
uint64_t fab_estimate_comp(const fabric *f, const cfg *cf, const sim_graph *g, uint32_t comp,
			   const char **key);
/* fab_estimate_shared - bytes every rank holds: the fabric and its routing tables. */
uint64_t fab_estimate_shared(const fabric *f);

/* fab_write_dot - the fabric for Graphviz (buses drawn as edges). */
void fab_write_dot(const fabric *f, FILE *out);

#endif
