/*
 * models/fabric/fab_view.c - the component models' read-only view of the
 * fabric (contract in fab_view.h), answered from the builder's structures
 * (fab_int.h).
 */
#include "models/fabric/fab_view.h"

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"

const fab_view *fab_view_of(const sim_comp *c)
{
	return sim_system(c);
}

/* The node of component @comp, which must be one (not a bus). */
static const fab_node *node_of(const fab_view *v, uint32_t comp)
{
	uint32_t n = fab_node_of(v, comp);

	CXL_ASSERT(n != UINT32_MAX);
	return &v->node[n];
}

uint32_t fab_view_kind(const fab_view *v, uint32_t comp)
{
	uint32_t n = fab_node_of(v, comp);

	CXL_ASSERT(comp < v->ncomp);
	return n != UINT32_MAX ? v->node[n].kind : FAB_BUS;
}

unsigned fab_view_roles(const fab_view *v, uint32_t comp)
{
	return fab_kinds[fab_view_kind(v, comp)].roles;
}

uint16_t fab_view_pbr(const fab_view *v, uint32_t comp)
{
	return fab_node_of(v, comp) == UINT32_MAX ? FAB_NO_PBR : node_of(v, comp)->pbr;
}

uint32_t fab_view_comp_of_pbr(const fab_view *v, uint16_t pbr)
{
	CXL_ASSERT(pbr < v->npbr);
	return v->node[v->pbr_node[pbr]].comp;
}

uint32_t fab_view_requester_index(const fab_view *v, uint32_t comp)
{
	const fab_node *nd = node_of(v, comp);

	CXL_ASSERT(fab_has(nd, FAB_ROLE_REQUESTER));
	return nd->req_index;
}

uint32_t fab_view_nrequesters(const fab_view *v)
{
	return v->nreq;
}

/* The node across port @port of endpoint @comp. */
static const fab_node *peer_of(const fab_view *v, uint32_t comp, uint32_t port)
{
	uint32_t n = fab_node_of(v, comp);

	CXL_ASSERT(n != UINT32_MAX && fab_is_endpoint(&v->node[n]) && port < v->node[n].nports);
	return &v->node[fab_peer(v, n, port)];
}

unsigned fab_view_peer_roles(const fab_view *v, uint32_t comp, uint32_t port)
{
	return fab_kinds[peer_of(v, comp, port)->kind].roles;
}

uint16_t fab_view_peer_pbr(const fab_view *v, uint32_t comp, uint32_t port)
{
	return peer_of(v, comp, port)->pbr;
}

uint32_t fab_view_ntargets(const fab_view *v)
{
	return v->nmem;
}

uint32_t fab_view_switched_targets(const fab_view *v)
{
	return v->nmem_switched;
}

/* Of the @n endpoints @pbr (of role @role), those @comp reaches through its one port. */
static uint32_t reach(const fab_view *v, uint32_t comp, unsigned role, const uint16_t *pbr,
		      uint32_t n, uint16_t *out)
{
	const fab_node *peer = peer_of(v, comp, 0);
	uint32_t k = 0, s;

	if (fab_has(peer, role)) {
		out[0] = peer->pbr;
		return 1;
	}
	s = fab_has(peer, FAB_ROLE_SWITCH) ? v->route.sw_of[peer - v->node] : UINT32_MAX;
	for (uint32_t m = 0; s != UINT32_MAX && m < n; m++) {
		uint32_t np;
		fab_route_ports(&v->route, s, pbr[m], &np);
		if (np)
			out[k++] = pbr[m];
	}
	return k;
}

uint32_t fab_view_targets(const fab_view *v, uint32_t comp, uint16_t *out)
{
	return reach(v, comp, FAB_ROLE_TARGET, v->mem_pbr, v->nmem, out);
}

uint32_t fab_view_ndevices(const fab_view *v)
{
	return v->ndev;
}

uint32_t fab_view_devices(const fab_view *v, uint32_t comp, uint16_t *out)
{
	return reach(v, comp, FAB_ROLE_DEVICE, v->dev_pbr, v->ndev, out);
}

/*
 * Every egress port a route may take is minimal (one switch-to-switch hop
 * closer, fab_route.h), so a route's length from an endpoint with one port on
 * switch s depends on s and the destination only: one walk per (s, pbr) for
 * all the endpoints of s.  The requesters ask for every target at init
 * (rack-4096: 2048 x 2048 walks, its start-up 0.74 -> 0.48 s), those of one
 * switch one after the other, so one row of lengths, each tagged with its
 * switch, answers most calls (O(edge ports); any call order is O(1)).
 */
uint32_t fab_view_route_len(const fab_view *v, uint32_t comp, uint16_t pbr)
{
	uint32_t n = fab_node_of(v, comp);

	CXL_ASSERT(pbr < v->npbr && n != UINT32_MAX);
	if (v->node[n].nports != 1 || !fab_has(&v->node[fab_peer(v, n, 0)], FAB_ROLE_SWITCH))
		return fab_route_len(v, n, v->pbr_node[pbr]);
	fabric *f = (fabric *)v; /* the cache only (above) */
	uint32_t s1 = v->route.sw_of[fab_peer(v, n, 0)] + 1;
	if (!f->len_row) {
		f->len_row = xmalloc(f->npbr * sizeof(*f->len_row));
		f->len_sw1 = xcalloc(f->npbr, sizeof(*f->len_sw1));
	}
	if (f->len_sw1[pbr] != s1) { /* another switch's length, or none */
		f->len_row[pbr] = fab_route_len(v, n, v->pbr_node[pbr]);
		f->len_sw1[pbr] = s1;
	}
	return f->len_row[pbr];
}

void fab_view_switch_of(const fab_view *v, uint32_t comp, fab_view_switch *out)
{
	uint32_t n = fab_node_of(v, comp);
	const fab_node *nd = node_of(v, comp);

	CXL_ASSERT(fab_has(nd, FAB_ROLE_SWITCH));
	*out = (fab_view_switch){ .route = &v->route, .index = v->route.sw_of[n],
				  .ports = nd->nports, .slices = fab_slices(nd),
				  .slice = comp - nd->comp };
}

uint32_t fab_view_bus_slowdown(const fab_view *v, uint32_t comp)
{
	CXL_ASSERT(comp < v->ncomp && v->conn_of_comp[comp] != UINT32_MAX);
	return fab_is_trunk(v, v->conn_of_comp[comp]) ? v->trunk_slowdown : 1;
}
