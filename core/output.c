/*
 * core/output.c - stats.json, components.csv, config.cfg and the time
 * series files (see output.h).
 */
#include "core/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sim.h"
#include "core/version.h"
#include "core/xmalloc.h"

/* output_mkdirs - create @dir and its parents (output.h). */
int output_mkdirs(const char *dir, cxl_err *err)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return cxl_err_set(err, CXL_EIO, "%s: output path too long", dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return cxl_err_set(err, CXL_EIO, "%s: cannot create: %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return cxl_err_set(err, CXL_EIO, "%s: cannot create: %s", buf, strerror(errno));
	return 0;
}

/*
 * Write @path with @fn through stdio; the message names @shown.  A write
 * error (a full disk: ENOSPC, a file-size limit: EFBIG, SIGXFSZ being
 * ignored by main) is one CXL_EIO with the system's reason.
 */
static int write_path(const char *path, const char *shown, output_writer_fn *fn,
		      const void *ctx, cxl_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot write: %s", shown, strerror(errno));
	errno = 0;
	fn(ctx, f);
	int bad = fflush(f) || ferror(f), e = errno;
	if (fclose(f) && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		remove(path);
		return cxl_err_set(err, CXL_EIO, "%s: write failed: %s", shown,
				   e ? strerror(e) : "unknown error");
	}
	return 0;
}

/**
 * output_file - write @dir/@name through a temp file and a rename, creating
 * @dir (and its parents) if missing.  @fn writes the content of @ctx.
 * Returns 0 or CXL_EIO with the path in @err.
 */
int output_file(const char *dir, const char *name, output_writer_fn *fn, const void *ctx,
		cxl_err *err)
{
	char path[4096], tmp[4200];
	int rc = output_mkdirs(dir, err);

	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((rc = write_path(tmp, path, fn, ctx, err)))
		return rc;
	if (rename(tmp, path))
		return cxl_err_set(err, CXL_EIO, "%s: cannot rename: %s", path, strerror(errno));
	return 0;
}

/* One file of a run, into the run's private folder (output_dir.c). */
static int run_file(const output_run *o, const char *name, output_writer_fn *fn,
		    cxl_err *err)
{
	char path[8192], shown[8192];

	snprintf(path, sizeof(path), "%s/%s", o->od->tmp, name);
	snprintf(shown, sizeof(shown), "%s/%s", o->od->dir, name);
	return write_path(path, shown, fn, o, err);
}

static void hist_digest(json_w *w, const stats_hist *h)
{
	json_obj_inline(w);
	json_key(w, "count");
	json_u64(w, h->count);
	json_key(w, "mean");
	json_dbl(w, stats_hist_mean(h));
	json_key(w, "min");
	json_u64(w, h->count ? h->min : 0);
	json_key(w, "p50");
	json_u64(w, stats_hist_quantile(h, 0.5));
	json_key(w, "p99");
	json_u64(w, stats_hist_quantile(h, 0.99));
	json_key(w, "max");
	json_u64(w, h->max);
	json_end(w);
}

/* A list with one value per rank: the u64 (or double) field at offset @off. */
static void per_rank(json_w *w, const output_run *o, const char *key, size_t off,
		     int is_double)
{
	json_key(w, key);
	json_arr_inline(w);
	for (int r = 0; r < o->nranks; r++) {
		const char *p = (const char *)&o->info[r] + off;
		if (is_double)
			json_dbl(w, *(const double *)(const void *)p);
		else
			json_u64(w, *(const uint64_t *)(const void *)p);
	}
	json_end(w);
}

static void run_section(const output_run *o, json_w *w)
{
	uint64_t events = 0, lazy = 0, windows = 0, remote = 0;
	double loop = 0, wait = 0;
	sim_time t = 0;

	for (int r = 0; r < o->nranks; r++) {
		events += o->info[r].events;
		lazy += o->info[r].lazy_events;
		remote += o->info[r].remote_out;
		windows = o->info[r].windows;
		loop = o->info[r].loop_s > loop ? o->info[r].loop_s : loop;
		wait = o->info[r].wait_s > wait ? o->info[r].wait_s : wait;
		t = o->info[r].sim_time > t ? o->info[r].sim_time : t;
	}
	json_key(w, "version"); json_str(w, CXL_VERSION);
	if (o->interrupted) {
		json_key(w, "interrupted"); json_bool(w, 1);
		json_key(w, "interrupted_by"); json_str(w, o->interrupted);
	}
	if (o->restart_from) {
		json_key(w, "restart");
		json_obj_inline(w);
		json_key(w, "checkpoint"); json_str(w, o->restart_from);
		json_key(w, "cut_ps"); json_u64(w, o->restart_cut);
		json_key(w, "events_before"); json_u64(w, o->events_before);
		json_end(w);
	}
	json_key(w, "config"); json_str(w, o->config_path ? o->config_path : "");
	json_key(w, "config_sha256"); json_str(w, o->config_sha256);
	json_key(w, "ranks"); json_i64(w, o->nranks);
	json_key(w, "partitioner"); json_str(w, o->partitioner);
	json_key(w, "seed"); json_u64(w, o->seed);
	json_key(w, "wall_s"); json_dbl(w, o->wall_s);
	json_key(w, "loop_s"); json_dbl(w, loop);
	json_key(w, "events"); json_u64(w, events);
	json_key(w, "events_per_s"); json_dbl(w, loop > 0 ? (double)events / loop : 0.0);
	if (o->requests) {
		/* events the whole run took per request it completed (null: none) */
		uint64_t n = o->requests(o->cf, o->g, o->table);
		json_key(w, "events_per_request");
		if (n)
			json_dbl(w, (double)(events + o->events_before) / (double)n);
		else
			json_null(w);
	}
	/* lazy events (credits) handled without the queue, not in events (core/sim_lazy.c) */
	json_key(w, "lazy_events"); json_u64(w, lazy);
	json_key(w, "windows"); json_u64(w, windows);
	json_key(w, "events_per_window"); json_dbl(w, windows ? (double)events / (double)windows : 0.0);
	/* null with one rank, or nothing cut: no lookahead applies */
	json_kv_u64_or_null(w, "lookahead_ps", o->lookahead, SIM_TIME_MAX);
	json_key(w, "edge_cut"); json_u64(w, o->edge_cut);
	json_key(w, "remote_events"); json_u64(w, remote);
	json_key(w, "mpi_wait_s"); json_dbl(w, wait);
	json_key(w, "sim_time_ps"); json_u64(w, t);
	json_key(w, "end_ps"); json_u64(w, o->end);
	per_rank(w, o, "peak_rss_bytes", offsetof(sim_rank_info, peak_rss), 0);
	per_rank(w, o, "events_per_rank", offsetof(sim_rank_info, events), 0);
	per_rank(w, o, "remote_events_per_rank", offsetof(sim_rank_info, remote_out), 0);
	per_rank(w, o, "components_per_rank", offsetof(sim_rank_info, components), 0);
	per_rank(w, o, "mpi_wait_s_per_rank", offsetof(sim_rank_info, wait_s), 1);
	per_rank(w, o, "peak_live_events_per_rank", offsetof(sim_rank_info, peak_events), 0);
}

static void components_section(const output_run *o, json_w *w)
{
	for (size_t i = 0; i < o->table->n; i++) {
		const stats_comp *c = &o->table->c[i];
		json_key(w, o->g->comp[c->id].name);
		json_obj(w);
		json_key(w, "type");
		json_str(w, o->g->comp[c->id].ops->name);
		for (size_t j = 0; j < c->n; j++) {
			json_key(w, c->e[j]->name);
			if (c->e[j]->kind == STATS_COUNTER)
				json_u64(w, *c->e[j]->value);
			else
				hist_digest(w, &c->e[j]->h);
		}
		json_end(w);
	}
}

static void write_stats(const void *ctx, FILE *f)
{
	const output_run *o = ctx;
	json_w w;

	json_init(&w, f);
	json_obj(&w);
	json_key(&w, "run");
	json_obj(&w);
	run_section(o, &w);
	json_end(&w);
	json_key(&w, "summary");
	json_obj(&w);
	o->summary(o->cf, o->g, o->table, &w);
	json_end(&w);
	json_key(&w, "components");
	json_obj(&w);
	components_section(o, &w);
	json_end(&w);
	json_end(&w);
	json_finish(&w);
}

static void write_csv(const void *ctx, FILE *f)
{
	const output_run *o = ctx;
	static const char *const parts[] = { "count", "mean", "min", "p50", "p99", "max" };

	fputs("component,type,rank,stat,value\n", f);
	for (size_t i = 0; i < o->table->n; i++) {
		const stats_comp *c = &o->table->c[i];
		const graph_comp *gc = &o->g->comp[c->id];
		for (size_t j = 0; j < c->n; j++) {
			const stats_entry *e = c->e[j];
			if (e->kind == STATS_COUNTER) {
				fprintf(f, "%s,%s,%d,%s,%" PRIu64 "\n", gc->name, gc->ops->name,
					o->rank_of[c->id], e->name, *e->value);
				continue;
			}
			const stats_hist *h = &e->h;
			double v[6] = { (double)h->count, stats_hist_mean(h),
					(double)(h->count ? h->min : 0),
					(double)stats_hist_quantile(h, 0.5),
					(double)stats_hist_quantile(h, 0.99), (double)h->max };
			for (int k = 0; k < 6; k++)
				fprintf(f, "%s,%s,%d,%s.%s,%.9g\n", gc->name, gc->ops->name,
					o->rank_of[c->id], e->name, parts[k], v[k]);
		}
	}
}

/*
 * A line buffer for timeseries.csv, which has a row per period and series
 * (a million rows for rack-4096 to 2 us at 100 ns): rows are assembled with
 * memcpy and written 64 KiB at a time, several times faster than fprintf.
 */
typedef struct obuf obuf;
struct obuf {
	FILE *f;          /* output */
	size_t n;         /* bytes in b */
	char b[1 << 16];  /* pending bytes */
};

static void ob_put(obuf *o, const char *s, size_t len)
{
	if (o->n + len > sizeof(o->b)) {
		fwrite(o->b, 1, o->n, o->f);
		o->n = 0;
		if (len > sizeof(o->b)) {
			fwrite(s, 1, len, o->f);
			return;
		}
	}
	memcpy(o->b + o->n, s, len);
	o->n += len;
}

/* ob_u64 - @v in decimal, then @sep. */
static void ob_u64(obuf *o, uint64_t v, char sep)
{
	char d[24], *p = d + sizeof(d);

	*--p = sep;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ob_put(o, p, (size_t)(d + sizeof(d) - p));
}

static void ob_str(obuf *o, const char *s, char sep)
{
	ob_put(o, s, strlen(s));
	ob_put(o, &sep, 1);
}

/* timeseries.csv: period by period, components in id order, series as registered. */
static void write_series(const void *ctx, FILE *f)
{
	const output_run *o = ctx;
	const series_set *t = o->series;
	uint32_t np = series_nperiods(t);
	obuf *ob = xmalloc(sizeof(*ob));

	ob->f = f;
	ob->n = 0;
	ob_str(ob, "time_ps,component,type,stat,value", '\n');
	for (uint32_t k = 0; k < np; k++) {
		for (size_t i = 0; i < t->n; i++) {
			const series_comp *c = &t->c[i];
			const graph_comp *gc = &o->g->comp[c->id];
			for (size_t j = 0; j < c->n; j++) {
				ob_u64(ob, (uint64_t)k * t->period, ',');
				ob_str(ob, gc->name, ',');
				ob_str(ob, gc->ops->name, ',');
				ob_str(ob, c->s[j]->name, ',');
				ob_u64(ob, series_at(c->s[j], k), '\n');
			}
		}
	}
	fwrite(ob->b, 1, ob->n, f);
	free(ob);
}

static void write_series_summary(const void *ctx, FILE *f)
{
	const output_run *o = ctx;

	o->series_summary(o->cf, o->g, o->series, f);
}

static void write_config(const void *ctx, FILE *f)
{
	const output_run *o = ctx;
	fprintf(f, "# effective configuration of this run (every key, defaults included)\n");
	cfg_dump(o->cf, f);
}

/**
 * output_write - write every file of the run into @o->od's private folder,
 * stats.json last, then move them into the output folder as a unit
 * (output_dir_commit).  Returns 0 or CXL_EIO naming the file.
 */
int output_write(const output_run *o, cxl_err *err)
{
	int rc = run_file(o, "config.cfg", write_config, err);

	if (!rc)
		rc = run_file(o, "components.csv", write_csv, err);
	if (!rc && o->series)
		rc = run_file(o, "timeseries.csv", write_series, err);
	if (!rc && o->series && o->series_summary)
		rc = run_file(o, "timeseries_summary.csv", write_series_summary, err);
	if (!rc)
		rc = run_file(o, "stats.json", write_stats, err);
	if (!rc)
		rc = output_dir_commit(o->od, err);
	return rc;
}
