/*
 * core/cli.c - option parsing and --help text for bin/cxlfab (see cli.h).
 */
#include "core/cli.h"

#include <stdlib.h>
#include <string.h>

#include "core/xmalloc.h"

void cli_usage(FILE *f)
{
	fputs(
"usage: cxlfab [options] CONFIG\n"
"       mpirun -np N cxlfab [options] CONFIG\n"
"       [mpirun -np N] cxlfab [options] --restart DIR\n"
"\n"
"Simulates the system described by CONFIG (a libconfig file) on as many MPI\n"
"ranks as it is started with.  Results (summary, components) are identical\n"
"for any number of ranks and any partitioner.\n"
"\n"
"options:\n"
"  -o DIR             output folder (default out/<config name>); it receives\n"
"                     stats.json, components.csv and config.cfg, all at the\n"
"                     end (an earlier run's go to DIR/previous/ at the start;\n"
"                     one run at a time per folder)\n"
"  --set KEY=VALUE    override any config key, e.g. --set phold.remote=0.5\n"
"                     (repeatable; the last one wins; see --help-config)\n"
"  --set G[GLOB].KEY=VALUE\n"
"                     the same for the components matching GLOB only, e.g.\n"
"                     --set 'workload[host3].queue=64' (per-component overrides)\n"
"  --seed N           same as --set simulation.seed=N\n"
"  --end TIME         same as --set simulation.end=TIME (e.g. 4us)\n"
"  --partition NAME   how components are spread over ranks (default: metis\n"
"                     for fabrics, block for PHOLD):\n"
"                     metis: least communication volume (ranks each\n"
"                     component talks to) within 3% load imbalance\n"
"                     block: contiguous id ranges of equal weight\n"
"                     roundrobin: component i on rank i mod N\n"
"  --check            validate CONFIG, print what it describes (a fabric:\n"
"                     counts, edge ports, radix, diameter, bisection,\n"
"                     routing tables) and initialise every component as a\n"
"                     run would (lane counts, DRAM keys, trace files...),\n"
"                     run no event: what --check accepts, a run starts\n"
"  --dot FILE         with --check: also write the fabric for Graphviz\n"
"                     (dot -Tpng FILE -o fabric.png)\n"
"  --partition-only   partition CONFIG for -n ranks without simulating:\n"
"                     print the edge cut, load imbalance, lookahead and\n"
"                     components per rank, write DIR/partition.json\n"
"  -n N               ranks for --partition-only (default: the job's size)\n"
"  --profile-ranks LIST\n"
"                     rank profile (one process, no mpirun): run CONFIG on one\n"
"                     rank twice, plain (the cost per event) then recording\n"
"                     every event, then for each rank count in\n"
"                     LIST (e.g. 4,8,64,1024) partition as that run would and\n"
"                     replay its windows: events per rank, cross-rank events\n"
"                     and bytes per rank pair, neighbours; print the ceiling\n"
"                     speedup and a predicted loop time and efficiency, write\n"
"                     DIR/profile.json and profile_{windows,ranks,pairs}.csv\n"
"                     (model: core/README.md, \"Rank profile\")\n"
"  --profile-net LAT,BW,STEP[,EVENT]\n"
"                     the cluster model of --profile-ranks: seconds per\n"
"                     message, bandwidth per rank, allreduce seconds per\n"
"                     log2 step (default " PROF_NET_DEFAULT "), and the\n"
"                     seconds per event (default: measured by the plain run;\n"
"                     given, the plain run is skipped)\n"
"  --checkpoint-at TIME\n"
"                     write a checkpoint of the run at simulated TIME into\n"
"                     DIR/checkpoint-<TIME in ps>ps/ (repeatable; see also\n"
"                     simulation.checkpoint_period): the state once every\n"
"                     event before TIME has run, on any number of ranks\n"
"  --restart CKPT     continue the run checkpoint folder CKPT holds, on any\n"
"                     number of ranks and with any partitioner: the results\n"
"                     are byte-identical to the run never stopped (summary,\n"
"                     components).  No CONFIG and no --set: the checkpoint\n"
"                     carries its config (CKPT/config.cfg); -o defaults to\n"
"                     the folder CKPT is in (the interrupted run's files go\n"
"                     to its previous/, its checkpoints stay)\n"
"  --progress         print a progress line every second (default: only\n"
"                     when stderr is a terminal)\n"
"  -q, --quiet        print nothing but errors (the results, their warnings\n"
"                     included, are in stats.json)\n"
"  -v, --verbose      print set-up details (partition, lookahead, cut)\n"
"  --eager-events     queue every event: credits a port is not waiting for\n"
"                     are normally handled at their receiver's next event\n"
"                     instead (run.lazy_events); the results are the same\n"
"                     (core/README.md, \"Lazy events\"): for checks and for\n"
"                     measuring what the queue costs\n"
"  --check-lazy       check the models' side of lazy events: each is absorbed\n"
"                     just before its receiver's next event (not counted at\n"
"                     its send), where its model must still let it wait\n"
"                     (lazy_ok) and must send nothing; a miss is an internal\n"
"                     error.  Same results.  For model development and the\n"
"                     tests; the ring trace replay's loop is ~15 % slower\n"
"  --help-config      every config key with type, default, range and meaning\n"
"  --version          print the version\n"
"  -h, --help         this text\n"
"\n"
"Times are written with a unit: ps, ns, us, ms, s (\"25ns\", \"1.5us\").\n"
"Exit status: 0 success, 2 bad input (config, option, file, output folder),\n"
"1 internal error, 3 stopped early by SIGTERM, SIGUSR1 or SIGINT: the run stops\n"
"at the next window boundary, writes a checkpoint there (DIR/checkpoint-*ps/,\n"
"continue it with --restart) and its results so far (stats.json\n"
"run.interrupted).  A damaged or foreign checkpoint given to --restart is bad\n"
"input (2).\n"
"Errors are one line: cxlfab: error: FILE:LINE: what is wrong (what was expected)\n",
	      f);
}

static void add_set(cli_opts *o, const char *s)
{
	o->sets = xrealloc(o->sets, (size_t)(o->nsets + 1) * sizeof(*o->sets));
	o->sets[o->nsets++] = s;
}

static void add_rewritten(cli_opts *o, const char *key, const char *val)
{
	size_t n = strlen(key) + strlen(val) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s=%s", key, val);
	o->owned = xrealloc(o->owned, (size_t)(o->nowned + 1) * sizeof(*o->owned));
	o->owned[o->nowned++] = s;
	add_set(o, s);
}

/* Value of an option that takes one: "--opt V" or "--opt=V". */
static const char *value(int argc, char **argv, int *i, const char *opt, cxl_err *err)
{
	const char *a = argv[*i];
	size_t n = strlen(opt);

	if (a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc) {
		cxl_err_set(err, CXL_EINVAL, "option %s needs a value (see --help)", opt);
		return NULL;
	}
	return argv[++*i];
}

static int is_opt(const char *a, const char *opt)
{
	size_t n = strlen(opt);
	return !strncmp(a, opt, n) && (a[n] == '\0' || (a[n] == '=' && opt[1] == '-'));
}

static int parse_ranks(const char *v, cli_opts *o, cxl_err *err)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (*v == '\0' || *end || n < 1 || n > CLI_MAX_RANKS)
		return cxl_err_set(err, CXL_EINVAL, "-n %s: expected a number of ranks from 1 to %d",
				   v, CLI_MAX_RANKS);
	o->nranks = (int)n;
	return 0;
}

/* --profile-ranks 4,8,64: a list of rank counts, each from 1 to CLI_MAX_RANKS. */
static int parse_profile_ranks(const char *v, cli_opts *o, cxl_err *err)
{
	const char *p = v;

	free(o->prof_ranks);
	o->prof_ranks = NULL;
	o->nprof = 0;
	for (;;) {
		char *end;
		long n = strtol(p, &end, 10);
		if (end == p || (*end && *end != ',') || n < 1 || n > CLI_MAX_RANKS || *p == '-' ||
		    *p == '+' || *p == ' ')
			return cxl_err_set(err, CXL_EINVAL, "--profile-ranks %s: expected a comma-separated "
					   "list of rank counts from 1 to %d (e.g. 4,8,64)", v,
					   CLI_MAX_RANKS);
		o->prof_ranks = xrealloc(o->prof_ranks, (size_t)(o->nprof + 1) * sizeof(int));
		o->prof_ranks[o->nprof++] = (int)n;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* --checkpoint-at TIME: kept sorted, a repeated time once. */
static int parse_ckpt_at(const char *v, cli_opts *o, cxl_err *err)
{
	sim_time t;
	cxl_err e = { 0 };
	int k;

	if (stime_parse(v, &t, &e) || t == 0)
		return cxl_err_set(err, CXL_EINVAL, "--checkpoint-at %s: expected a simulated time "
				   "above 0 with a unit (e.g. 2us)%s%s", v, e.msg[0] ? "; " : "", e.msg);
	for (k = 0; k < o->nckpt && o->ckpt_at[k] < t; k++)
		;
	if (k < o->nckpt && o->ckpt_at[k] == t)
		return 0;
	o->ckpt_at = xrealloc(o->ckpt_at, (size_t)(o->nckpt + 1) * sizeof(*o->ckpt_at));
	memmove(o->ckpt_at + k + 1, o->ckpt_at + k, (size_t)(o->nckpt - k) * sizeof(*o->ckpt_at));
	o->ckpt_at[k] = t;
	o->nckpt++;
	return 0;
}

static int parse_one(int argc, char **argv, int *i, cli_opts *o, cxl_err *err)
{
	const char *a = argv[*i], *v;
	static const char *const flags[] = { "-h", "--help", "--help-config", "--version",
					     "--check", "--progress", "-q", "--quiet",
					     "-v", "--verbose", "--eager-events", "--check-lazy",
					     "--partition-only" };
	static const char *const valued[] = { "-o", "--set", "--seed", "--end", "--partition",
					      "--dot", "-n", "--profile-ranks", "--profile-net",
					      "--checkpoint-at", "--restart" };

	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
		if (strcmp(a, flags[k]))
			continue;
		switch (k) {
		case 0: case 1: o->action = CLI_HELP; break;
		case 2: o->action = CLI_HELP_CONFIG; break;
		case 3: o->action = CLI_VERSION; break;
		case 4: o->action = CLI_CHECK; break;
		case 5: o->progress = 1; break;
		case 6: case 7: o->quiet = 1; break;
		case 8: case 9: o->verbose = 1; break;
		case 10: o->eager = 1; break;
		case 11: o->check_lazy = 1; break;
		default: o->action = CLI_PARTITION_ONLY; break;
		}
		return 0;
	}
	for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++) {
		if (!is_opt(a, valued[k]))
			continue;
		if (!(v = value(argc, argv, i, valued[k], err)))
			return CXL_EINVAL;
		switch (k) {
		case 0: o->outdir = v; break;
		case 1:
			if (!strchr(v, '='))
				return cxl_err_set(err, CXL_EINVAL, "--set %s: expected KEY=VALUE", v);
			add_set(o, v);
			break;
		case 2: add_rewritten(o, "simulation.seed", v); break;
		case 3: add_rewritten(o, "simulation.end", v); break;
		case 4: o->partition = v; break;
		case 5: o->dot = v; break;
		case 6: return parse_ranks(v, o, err);
		case 7: return parse_profile_ranks(v, o, err);
		case 9: return parse_ckpt_at(v, o, err);
		case 10: o->restart = v; break;
		default:
			o->net_given = 1;
			return prof_net_parse(v, &o->net, err);
		}
		return 0;
	}
	if (a[0] == '-' && a[1])
		return cxl_err_set(err, CXL_EINVAL, "unknown option %s (see --help)", a);
	if (o->config)
		return cxl_err_set(err, CXL_EINVAL,
				   "two config files, %s and %s (expected one)", o->config, a);
	o->config = a;
	return 0;
}

int cli_parse(int argc, char **argv, cli_opts *o, cxl_err *err)
{
	*o = (cli_opts){ .action = CLI_RUN, .progress = -1 };
	prof_net_parse(PROF_NET_DEFAULT, &o->net, NULL);
	for (int i = 1; i < argc; i++) {
		int rc = parse_one(argc, argv, &i, o, err);
		if (rc)
			return rc;
	}
	if (o->restart && o->action == CLI_RUN) {
		if (o->config)
			return cxl_err_set(err, CXL_EINVAL, "--restart %s: no config file with it (the "
					   "checkpoint carries its own), got %s", o->restart, o->config);
		if (o->nsets)
			return cxl_err_set(err, CXL_EINVAL, "--restart %s: no --set, --seed or --end with "
					   "it (the checkpoint's config is continued as it was)", o->restart);
		if (o->nprof)
			return cxl_err_set(err, CXL_EINVAL, "--restart: not with --profile-ranks");
		return 0;
	}
	if (o->restart)
		return cxl_err_set(err, CXL_EINVAL, "--restart: only with a run (not with --check or "
				   "--partition-only)");
	if (o->nckpt && o->action != CLI_RUN)
		return cxl_err_set(err, CXL_EINVAL, "--checkpoint-at: only with a run");
	if ((o->action == CLI_RUN || o->action == CLI_CHECK ||
	     o->action == CLI_PARTITION_ONLY) && !o->config)
		return cxl_err_set(err, CXL_EINVAL, "no config file given (usage: cxlfab [options] CONFIG; see --help)");
	if (o->dot && o->action != CLI_CHECK)
		return cxl_err_set(err, CXL_EINVAL, "--dot %s: only with --check", o->dot);
	if (o->nranks && o->action != CLI_PARTITION_ONLY)
		return cxl_err_set(err, CXL_EINVAL,
				   "-n %d: only with --partition-only (a run uses the ranks mpirun starts)",
				   o->nranks);
	if (o->nprof && o->action != CLI_RUN)
		return cxl_err_set(err, CXL_EINVAL, "--profile-ranks: only with a run (not with "
				   "--check or --partition-only)");
	if (o->net_given && !o->nprof)
		return cxl_err_set(err, CXL_EINVAL, "--profile-net: only with --profile-ranks");
	return 0;
}

void cli_free(cli_opts *o)
{
	for (int i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	free(o->sets);
	free(o->prof_ranks);
	free(o->ckpt_at);
	*o = (cli_opts){ 0 };
}
