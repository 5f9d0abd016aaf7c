/*
 * models/fabric/fabric.c - building a fabric and expanding it into the engine's
 * graph (see fab_int.h): nodes, connections, PBR ids, the traffic estimate
 * behind the partitioner weights, and graph emission.
 */
#include "models/fabric/fab_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

void fab_init(fabric *f, const char *kind_name, sim_time link_latency)
{
	*f = (fabric){ .kind_name = kind_name, .link_latency = link_latency, .trunk_slowdown = 1 };
}

void fab_free(fabric *f)
{
	for (uint32_t i = 0; i < f->nnode; i++)
		free(f->node[i].name);
	free(f->node);
	free(f->conn);
	free(f->adj);
	free(f->pbr_node);
	free(f->node_of_comp);
	free(f->conn_of_comp);
	free(f->mem_pbr);
	free(f->dev_pbr);
	fab_route_free(&f->route);
	fab_pod_free(f->pod);
	free(f->req_group);
	free(f->req_gindex);
	free(f->group_size);
	free(f->len_row);
	free(f->len_sw1);
	*f = (fabric){ 0 };
}

uint32_t fab_add_node(fabric *f, uint32_t kind, const char *name)
{
	CXL_ASSERT(kind < fab_nkinds && !fab_kind_has(kind, FAB_ROLE_BUS));
	if (f->nnode == f->cap_node) {
		f->cap_node = f->cap_node ? 2 * f->cap_node : 64;
		f->node = xrealloc(f->node, f->cap_node * sizeof(*f->node));
	}
	f->node[f->nnode] = (fab_node){ .kind = (uint8_t)kind, .pbr = FAB_NO_PBR,
					.name = xstrdup(name) };
	f->count[kind]++;
	return f->nnode++;
}

int fab_connect(fabric *f, uint32_t a, uint32_t b, cxl_err *err)
{
	CXL_ASSERT(a < f->nnode && b < f->nnode);
	fab_node *na = &f->node[a], *nb = &f->node[b];

	if (a == b)
		return cxl_err_set(err, CXL_EINVAL, "%s is connected to itself", na->name);
	for (int i = 0; i < 2; i++) {
		const fab_node *n = i ? nb : na;
		if (fab_is_endpoint(n) && n->nports && !fab_has(n, FAB_ROLE_MULTIHEAD))
			return cxl_err_set(err, CXL_EINVAL,
					   "%s %s has a second connection (a %s has exactly one "
					   "port)", fab_kinds[n->kind].name, n->name,
					   fab_kinds[n->kind].name);
		if (n->nports >= FAB_MAX_PORTS)
			return cxl_err_set(err, CXL_EINVAL, "%s has more than %d ports",
					   n->name, FAB_MAX_PORTS);
	}
	if (f->nconn == f->cap_conn) {
		f->cap_conn = f->cap_conn ? 2 * f->cap_conn : 64;
		f->conn = xrealloc(f->conn, f->cap_conn * sizeof(*f->conn));
	}
	f->conn[f->nconn++] = (fab_conn){ .a = a, .b = b, .aport = (uint16_t)na->nports++,
					  .bport = (uint16_t)nb->nports++ };
	f->count[FAB_BUS]++;
	return 0;
}

uint32_t fab_find(const fabric *f, const char *name)
{
	for (uint32_t i = 0; i < f->nnode; i++)
		if (!strcmp(f->node[i].name, name))
			return i;
	return UINT32_MAX;
}

/* CSR adjacency: node n's connections in port order at adj[node.adj ...]. */
static void build_adjacency(fabric *f)
{
	uint32_t off = 0;

	for (uint32_t n = 0; n < f->nnode; n++) {
		f->node[n].adj = off;
		off += f->node[n].nports;
	}
	f->adj = xmalloc((off ? off : 1) * sizeof(*f->adj));
	for (uint32_t c = 0; c < f->nconn; c++) {
		const fab_conn *k = &f->conn[c];
		f->adj[f->node[k->a].adj + k->aport] = c;
		f->adj[f->node[k->b].adj + k->bport] = c;
	}
}

static int assign_pbr(fabric *f, cxl_err *err)
{
	uint32_t ne = 0;

	for (uint32_t n = 0; n < f->nnode; n++) {
		if (!fab_is_endpoint(&f->node[n]))
			continue;
		if (!f->node[n].nports)
			return cxl_err_set(err, CXL_EINVAL, "%s %s is connected to nothing",
					   fab_kinds[f->node[n].kind].name, f->node[n].name);
		for (uint32_t p = 0; f->node[n].nports > 1 && p < f->node[n].nports; p++) {
			const fab_node *peer = &f->node[fab_peer(f, n, p)];
			if (!fab_has(peer, FAB_ROLE_REQUESTER))
				return cxl_err_set(err, CXL_EINVAL, "%s %s has %u connections: a "
						   "multi-headed device connects only to requesters "
						   "(hosts, accelerators; %s is a %s)",
						   fab_kinds[f->node[n].kind].name, f->node[n].name,
						   f->node[n].nports, peer->name,
						   fab_kinds[peer->kind].name);
		}
		ne++;
	}
	if (ne > FAB_MAX_PBR)
		return cxl_err_set(err, CXL_EINVAL,
				   "%u endpoints (hosts, accelerators, memories) exceed the %d edge ports "
				   "a PBR fabric can address (12-bit ids)", ne, FAB_MAX_PBR);
	f->pbr_node = xmalloc((ne ? ne : 1) * sizeof(*f->pbr_node));
	f->mem_pbr = xmalloc((ne + 1) * sizeof(*f->mem_pbr));
	f->dev_pbr = xmalloc((ne + 1) * sizeof(*f->dev_pbr));
	for (uint32_t n = 0; n < f->nnode; n++) {
		if (!fab_is_endpoint(&f->node[n]))
			continue;
		if (fab_has(&f->node[n], FAB_ROLE_TARGET))
			f->mem_pbr[f->nmem++] = (uint16_t)f->npbr;
		if (fab_has(&f->node[n], FAB_ROLE_DEVICE))
			f->dev_pbr[f->ndev++] = (uint16_t)f->npbr;
		if (fab_has(&f->node[n], FAB_ROLE_REQUESTER))
			f->node[n].req_index = f->nreq++;
		f->node[n].pbr = (uint16_t)f->npbr;
		f->pbr_node[f->npbr++] = n;
	}
	return 0;
}

/* Walk the oblivious route src -> dst; if @conns (f->conn) is given, add one
 * packet to every connection and (@node_load, may be NULL) node on it.
 * Returns the connections crossed, 0 if dst is unreachable. */
static uint32_t walk(const fabric *f, uint32_t src, uint32_t dst, fab_conn *conns,
		     uint64_t *node_load)
{
	uint32_t n = src, hops = 0, sp = f->node[src].pbr, dp = f->node[dst].pbr;

	for (;;) {
		int port = 0;
		if (n == src && f->node[n].nports > 1) /* a multi-headed device: its head to dst */
			while ((uint32_t)port + 1 < f->node[n].nports && fab_peer(f, n, (uint32_t)port) != dst)
				port++;
		if (fab_has(&f->node[n], FAB_ROLE_SWITCH))
			port = fab_route_oblivious(&f->route, f->route.sw_of[n], sp, dp);
		else if (n != src)
			return 0; /* reached an endpoint that is not dst */
		if (port < 0)
			return 0;
		if (conns)
			conns[f->adj[f->node[n].adj + (uint32_t)port]].traffic++;
		if (node_load)
			node_load[n]++;
		n = fab_peer(f, n, (uint32_t)port);
		hops++;
		if (n == dst) {
			if (node_load)
				node_load[n]++;
			return hops;
		}
	}
}

uint32_t fab_route_len(const fabric *f, uint32_t src, uint32_t dst)
{
	return walk(f, src, dst, NULL, NULL);
}

/*
 * Every requester to every memory device it reaches and back, along oblivious
 * routes; beyond FAB_TRAFFIC_PAIRS pairs each requester takes every k-th memory
 * device (starting at an offset of its own), which keeps the estimate's
 * shape at a bounded cost (rack-4096: 4M pairs -> 1M).
 */
static void estimate_traffic(fabric *f, uint64_t *node_load)
{
	uint64_t req = f->nreq;
	uint32_t stride = (uint32_t)((req * f->nmem + FAB_TRAFFIC_PAIRS - 1) / FAB_TRAFFIC_PAIRS);

	stride = stride ? stride : 1;
	for (uint32_t s = 0; s < f->npbr; s++) {
		uint32_t src = f->pbr_node[s];
		if (!fab_has(&f->node[src], FAB_ROLE_REQUESTER))
			continue;
		for (uint32_t m = s % stride; m < f->nmem; m += stride) {
			uint32_t dst = f->pbr_node[f->mem_pbr[m]];
			if (!walk(f, src, dst, NULL, NULL))
				continue; /* unreached (no switch): walk() would count a first hop */
			walk(f, src, dst, f->conn, node_load);
			walk(f, dst, src, f->conn, node_load);
		}
	}
}

static uint32_t scale(uint64_t v, uint64_t max)
{
	return max ? 1 + (uint32_t)((v * (FAB_WEIGHT_SCALE - 1)) / max) : 1;
}

/*
 * The parallel index of every connection: how many earlier ports of its node
 * a lead to its node b (0 for the first).  One pass over a's ports with a
 * per-peer count; a scan of a's earlier ports per connection was quadratic
 * in the radix (a 4096-port spine: 90% of fab_finish at 4096 x 1024).
 */
static uint32_t *parallel_index(const fabric *f)
{
	uint32_t *par = xmalloc((f->nconn ? f->nconn : 1) * sizeof(*par));
	uint32_t *seen = xmalloc((f->nnode ? f->nnode : 1) * sizeof(*seen));
	uint32_t *count = xmalloc((f->nnode ? f->nnode : 1) * sizeof(*count));

	for (uint32_t n = 0; n < f->nnode; n++)
		seen[n] = UINT32_MAX;
	for (uint32_t n = 0; n < f->nnode; n++)
		for (uint32_t p = 0; p < f->node[n].nports; p++) {
			uint32_t c = f->adj[f->node[n].adj + p], b = fab_peer(f, n, p);
			if (seen[b] != n) {
				seen[b] = n;
				count[b] = 0;
			}
			if (f->conn[c].a == n && f->conn[c].aport == p)
				par[c] = count[b];
			count[b]++;
		}
	free(seen);
	free(count);
	return par;
}

/* Name of connection @c's bus: "a-b", with ".k" for the k-th parallel one (@par). */
static void bus_name(const fabric *f, uint32_t c, const uint32_t *par, char *buf, size_t n)
{
	const fab_conn *k = &f->conn[c];

	if (par[c])
		snprintf(buf, n, "%s-%s.%u", f->node[k->a].name, f->node[k->b].name, par[c]);
	else
		snprintf(buf, n, "%s-%s", f->node[k->a].name, f->node[k->b].name);
}

/*
 * The slices of switch node @n: S components "name:k", weighted by the
 * traffic of their ports (@w is the whole switch's scaled weight), and the
 * internal links that join every pair, of weight @wl each.
 */
static void add_slices(fabric *f, uint32_t n, const model_ops *ops, uint32_t w,
		       uint32_t wl, sim_graph *g)
{
	fab_node *nd = &f->node[n];
	uint32_t S = fab_slices(nd);
	uint64_t all = 0, mine[FAB_MAX_SLICES] = { 0 };
	char name[256];

	for (uint32_t p = 0; p < nd->nports; p++) {
		uint64_t t = f->conn[f->adj[nd->adj + p]].traffic;
		all += t;
		mine[p % S] += t;
	}
	for (uint32_t k = 0; k < S; k++) {
		snprintf(name, sizeof(name), "%s:%u", nd->name, k);
		uint32_t id = graph_add_comp(g, ops, name,
					     all ? 1 + (uint32_t)((w - 1) * mine[k] / all) : w);
		if (!k)
			nd->comp = id;
	}
	for (uint32_t a = 0; a < S; a++)
		for (uint32_t b = a + 1; b < S; b++)
			graph_add_link(g, nd->comp + a, (uint16_t)fab_slice_int(nd->nports, S, a, b),
				       nd->comp + b, (uint16_t)fab_slice_int(nd->nports, S, b, a),
				       nd->slice_latency, wl);
}

static void emit_graph(fabric *f, const uint64_t *node_load, sim_graph *g)
{
	uint64_t maxn = 0, maxc = 0;
	uint32_t *par = parallel_index(f);
	char name[256];

	for (uint32_t n = 0; n < f->nnode; n++)
		maxn = node_load[n] > maxn ? node_load[n] : maxn;
	for (uint32_t c = 0; c < f->nconn; c++)
		maxc = f->conn[c].traffic > maxc ? f->conn[c].traffic : maxc;
	if (maxc > maxn)
		maxn = maxc;
	for (uint32_t n = 0; n < f->nnode; n++) {
		fab_node *nd = &f->node[n];
		uint32_t S = fab_slices(nd);
		if (S == 1)
			nd->comp = graph_add_comp(g, fab_kinds[nd->kind].ops, nd->name,
						  scale(node_load[n], maxn));
		else
			/* a packet crosses from its ingress to its egress slice
			   unless both are one: 2 (S - 1) / S of the load over
			   S (S - 1) / 2 internal links */
			add_slices(f, n, fab_kinds[nd->kind].ops, scale(node_load[n], maxn),
				   scale(node_load[n] * 2 / ((uint64_t)S * S), maxc), g);
		for (uint32_t p = 0; p < nd->nports; p++) {
			fab_conn *k = &f->conn[f->adj[nd->adj + p]];
			if ((k->a == n ? k->b : k->a) > n)
				continue; /* emitted with the later node */
			bus_name(f, f->adj[nd->adj + p], par, name, sizeof(name));
			k->bus = graph_add_comp(g, fab_kinds[FAB_BUS].ops, name, scale(k->traffic, maxn));
			uint32_t w = scale(k->traffic, maxc);
			sim_time lat = f->latency_of ? f->latency_of(f->latency_ctx, name)
						     : f->link_latency;
			const fab_node *na = &f->node[k->a], *nb = &f->node[k->b];
			uint32_t sa = fab_slices(na), sb = fab_slices(nb);
			graph_add_link(g, na->comp + k->aport % sa, (uint16_t)(k->aport / sa),
				       k->bus, 0, lat, w);
			graph_add_link(g, k->bus, 1, nb->comp + k->bport % sb,
				       (uint16_t)(k->bport / sb), lat, w);
		}
	}
	free(par);
}

int fab_finish(fabric *f, sim_graph *g, cxl_err *err)
{
	int rc;

	if ((rc = fab_kinds_check(err)))
		return rc;
	build_adjacency(f);
	if ((rc = assign_pbr(f, err)))
		return rc;
	if ((rc = fab_route_build(f, &f->route, err)))
		return rc;
	for (uint32_t i = 0; i < f->nmem; i++)
		f->nmem_switched += fab_has(&f->node[fab_peer(f, f->pbr_node[f->mem_pbr[i]], 0)],
					    FAB_ROLE_SWITCH);
	uint64_t *load = xcalloc(f->nnode ? f->nnode : 1, sizeof(*load));
	if (!g->unweighted) /* else every weight is 1 (scale of 0) */
		estimate_traffic(f, load);
	emit_graph(f, load, g);
	free(load);
	f->ncomp = g->ncomp;
	f->node_of_comp = xmalloc((g->ncomp + 1) * sizeof(*f->node_of_comp));
	for (uint32_t i = 0; i < g->ncomp; i++)
		f->node_of_comp[i] = UINT32_MAX;
	for (uint32_t n = 0; n < f->nnode; n++)
		for (uint32_t k = 0; k < fab_slices(&f->node[n]); k++)
			f->node_of_comp[f->node[n].comp + k] = n;
	f->conn_of_comp = xmalloc((g->ncomp + 1) * sizeof(*f->conn_of_comp));
	for (uint32_t i = 0; i < g->ncomp; i++)
		f->conn_of_comp[i] = UINT32_MAX;
	for (uint32_t c = 0; c < f->nconn; c++)
		f->conn_of_comp[f->conn[c].bus] = c;
	fab_group_requesters(f);
	return 0;
}
