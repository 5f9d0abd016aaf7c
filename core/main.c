/*
 * core/main.c - bin/cxlfab: options, config, build, partition, run, output.
 *
 * Every rank runs the same steps on the same inputs (config, graph and
 * partition are computed redundantly, which is cheap and keeps ranks in
 * agreement without communication).  Errors found in those steps are the
 * same on every rank, so rank 0 alone prints the one-line error and every
 * rank exits with the same code: no rank waits for another that has left.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/engine.h"
#include "core/output.h"
#include "core/sim.h"
#include "core/sha256.h"
#include "core/version.h"
#include "core/xmalloc.h"
#include "core/xport.h"
#include "models/registry.h"
#include "partition/part.h"

typedef struct app app;
struct app {
	int rank, nranks;         /* this rank, ranks in the job */
	double t0;                /* wall clock at start */
	cli_opts opt;             /* options */
	cfg *cf;                  /* configuration */
	const sys_builder *sys;   /* the system the config describes */
	sim_graph g;              /* the system's graph */
	int32_t *rank_of;         /* partition */
	const part_ops *part;     /* partitioner */
	char outdir[4096];        /* output folder */
	int local_errors;         /* errors from here on are found by one rank only */
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const cfg_schema **all_schemas(size_t *n)
{
	int nb;
	const sys_builder *const *b = sys_list(&nb);
	const cfg_schema **s = xmalloc((size_t)(nb + 1) * sizeof(*s));

	s[0] = &sim_schema;
	for (int i = 0; i < nb; i++)
		s[i + 1] = b[i]->schema;
	*n = (size_t)nb + 1;
	return s;
}

static int load(app *a, cxl_err *err)
{
	size_t ns;
	const cfg_schema **s = all_schemas(&ns);
	int rc = cfg_load(&a->cf, a->opt.config, (const cfg_schema *const *)s, ns,
			  a->opt.sets, (size_t)a->opt.nsets, err);

	free(s);
	if (!rc)
		rc = sys_select(a->cf, &a->sys, err);
	if (!rc) {
		graph_init(&a->g);
		rc = a->sys->build(a->cf, &a->g, err);
	}
	return rc;
}

static void print_check(const app *a)
{
	char la[STIME_FMT_LEN], end[STIME_FMT_LEN];
	uint32_t k = 0;

	printf("%s: valid; system \"%s\": %u components, %u links\n", a->opt.config,
	       a->sys->name, a->g.ncomp, a->g.nlink);
	while (k < a->g.ncomp) {
		uint32_t j = k;
		while (j < a->g.ncomp && a->g.comp[j].ops == a->g.comp[k].ops)
			j++;
		printf("  %-12s %u (%s .. %s)\n", a->g.comp[k].ops->name, j - k,
		       a->g.comp[k].name, a->g.comp[j - 1].name);
		k = j;
	}
	if (a->g.global_lookahead)
		printf("  global lookahead %s (any-to-any sends)\n",
		       stime_format(a->g.global_lookahead, la));
	printf("  end %s, seed %lld\n", stime_format(cfg_time(a->cf, "simulation.end"), end),
	       (long long)cfg_int(a->cf, "simulation.seed"));
}

static int partition(app *a, cxl_err *err)
{
	a->part = part_lookup(a->opt.partition);
	if (!a->part) {
		char names[256] = "";
		int n;
		const part_ops *const *l = part_list(&n);
		for (int i = 0; i < n; i++) {
			size_t len = strlen(names);
			snprintf(names + len, sizeof(names) - len, "%s%s", i ? "|" : "", l[i]->name);
		}
		return cxl_err_set(err, CXL_EINVAL, "--partition %s: unknown partitioner (expected %s)",
				   a->opt.partition, names);
	}
	a->rank_of = xmalloc((a->g.ncomp ? a->g.ncomp : 1) * sizeof(*a->rank_of));
	int rc = a->part->assign(&a->g, a->nranks, a->rank_of, err);
	return rc ? rc : part_check(&a->g, a->nranks, a->rank_of, err);
}

static void set_outdir(app *a)
{
	if (a->opt.outdir) {
		snprintf(a->outdir, sizeof(a->outdir), "%s", a->opt.outdir);
		return;
	}
	char *tmp = xstrdup(a->opt.config);
	char *base = basename(tmp);
	char *dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	snprintf(a->outdir, sizeof(a->outdir), "out/%s", base);
	free(tmp);
}

static int write_outputs(app *a, sim_engine *e, const stats_set *t,
			 const sim_rank_info *info, cxl_err *err)
{
	char sha[65] = "";
	int rc = sha256_file_hex(a->opt.config, sha, err);

	if (rc)
		return rc;
	output_run o = {
		.dir = a->outdir, .config_path = a->opt.config, .config_sha256 = sha,
		.cf = a->cf, .g = &a->g, .rank_of = a->rank_of, .nranks = a->nranks,
		.partitioner = a->part->name,
		.seed = (uint64_t)cfg_int(a->cf, "simulation.seed"),
		.end = cfg_time(a->cf, "simulation.end"),
		.lookahead = sim_engine_lookahead(e), .edge_cut = sim_engine_edge_cut(e),
		.wall_s = wall() - a->t0, .info = info, .table = t,
		.summary = a->sys->summary,
	};
	return output_write(&o, err);
}

static void print_done(const app *a, const sim_rank_info *info)
{
	uint64_t ev = 0;
	double loop = 0;

	for (int r = 0; r < a->nranks; r++) {
		ev += info[r].events;
		loop = info[r].loop_s > loop ? info[r].loop_s : loop;
	}
	printf("cxlfab: %llu events in %.3f s (%.2f M events/s) on %d rank%s; results in %s/\n",
	       (unsigned long long)ev, loop, loop > 0 ? (double)ev / loop / 1e6 : 0.0,
	       a->nranks, a->nranks > 1 ? "s" : "", a->outdir);
}

static void print_setup(const app *a, const sim_engine *e)
{
	char la[STIME_FMT_LEN];
	sim_time l = sim_engine_lookahead(e);

	fprintf(stderr, "cxlfab: %u components on %d ranks (%s), %llu links cut, lookahead %s\n",
		a->g.ncomp, a->nranks, a->part->name,
		(unsigned long long)sim_engine_edge_cut(e),
		l == SIM_TIME_MAX ? "none (one rank or no cut)" : stime_format(l, la));
}

static int simulate(app *a, cxl_err *err)
{
	sim_opts so = {
		.rank = a->rank, .nranks = a->nranks,
		.seed = (uint64_t)cfg_int(a->cf, "simulation.seed"),
		.end = cfg_time(a->cf, "simulation.end"),
		.progress = !a->opt.quiet && (a->opt.progress == 1 ||
					      (a->opt.progress == -1 && isatty(2))),
	};
	stats_set table;
	sim_rank_info *info = xcalloc((size_t)a->nranks, sizeof(*info));
	sim_engine *e = sim_engine_create(&a->g, a->rank_of, a->cf, &so, err);
	int rc = e ? 0 : CXL_EINVAL;

	stats_set_init(&table);
	if (!rc && a->opt.verbose && a->rank == 0)
		print_setup(a, e);
	a->local_errors = 1; /* init failures and output errors are rank-local */
	if (!rc)
		rc = sim_engine_init(e, err);
	if (!rc) {
		sim_engine_run(e);
		rc = sim_engine_collect(e, &table, info, err);
	}
	if (!rc && a->rank == 0) {
		rc = write_outputs(a, e, &table, info, err);
		if (!rc && !a->opt.quiet)
			print_done(a, info);
	}
	stats_set_free(&table);
	sim_engine_destroy(e);
	free(info);
	return rc;
}

static int run(app *a, int argc, char **argv, cxl_err *err)
{
	int rc = cli_parse(argc, argv, &a->opt, err);

	if (rc)
		return rc;
	switch (a->opt.action) {
	case CLI_HELP:
		if (a->rank == 0)
			cli_usage(stdout);
		return 0;
	case CLI_VERSION:
		if (a->rank == 0)
			printf("cxlfab %s\n", CXL_VERSION);
		return 0;
	case CLI_HELP_CONFIG: {
		size_t ns;
		const cfg_schema **s = all_schemas(&ns);
		if (a->rank == 0)
			cfg_help((const cfg_schema *const *)s, ns, stdout);
		free(s);
		return 0;
	}
	default:
		break;
	}
	if ((rc = load(a, err)))
		return rc;
	if (a->opt.action == CLI_CHECK) {
		if (a->rank == 0)
			print_check(a);
		return 0;
	}
	set_outdir(a);
	if ((rc = partition(a, err)))
		return rc;
	return simulate(a, err);
}

int main(int argc, char **argv)
{
	app a = { 0 };
	cxl_err err = { 0 };

	xport_start(&argc, &argv, &a.rank, &a.nranks);
	a.t0 = wall();
	int rc = run(&a, argc, argv, &err);
	if (rc && err.msg[0] && (a.rank == 0 || a.local_errors)) {
		fprintf(stderr, "cxlfab: error: %s\n", err.msg);
		fflush(stderr);
	}
	fflush(stdout);
	free(a.rank_of);
	graph_free(&a.g);
	if (a.cf)
		cfg_free(a.cf);
	cli_free(&a.opt);
	xport_stop();
	return cxl_exit_code(rc);
}
