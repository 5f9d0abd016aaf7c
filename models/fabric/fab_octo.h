/*
 * models/fabric/fab_octo.h - Octopus pods: hosts wired straight to small
 * multi-headed memory devices, no switch, as a block design says
 * (topology.kind = "octopus"; Berger et al., "Octopus: Scalable Low-Cost
 * CXL Memory Pooling", arXiv:2501.09020, 2025).
 *
 * What is built.  A design D (fab_design.h) of v points and b blocks of k
 * points, each point in r blocks, is picked for host_ports X and
 * device_ports N (k <= N, r <= X; fab_design_pick()).  Host h is point h,
 * device j is block j, host h is wired to device j when h lies in j.  With
 * lambda = 1 every pair of hosts shares exactly one device: the paper's
 * "regular" Octopus pod, v = 1 + X (N - 1) hosts when a 2-(v, N, 1) design
 * exists (X = 8, N = 4: S(2,4,25), 25 hosts, 50 devices).
 *
 * Islands (the sparse fallback).  topology.hosts = H other than v makes
 * ceil(H / v) islands, each a copy of D on its own devices; the last holds
 * the remaining H mod v hosts as points 0.. of D, with every block that
 * still has one of them (so every host keeps its r devices; a device may
 * keep fewer heads, down to one).  Exactly: hosts of the same island share
 * lambda devices (one, for every design but `full`), hosts of different
 * islands share none.  --check counts both and lists the first pairs that
 * share none.  (The paper's later version groups hosts into islands too;
 * it joins them by further devices, which this construction does not.)
 *
 * A host with several ports.  A requester kind has one port (host/req.c
 * reaches the device on its port 0), so host h is r requester components
 * "host<h>.p<j>", one per port, kind host: port j goes to the j-th block
 * of D containing h, in block order.  They are the host's r processes,
 * each with its own workload (workload.* apply per port: a host issues
 * r x workload.requests; `workload[host3.*]` sets one host).  Nothing in
 * models/host/ changes.  --check counts hosts by their number, not by
 * components.  Devices are "mem<d>", numbered in order of first use.
 *
 * Node order: island by island, host by host, each host's ports in order,
 * a device right after the first port wired to it (locality for the block
 * partitioner).  Deterministic; every rank builds the same pod.
 */
#ifndef CXL_MODELS_FAB_OCTO_H
#define CXL_MODELS_FAB_OCTO_H

#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "models/fabric/fab_design.h"
#include "models/fabric/fab_topo.h"

#define FAB_POD_LIST 4 /* pairs sharing no device that --check names */

typedef struct fab_pod fab_pod;
struct fab_pod {
	fab_design design;     /* of every island (blocks built) */
	uint32_t hosts;        /* hosts in the pod (not components) */
	uint32_t host_ports;   /* X, as configured */
	uint32_t device_ports; /* N, as configured */
	uint32_t islands;      /* copies of the design; the last may hold fewer hosts */
	uint32_t devices;      /* multi-headed devices */
	uint32_t nnode;        /* entries of host_of */
	uint32_t *host_of;     /* [node] host of a host-port node; UINT32_MAX for a device */
};

typedef struct fab_pod_cover fab_pod_cover;
struct fab_pod_cover {
	uint32_t hosts;        /* hosts in the pod */
	uint32_t devices;      /* memory devices */
	uint32_t ports_min, ports_max; /* devices per host */
	uint32_t heads_min, heads_max; /* hosts per device */
	uint64_t pairs;        /* host pairs, hosts (hosts - 1) / 2 */
	uint64_t shared;       /* pairs that share at least one device */
	uint32_t share_min, share_max; /* devices a sharing pair shares (0 if none) */
	uint32_t nlist;        /* pairs listed in none[] */
	uint32_t none[FAB_POD_LIST][2]; /* the first pairs sharing no device, by host */
};

/**
 * fab_octo_generate - add the pod of @t (kind FAB_OCTOPUS) to @f (empty).
 * Sets f->pod.  Returns 0, or CXL_EINVAL with @err (no location) and
 * *@field naming the key at fault: FAB_F_DESIGN when no member of
 * t->design fits X and N, FAB_F_HOSTS (or FAB_F_HOST_PORTS when hosts is
 * 0) when the pod needs more than 4096 endpoints (host ports + devices).
 */
int fab_octo_generate(fabric *f, const fab_topo *t, enum fab_topo_field *field,
		      cxl_err *err);

/* fab_pod_free - release @p and what it holds (NULL: nothing). */
void fab_pod_free(fab_pod *p);

/**
 * fab_pod_cover_of - who shares a device with whom, counted on the fabric
 * @f (its nodes and connections, not the design).  @f must hold a pod.
 * O(hosts^2 / 2) counters; O(devices x heads^2) time.
 */
void fab_pod_cover_of(const fabric *f, fab_pod_cover *c);

/* fab_pod_describe - the --check lines of @f's pod (nothing if it has none). */
void fab_pod_describe(const fabric *f, FILE *out);

#endif
