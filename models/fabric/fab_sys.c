/*
 * models/fabric/fab_sys.c - the fabric as a system a config describes: the schema
 * of `topology`, `link` and `partition`, and the builder that turns them
 * into a fabric (fab_topo.c), its routing tables and the engine's graph.
 *
 * Strictness beyond types and ranges: a topology key that does not apply to
 * the chosen kind (topology.k with a chain) is an error at its line, so a
 * typo in a study's parameter cannot silently leave it at its default.
 *
 * Components run the models of the kind table (fab_kind.h, models/kinds.c);
 * the keys of the system are the fabric's own and every kind's schemas.
 * The summary is fab_summary.c's, the time-series summary fab_series.c's.
 */
#include "models/fabric/fab_topo.h"

#include "models/fabric/fab_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/xmalloc.h"
#include "models/registry.h"

static const cfg_key fab_keys[] = {
	{ "topology.kind", CFG_ENUM, NULL, NULL, NULL, FAB_TOPO_CHOICES,
	  "topology generator (ESF Fig. 9 kinds, fat_tree, octopus, or custom)" },
	{ "topology.switches", CFG_INT, "4", "1", "1024", NULL,
	  "chain, ring, fully_connected: switches (ring >= 3, fully_connected <= 256); tree: leaf switches" },
	{ "topology.hosts", CFG_INT, "4", "0", "4096", NULL,
	  "chain, ring, tree, fully_connected, fat_tree: hosts, attached round-robin to the edge "
	  "switches; octopus: hosts in the pod (unset or 0: one design's; other counts make islands)" },
	{ "topology.accelerators", CFG_INT, "0", "0", "4096", NULL,
	  "as topology.hosts: accelerators, attached after the hosts" },
	{ "topology.memories", CFG_INT, "4", "0", "4096", NULL,
	  "as topology.hosts: memory devices (type-3 expanders), attached after the accelerators" },
	{ "topology.arity", CFG_INT, "2", "2", "64", NULL,
	  "tree: children per switch; levels of ceil(n / arity) switches up to one root" },
	{ "topology.leaves", CFG_INT, "4", "1", "4096", NULL,
	  "spine_leaf: leaf switches" },
	{ "topology.spines", CFG_INT, "2", "1", "1024", NULL,
	  "spine_leaf: spine switches, each connected to every leaf" },
	{ "topology.hosts_per_leaf", CFG_INT, "1", "0", "4096", NULL,
	  "spine_leaf: hosts on each leaf" },
	{ "topology.memories_per_leaf", CFG_INT, "1", "0", "4096", NULL,
	  "spine_leaf: memory devices on each leaf" },
	{ "topology.k", CFG_INT, "4", "2", "24", NULL,
	  "fat_tree: k (even): k pods, 5k^2/4 switches, k^3/4 edge ports (24 -> 3456)" },
	{ "topology.host_ports", CFG_INT, "8", "1", "64", NULL,
	  "octopus: ports per host (X), the most devices a host connects to" },
	{ "topology.device_ports", CFG_INT, "4", "2", "64", NULL,
	  "octopus: ports per multi-headed device (N), the most hosts a device connects to" },
	{ "topology.design", CFG_ENUM, "auto", NULL, NULL, FAB_DESIGN_CHOICES,
	  "octopus: the block design, the largest of its family that fits X and N (auto: of "
	  "projective, affine, radical, single: a 2-(1+X(N-1),N,1) design when one is built)" },
	{ "topology.custom.hosts", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: names of the hosts" },
	{ "topology.custom.accelerators", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: names of the accelerators" },
	{ "topology.custom.memories", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: names of the memory devices" },
	{ "topology.custom.switches", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: names of the switches" },
	{ "topology.custom.nodes", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: further nodes of any kind, each \"NAME KIND\" (KIND: switch, host, accel, "
	  "memory, or a kind a model adds; models/README.md)" },
	{ "topology.custom.links", CFG_LIST, "", NULL, NULL, NULL,
	  "custom: physical connections, each \"A B\" (two listed names; a host or accelerator "
	  "has one, a memory several only as a multi-headed device wired to requesters)" },
	{ "topology.iso_bisection", CFG_BOOL, "false", NULL, NULL, NULL,
	  "slow every switch-to-switch bus by the fabric's bisection (in links), so every kind "
	  "has one link's bisection bandwidth, as a chain (ESF Fig. 12)" },
	{ "link.latency", CFG_TIME, "25ns", "1ps", NULL, NULL,
	  "port-to-port latency of every link (node to bus and bus to node; ESF's PCIe port "
	  "latency); link.overrides match bus names and set both links of the bus" },
	{ "simulation.drain", CFG_TIME, "100us", "0ps", NULL, NULL,
	  "after simulation.end nothing new is issued and the run goes on until the requests in "
	  "flight are answered, for at most this long (their latency is measured; a request "
	  "still open then is reported)" },
	{ "partition.lookahead_floor", CFG_TIME, "1ns", "0ps", NULL, NULL,
	  "metis never cuts a link shorter than this (0ps: any link may be cut)" },
};

static const cfg_schema fab_schema = {
	"fabric", fab_keys, sizeof(fab_keys) / sizeof(fab_keys[0]),
};

/*
 * The fabric's keys: its own, then the schemas of every kind in table
 * order, each once.  Writes up to @cap of them to @out; returns the count.
 */
static size_t schemas(const cfg_schema **out, size_t cap)
{
	const cfg_schema *all[64];
	size_t n = 0;

	all[n++] = &fab_schema;
	for (uint32_t k = 0; k < fab_nkinds; k++)
		for (const cfg_schema *const *p = fab_kinds[k].schemas; p && *p; p++) {
			size_t j = 0;
			while (j < n && all[j] != *p)
				j++;
			CXL_ASSERT(j < 64);
			if (j == n)
				all[n++] = *p;
		}
	for (size_t i = 0; i < n && i < cap; i++)
		out[i] = all[i];
	return n;
}

/* Topology keys each kind reads (besides topology.kind). */
static const char *const kind_keys[] = {
	[FAB_CHAIN] = "switches hosts accelerators memories iso_bisection",
	[FAB_RING] = "switches hosts accelerators memories iso_bisection",
	[FAB_TREE] = "switches hosts accelerators memories arity iso_bisection",
	[FAB_SPINE_LEAF] = "leaves spines hosts_per_leaf memories_per_leaf iso_bisection",
	[FAB_FULLY_CONNECTED] = "switches hosts accelerators memories iso_bisection",
	[FAB_FAT_TREE] = "k hosts accelerators memories iso_bisection",
	[FAB_OCTOPUS] = "hosts host_ports device_ports design",
	[FAB_CUSTOM] = "custom.hosts custom.accelerators custom.memories custom.switches custom.nodes "
		       "custom.links iso_bisection",
};

static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

static int check_kind_keys(const cfg *cf, enum fab_topo_kind kind, cxl_err *err)
{
	for (size_t i = 0; i < fab_schema.nkeys; i++) {
		const char *path = fab_keys[i].path;
		if (strncmp(path, "topology.", 9) || !strcmp(path, "topology.kind"))
			continue;
		if (cfg_is_set(cf, path) && !word_in(path + 9, kind_keys[kind]))
			return cfg_error_at(cf, path, err, "does not apply to topology.kind \"%s\" "
					    "(its keys: %s)", cfg_str(cf, "topology.kind"),
					    kind_keys[kind][0] ? kind_keys[kind] : "none");
	}
	return 0;
}

static uint32_t u32(const cfg *cf, const char *path)
{
	return (uint32_t)cfg_int(cf, path);
}

static const char *field_key(enum fab_topo_field f)
{
	switch (f) {
	case FAB_F_SWITCHES: return "topology.switches";
	case FAB_F_HOSTS: return "topology.hosts";
	case FAB_F_K: return "topology.k";
	case FAB_F_HOST_PORTS: return "topology.host_ports";
	case FAB_F_DESIGN: return "topology.design";
	case FAB_F_NONE: break;
	}
	return "topology.kind";
}

typedef struct named named;
struct named {
	const char *name;   /* as listed */
	uint32_t kind;      /* its kind (row of fab_kinds[]) */
	const char *key;    /* the list it is in */
	uint32_t node;      /* fabric node, UINT32_MAX until linked */
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static const struct { const char *key; uint32_t kind; } custom_lists[] = {
	{ "topology.custom.hosts", FAB_HOST },
	{ "topology.custom.accelerators", FAB_ACCEL },
	{ "topology.custom.memories", FAB_MEMORY },
	{ "topology.custom.switches", FAB_SWITCH },
};
#define NLISTS (sizeof(custom_lists) / sizeof(custom_lists[0]))

/*
 * The entries of topology.custom.nodes ("NAME KIND") appended to @v at *@k;
 * their names are copied into @names (one per entry, freed by the caller).
 */
static int custom_nodes(const cfg *cf, named *v, size_t *k, char **names, cxl_err *err)
{
	const char *key = "topology.custom.nodes";
	size_t m;
	const char *const *l = cfg_list(cf, key, &m);
	char name[128], kind[64], extra[2], known[256];

	for (size_t j = 0; j < m; j++) {
		if (sscanf(l[j], "%127s %63s %1s", name, kind, extra) != 2)
			return cfg_error_at(cf, key, err, "[%zu] \"%s\": expected \"NAME KIND\"", j,
					    l[j]);
		uint32_t kd = fab_kind_find(kind);
		if (kd == UINT32_MAX) {
			fab_kind_names(known, sizeof(known));
			return cfg_error_at(cf, key, err, "[%zu] \"%s\": no kind \"%s\" (kinds: %s)",
					    j, l[j], kind, known);
		}
		names[j] = xstrdup(name);
		v[(*k)++] = (named){ names[j], kd, key, UINT32_MAX };
	}
	return 0;
}

/*
 * Every listed name with its kind, sorted by name; duplicates are an error.
 * *@names receives the copies of topology.custom.nodes' names (free each,
 * then the array: custom_free()).
 */
static int custom_names(const cfg *cf, named **out, size_t *n, char ***names, cxl_err *err)
{
	size_t total = 0, k = 0, nn;
	int rc;

	cfg_list(cf, "topology.custom.nodes", &nn);
	for (size_t i = 0; i < NLISTS; i++) {
		size_t m;
		cfg_list(cf, custom_lists[i].key, &m);
		total += m;
	}
	total += nn;
	named *v = xmalloc((total ? total : 1) * sizeof(*v));
	*names = xcalloc(nn + 1, sizeof(**names));
	for (size_t i = 0; i < NLISTS; i++) {
		size_t m;
		const char *const *l = cfg_list(cf, custom_lists[i].key, &m);
		for (size_t j = 0; j < m; j++)
			v[k++] = (named){ l[j], custom_lists[i].kind, custom_lists[i].key, UINT32_MAX };
	}
	rc = custom_nodes(cf, v, &k, *names, err);
	qsort(v, k, sizeof(*v), named_cmp);
	for (size_t i = 1; !rc && i < k; i++)
		if (!strcmp(v[i].name, v[i - 1].name))
			rc = cfg_error_at(cf, v[i].key, err, "\"%s\" is listed twice (in %s and %s)",
					  v[i].name, v[i - 1].key, v[i].key);
	*out = v;
	*n = k;
	return rc;
}

/* What custom_names() allocated. */
static void custom_free(named *v, char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
	free(v);
}

/* The node called @tok, created on first use; NULL if not listed. */
static named *custom_node(fabric *f, named *v, size_t n, const char *tok)
{
	named key = { .name = tok };
	named *e = bsearch(&key, v, n, sizeof(*v), named_cmp);

	if (e && e->node == UINT32_MAX)
		e->node = fab_add_node(f, e->kind, e->name);
	return e;
}

/* One link "A B": two listed names, connected. */
static int custom_link(const cfg *cf, fabric *f, named *v, size_t n, size_t i,
		       const char *text, cxl_err *err)
{
	char a[128], b[128], extra[2];
	cxl_err e = { 0 };
	const char *key = "topology.custom.links";

	if (sscanf(text, "%127s %127s %1s", a, b, extra) != 2)
		return cfg_error_at(cf, key, err, "[%zu] \"%s\": expected two names \"A B\"", i, text);
	named *na = custom_node(f, v, n, a), *nb = na ? custom_node(f, v, n, b) : NULL;
	if (!na || !nb)
		return cfg_error_at(cf, key, err, "[%zu] \"%s\": %s is in no topology.custom list "
				    "(hosts, accelerators, memories, switches, nodes)", i, text,
				    na ? b : a);
	if (fab_connect(f, na->node, nb->node, &e))
		return cfg_error_at(cf, key, err, "[%zu] \"%s\": %s", i, text, e.msg);
	return 0;
}

/* custom: nodes in order of first appearance in topology.custom.links. */
static int gen_custom(const cfg *cf, fabric *f, cxl_err *err)
{
	size_t n = 0, nl;
	named *v = NULL;
	char **names = NULL;
	const char *const *links = cfg_list(cf, "topology.custom.links", &nl);
	int rc = custom_names(cf, &v, &n, &names, err);

	if (!rc && n > FAB_MAX_PBR + 65536u)
		rc = cfg_error_at(cf, "topology.custom.switches", err, "%zu nodes is too many", n);
	for (size_t i = 0; !rc && i < nl; i++)
		rc = custom_link(cf, f, v, n, i, links[i], err);
	for (size_t i = 0; !rc && i < n; i++)
		if (v[i].node == UINT32_MAX)
			rc = cfg_error_at(cf, v[i].key, err, "\"%s\" is in no topology.custom.links "
					  "entry (connected to nothing)", v[i].name);
	custom_free(v, names);
	return rc;
}

static int generate(const cfg *cf, fabric *f, cxl_err *err)
{
	fab_topo t = {
		.kind = (enum fab_topo_kind)cfg_enum(cf, "topology.kind"),
		.switches = u32(cf, "topology.switches"), .hosts = u32(cf, "topology.hosts"),
		.accels = u32(cf, "topology.accelerators"), .memories = u32(cf, "topology.memories"),
		.arity = u32(cf, "topology.arity"), .leaves = u32(cf, "topology.leaves"),
		.spines = u32(cf, "topology.spines"), .hosts_per_leaf = u32(cf, "topology.hosts_per_leaf"),
		.mems_per_leaf = u32(cf, "topology.memories_per_leaf"), .k = u32(cf, "topology.k"),
		.host_ports = u32(cf, "topology.host_ports"),
		.device_ports = u32(cf, "topology.device_ports"),
		.design = (enum fab_design_kind)cfg_enum(cf, "topology.design"),
	};
	enum fab_topo_field field;
	cxl_err e = { 0 };
	uint64_t endpoints = t.kind == FAB_CUSTOM || t.kind == FAB_OCTOPUS ? 0 :
		t.kind == FAB_SPINE_LEAF ?
		(uint64_t)t.leaves * (t.hosts_per_leaf + t.mems_per_leaf) :
		(uint64_t)t.hosts + t.accels + t.memories;

	if (t.kind == FAB_CUSTOM)
		return gen_custom(cf, f, err);
	if (t.kind == FAB_OCTOPUS && !cfg_is_set(cf, "topology.hosts"))
		t.hosts = 0; /* one design's hosts */
	if (endpoints > FAB_MAX_PBR)
		return cfg_error_at(cf, t.kind == FAB_SPINE_LEAF ? "topology.leaves" : "topology.hosts",
				    err, "%llu endpoints exceed the %d edge ports a PBR fabric can "
				    "address (12-bit ids)", (unsigned long long)endpoints, FAB_MAX_PBR);
	if (fab_topo_generate(f, &t, &field, &e))
		return cfg_error_at(cf, field_key(field), err, "%s", e.msg);
	return 0;
}

/* link.latency of the bus named @bus: its overrides (link group) applied. */
static sim_time bus_link_latency(const void *cf, const char *bus)
{
	return cfg_time(cfg_for(cf, bus, fab_kinds[FAB_BUS].ops->cfg_groups), "link.latency");
}

/*
 * switch.slices of every switch (its overrides applied): how many
 * components it becomes, joined by internal links of latency switch.latency.
 */
static int set_slices(const cfg *cf, fabric *f, cxl_err *err)
{
	for (uint32_t n = 0; n < f->nnode; n++) {
		fab_node *nd = &f->node[n];
		if (!fab_has(nd, FAB_ROLE_SWITCH))
			continue;
		const cfg *v = cfg_for(cf, nd->name, fab_kinds[nd->kind].ops->cfg_groups);
		uint32_t S = (uint32_t)cfg_int(v, "switch.slices");
		if (S > 1 && S > nd->nports)
			return cfg_error_at(v, "switch.slices", err, "%u slices for %s, which has "
					    "%u ports (at most one slice per port)", S, nd->name,
					    nd->nports);
		if (S > 1 && !cfg_time(v, "switch.latency"))
			return cfg_error_at(v, "switch.slices", err, "slices need switch.latency "
					    "> 0 (%s's slices exchange packets over links of that "
					    "latency)", nd->name);
		nd->slices = (uint16_t)S;
		nd->slice_latency = cfg_time(v, "switch.latency");
	}
	return 0;
}

static int build(const cfg *cf, sim_graph *g, void **sys, cxl_err *err)
{
	fabric *f = xmalloc(sizeof(*f));
	cxl_err e = { 0 };
	int rc;

	fab_init(f, cfg_str(cf, "topology.kind"), cfg_time(cf, "link.latency"));
	f->latency_of = bus_link_latency;
	f->latency_ctx = cf;
	rc = check_kind_keys(cf, (enum fab_topo_kind)cfg_enum(cf, "topology.kind"), err);
	if (!rc)
		rc = generate(cf, f, err);
	if (!rc)
		rc = set_slices(cf, f, err);
	if (!rc && fab_finish(f, g, &e))
		rc = cfg_error_at(cf, "topology.kind", err, "%s", e.msg);
	if (rc) {
		fab_free(f);
		free(f);
		return rc;
	}
	g->cut_floor = cfg_time(cf, "partition.lookahead_floor");
	if (cfg_bool(cf, "topology.iso_bisection")) {
		int64_t b = fab_bisection(f);
		f->trunk_slowdown = b > 1 ? (uint32_t)b : 1;
	}
	*sys = f;
	return 0;
}

static void describe(const void *sys, FILE *out)
{
	fab_describe(sys, out);
}

static void dot(const void *sys, FILE *out)
{
	fab_write_dot(sys, out);
}

static void free_sys(void *sys)
{
	fab_free(sys);
	free(sys);
}

static uint64_t checksum(const void *sys)
{
	const fabric *f = sys;

	return fab_route_checksum(&f->route);
}

static sim_time drain(const cfg *cf)
{
	return cfg_time(cf, "simulation.drain");
}

static void summary(const cfg *cf, const sim_graph *g, const stats_set *t, json_w *w)
{
	fab_write_summary(cf, g, t, w);
}

static void report(const cfg *cf, const sim_graph *g, const stats_set *t, FILE *out, FILE *warn)
{
	fab_report(cf, g, t, out, warn);
}

static void series_summary(const cfg *cf, const sim_graph *g, const series_set *t, FILE *f)
{
	(void)cf;
	fab_write_series_summary(g, t, f);
}

static uint64_t comp_bytes(const void *sys, const cfg *cf, const sim_graph *g, uint32_t comp,
			   const char **key)
{
	return fab_estimate_comp(sys, cf, g, comp, key);
}

static uint64_t shared_bytes(const void *sys)
{
	return fab_estimate_shared(sys);
}

const sys_builder sys_fabric = {
	.name = "fabric",
	.group = "topology",
	.doc = "a CXL/PCIe fabric: hosts, switches, buses and memory devices",
	.schemas = schemas,
	.build = build,
	.summary = summary,
	.series_summary = series_summary,
	.describe = describe,
	.dot = dot,
	.free_sys = free_sys,
	.checksum = checksum,
	.drain = drain,
	.report = report,
	.requests = fab_requests_completed,
	.comp_bytes = comp_bytes,
	.shared_bytes = shared_bytes,
	/* block balances components, not events: rack-4096 on 2 ranks gets
	   1.35-1.42x with block, 2.1-2.5x with metis */
	.partitioner = "metis",
};
