/*
 * test/core/cfg_fixture.h - what the cfg tests share (test_cfg.c for cfg.c,
 * test_cfg_value.c for list values, test_cfg_out.c for dump and help).
 *
 * Three test schemas cover every cfg_type, required keys, ranges of each
 * form (element counts for lists) and nested groups.  Every test case made
 * with cfgt_case() writes its files into a fresh mkdtemp() directory (a
 * checked fixture, so it runs in the forked test process).  Error messages
 * are compared exactly: they are the user interface of a strict loader.
 */
#ifndef CXL_TEST_CORE_CFG_FIXTURE_H
#define CXL_TEST_CORE_CFG_FIXTURE_H

#include <check.h>
#include <stddef.h>

#include "core/cfg.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define CFGT_NSCHEMAS 3
#define SWITCHES "topology.custom.switches"
#define LINKS "topology.custom.links"

/* sim.*, phold.* and topology.custom.* (lists) */
extern const cfg_schema *const cfgt_schemas[CFGT_NSCHEMAS];

/* A config text that sets a key of every type (and both lists). */
extern const char cfgt_every_type_cfg[];

/* The fixture's temp directory (one per forked test). */
extern char cfgt_tmpdir[64];

/* cfgt_case - a TCase whose tests each get a fresh temp directory. */
TCase *cfgt_case(const char *name);

/* cfgt_write - write @text to tmpdir/@name; @path (256 bytes) receives its path. */
void cfgt_write(char *path, const char *name, const char *text);

/* cfgt_load - cfg_load against the three test schemas. */
int cfgt_load(cfg **c, const char *path, const char *const *sets, size_t nsets, cxl_err *err);
/* cfgt_load_ok - cfgt_load that must succeed. */
cfg *cfgt_load_ok(const char *path, const char *const *sets, size_t nsets);
/* cfgt_load_text_ok - write @text as a file and load it; must succeed. */
cfg *cfgt_load_text_ok(const char *text);

/* Load @text as a file; expect CXL_EINVAL and the message "<path><suffix>". */
void cfgt_expect_file_error(const char *text, const char *suffix);
/* Load no file with the one --set @set; expect CXL_EINVAL and @msg. */
void cfgt_expect_set_error(const char *set, const char *msg);

/* cfgt_dump - cfg_dump() of @c into a malloc'd string (free it). */
char *cfgt_dump(const cfg *c);

/* Assert that list key @path of @c holds the @n strings @want. */
void cfgt_assert_list(const cfg *c, const char *path, const char *const *want, size_t n);

#endif
