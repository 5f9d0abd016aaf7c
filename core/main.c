/*
 * core/main.c - bin/cxlfab: options, config, build, partition, run, output
 * (the --profile-ranks driver is main_profile.c; their shared state, main_int.h).
 *
 * Every rank runs the same steps on the same inputs (config, graph and
 * partition are computed redundantly, which is cheap and keeps ranks in
 * agreement without communication).  Errors found in those steps are the
 * same on every rank, so rank 0 alone prints the one-line error and every
 * rank exits with the same code: no rank waits for another that has left.
 * What only one rank can find (rank 0's output folder) is agreed on with
 * one collective before the run starts.
 *
 * Signals: SIGTERM, SIGUSR1 (what `sbatch --signal` and mpirun forward) and
 * SIGINT only set a flag (async-signal-safe); the engine stops at the next
 * window boundary (the one after, when the ranks agree in the delayed
 * allreduce), every rank at the same one (core/sync.c), writes a
 * checkpoint there (when the system can be checkpointed), the results so
 * far are written with run.interrupted = true, and the exit status is
 * CXL_EXIT_INTERRUPTED (3).
 *
 * Checkpoints (--checkpoint-at, simulation.checkpoint_period, the stop
 * signals): write_ckpt() below is the engine's writer; --restart DIR reads
 * the checkpoint whole before anything else, loads its config.cfg as the
 * config, builds and partitions as any run (any rank count, any
 * partitioner), runs init, then restores (core/ckpt_engine.c).  A second SIGINT ends the process at once.
 * The handlers are installed when the event loop starts: before it (loading,
 * partitioning, components' init) there is nothing to save and the signals
 * keep their default action, so `timeout` or a scheduler still ends a run
 * stuck there.  From then on they stay, so a signal during the writing of
 * the results does not cut it short.  SIGXFSZ is ignored, so a file-size
 * limit is a write error ("File too large") like a full disk, not a silent
 * death.
 */
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/main_int.h"
#include "core/memest.h"
#include "core/sim.h"
#include "core/sha256.h"
#include "core/version.h"
#include "core/xmalloc.h"
#include "core/xport.h"
#include "partition/part_report.h"


/*
 * The stop request: written by the signal handler, read by the engine's
 * window loop through sim_opts.stop.  A file-scope object because a signal
 * handler reaches nothing else (the one exception to style rule 17 here).
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	if (stop_signal && sig == SIGINT) {  /* a second Ctrl-C: stop now */
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	stop_signal = sig;
}

void main__install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
}

const char *main__signal_name(int sig)
{
	switch (sig) {
	case SIGTERM: return "SIGTERM";
	case SIGUSR1: return "SIGUSR1";
	case SIGINT: return "SIGINT";
	}
	return "a signal";
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The engine's schema and those of @only (NULL: of every system). */
static const cfg_schema **schemas_of(const sys_builder *only, size_t *n)
{
	int nb;
	const sys_builder *const *b = sys_list(&nb);
	size_t cap = 1;

	for (int i = 0; i < nb; i++)
		cap += (!only || b[i] == only) ? b[i]->schemas(NULL, 0) : 0;
	const cfg_schema **s = xmalloc(cap * sizeof(*s));
	s[0] = &sim_schema;
	*n = 1;
	for (int i = 0; i < nb; i++)
		if (!only || b[i] == only)
			*n += b[i]->schemas(s + *n, cap - *n);
	return s;
}

/*
 * Pick the system from the groups the config mentions, then load it against
 * the engine's and that system's keys only (see core/cfg_peek.h); a file
 * that cannot be parsed is loaded against every schema for the error.
 */
static int load(app *a, cxl_err *err)
{
	const char *const *sets = a->opt.sets;
	size_t nsets = (size_t)a->opt.nsets, ns;
	char after[65];
	int rc = cfg_file_check(a->opt.config, err);

	/* the digest of what is loaded: the file before and after libconfig reads it */
	if (!rc && sha256_file_hex(a->opt.config, a->sha, NULL))
		a->sha[0] = '\0';
	if (!rc)
		rc = sys_select(a->opt.config, sets, nsets, &a->sys, err);
	if (rc)
		return rc;
	const cfg_schema **s = schemas_of(a->sys, &ns);
	rc = cfg_load(&a->cf, a->opt.config, (const cfg_schema *const *)s, ns, sets, nsets, err);
	free(s);
	if (!rc && (sha256_file_hex(a->opt.config, after, err) || strcmp(after, a->sha)))
		rc = cxl_err_set(err, CXL_EINVAL, "%s: changed while it was being read (expected "
				 "a config file that stays as it is)", a->opt.config);
	if (!rc && !a->sys)
		rc = cxl_err_set(err, CXL_EINTERNAL, "%s: loads, but no system was selected",
				 a->opt.config);
	if (!rc) {
		graph_init(&a->g);
		/* weights only balance ranks: a run on one rank leaves them out (the fabric's
		   traffic estimate: rack-4096's start-up 0.90 -> 0.74 s) */
		a->g.unweighted = a->nranks == 1 && !a->opt.nprof &&
				  a->opt.action != CLI_PARTITION_ONLY;
		rc = a->sys->build(a->cf, &a->g, &a->sys_data, err);
	}
	if (!rc)
		rc = sim_check_overrides(&a->g, a->cf, err);
	return rc;
}

/* Components by type, in order of first appearance: count, first and last name. */
static void print_types(const sim_graph *g)
{
	enum { MAX_TYPES = 16 };
	const model_ops *type[MAX_TYPES];
	uint32_t count[MAX_TYPES] = { 0 }, first[MAX_TYPES], last[MAX_TYPES];
	int nt = 0;

	for (uint32_t i = 0; i < g->ncomp; i++) {
		int k = 0;
		while (k < nt && type[k] != g->comp[i].ops)
			k++;
		if (k == nt) {
			CXL_ASSERT(nt < MAX_TYPES);
			type[nt++] = g->comp[i].ops;
			first[k] = i;
		}
		count[k]++;
		last[k] = i;
	}
	for (int k = 0; k < nt; k++)
		printf("  %-12s %u (%s .. %s)\n", type[k]->name, count[k],
		       g->comp[first[k]].name, g->comp[last[k]].name);
}

static void print_check(const app *a)
{
	char la[STIME_FMT_LEN], end[STIME_FMT_LEN];

	printf("%s: valid; system \"%s\": %u components, %u links\n", a->opt.config,
	       a->sys->name, a->g.ncomp, a->g.nlink);
	print_types(&a->g);
	if (a->g.global_lookahead)
		printf("  global lookahead %s (any-to-any sends)\n",
		       stime_format(a->g.global_lookahead, la));
	printf("  end %s, seed %lld\n", stime_format(cfg_time(a->cf, "simulation.end"), end),
	       (long long)cfg_int(a->cf, "simulation.seed"));
	for (size_t i = 0; i < cfg_overrides(a->cf); i++) {
		uint32_t n = 0;
		for (uint32_t k = 0; k < a->g.ncomp; k++)
			n += (uint32_t)sim_override_applies(a->cf, i, &a->g.comp[k]);
		char lab[256];
		printf("  override %s: %u component%s\n", cfg_override_label(a->cf, i, lab, sizeof(lab)),
		       n, n == 1 ? "" : "s");
	}
	if (a->sys->describe)
		a->sys->describe(a->sys_data, stdout);
}

static void write_dot(const void *ctx, FILE *f)
{
	const app *a = ctx;

	a->sys->dot(a->sys_data, f);
}

/*
 * Every rank built the system on its own: compare the digests of what the
 * system's description (routing tables) became, one collective.
 */
static int agree(const app *a, cxl_err *err)
{
	if (!a->sys->checksum)
		return 0;
	uint64_t h = a->sys->checksum(a->sys_data), lo = h, hi = h;
	if (a->nranks > 1) {
		lo = xport_min_u64(h);
		hi = ~xport_min_u64(~h);
	}
	if (lo != hi)
		return cxl_err_set(err, CXL_EINTERNAL, "ranks built different routing tables "
				   "(checksums %016llx .. %016llx)", (unsigned long long)lo,
				   (unsigned long long)hi);
	if (a->rank == 0)
		printf("  routing tables identical on all %d rank%s (checksum %016llx)\n",
		       a->nranks, a->nranks > 1 ? "s" : "", (unsigned long long)h);
	return 0;
}

/*
 * Everything a run checks before its first event: every component's init
 * (lane counts, DRAM keys, footprints, trace files...), all on rank 0, then
 * their finish hooks; no event runs.  So --check passes only if the run
 * would start.
 */
static int check_init(app *a, cxl_err *err)
{
	sim_opts so = { .rank = a->rank, .nranks = a->nranks,
			.seed = (uint64_t)cfg_int(a->cf, "simulation.seed"),
			.end = cfg_time(a->cf, "simulation.end"),
			.sample_period = cfg_time(a->cf, "simulation.sample_period"),
			.system = a->sys_data };
	int32_t *on0 = xcalloc(a->g.ncomp ? a->g.ncomp : 1, sizeof(*on0));
	sim_rank_info *info = xcalloc((size_t)a->nranks, sizeof(*info));
	stats_set table;
	sim_engine *e = sim_engine_create(&a->g, on0, a->cf, &so, err);
	int rc = e ? 0 : CXL_EINVAL;

	stats_set_init(&table);
	if (!rc && !(rc = sim_engine_init(e, err)))
		rc = sim_engine_collect(e, &table, info, err);
	if (!rc && a->rank == 0)
		printf("  every component initialises (%u components, as a run would start)\n",
		       a->g.ncomp);
	stats_set_free(&table);
	sim_engine_destroy(e);
	free(info);
	free(on0);
	return rc;
}

/* @b as "12.3 MiB" (1024-based, one decimal) into @buf[32]. */
static const char *mib(uint64_t b, char *buf)
{
	if (b >= (1ull << 30))
		snprintf(buf, 32, "%.1f GiB", (double)b / (double)(1ull << 30));
	else
		snprintf(buf, 32, "%.1f MiB", (double)b / (double)(1ull << 20));
	return buf;
}

/* Ranks of this job on this node (Open MPI, MPICH, Slurm; 1 if none says). */
static int local_ranks(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
					    "SLURM_NTASKS_PER_NODE" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		long n = v ? strtol(v, NULL, 10) : 0;
		if (n > 0)
			return (int)n;
	}
	return 1;
}

/* The memory a rank may use: simulation.mem_per_rank, else MemAvailable / local ranks. */
static uint64_t mem_limit(const app *a, char *how, size_t n)
{
	uint64_t set = cfg_size(a->cf, "simulation.mem_per_rank"), avail;
	char sz[32];
	int local = local_ranks();

	if (set) {
		snprintf(how, n, "simulation.mem_per_rank");
		return set;
	}
	avail = memest_available();
	mib(avail, sz);
	snprintf(how, n, "MemAvailable %s / %d rank%s on this node", sz, local,
		 local > 1 ? "s" : "");
	return avail / (uint64_t)local;
}

/*
 * The memory estimate for @nranks ranks of map @rank_of (NULL: all on rank
 * 0, as --check initialises them): printed by rank 0 when @print; past the
 * limit, when @refuse, an error naming the key to change (exit 2).
 */
static int mem_check(const app *a, int nranks, const int32_t *rank_of, int print, int refuse,
		     cxl_err *err)
{
	memest m;
	char est[32], kb[32], lim[32], how[128];

	memest_compute(&a->g, a->cf, a->sys->shared_bytes ? a->sys->shared_bytes(a->sys_data) : 0,
		       a->sys->comp_bytes, a->sys_data, nranks, rank_of, &m);
	uint64_t limit = mem_limit(a, how, sizeof(how));
	mib(m.bytes, est);
	mib(m.kind_bytes, kb);
	mib(limit, lim);
	if (print && a->rank == 0)
		printf("  estimated memory: %s per rank on %d rank%s (largest component kind: %s, "
		       "%s, from key %s); limit %s (%s)\n", est, nranks, nranks > 1 ? "s" : "",
		       m.kind[0] ? m.kind : "none", kb, m.key[0] ? m.key : "-", lim, how);
	if (!refuse || !limit || m.bytes <= limit)
		return 0;
	const char *key = m.key[0] ? m.key : "simulation.mem_per_rank";
	return cfg_error_at(a->cf, key, err, "the estimated peak memory of rank %d, %s (%s of "
			    "it in %s components, sized by %s), exceeds the %s a rank may use (%s); "
			    "lower %s, run on more ranks, or set simulation.mem_per_rank",
			    m.worst, est, kb, m.kind, key, lim, how, key);
}

/* --check [--dot FILE]: rank 0 describes the system; the others only agree. */
static int check(app *a, cxl_err *err)
{
	if (a->rank == 0)
		print_check(a);
	fflush(stdout);
	int rc = agree(a, err);
	if (!rc)
		rc = mem_check(a, 1, NULL, 1, 1, err);
	if (!rc)
		rc = check_init(a, err);
	if (rc || a->rank != 0)
		return rc;
	if (!a->opt.dot)
		return 0;
	if (!a->sys->dot)
		return cxl_err_set(err, CXL_EINVAL, "--dot: system \"%s\" has no graph to draw",
				   a->sys->name);
	char *dir = xstrdup(a->opt.dot), *name = xstrdup(a->opt.dot);
	rc = output_file(dirname(dir), basename(name), write_dot, a, err);
	if (!rc)
		printf("  wrote %s\n", a->opt.dot);
	free(dir);
	free(name);
	return rc;
}

int main__partition(app *a, int nranks, cxl_err *err)
{
	const char *name = a->opt.partition ? a->opt.partition :
			   a->sys->partitioner ? a->sys->partitioner : "block";

	a->part = part_lookup(name);
	if (!a->part) {
		char names[256] = "";
		int n;
		const part_ops *const *l = part_list(&n);
		for (int i = 0; i < n; i++) {
			size_t len = strlen(names);
			snprintf(names + len, sizeof(names) - len, "%s%s", i ? "|" : "", l[i]->name);
		}
		return cxl_err_set(err, CXL_EINVAL, "--partition %s: unknown partitioner (expected %s)",
				   name, names);
	}
	a->rank_of = xmalloc((a->g.ncomp ? a->g.ncomp : 1) * sizeof(*a->rank_of));
	int rc = a->part->assign(&a->g, nranks, a->rank_of, err);
	return rc ? rc : part_check(&a->g, nranks, a->rank_of, err);
}

/* FNV-1a 64 over the rank map. */
static uint64_t map_hash(const int32_t *rank_of, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint32_t i = 0; i < n; i++)
		for (int b = 0; b < 32; b += 8) {
			h ^= (uint8_t)((uint32_t)rank_of[i] >> b);
			h *= 0x100000001b3ull;
		}
	return h;
}

/* The first 16 hex digits of the config's digest as a number (0 without one). */
static uint64_t sha_prefix(const char *hex)
{
	char b[17];

	snprintf(b, sizeof(b), "%s", hex);
	return strtoull(b, NULL, 16);
}

/*
 * Every rank read the config and computed the partition on its own: check,
 * in one collective, that they loaded the same file and computed the same
 * rank map (a disagreement would hang the window loop or mix results).
 * CXLFAB_TEST_PARTITION_FAULT=R (tests only) moves component 0 to another
 * rank in rank R's map, to show the check.
 */
static int agree_partition(app *a, cxl_err *err)
{
	const char *fault = getenv("CXLFAB_TEST_PARTITION_FAULT");

	if (a->nranks == 1)
		return 0;
	if (fault && *fault && atoi(fault) == a->rank && a->g.ncomp)
		a->rank_of[0] = (a->rank_of[0] + 1) % a->nranks;
	uint64_t v[2] = { sha_prefix(a->sha), map_hash(a->rank_of, a->g.ncomp) }, lo[2], hi[2];
	xport_agree_u64(v, 2, lo, hi);
	if (lo[0] != hi[0])
		return cxl_err_set(err, CXL_EINVAL, "%s: the ranks read different files (sha256 "
				   "prefixes %016llx .. %016llx; expected one config file seen "
				   "alike by every node)", a->opt.config,
				   (unsigned long long)lo[0], (unsigned long long)hi[0]);
	if (lo[1] != hi[1])
		return cxl_err_set(err, CXL_EINTERNAL, "the ranks computed different partitions "
				   "(rank map hashes %016llx .. %016llx; expected one map on every "
				   "rank)", (unsigned long long)lo[1], (unsigned long long)hi[1]);
	return 0;
}

/*
 * Rank 0 readies the output folder before any event runs (output_dir_open:
 * writable, not in use, an earlier run's files moved aside); every rank
 * learns whether it could (one collective), so a folder that cannot be
 * written stops the job before simulating instead of after.
 */
static int open_output(app *a, cxl_err *err)
{
	int rc = a->rank == 0 ? output_dir_open(&a->od, a->outdir, err) : 0;

	if (a->nranks > 1 && xport_max_int(rc != 0) && !rc)
		rc = CXL_EIO; /* rank 0 prints the reason */
	return rc;
}

static void set_outdir(app *a)
{
	if (a->opt.outdir) {
		snprintf(a->outdir, sizeof(a->outdir), "%s", a->opt.outdir);
		return;
	}
	if (a->restarting) { /* continue into the run's own folder */
		char *tmp = xstrdup(a->img.dir);
		size_t n = strlen(tmp);
		while (n > 1 && tmp[n - 1] == '/')
			tmp[--n] = '\0';
		snprintf(a->outdir, sizeof(a->outdir), "%s", dirname(tmp));
		free(tmp);
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
			 const series_set *series, const sim_rank_info *info, cxl_err *err)
{
	output_run o = {
		.od = &a->od, .config_path = a->opt.config, .config_sha256 = a->sha,
		.interrupted = a->interrupted ? main__signal_name(a->interrupted) : NULL,
		.restart_from = a->restarting ? a->img.dir : NULL,
		.restart_cut = a->img.cut, .events_before = a->img.events,
		.cf = a->cf, .g = &a->g, .rank_of = a->rank_of, .nranks = a->nranks,
		.partitioner = a->part->name,
		.seed = (uint64_t)cfg_int(a->cf, "simulation.seed"),
		.end = cfg_time(a->cf, "simulation.end"),
		.lookahead = sim_engine_lookahead(e), .edge_cut = sim_engine_edge_cut(e),
		.wall_s = wall() - a->t0, .info = info, .table = t,
		.summary = a->sys->summary,
		.requests = a->sys->requests,
		.series = series->period ? series : NULL,
		.series_summary = a->sys->series_summary,
	};
	return output_write(&o, err);
}

/* --partition-only: the partition for -n ranks (default: the job's size), no run. */
static int partition_only(app *a, cxl_err *err)
{
	int n = a->opt.nranks ? a->opt.nranks : a->nranks, rc;
	part_report r;

	if ((rc = main__partition(a, n, err)))
		return rc;
	if (a->rank != 0)
		return 0;
	part_report_compute(&r, &a->g, n, a->rank_of, a->part->name);
	if (!a->opt.quiet) {
		part_report_print(&r, stdout);
		mem_check(a, n, a->rank_of, 1, 0, err);
	}
	rc = output_file(a->outdir, "partition.json", part_report_json, &r, err);
	if (!rc && !a->opt.quiet)
		printf("  written to %s/partition.json\n", a->outdir);
	part_report_free(&r);
	return rc;
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

static void print_interrupted(const app *a, const sim_rank_info *info)
{
	sim_time t = 0;
	char ts[STIME_FMT_LEN];

	for (int r = 0; r < a->nranks; r++)
		t = info[r].sim_time > t ? info[r].sim_time : t;
	fprintf(stderr, "cxlfab: stopped by %s at simulated time %s, before the end; the "
		"results so far are in %s/ (stats.json: run.interrupted)\n",
		main__signal_name(a->interrupted), stime_format(t, ts), a->outdir);
	if (a->last_ckpt[0])
		fprintf(stderr, "cxlfab: continue it with: cxlfab --restart %s\n", a->last_ckpt);
	else
		fprintf(stderr, "cxlfab: no checkpoint was written (%s)\n",
			a->no_ckpt[0] ? a->no_ckpt : "no event was left before the end");
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

/* The engine's checkpoint writer (sim_ckpt_fn): every rank, same boundary. */
static int write_ckpt(void *ctx, sim_engine *e, sim_time cut, cxl_err *err)
{
	app *a = ctx;
	pack_w w = { 0 };
	double t0 = wall();
	uint64_t ev = sim_engine_events(e) + (a->rank == 0 ? a->img.events : 0);
	char name[64], ts[STIME_FMT_LEN];

	sim_engine_save(e, &w);
	size_t bytes = a->nranks > 1 ? (size_t)xport_sum_u64(w.n) : w.n;
	int rc = ckpt_dir_write(a->outdir, cut, a->rank, a->nranks, a->g.ncomp,
				(uint64_t)cfg_int(a->cf, "simulation.seed"), ev, w.p, w.n,
				a->cfg_text, a->cfg_len, err);
	free(w.p);
	ckpt_dir_name(cut, name, sizeof(name));
	if (!rc)
		snprintf(a->last_ckpt, sizeof(a->last_ckpt), "%s/%s", a->outdir, name);
	if (!rc && a->rank == 0 && !a->opt.quiet)
		printf("cxlfab: checkpoint at %s: %s (%.2f MB, %.3f s)\n", stime_format(cut, ts),
		       a->last_ckpt, (double)bytes / 1e6, wall() - t0);
	fflush(stdout);
	return rc;
}

/*
 * Can this run write checkpoints?  Asked for (--checkpoint-at,
 * simulation.checkpoint_period): it must, or it is an error.  Not asked
 * for: only the stop signals would, when they can.  Returns 1 (checkpoints
 * on), 0 (off) or a CXL_E* code.
 */
static int ckpt_setup(app *a, cxl_err *err)
{
	sim_time period = cfg_time(a->cf, "simulation.checkpoint_period");
	sim_time stop = stime_add_sat(cfg_time(a->cf, "simulation.end"),
				      a->sys->drain ? a->sys->drain(a->cf) : 0);
	const char *why = a->opt.nckpt ? "--checkpoint-at" :
			  period ? "simulation.checkpoint_period" : "a checkpoint at a stop signal";
	int asked = a->opt.nckpt || period;
	cxl_err local = { 0 };
	int rc = sim_can_checkpoint(&a->g, why, &local);
	char ts[STIME_FMT_LEN], te[STIME_FMT_LEN];

	if (!rc && a->opt.nprof)
		rc = cxl_err_set(&local, CXL_EINVAL, "%s: not with --profile-ranks", why);
	if (rc && !asked)
		snprintf(a->no_ckpt, sizeof(a->no_ckpt), "%s", local.msg);
	if (rc)
		return asked ? cxl_err_set(err, local.code, "%s", local.msg) : 0;
	for (int i = 0; i < a->opt.nckpt; i++)
		if (a->opt.ckpt_at[i] >= stop && !a->restarting)
			return cxl_err_set(err, CXL_EINVAL, "--checkpoint-at %s: at or after the end "
					   "of the run (%s; expected an earlier time)",
					   stime_format(a->opt.ckpt_at[i], ts), stime_format(stop, te));
	FILE *f = open_memstream(&a->cfg_text, &a->cfg_len);
	if (!f)
		return cxl_err_set(err, CXL_ENOMEM, "cannot hold the config for checkpoints");
	cfg_dump(a->cf, f);
	fclose(f);
	return 1;
}

static int simulate(app *a, cxl_err *err)
{
	sim_opts so = {
		.rank = a->rank, .nranks = a->nranks,
		.seed = (uint64_t)cfg_int(a->cf, "simulation.seed"),
		.end = cfg_time(a->cf, "simulation.end"),
		.drain = a->sys->drain ? a->sys->drain(a->cf) : 0,
		.sample_period = cfg_time(a->cf, "simulation.sample_period"),
		.progress = !a->opt.quiet && (a->opt.progress == 1 ||
					      (a->opt.progress == -1 && isatty(2))),
		.system = a->sys_data,
		.stop = &stop_signal,
		.ckpt_at = a->opt.ckpt_at, .nckpt = a->opt.nckpt,
		.ckpt_period = cfg_time(a->cf, "simulation.checkpoint_period"),
		.ckpt_ctx = a,
		.eager = a->opt.eager,
		.check_lazy = a->opt.check_lazy,
	};
	int ck = ckpt_setup(a, err), rc0;
	if (ck < 0)
		return ck;
	so.ckpt_write = ck ? write_ckpt : NULL;
	prof_plain plain = { 0 };
	if (a->opt.nprof && !(a->opt.net.event_s > 0) &&
	    (rc0 = main__plain_event_cost(a, &so, &plain, err)))
		return rc0;
	stats_set table;
	series_set series;
	sim_rank_info *info = xcalloc((size_t)a->nranks, sizeof(*info));
	sim_engine *e = sim_engine_create(&a->g, a->rank_of, a->cf, &so, err);
	int rc = e ? 0 : CXL_EINVAL;

	prof_log log;

	prof_log_init(&log);
	stats_set_init(&table);
	series_set_init(&series, 0);
	if (!rc && a->opt.nprof)
		sim_engine_record(e, &log);
	if (!rc && a->opt.verbose && a->rank == 0)
		print_setup(a, e);
	a->local_errors = 1; /* init failures and output errors are rank-local */
	if (!rc)
		rc = sim_engine_init(e, err);
	if (!rc && a->restarting && (rc = sim_engine_restore(e, &a->img, err)))
		sim_engine_collect(e, &table, info, NULL); /* the finish hooks; nothing written */
	else if (!rc) {
		main__install_signals();
		sim_engine_run(e);
		a->interrupted = sim_engine_interrupted(e);
		rc = sim_engine_ckpt_error(e, err);
		int rcol = sim_engine_collect(e, &table, info, rc ? NULL : err);
		rc = rc ? rc : rcol;
		/* every rank takes part (a collective), also after rank 0 failed */
		int rs = sim_engine_collect_series(e, &series, rc ? NULL : err);
		rc = rc ? rc : rs;
	}
	if (!rc && a->rank == 0) {
		rc = write_outputs(a, e, &table, &series, info, err);
		if (!rc && a->interrupted)
			print_interrupted(a, info);
		if (!rc && !a->opt.quiet)
			print_done(a, info);
		if (!rc && !a->opt.quiet && a->sys->report)
			a->sys->report(a->cf, &a->g, &table, stdout, stderr);
		if (!rc && a->opt.nprof)
			rc = main__profile(a, &log, info, stime_add_sat(so.end, so.drain), &plain, err);
	}
	prof_log_free(&log);
	stats_set_free(&table);
	series_set_free(&series);
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
		const cfg_schema **s = schemas_of(NULL, &ns);
		if (a->rank == 0)
			cfg_help((const cfg_schema *const *)s, ns, stdout);
		free(s);
		return 0;
	}
	default:
		break;
	}
	if (a->opt.restart) {
		if ((rc = ckpt_dir_read(a->opt.restart, &a->img, err)))
			return rc;
		a->restarting = 1;
		a->opt.config = a->img.config;
	}
	if ((rc = load(a, err)))
		return rc;
	if (a->restarting && (uint64_t)cfg_int(a->cf, "simulation.seed") != a->img.seed)
		return cxl_err_set(err, CXL_EINVAL, "%s: seed %lld, its manifest says %llu (damaged)",
				   a->img.config, (long long)cfg_int(a->cf, "simulation.seed"),
				   (unsigned long long)a->img.seed);
	if (a->opt.action == CLI_CHECK)
		return check(a, err);
	set_outdir(a);
	if (a->opt.action == CLI_PARTITION_ONLY)
		return partition_only(a, err);
	if (a->sys->not_runnable)
		return cxl_err_set(err, CXL_EINVAL, "%s: %s", a->opt.config, a->sys->not_runnable);
	if (a->opt.nprof && a->nranks > 1)
		return cxl_err_set(err, CXL_EINVAL, "--profile-ranks: the profile runs on one rank "
				   "(start it without mpirun), not %d", a->nranks);
	if ((rc = main__partition(a, a->nranks, err)) || (rc = agree_partition(a, err)) ||
	    (rc = mem_check(a, a->nranks, a->rank_of, 0, 1, err)) || (rc = open_output(a, err)))
		return rc;
	return simulate(a, err);
}

int main(int argc, char **argv)
{
	app a = { 0 };
	cxl_err err = { 0 };

	xport_start(&argc, &argv, &a.rank, &a.nranks);
	a.t0 = wall();
	a.od.lock_fd = -1;
	int rc = run(&a, argc, argv, &err);
	output_dir_close(&a.od);
	if (rc && err.msg[0] && (a.rank == 0 || a.local_errors)) {
		fprintf(stderr, "cxlfab: error: %s\n", err.msg);
		fflush(stderr);
	}
	fflush(stdout);
	free(a.rank_of);
	if (a.sys_data)
		a.sys->free_sys(a.sys_data);
	graph_free(&a.g);
	if (a.cf)
		cfg_free(a.cf);
	ckpt_image_free(&a.img);
	free(a.cfg_text);
	cli_free(&a.opt);
	xport_stop();
	return !rc && a.interrupted ? CXL_EXIT_INTERRUPTED : cxl_exit_code(rc);
}
