/*
 * models/fabric/fab_topo.c - the topology generators (see fab_topo.h).
 *
 * Each generator creates its edge switches first through attach_rr() or
 * its own loop (switch, then that switch's endpoints), then the switches
 * above them, then the switch-to-switch connections.  O(nodes + links).
 */
#include "models/fabric/fab_topo.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"
#include "models/fabric/fab_octo.h"

#define FC_MAX 256 /* fully_connected: N(N-1)/2 links; beyond this, use spine_leaf */

typedef struct counters counters;
struct counters {
	uint32_t host, accel, mem; /* endpoints named so far, per kind */
};

static uint32_t add_named(fabric *f, uint32_t kind, const char *prefix, uint32_t i)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%u", prefix, i);
	return fab_add_node(f, kind, name);
}

static uint32_t add_sw2(fabric *f, const char *prefix, uint32_t a, uint32_t b)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%u.%u", prefix, a, b);
	return fab_add_node(f, FAB_SWITCH, name);
}

/* One endpoint of each kind count, named from @c, connected to switch @sw. */
static void add_endpoints(fabric *f, uint32_t sw, uint32_t hosts, uint32_t accels,
			  uint32_t mems, counters *c)
{
	static const uint32_t kinds[3] = { FAB_HOST, FAB_ACCEL, FAB_MEMORY };
	uint32_t want[3] = { hosts, accels, mems }, *next[3] = { &c->host, &c->accel, &c->mem };

	for (int k = 0; k < 3; k++)
		for (uint32_t i = 0; i < want[k]; i++) {
			uint32_t e = add_named(f, kinds[k], fab_kinds[kinds[k]].prefix, (*next[k])++);
			CXL_ASSERT(fab_connect(f, sw, e, NULL) == 0);
		}
}

/* How many of @total items, dealt round-robin from position @first over @n
 * switches, land on switch @s. */
static uint32_t dealt(uint32_t total, uint32_t first, uint32_t n, uint32_t s)
{
	uint32_t off = (s + n - first % n) % n;

	return total / n + (off < total % n);
}

/*
 * Create @n edge switches (named by @name(i)), each followed by its share of
 * the round-robin endpoints.  Endpoint numbering inside a kind follows the
 * switch order, so host i is on the i-th switch that receives a host.
 * Fills @sw[0..n).
 */
static void attach_rr(fabric *f, const fab_topo *t, uint32_t n, uint32_t *sw,
		      void (*name)(char *, size_t, uint32_t, uint32_t), uint32_t arg)
{
	counters c = { 0 };
	char buf[64];

	for (uint32_t s = 0; s < n; s++) {
		name(buf, sizeof(buf), s, arg);
		sw[s] = fab_add_node(f, FAB_SWITCH, buf);
		add_endpoints(f, sw[s], dealt(t->hosts, 0, n, s),
			      dealt(t->accels, t->hosts, n, s),
			      dealt(t->memories, t->hosts + t->accels, n, s), &c);
	}
}

static void name_sw(char *buf, size_t n, uint32_t i, uint32_t arg)
{
	(void)arg;
	snprintf(buf, n, "sw%u", i);
}

/* fat-tree edge switch i of pod i / (k/2): "edge<pod>.<j>" */
static void name_edge(char *buf, size_t n, uint32_t i, uint32_t half)
{
	snprintf(buf, n, "edge%u.%u", i / half, i % half);
}

static void connect(fabric *f, uint32_t a, uint32_t b)
{
	int rc = fab_connect(f, a, b, NULL);

	CXL_ASSERT(rc == 0);
}

static int gen_line(fabric *f, const fab_topo *t, int ring, cxl_err *err)
{
	uint32_t n = t->switches, *sw = xmalloc(n * sizeof(*sw));

	if (ring && n < 3) {
		free(sw);
		return cxl_err_set(err, CXL_EINVAL, "a ring needs at least 3 switches (got %u)", n);
	}
	attach_rr(f, t, n, sw, name_sw, 0);
	for (uint32_t i = 0; i + 1 < n; i++)
		connect(f, sw[i], sw[i + 1]);
	if (ring)
		connect(f, sw[n - 1], sw[0]);
	free(sw);
	return 0;
}

static int gen_fully_connected(fabric *f, const fab_topo *t, cxl_err *err)
{
	uint32_t n = t->switches, *sw;

	if (n > FC_MAX)
		return cxl_err_set(err, CXL_EINVAL,
				   "fully_connected with %u switches needs %llu links (at most %d switches; "
				   "use spine_leaf or fat_tree at rack scale)",
				   n, (unsigned long long)n * (n - 1) / 2, FC_MAX);
	sw = xmalloc(n * sizeof(*sw));
	attach_rr(f, t, n, sw, name_sw, 0);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			connect(f, sw[i], sw[j]);
	free(sw);
	return 0;
}

static void gen_tree(fabric *f, const fab_topo *t)
{
	uint32_t n = t->switches, *level = xmalloc(n * sizeof(*level));
	uint32_t *up = xmalloc(n * sizeof(*up));

	attach_rr(f, t, n, level, name_sw, 0);
	for (uint32_t depth = 1; n > 1; depth++) {
		uint32_t m = (n + t->arity - 1) / t->arity;
		for (uint32_t i = 0; i < m; i++)
			up[i] = add_sw2(f, "tree", depth, i);
		for (uint32_t i = 0; i < n; i++)
			connect(f, level[i], up[i / t->arity]);
		uint32_t *tmp = level;
		level = up;
		up = tmp;
		n = m;
	}
	free(level);
	free(up);
}

static void gen_spine_leaf(fabric *f, const fab_topo *t)
{
	uint32_t *leaf = xmalloc(t->leaves * sizeof(*leaf));
	counters c = { 0 };

	for (uint32_t l = 0; l < t->leaves; l++) {
		leaf[l] = add_named(f, FAB_SWITCH, "leaf", l);
		add_endpoints(f, leaf[l], t->hosts_per_leaf, 0, t->mems_per_leaf, &c);
	}
	for (uint32_t s = 0; s < t->spines; s++) {
		uint32_t sp = add_named(f, FAB_SWITCH, "spine", s);
		for (uint32_t l = 0; l < t->leaves; l++)
			connect(f, leaf[l], sp);
	}
	free(leaf);
}

static int gen_fat_tree(fabric *f, const fab_topo *t, enum fab_topo_field *field,
			cxl_err *err)
{
	uint32_t k = t->k, h = k / 2, ports = k * k * k / 4;
	uint32_t total = t->hosts + t->accels + t->memories;

	if (k % 2 || k < 2) {
		*field = FAB_F_K;
		return cxl_err_set(err, CXL_EINVAL, "k = %u: a fat tree needs an even k", k);
	}
	if (total > ports) {
		*field = FAB_F_HOSTS;
		return cxl_err_set(err, CXL_EINVAL,
				   "%u endpoints do not fit the %u edge ports of a %u-ary fat tree",
				   total, ports, k);
	}
	uint32_t *edge = xmalloc(k * h * sizeof(*edge)), *agg = xmalloc(k * h * sizeof(*agg));
	attach_rr(f, t, k * h, edge, name_edge, h);
	for (uint32_t p = 0; p < k; p++)
		for (uint32_t i = 0; i < h; i++) {
			agg[p * h + i] = add_sw2(f, "agg", p, i);
			for (uint32_t e = 0; e < h; e++)
				connect(f, edge[p * h + e], agg[p * h + i]);
		}
	for (uint32_t j = 0; j < h * h; j++) {
		uint32_t core = add_named(f, FAB_SWITCH, "core", j);
		for (uint32_t p = 0; p < k; p++)
			connect(f, agg[p * h + j / h], core);
	}
	free(edge);
	free(agg);
	return 0;
}

int fab_topo_generate(fabric *f, const fab_topo *t, enum fab_topo_field *field,
		      cxl_err *err)
{
	*field = FAB_F_NONE;
	switch (t->kind) {
	case FAB_CHAIN:
	case FAB_RING:
		*field = FAB_F_SWITCHES;
		return gen_line(f, t, t->kind == FAB_RING, err);
	case FAB_FULLY_CONNECTED:
		*field = FAB_F_SWITCHES;
		return gen_fully_connected(f, t, err);
	case FAB_TREE:
		gen_tree(f, t);
		return 0;
	case FAB_SPINE_LEAF:
		gen_spine_leaf(f, t);
		return 0;
	case FAB_FAT_TREE:
		return gen_fat_tree(f, t, field, err);
	case FAB_OCTOPUS:
		return fab_octo_generate(f, t, field, err);
	case FAB_CUSTOM:
		break;
	}
	CXL_PANIC("fab_topo_generate: kind %d has no generator", (int)t->kind);
}
