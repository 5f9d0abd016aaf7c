/*
 * test/core/cfg_fixture.c - the cfg tests' schemas, temp-directory fixture
 * and load helpers (see cfg_fixture.h).
 */
#include "test/core/cfg_fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cfg_key sim_keys[] = {
	{ .path = "sim.seed", .type = CFG_INT, .def = "1", .min = "0", .doc = "run seed" },
	{ .path = "sim.ranks", .type = CFG_INT, .def = "1", .max = "64", .doc = "ranks" },
	{ .path = "sim.end", .type = CFG_TIME, .def = "1us", .min = "1ps", .max = "1s",
	  .doc = "end of simulated time" },
	{ .path = "sim.verbose", .type = CFG_BOOL, .def = "false", .doc = "chatty output" },
	{ .path = "sim.name", .type = CFG_STRING, .def = "run", .doc = "run name" },
};

static const cfg_key phold_keys[] = {
	{ .path = "phold.lps", .type = CFG_INT, .min = "1", .max = "1000000",
	  .doc = "LPs per rank" },
	{ .path = "phold.remote", .type = CFG_FLOAT, .def = "0.5", .min = "0", .max = "1",
	  .doc = "fraction of remote events" },
	{ .path = "phold.lookahead", .type = CFG_TIME, .def = "100ps", .min = "1ps",
	  .doc = "minimum remote delay" },
	{ .path = "phold.part", .type = CFG_ENUM, .def = "block", .choices = "block|metis|rr",
	  .doc = "partitioner" },
	{ .path = "phold.big", .type = CFG_INT, .def = "0", .doc = "a 64-bit value" },
	{ .path = "phold.mean.delay", .type = CFG_TIME, .def = "1ns", .doc = "mean delay" },
	{ .path = "phold.mean.weight", .type = CFG_FLOAT, .def = "1.0", .doc = "weight" },
};

static const cfg_key topo_keys[] = {
	{ .path = "topology.custom.switches", .type = CFG_LIST, .def = "",
	  .doc = "switch names" },
	{ .path = "topology.custom.links", .type = CFG_LIST, .def = " host0 sw0 ,sw0 sw1",
	  .min = "1", .max = "2", .doc = "links, \"A B\" each" },
};

static const cfg_schema sim_schema = { "simulation", sim_keys, NELEMS(sim_keys) };
static const cfg_schema phold_schema = { "phold", phold_keys, NELEMS(phold_keys) };
static const cfg_schema topo_schema = { "topology", topo_keys, NELEMS(topo_keys) };
const cfg_schema *const cfgt_schemas[CFGT_NSCHEMAS] = { &sim_schema, &phold_schema, &topo_schema };

/*
 * The fixture's temp directory.  Check fixtures take no arguments, so this
 * is the one mutable file-scope object; each forked test has its own copy.
 */
char cfgt_tmpdir[64];

/* A file that sets a key of every type. */
const char cfgt_every_type_cfg[] =
	"# every type\n"
	"sim = {\n"
	"  seed = 42;\n"
	"  end = \"2.5us\";\n"
	"  verbose = true;\n"
	"  name = \"hello world\";\n"
	"};\n"
	"phold = {\n"
	"  lps = 64;\n"
	"  remote = 0.25;\n"
	"  lookahead = \"1ns\";\n"
	"  part = \"metis\";\n"
	"  big = 9007199254740993L;\n"
	"  mean = { delay = \"3ns\"; weight = 2; };\n"
	"};\n";

static void setup(void)
{
	strcpy(cfgt_tmpdir, "/tmp/cxl_cfg_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(cfgt_tmpdir));
}

static void teardown(void)
{
	DIR *d = opendir(cfgt_tmpdir);
	struct dirent *e;
	char path[sizeof(cfgt_tmpdir) + sizeof(e->d_name) + 1];

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", cfgt_tmpdir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(cfgt_tmpdir);
}

/* Write @text to cfgt_tmpdir/@name; @path (256 bytes) receives its path. */
void cfgt_write(char *path, const char *name, const char *text)
{
	snprintf(path, 256, "%s/%s", cfgt_tmpdir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

int cfgt_load(cfg **c, const char *path, const char *const *sets, size_t nsets,
		cxl_err *err)
{
	return cfg_load(c, path, cfgt_schemas, CFGT_NSCHEMAS, sets, nsets, err);
}

cfg *cfgt_load_ok(const char *path, const char *const *sets, size_t nsets)
{
	cfg *c = NULL;
	cxl_err err = { 0 };

	ck_assert_msg(cfgt_load(&c, path, sets, nsets, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(c);
	return c;
}

cfg *cfgt_load_text_ok(const char *text)
{
	char path[256];

	cfgt_write(path, "ok.cfg", text);
	return cfgt_load_ok(path, NULL, 0);
}

/* Load @text as a file; expect CXL_EINVAL and the message "<path><suffix>". */
void cfgt_expect_file_error(const char *text, const char *suffix)
{
	char path[256], want[1024];
	cfg *c = NULL;
	cxl_err err = { 0 };

	cfgt_write(path, "bad.cfg", text);
	ck_assert_int_eq(cfgt_load(&c, path, NULL, 0, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof(want), "%s%s", path, suffix);
	ck_assert_str_eq(err.msg, want);
}

/* Load no file with the one --set @set; expect CXL_EINVAL and @msg. */
void cfgt_expect_set_error(const char *set, const char *msg)
{
	const char *sets[] = { "phold.lps=1", set };
	cfg *c = NULL;
	cxl_err err = { 0 };

	ck_assert_int_eq(cfgt_load(&c, NULL, sets, 2, &err), CXL_EINVAL);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err.msg, msg);
}

TCase *cfgt_case(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	return tc;
}

/* Assert that list key @path of @c holds the @n strings @want. */
void cfgt_assert_list(const cfg *c, const char *path, const char *const *want, size_t n)
{
	size_t got_n = 99;
	const char *const *got = cfg_list(c, path, &got_n);

	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(got_n, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(got[i], want[i]);
	ck_assert_ptr_null(got[n]);
}

char *cfgt_dump(const cfg *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cfg_dump(c, f);
	fclose(f);
	return buf;
}
