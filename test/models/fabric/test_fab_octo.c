/*
 * test/models/fabric/test_fab_octo.c - unit tests for models/fabric/fab_octo.c
 * (topology.kind = "octopus").
 *
 * The pods are checked on the finished fabric, by a count of their own
 * (for every pair of hosts, the devices both are wired to) as well as by
 * fab_pod_cover_of(): the 25-host pod of 4-port devices and 8-port hosts
 * (every pair shares exactly one device; 200 host ports, 50 devices, no
 * switch; each host port reaches exactly its device, and the heads of a
 * device are its memory group), islands (pairs in one
 * island share one device, pairs across islands none; the last island
 * keeps every device one of its hosts uses), the full and single designs,
 * determinism, uniform partition weights, the errors and the --check lines.
 */
#include "models/fabric/fab_octo.h"

#include "models/fabric/fab_int.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "test/models/fabric/fab_fixture.h"

static void make_pod(fabric *f, sim_graph *g, uint32_t x, uint32_t n, uint32_t hosts,
		     enum fab_design_kind design)
{
	fab_topo t = { .kind = FAB_OCTOPUS, .host_ports = x, .device_ports = n, .hosts = hosts,
		       .design = design };
	cxl_err e = { 0 };

	ck_assert_int_eq(fab_fixture_make(&t, f, g, &e), 0);
	ck_assert_ptr_nonnull(f->pod);
}

/* The host whose port is node @n (parsed from its name "host<h>.p<j>"). */
static uint32_t host_of_name(const fabric *f, uint32_t n)
{
	unsigned h, j;

	ck_assert_int_eq(sscanf(f->node[n].name, "host%u.p%u", &h, &j), 2);
	return h;
}

/* [a * hosts + b]: devices hosts a and b are both wired to, from names and links. */
static uint32_t *shared_devices(const fabric *f, uint32_t hosts)
{
	uint32_t *s = calloc((size_t)hosts * hosts, sizeof(*s));

	for (uint32_t m = 0; m < f->nnode; m++) {
		if (f->node[m].kind != FAB_MEMORY)
			continue;
		for (uint32_t i = 0; i < f->node[m].nports; i++)
			for (uint32_t j = 0; j < f->node[m].nports; j++) {
				uint32_t a = host_of_name(f, fab_peer(f, m, i));
				uint32_t b = host_of_name(f, fab_peer(f, m, j));
				if (i != j)
					s[(size_t)a * hosts + b]++;
			}
	}
	return s;
}

START_TEST(test_fab_octo_regular_pod_25_hosts)
{
	fabric f;
	sim_graph g;
	fab_pod_cover c;
	uint16_t tg[64];

	make_pod(&f, &g, 8, 4, 0, FAB_DESIGN_AUTO);
	ck_assert_uint_eq(f.count[FAB_SWITCH], 0);
	ck_assert_uint_eq(f.count[FAB_HOST], 200);
	ck_assert_uint_eq(f.count[FAB_MEMORY], 50);
	ck_assert_uint_eq(f.nconn, 200);
	ck_assert_str_eq(f.node[0].name, "host0.p0");
	ck_assert_str_eq(f.node[1].name, "mem0");
	for (uint32_t n = 0; n < f.nnode; n++) {
		const fab_node *nd = &f.node[n];
		uint32_t peer = fab_peer(&f, n, 0);
		ck_assert_uint_eq(nd->nports, nd->kind == FAB_HOST ? 1 : 4);
		if (nd->kind != FAB_HOST)
			continue;
		ck_assert_uint_eq(f.node[peer].kind, FAB_MEMORY);
		ck_assert_uint_eq(fab_view_targets(&f, nd->comp, tg), 1);
		ck_assert_uint_eq(tg[0], f.node[peer].pbr);
	}
	uint32_t *s = shared_devices(&f, 25);
	for (uint32_t a = 0; a < 25; a++)
		for (uint32_t b = 0; b < 25; b++)
			if (a != b && s[a * 25 + b] != 1)
				ck_abort_msg("host%u and host%u share %u devices", a, b, s[a * 25 + b]);
	free(s);
	fab_pod_cover_of(&f, &c);
	ck_assert_uint_eq(c.hosts, 25);
	ck_assert_uint_eq(c.devices, 50);
	ck_assert_uint_eq(c.ports_min, 8);
	ck_assert_uint_eq(c.ports_max, 8);
	ck_assert_uint_eq(c.heads_min, 4);
	ck_assert_uint_eq(c.heads_max, 4);
	ck_assert_uint_eq(c.pairs, 300);
	ck_assert_uint_eq(c.shared, 300);
	ck_assert_uint_eq(c.share_min, 1);
	ck_assert_uint_eq(c.share_max, 1);
	ck_assert_uint_eq(c.nlist, 0);
	/* memory groups: one per device, its 4 heads numbered 0..3 in node order */
	uint32_t largest, gi, gn, seen[50] = { 0 };
	ck_assert_uint_eq(fab_view_mem_groups(&f, &largest), 50);
	ck_assert_uint_eq(largest, 4);
	for (uint32_t n = 0; n < f.nnode; n++) {
		if (f.node[n].kind != FAB_HOST)
			continue;
		uint32_t d;
		ck_assert_int_eq(sscanf(f.node[fab_peer(&f, n, 0)].name, "mem%u", &d), 1);
		fab_view_mem_group(&f, f.node[n].comp, &gi, &gn);
		ck_assert_uint_eq(gn, 4);
		ck_assert_uint_eq(gi, seen[d]++);
	}
	fab_fixture_drop(&f, &g);
}
END_TEST

/* 60 hosts of the 25-host design: islands of 25, 25 and 10 hosts. */
START_TEST(test_fab_octo_islands)
{
	fabric f;
	sim_graph g;
	fab_pod_cover c;

	make_pod(&f, &g, 8, 4, 60, FAB_DESIGN_AUTO);
	ck_assert_uint_eq(f.pod->islands, 3);
	ck_assert_uint_eq(f.count[FAB_HOST], 480);
	uint32_t *s = shared_devices(&f, 60);
	for (uint32_t a = 0; a < 60; a++)
		for (uint32_t b = 0; b < 60; b++)
			if (a != b && s[a * 60 + b] != (a / 25 == b / 25))
				ck_abort_msg("host%u and host%u share %u devices", a, b, s[a * 60 + b]);
	free(s);
	fab_pod_cover_of(&f, &c);
	ck_assert_uint_eq(c.pairs, 1770);
	ck_assert_uint_eq(c.shared, 300 + 300 + 45);
	ck_assert_uint_eq(c.ports_min, 8);
	ck_assert_uint_eq(c.ports_max, 8);
	ck_assert_uint_eq(c.heads_min, 1);
	ck_assert_uint_eq(c.heads_max, 4);
	ck_assert_uint_eq(c.devices, 50 + 50 + 45); /* S(2,4,25)'s blocks that meet points 0..9 */
	ck_assert_uint_eq(c.nlist, FAB_POD_LIST);
	ck_assert_uint_eq(c.none[0][0], 0);
	ck_assert_uint_eq(c.none[0][1], 25);
	ck_assert_uint_eq(c.none[3][1], 28);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_octo_full_and_single)
{
	fabric f;
	sim_graph g;
	fab_pod_cover c;

	make_pod(&f, &g, 8, 4, 0, FAB_DESIGN_FULL); /* the conventional pod */
	fab_pod_cover_of(&f, &c);
	ck_assert_uint_eq(c.hosts, 4);
	ck_assert_uint_eq(c.devices, 8);
	ck_assert_uint_eq(c.shared, 6);
	ck_assert_uint_eq(c.share_min, 8);
	fab_fixture_drop(&f, &g);
	make_pod(&f, &g, 8, 4, 6, FAB_DESIGN_SINGLE); /* one device per island of 4 */
	fab_pod_cover_of(&f, &c);
	ck_assert_uint_eq(c.devices, 2);
	ck_assert_uint_eq(c.ports_max, 1);
	ck_assert_uint_eq(c.shared, 6 + 1);
	ck_assert_uint_eq(c.pairs, 15);
	fab_fixture_drop(&f, &g);
}
END_TEST

START_TEST(test_fab_octo_deterministic)
{
	fabric a, b;
	sim_graph ga, gb;

	make_pod(&a, &ga, 5, 4, 40, FAB_DESIGN_AUTO); /* AG(2,4) over GF(4), islands */
	make_pod(&b, &gb, 5, 4, 40, FAB_DESIGN_AUTO);
	ck_assert_uint_eq(a.nnode, b.nnode);
	ck_assert_uint_eq(a.nconn, b.nconn);
	for (uint32_t n = 0; n < a.nnode; n++)
		ck_assert_str_eq(a.node[n].name, b.node[n].name);
	for (uint32_t c = 0; c < a.nconn; c++) {
		ck_assert_uint_eq(a.conn[c].a, b.conn[c].a);
		ck_assert_uint_eq(a.conn[c].b, b.conn[c].b);
	}
	fab_fixture_drop(&a, &ga);
	fab_fixture_drop(&b, &gb);
}
END_TEST

/* No switch: a host port reaches only its device, so the traffic estimate
 * loads every bus, and every host port, alike. */
START_TEST(test_fab_octo_uniform_weights)
{
	fabric f;
	sim_graph g;
	uint32_t bus = 0, host = 0;

	make_pod(&f, &g, 8, 4, 0, FAB_DESIGN_AUTO);
	for (uint32_t i = 0; i < g.ncomp; i++) {
		uint32_t n = fab_node_of(&f, i), *w = n == UINT32_MAX ? &bus :
			f.node[n].kind == FAB_HOST ? &host : NULL;
		if (!w)
			continue;
		if (!*w)
			*w = g.comp[i].weight;
		ck_assert_uint_eq(g.comp[i].weight, *w);
	}
	for (uint32_t l = 1; l < g.nlink; l++)
		ck_assert_uint_eq(g.link[l].weight, g.link[0].weight);
	fab_fixture_drop(&f, &g);
}
END_TEST

static void expect_error(uint32_t x, uint32_t n, uint32_t hosts, enum fab_design_kind design,
			 enum fab_topo_field want, const char *text)
{
	fab_topo t = { .kind = FAB_OCTOPUS, .host_ports = x, .device_ports = n, .hosts = hosts,
		       .design = design };
	enum fab_topo_field field;
	fabric f;
	cxl_err e = { 0 };

	fab_init(&f, "test", 1000);
	ck_assert_int_eq(fab_topo_generate(&f, &t, &field, &e), CXL_EINVAL);
	ck_assert_int_eq(field, want);
	ck_assert_msg(strstr(e.msg, text), "message \"%s\" lacks \"%s\"", e.msg, text);
	ck_assert_ptr_null(f.pod);
	fab_free(&f);
}

START_TEST(test_fab_octo_errors)
{
	expect_error(2, 4, 0, FAB_DESIGN_AFFINE, FAB_F_DESIGN,
		     "no affine design fits 2 host ports and 4 device ports");
	expect_error(8, 4, 4096, FAB_DESIGN_AUTO, FAB_F_HOSTS,
		     "an octopus pod of 4096 hosts with 8 ports each (radical S(2,4,25)) needs more");
	expect_error(64, 64, 0, FAB_DESIGN_AUTO, FAB_F_HOST_PORTS, "3783 hosts");
}
END_TEST

START_TEST(test_fab_octo_describe)
{
	fabric f;
	sim_graph g;
	char *text = NULL;
	size_t len = 0;

	make_pod(&f, &g, 8, 4, 30, FAB_DESIGN_AUTO);
	FILE *out = open_memstream(&text, &len);
	fab_pod_describe(&f, out);
	fclose(out);
	/* 50 + the 30 blocks of S(2,4,25) that meet points 0..4 */
	ck_assert_ptr_nonnull(strstr(text, "octopus pod: 30 hosts, 80 devices, no switch; "
				     "design radical S(2,4,25), a 2-(25,4,1) design; 2 islands"));
	ck_assert_ptr_nonnull(strstr(text, "devices per host 8 (of 8 host ports"));
	ck_assert_ptr_nonnull(strstr(text, "hosts per device 1 to 4 (of 4 device ports)"));
	ck_assert_ptr_nonnull(strstr(text, "host pairs sharing a device: 310 of 435 (71.3%), each "
				     "through 1 device; sharing none: 125 (host0-host25, "
				     "host0-host26, host0-host27, host0-host28, ...)"));
	free(text);
	fab_fixture_drop(&f, &g);
}
END_TEST

Suite *fab_octo_suite(void)
{
	Suite *s = suite_create("fab_octo");
	TCase *pods = tcase_create("pods");
	TCase *errors = tcase_create("errors");

	tcase_add_test(pods, test_fab_octo_regular_pod_25_hosts);
	tcase_add_test(pods, test_fab_octo_islands);
	tcase_add_test(pods, test_fab_octo_full_and_single);
	tcase_add_test(pods, test_fab_octo_deterministic);
	tcase_add_test(pods, test_fab_octo_uniform_weights);
	tcase_add_test(pods, test_fab_octo_describe);
	tcase_add_test(errors, test_fab_octo_errors);
	tcase_set_timeout(pods, 60);
	tcase_set_timeout(errors, 60);
	suite_add_tcase(s, pods);
	suite_add_tcase(s, errors);
	return s;
}
