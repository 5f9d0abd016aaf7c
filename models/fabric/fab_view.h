/*
 * models/fabric/fab_view.h - what a component model may know of the fabric
 * it runs in: a narrow, read-only view, so that no model depends on how the
 * fabric builder stores things (fab_int.h stays private to models/fabric/).
 *
 * The view answers, for a component id of the engine's graph:
 *   - who it is: its kind (a row of fab_kinds[]) and roles, its PBR id, its
 *     index among the requesters;
 *   - who is across its ports: the roles and PBR id of the node at the far
 *     end of the bus on each of its ports;
 *   - whom it can reach: the memory devices (targets) a requester's routes
 *     lead to, the number of buses on the route to a PBR id, the component
 *     that holds a PBR id;
 *   - switches: their routing tables (fab_route.h lookups), slice, and the
 *     port layout of slices (fab_slice_ext/int: a sliced switch's port p
 *     is port p / S of slice p % S; after its external ports each slice has
 *     one internal port per other slice);
 *   - buses: the iso-bisection slowdown of a switch-to-switch bus.
 *
 * It is the fabric itself behind an opaque type: every query is O(1) but
 * fab_view_targets() (O(targets)).  It lives as long as the run and is the
 * same on every rank.  Models get it with fab_view_of() in their init; it
 * is NULL when a model runs outside a fabric (its own unit tests).
 */
#ifndef CXL_MODELS_FABRIC_FAB_VIEW_H
#define CXL_MODELS_FABRIC_FAB_VIEW_H

#include <stdint.h>

#include "core/sim.h"
#include "models/fabric/fab_kind.h"
#include "models/fabric/fab_route.h"

#define FAB_NO_PBR 0xffffu      /* not an endpoint: no PBR id */

typedef struct fabric fab_view; /* opaque: the fabric (fab_int.h) */

/* fab_view_switch - what a switch (or one slice of a sliced switch) needs. */
typedef struct fab_view_switch fab_view_switch;
struct fab_view_switch {
	const fab_route *route; /* the routing tables */
	uint32_t index;         /* its switch index in the tables */
	uint32_t ports;         /* the whole switch's ports (all slices) */
	uint32_t slices;        /* components it is split into (1: whole) */
	uint32_t slice;         /* which of them this component is */
};

/* fab_view_of - the fabric component @c runs in; NULL outside a fabric. */
const fab_view *fab_view_of(const sim_comp *c);

/* fab_view_kind - row of fab_kinds[] of component @comp (a bus: the bus row). */
uint32_t fab_view_kind(const fab_view *v, uint32_t comp);

/* fab_view_roles - FAB_ROLE_* of component @comp's kind. */
unsigned fab_view_roles(const fab_view *v, uint32_t comp);

/* fab_view_pbr - PBR id of endpoint component @comp; FAB_NO_PBR for others. */
uint16_t fab_view_pbr(const fab_view *v, uint32_t comp);

/* fab_view_comp_of_pbr - the component of the endpoint with PBR id @pbr. */
uint32_t fab_view_comp_of_pbr(const fab_view *v, uint16_t pbr);

/* fab_view_requester_index - requester @comp's index among all requesters (node order). */
uint32_t fab_view_requester_index(const fab_view *v, uint32_t comp);

/* fab_view_nrequesters - requesters in the fabric (hosts and accelerators). */
uint32_t fab_view_nrequesters(const fab_view *v);

/* fab_view_peer_roles - roles of the node across the bus on port @port of endpoint @comp. */
unsigned fab_view_peer_roles(const fab_view *v, uint32_t comp, uint32_t port);

/* fab_view_peer_pbr - PBR id of that node (FAB_NO_PBR: a switch). */
uint16_t fab_view_peer_pbr(const fab_view *v, uint32_t comp, uint32_t port);

/* fab_view_ntargets - memory devices (FAB_ROLE_TARGET nodes) in the fabric. */
uint32_t fab_view_ntargets(const fab_view *v);

/* fab_view_switched_targets - of those, the ones attached to a switch (not multi-headed). */
uint32_t fab_view_switched_targets(const fab_view *v);

/**
 * fab_view_targets - the memory devices requester @comp reaches through its
 * one port: the device on that port if it is one, else every device its
 * switch has a route to.  Writes their PBR ids, ascending, to @out (room for
 * fab_view_ntargets() ids) and returns how many.
 */
uint32_t fab_view_targets(const fab_view *v, uint32_t comp, uint16_t *out);

/* fab_view_ndevices - devices (FAB_ROLE_DEVICE nodes) in the fabric. */
uint32_t fab_view_ndevices(const fab_view *v);

/**
 * fab_view_devices - the devices endpoint @comp reaches through its one
 * port, as fab_view_targets() does for memory devices: their PBR ids,
 * ascending, to @out (room for fab_view_ndevices() ids); how many.  A
 * requester's device k is the k-th of them (models/proto/devwin.h).
 */
uint32_t fab_view_devices(const fab_view *v, uint32_t comp, uint16_t *out);

/**
 * fab_view_mem_group - requester @comp's memory group: the requesters that
 * reach exactly the devices it reaches (fab_view_targets), so that an
 * address means the same memory to each of them; two groups never share a
 * device.  A switched pool is one group, an Octopus pod one per device
 * (its heads).  *@index = its place in the group (node order), *@size =
 * the group's requesters.
 */
void fab_view_mem_group(const fab_view *v, uint32_t comp, uint32_t *index, uint32_t *size);

/* fab_view_mem_groups - the number of memory groups; *@largest = requesters of the largest. */
uint32_t fab_view_mem_groups(const fab_view *v, uint32_t *largest);

/* fab_view_route_len - buses on the oblivious route from endpoint @comp to PBR id @pbr (0: none). */
uint32_t fab_view_route_len(const fab_view *v, uint32_t comp, uint16_t pbr);

/* fab_view_switch_of - switch (or slice) component @comp's tables and slice, into *@out. */
void fab_view_switch_of(const fab_view *v, uint32_t comp, fab_view_switch *out);

/* fab_slice_ext - external ports of slice @k of a switch with @nports ports in @S slices. */
static inline uint32_t fab_slice_ext(uint32_t nports, uint32_t S, uint32_t k)
{
	return nports > k ? (nports - k + S - 1) / S : 0;
}

/* fab_slice_int - local port of slice @k's internal link to slice @j (!= @k). */
static inline uint32_t fab_slice_int(uint32_t nports, uint32_t S, uint32_t k, uint32_t j)
{
	return fab_slice_ext(nports, S, k) + (j < k ? j : j - 1);
}

/* fab_view_bus_slowdown - how much slower bus @comp serialises (iso-bisection; 1: not). */
uint32_t fab_view_bus_slowdown(const fab_view *v, uint32_t comp);

#endif
