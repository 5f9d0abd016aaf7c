/*
 * test/core/test_cli.c - unit tests for core/cli.c.
 *
 * Every option in each accepted form ("--opt V", "--opt=V" for the long
 * valued ones, "-o DIR" only), --seed/--end rewritten into --set entries in
 * command-line order, each error with its exact message (missing value,
 * unknown option, --set without '=', two config files, no config file for
 * run and --check), the actions that need no config file, and cli_free()
 * releasing everything (the sanitizer build's leak checker verifies it).
 * The --help text is checked to mention every option and partitioner.
 */
#include "core/cli.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition/part.h"

/* A mutable argv built from string literals; lives as long as the test. */
typedef struct args args;
struct args {
	int argc;          /* entries in argv */
	char *argv[32];    /* pointers into store, NULL-terminated */
	char store[1024];  /* the strings */
};

#define ARGV(...) ((const char *const[]){ "cxlfab", __VA_ARGS__, NULL })

static void make_args(args *a, const char *const *list)
{
	size_t used = 0;

	a->argc = 0;
	for (; *list; list++) {
		size_t n = strlen(*list) + 1;
		ck_assert_uint_le(used + n, sizeof(a->store));
		ck_assert_int_lt(a->argc, 31);
		memcpy(a->store + used, *list, n);
		a->argv[a->argc++] = a->store + used;
		used += n;
	}
	a->argv[a->argc] = NULL;
}

/* Parse @list into @o, expecting success. */
static void parse_ok(args *a, const char *const *list, cli_opts *o)
{
	cxl_err err = { 0 };

	make_args(a, list);
	ck_assert_msg(cli_parse(a->argc, a->argv, o, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(err.code, CXL_OK);
}

/* Parse @list, expecting CXL_EINVAL with message @msg (also with err NULL). */
static void parse_fails(const char *const *list, const char *msg)
{
	args a;
	cli_opts o;
	cxl_err err = { 0 };

	make_args(&a, list);
	ck_assert_int_eq(cli_parse(a.argc, a.argv, &o, &err), CXL_EINVAL);
	ck_assert_int_eq(err.code, CXL_EINVAL);
	ck_assert_str_eq(err.msg, msg);
	cli_free(&o);
	ck_assert_int_eq(cli_parse(a.argc, a.argv, &o, NULL), CXL_EINVAL);
	cli_free(&o);
}

static void assert_sets(const cli_opts *o, const char *const *want, int n)
{
	ck_assert_int_eq(o->nsets, n);
	for (int i = 0; i < n; i++)
		ck_assert_str_eq(o->sets[i], want[i]);
}

START_TEST(test_cli_defaults)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("sys.cfg"), &o);
	ck_assert_int_eq(o.action, CLI_RUN);
	ck_assert_str_eq(o.config, "sys.cfg");
	ck_assert_ptr_eq(o.config, a.argv[1]);
	ck_assert_ptr_null(o.outdir);
	ck_assert_ptr_null(o.partition); /* the system chooses: metis for fabrics, block for PHOLD */
	ck_assert_int_eq(o.nsets, 0);
	ck_assert_int_eq(o.nowned, 0);
	ck_assert_int_eq(o.progress, -1);
	ck_assert_int_eq(o.quiet, 0);
	ck_assert_int_eq(o.verbose, 0);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_flags)
{
	static const char *const quiet[] = { "-q", "--quiet" };
	static const char *const verbose[] = { "-v", "--verbose" };
	args a;
	cli_opts o;

	for (int k = 0; k < 2; k++) {
		parse_ok(&a, ARGV(quiet[k], "x.cfg"), &o);
		ck_assert_int_eq(o.quiet, 1);
		ck_assert_int_eq(o.verbose, 0);
		cli_free(&o);
		parse_ok(&a, ARGV("x.cfg", verbose[k]), &o);
		ck_assert_int_eq(o.verbose, 1);
		ck_assert_int_eq(o.quiet, 0);
		cli_free(&o);
	}
	parse_ok(&a, ARGV("--progress", "x.cfg"), &o);
	ck_assert_int_eq(o.progress, 1);
	ck_assert_int_eq(o.action, CLI_RUN);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_output_dir)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("-o", "out/dir", "x.cfg"), &o);
	ck_assert_str_eq(o.outdir, "out/dir");
	ck_assert_str_eq(o.config, "x.cfg");
	cli_free(&o);
}
END_TEST

/* Only long options take "=VALUE"; "-o=DIR" and "-oDIR" are not -o. */
START_TEST(test_cli_output_dir_attached_rejected)
{
	parse_fails(ARGV("-o=dir", "x.cfg"), "unknown option -o=dir (see --help)");
	parse_fails(ARGV("-odir", "x.cfg"), "unknown option -odir (see --help)");
}
END_TEST

START_TEST(test_cli_partition_both_forms)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("--partition", "roundrobin", "x.cfg"), &o);
	ck_assert_str_eq(o.partition, "roundrobin");
	cli_free(&o);
	parse_ok(&a, ARGV("x.cfg", "--partition=roundrobin"), &o);
	ck_assert_str_eq(o.partition, "roundrobin");
	cli_free(&o);
	parse_ok(&a, ARGV("--partition=roundrobin", "--partition", "block", "x.cfg"), &o);
	ck_assert_str_eq(o.partition, "block"); /* the last one wins */
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_set_both_forms)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("--set", "a.b=1", "x.cfg", "--set=c.d=x=y"), &o);
	assert_sets(&o, (const char *const[]){ "a.b=1", "c.d=x=y" }, 2);
	ck_assert_ptr_eq(o.sets[0], a.argv[2]); /* plain sets borrow argv */
	ck_assert_int_eq(o.nowned, 0);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_seed_end_both_forms)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("--seed", "7", "--end", "4us", "x.cfg"), &o);
	assert_sets(&o, (const char *const[]){ "simulation.seed=7", "simulation.end=4us" }, 2);
	ck_assert_int_eq(o.nowned, 2);
	cli_free(&o);
	parse_ok(&a, ARGV("--seed=8", "--end=1.5ns", "x.cfg"), &o);
	assert_sets(&o, (const char *const[]){ "simulation.seed=8", "simulation.end=1.5ns" }, 2);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_sets_keep_command_line_order)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("--set", "x=1", "--seed", "7", "--end=4us", "x.cfg", "--set=y=2",
			  "--seed=9", "--set", "simulation.seed=3"), &o);
	assert_sets(&o, (const char *const[]){ "x=1", "simulation.seed=7",
					      "simulation.end=4us", "y=2",
					      "simulation.seed=9", "simulation.seed=3" }, 6);
	ck_assert_int_eq(o.nowned, 3);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_set_without_equals)
{
	parse_fails(ARGV("--set", "foo", "x.cfg"), "--set foo: expected KEY=VALUE");
	parse_fails(ARGV("--set=foo", "x.cfg"), "--set foo: expected KEY=VALUE");
}
END_TEST

START_TEST(test_cli_missing_value)
{
	static const char *const opts[] = { "-o", "--set", "--seed", "--end", "--partition" };

	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		char msg[128];
		snprintf(msg, sizeof(msg), "option %s needs a value (see --help)", opts[k]);
		parse_fails(ARGV("x.cfg", opts[k]), msg);
	}
}
END_TEST

START_TEST(test_cli_unknown_option)
{
	parse_fails(ARGV("--bogus", "x.cfg"), "unknown option --bogus (see --help)");
	parse_fails(ARGV("x.cfg", "-x"), "unknown option -x (see --help)");
	parse_fails(ARGV("--help=1"), "unknown option --help=1 (see --help)");
	parse_fails(ARGV("x.cfg", "--quiet=yes"), "unknown option --quiet=yes (see --help)");
	parse_fails(ARGV("x.cfg", "--sets", "a=1"), "unknown option --sets (see --help)");
	parse_fails(ARGV("x.cfg", "--"), "unknown option -- (see --help)");
}
END_TEST

START_TEST(test_cli_two_config_files)
{
	parse_fails(ARGV("a.cfg", "b.cfg"), "two config files, a.cfg and b.cfg (expected one)");
	parse_fails(ARGV("a.cfg", "-q", "b.cfg", "c.cfg"),
		    "two config files, a.cfg and b.cfg (expected one)");
}
END_TEST

START_TEST(test_cli_no_config_file)
{
	static const char msg[] =
		"no config file given (usage: cxlfab [options] CONFIG; see --help)";

	parse_fails((const char *const[]){ "cxlfab", NULL }, msg);
	parse_fails(ARGV("-q", "--seed", "1"), msg);
	parse_fails(ARGV("--check"), msg);
}
END_TEST

/* --help, --help-config and --version need no config file; --check does. */
START_TEST(test_cli_actions)
{
	static const struct {
		const char *opt;
		enum cli_action action;
	} acts[] = { { "-h", CLI_HELP }, { "--help", CLI_HELP },
		     { "--help-config", CLI_HELP_CONFIG }, { "--version", CLI_VERSION } };
	args a;
	cli_opts o;

	for (size_t k = 0; k < sizeof(acts) / sizeof(acts[0]); k++) {
		parse_ok(&a, ARGV(acts[k].opt), &o);
		ck_assert_int_eq(o.action, acts[k].action);
		ck_assert_ptr_null(o.config);
		cli_free(&o);
		parse_ok(&a, ARGV("x.cfg", acts[k].opt), &o);
		ck_assert_int_eq(o.action, acts[k].action);
		cli_free(&o);
	}
	parse_ok(&a, ARGV("--check", "x.cfg"), &o);
	ck_assert_int_eq(o.action, CLI_CHECK);
	ck_assert_str_eq(o.config, "x.cfg");
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_free_releases_everything)
{
	args a;
	cli_opts o;

	parse_ok(&a, ARGV("--seed", "1", "--end", "2us", "--set", "a=b", "--seed=3", "-o", "d",
			  "x.cfg"), &o);
	ck_assert_int_eq(o.nowned, 3);
	cli_free(&o);
	ck_assert_ptr_null(o.sets);
	ck_assert_ptr_null(o.owned);
	ck_assert_int_eq(o.nsets, 0);
	ck_assert_int_eq(o.nowned, 0);
	cli_free(&o); /* a second free of a freed (zeroed) cli_opts is harmless */
}
END_TEST

/* A parse that fails half-way leaves allocations that cli_free() releases. */
START_TEST(test_cli_free_after_error)
{
	args a;
	cli_opts o;

	make_args(&a, ARGV("--seed", "1", "--end", "2us", "--set", "a=b", "--bogus"));
	ck_assert_int_eq(cli_parse(a.argc, a.argv, &o, NULL), CXL_EINVAL);
	ck_assert_int_eq(o.nowned, 2);
	cli_free(&o);
}
END_TEST

START_TEST(test_cli_usage_mentions_every_option)
{
	static const char *const opts[] = { "-o DIR", "--set KEY=VALUE", "--seed N",
					    "--end TIME", "--partition NAME", "--check",
					    "--progress", "-q, --quiet", "-v, --verbose",
					    "--help-config", "--version", "-h, --help" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n;

	cli_usage(f);
	fclose(f);
	ck_assert(len > 0 && strncmp(text, "usage: cxlfab", 13) == 0);
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
		ck_assert_msg(strstr(text, opts[k]), "--help lacks \"%s\"", opts[k]);
	const part_ops *const *parts = part_list(&n);
	for (int k = 0; k < n; k++)
		ck_assert_msg(strstr(text, parts[k]->name), "--help lacks partitioner %s",
			      parts[k]->name);
	free(text);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *opts = tcase_create("options");
	TCase *errors = tcase_create("errors");
	TCase *mem = tcase_create("memory");

	tcase_add_test(opts, test_cli_defaults);
	tcase_add_test(opts, test_cli_flags);
	tcase_add_test(opts, test_cli_output_dir);
	tcase_add_test(opts, test_cli_partition_both_forms);
	tcase_add_test(opts, test_cli_set_both_forms);
	tcase_add_test(opts, test_cli_seed_end_both_forms);
	tcase_add_test(opts, test_cli_sets_keep_command_line_order);
	tcase_add_test(opts, test_cli_actions);
	tcase_add_test(opts, test_cli_usage_mentions_every_option);
	tcase_add_test(errors, test_cli_output_dir_attached_rejected);
	tcase_add_test(errors, test_cli_set_without_equals);
	tcase_add_test(errors, test_cli_missing_value);
	tcase_add_test(errors, test_cli_unknown_option);
	tcase_add_test(errors, test_cli_two_config_files);
	tcase_add_test(errors, test_cli_no_config_file);
	tcase_add_test(mem, test_cli_free_releases_everything);
	tcase_add_test(mem, test_cli_free_after_error);
	suite_add_tcase(s, opts);
	suite_add_tcase(s, errors);
	suite_add_tcase(s, mem);
	return s;
}
