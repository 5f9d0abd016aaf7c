/*
 * models/fabric/fab_octo.c - the Octopus pod generator, its coverage count and
 * its --check lines (see fab_octo.h).
 *
 * The generator indexes the design once (point -> its r blocks, ascending:
 * O(b k)), then adds nodes island by island.  The coverage count reads the
 * finished fabric only: each device's heads, mapped to hosts through
 * pod->host_of, bump a triangle of pair counters, so it checks the
 * generator rather than repeating it.
 */
#include "models/fabric/fab_octo.h"

#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/fabric/fab_int.h"

/* inc[p * r ..]: the blocks of @d containing point p, ascending. */
static uint32_t *incidence(const fab_design *d)
{
	uint32_t *inc = xmalloc((size_t)d->v * d->r * sizeof(*inc));
	uint32_t *n = xcalloc(d->v, sizeof(*n));

	for (uint32_t j = 0; j < d->b; j++)
		for (uint32_t i = 0; i < d->k; i++) {
			uint32_t p = d->block[(size_t)j * d->k + i];
			inc[(size_t)p * d->r + n[p]++] = j;
		}
	free(n);
	return inc;
}

/* Devices an island of @nh hosts (points 0..nh-1 of @d) keeps. */
static uint32_t island_devices(const fab_design *d, uint32_t nh)
{
	uint32_t n = 0;

	for (uint32_t j = 0; j < d->b; j++)
		n += d->block[(size_t)j * d->k] < nh; /* blocks are ascending */
	return n;
}

/* A node named @name, of host @host (UINT32_MAX: a device). */
static uint32_t add_node(fabric *f, fab_pod *pod, uint32_t kind, uint32_t host,
			 const char *name)
{
	uint32_t n = fab_add_node(f, kind, name);
	CXL_ASSERT(n < pod->nnode);
	pod->host_of[n] = host;
	return n;
}

/* Island @is with @nh hosts: each host's ports, a device at its first use. */
static void add_island(fabric *f, fab_pod *pod, const uint32_t *inc, uint32_t is,
		       uint32_t nh, uint32_t *dev)
{
	const fab_design *d = &pod->design;
	char name[64];

	for (uint32_t j = 0; j < d->b; j++)
		dev[j] = UINT32_MAX;
	for (uint32_t p = 0; p < nh; p++) {
		uint32_t h = is * d->v + p;
		for (uint32_t j = 0; j < d->r; j++) {
			uint32_t blk = inc[(size_t)p * d->r + j];
			snprintf(name, sizeof(name), "host%u.p%u", h, j);
			uint32_t n = add_node(f, pod, FAB_HOST, h, name);
			if (dev[blk] == UINT32_MAX) {
				snprintf(name, sizeof(name), "mem%u", pod->devices++);
				dev[blk] = add_node(f, pod, FAB_MEMORY, UINT32_MAX, name);
			}
			int rc = fab_connect(f, n, dev[blk], NULL);
			CXL_ASSERT(rc == 0);
		}
	}
}

/* Hosts, islands, devices and nodes of the pod; an error if beyond 4096 endpoints. */
static int size_pod(fab_pod *pod, const fab_topo *t, enum fab_topo_field *field,
		    cxl_err *err)
{
	const fab_design *d = &pod->design;
	uint32_t last;
	uint64_t ports;

	pod->hosts = t->hosts ? t->hosts : d->v;
	pod->islands = (pod->hosts + d->v - 1) / d->v;
	last = pod->hosts - (pod->islands - 1) * d->v;
	ports = (uint64_t)pod->hosts * d->r;
	if (ports + pod->islands <= FAB_MAX_PBR) { /* cheap bound first: the design may be big */
		int rc = fab_design_build(&pod->design, err);
		if (rc)
			return rc; /* a design that fails its check: *field is FAB_F_DESIGN */
		pod->devices = (pod->islands - 1) * d->b + island_devices(d, last);
		if (ports + pod->devices <= FAB_MAX_PBR) {
			pod->nnode = (uint32_t)ports + pod->devices;
			return 0;
		}
	}
	*field = t->hosts ? FAB_F_HOSTS : FAB_F_HOST_PORTS;
	return cxl_err_set(err, CXL_EINVAL, "an octopus pod of %u hosts with %u ports each (%s %s) "
			   "needs more than the %d endpoints a PBR fabric can address (12-bit ids)",
			   pod->hosts, d->r, fab_design_family(d->kind), d->name, FAB_MAX_PBR);
}

/*
 * fab_octo_generate - pick and size the design, then add the islands
 * (contract in fab_octo.h).  On error nothing was added to @f.
 */
int fab_octo_generate(fabric *f, const fab_topo *t, enum fab_topo_field *field,
		      cxl_err *err)
{
	fab_pod *pod = xcalloc(1, sizeof(*pod));
	int rc;

	CXL_ASSERT(t->kind == FAB_OCTOPUS && !f->nnode && !f->pod);
	*field = FAB_F_DESIGN;
	pod->host_ports = t->host_ports;
	pod->device_ports = t->device_ports;
	if ((rc = fab_design_pick(&pod->design, t->design, t->host_ports, t->device_ports, err)) ||
	    (rc = size_pod(pod, t, field, err))) {
		fab_pod_free(pod);
		return rc;
	}
	*field = FAB_F_NONE;
	pod->host_of = xmalloc(pod->nnode * sizeof(*pod->host_of));
	uint32_t *inc = incidence(&pod->design);
	uint32_t *dev = xmalloc(pod->design.b * sizeof(*dev));
	uint32_t ndev = pod->devices;
	pod->devices = 0;
	for (uint32_t is = 0; is < pod->islands; is++) {
		uint32_t left = pod->hosts - is * pod->design.v;
		add_island(f, pod, inc, is, left < pod->design.v ? left : pod->design.v, dev);
	}
	CXL_ASSERT(pod->devices == ndev && f->nnode == pod->nnode);
	free(inc);
	free(dev);
	f->pod = pod;
	return 0;
}

/* fab_pod_free - the design's blocks, the host map, the pod (NULL: nothing). */
void fab_pod_free(fab_pod *p)
{
	if (!p)
		return;
	fab_design_free(&p->design);
	free(p->host_of);
	free(p);
}

/* --- coverage ---------------------------------------------------------------- */

static size_t tri(uint32_t n, uint32_t a, uint32_t b)
{
	return (size_t)a * n - (size_t)a * (a + 1) / 2 + (b - a - 1);
}

static void minmax(uint32_t *lo, uint32_t *hi, uint32_t x)
{
	*lo = x < *lo ? x : *lo;
	*hi = x > *hi ? x : *hi;
}

/* Bump the pair counter of every two hosts on device node @m. */
static void count_device(const fabric *f, uint32_t m, uint32_t *pair, uint32_t *ports)
{
	const fab_pod *pod = f->pod;
	uint32_t n = f->node[m].nports;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = pod->host_of[fab_peer(f, m, i)];
		ports[a]++;
		for (uint32_t j = 0; j < i; j++) {
			uint32_t b = pod->host_of[fab_peer(f, m, j)];
			if (a != b)
				pair[a < b ? tri(pod->hosts, a, b) : tri(pod->hosts, b, a)]++;
		}
	}
}

/* Pairs that share a device, the range of their counts, the first that share none. */
static void tally(const uint32_t *pair, fab_pod_cover *c)
{
	for (uint32_t a = 0; a < c->hosts; a++)
		for (uint32_t b = a + 1; b < c->hosts; b++) {
			uint32_t s = pair[tri(c->hosts, a, b)];
			if (s) {
				c->shared++;
				minmax(&c->share_min, &c->share_max, s);
			} else if (c->nlist < FAB_POD_LIST) {
				c->none[c->nlist][0] = a;
				c->none[c->nlist++][1] = b;
			}
		}
	if (!c->shared)
		c->share_min = 0;
}

/*
 * fab_pod_cover_of - count, on the fabric @f, devices per host, hosts per
 * device and the devices every pair of hosts shares (contract in fab_octo.h).
 */
void fab_pod_cover_of(const fabric *f, fab_pod_cover *c)
{
	const fab_pod *pod = f->pod;

	CXL_ASSERT(pod && pod->nnode == f->nnode);
	uint32_t h = pod->hosts, *ports = xcalloc(h, sizeof(*ports));
	uint32_t *pair = xcalloc((size_t)h * (h - 1) / 2 + 1, sizeof(*pair));
	*c = (fab_pod_cover){ .hosts = h, .ports_min = UINT32_MAX, .heads_min = UINT32_MAX,
			      .pairs = (uint64_t)h * (h - 1) / 2, .share_min = UINT32_MAX };
	for (uint32_t n = 0; n < f->nnode; n++)
		if (fab_has(&f->node[n], FAB_ROLE_TARGET)) {
			c->devices++;
			minmax(&c->heads_min, &c->heads_max, f->node[n].nports);
			count_device(f, n, pair, ports);
		}
	for (uint32_t a = 0; a < h; a++)
		minmax(&c->ports_min, &c->ports_max, ports[a]);
	tally(pair, c);
	free(pair);
	free(ports);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "4" or "1 to 4" */
static const char *range(char *buf, size_t n, uint32_t lo, uint32_t hi)
{
	if (lo == hi)
		snprintf(buf, n, "%u", lo);
	else
		snprintf(buf, n, "%u to %u", lo, hi);
	return buf;
}

/* fab_pod_describe - three --check lines: the pod, its ports, its pairs. */
void fab_pod_describe(const fabric *f, FILE *out)
{
	const fab_pod *pod = f->pod;
	const fab_design *d;
	fab_pod_cover c;
	char a[32], b[32];

	if (!pod)
		return;
	d = &pod->design;
	fab_pod_cover_of(f, &c);
	fprintf(out, "  octopus pod: %u host%s, %u device%s, no switch; design %s %s, a 2-(%u,%u,%u) "
		"design; %u island%s of up to %u hosts\n", c.hosts, plural(c.hosts), c.devices,
		plural(c.devices), fab_design_family(d->kind), d->name, d->v, d->k, d->lambda,
		pod->islands, plural(pod->islands), d->v);
	fprintf(out, "  devices per host %s (of %u host ports; each port a requester host<h>.p<j>), "
		"hosts per device %s (of %u device ports)\n",
		range(a, sizeof(a), c.ports_min, c.ports_max), pod->host_ports,
		range(b, sizeof(b), c.heads_min, c.heads_max), pod->device_ports);
	fprintf(out, "  host pairs sharing a device: %llu of %llu (%.1f%%)",
		(unsigned long long)c.shared, (unsigned long long)c.pairs,
		c.pairs ? 100.0 * (double)c.shared / (double)c.pairs : 100.0);
	if (c.shared)
		fprintf(out, ", each through %s device%s",
			range(a, sizeof(a), c.share_min, c.share_max), plural(c.share_max));
	fprintf(out, "; sharing none: %llu", (unsigned long long)(c.pairs - c.shared));
	for (uint32_t i = 0; i < c.nlist; i++)
		fprintf(out, "%shost%u-host%u", i ? ", " : " (", c.none[i][0], c.none[i][1]);
	if (c.nlist)
		fprintf(out, "%s)", c.pairs - c.shared > c.nlist ? ", ..." : "");
	fprintf(out, "\n");
}
