/*
 * models/fabric/fab_topo.h - topology generators: a few size parameters -> the
 * switches, endpoints and connections of a fabric (fab_int.h).
 *
 * Kinds (the five of ESF Fig. 9, plus fat_tree; `custom` lives in
 * fab_sys.c since it reads explicit lists):
 *   chain            N switches in a line
 *   ring             N switches in a cycle (N >= 3)
 *   tree             N leaf switches under a tree of arity A: each level
 *                    has ceil(previous / A) switches, up to one root
 *   fully_connected  N switches, every pair connected (N <= 256)
 *   spine_leaf       L leaves, S spines, every leaf connected to every spine;
 *                    each leaf carries hosts_per_leaf hosts and
 *                    memories_per_leaf memory devices
 *   fat_tree         the k-ary fat tree (Al-Fares et al. 2008): k pods of
 *                    k/2 edge and k/2 aggregation switches, (k/2)^2 cores,
 *                    k^3/4 edge ports (k even, at most 24 for 4096 ports)
 *   octopus          no switch: hosts wired straight to multi-headed memory
 *                    devices of at most N (device_ports) heads, each host to
 *                    at most X (host_ports) of them, as a block design says
 *                    (fab_octo.h, fab_design.h)
 * Endpoints of chain, ring, tree, fully_connected and fat_tree attach
 * round-robin to the edge switches (every switch; tree and fat_tree: the
 * leaves / edge switches): hosts, then accelerators, then memories, one
 * per switch in turn, continuing where the previous kind stopped - so with
 * as many hosts and memories as switches each carries one of each (ESF).
 *
 * Names: switches "sw<i>" (tree levels above the leaves "tree<level>.<i>"),
 * "leaf<i>"/"spine<j>", "edge<pod>.<i>"/"agg<pod>.<i>"/"core<j>"; endpoints
 * "host<i>", "accel<i>", "mem<i>" numbered per kind (the prefixes of the
 * kind table, fab_kind.h); an octopus host's ports "host<h>.p<j>".  Nodes
 * are created switch by switch, each followed by its endpoints (locality for
 * the block partitioner); upper switches last.
 */
#ifndef CXL_MODELS_FAB_TOPO_H
#define CXL_MODELS_FAB_TOPO_H

#include <stdint.h>

#include "core/err.h"
#include "models/fabric/fab_design.h"
#include "models/fabric/fab_route.h"

enum fab_topo_kind {
	FAB_CHAIN, FAB_RING, FAB_TREE, FAB_SPINE_LEAF, FAB_FULLY_CONNECTED, FAB_FAT_TREE,
	FAB_OCTOPUS, FAB_CUSTOM,
};

/* The topology.kind choices, in enum order ("chain|ring|...|custom"). */
#define FAB_TOPO_CHOICES "chain|ring|tree|spine_leaf|fully_connected|fat_tree|octopus|custom"

typedef struct fab_topo fab_topo;
struct fab_topo {
	enum fab_topo_kind kind; /* generator */
	uint32_t switches;       /* chain, ring, fully_connected: switches; tree: leaves */
	uint32_t hosts;          /* round-robin kinds: hosts; octopus: hosts, 0 = one design */
	uint32_t accels;         /* round-robin kinds: accelerators */
	uint32_t memories;       /* round-robin kinds: memory devices */
	uint32_t arity;          /* tree: children per switch */
	uint32_t leaves;         /* spine_leaf */
	uint32_t spines;         /* spine_leaf */
	uint32_t hosts_per_leaf; /* spine_leaf */
	uint32_t mems_per_leaf;  /* spine_leaf */
	uint32_t k;              /* fat_tree */
	uint32_t host_ports;     /* octopus: X, devices a host may connect to */
	uint32_t device_ports;   /* octopus: N, hosts a device may connect to (>= 2) */
	enum fab_design_kind design; /* octopus: the design's family (AUTO: the largest) */
};

/* Which field a size error is about, so the caller can point at its key. */
enum fab_topo_field {
	FAB_F_NONE, FAB_F_SWITCHES, FAB_F_HOSTS, FAB_F_K, FAB_F_HOST_PORTS, FAB_F_DESIGN,
};

/**
 * fab_topo_generate - add the nodes and connections of @t to @f (empty).
 * Returns 0, or CXL_EINVAL with @err (no location) and *@field naming the
 * parameter at fault: a ring of fewer than 3 switches, a fully connected
 * fabric of more than 256, an odd or too large k, more endpoints than a
 * fat tree has edge ports, an octopus design that fits no X and N or a pod
 * beyond 4096 endpoints.  The 4096-endpoint limit of the other kinds is
 * fab_finish()'s.
 */
int fab_topo_generate(fabric *f, const fab_topo *t, enum fab_topo_field *field,
		      cxl_err *err);

#endif
