/*
 * core/engine.h - driving a simulation: create, initialise, run, collect.
 *
 * Used by main() (and MPI integration tests), never by models.  Every rank
 * calls the same sequence with the same graph, partition and options:
 *   sim_engine_create -> sim_engine_init -> sim_engine_run ->
 *   sim_engine_collect [-> sim_engine_collect_series] -> sim_engine_destroy
 * Errors in init are agreed on by all ranks (one collective), so a bad input
 * on one rank makes every rank return the same error code: no hang.
 */
#ifndef CXL_CORE_ENGINE_H
#define CXL_CORE_ENGINE_H

#include <signal.h>
#include <stdint.h>

#include "core/cfg.h"
#include "core/err.h"
#include "core/graph.h"
#include "core/pack.h"
#include "core/series.h"
#include "core/stats.h"
#include "core/stime.h"

typedef struct sim_engine sim_engine;

/*
 * A checkpoint writer (main.c): every rank calls it at the same window
 * boundary, with the cut time (every event before it has run, none at or
 * after it); it saves with sim_engine_save() and returns 0 or a CXL_E*
 * code agreed by every rank (a failed write ends the run with it).
 */
typedef int sim_ckpt_fn(void *ctx, sim_engine *e, sim_time cut, cxl_err *err);

/* The engine's keys: simulation.end (required), simulation.seed,
 * simulation.sample_period. */
extern const cfg_schema sim_schema;

typedef struct sim_opts sim_opts;
struct sim_opts {
	int rank, nranks;  /* this rank, ranks in the job */
	uint64_t seed;     /* run seed (RNG streams) */
	sim_time end;      /* simulation.end: the progress line's 100 % */
	sim_time drain;    /* events at time >= end + drain are not executed; a run
			      with no event left stops earlier (0: stop at end) */
	sim_time sample_period; /* time series period, ps; 0: off (series.h) */
	int progress;      /* 1: rank 0 prints a progress line at most once a second */
	const void *system; /* the builder's description, handed to models (sim_system) */
	const volatile sig_atomic_t *stop; /* set asynchronously (a signal handler) to a
				   signal number 1..65535: stop at the next window boundary
				   (sync.c); NULL: never */
	const sim_time *ckpt_at; /* checkpoint cut times, ascending (sync.c) */
	int nckpt;               /* their number */
	sim_time ckpt_period;    /* also one every this long (0: none) */
	sim_ckpt_fn *ckpt_write; /* writes a checkpoint: every rank calls it at the same
				    window boundary; also when a stop signal ends the run.
				    NULL: no checkpoints */
	void *ckpt_ctx;          /* its context */
	int eager;               /* --eager-events: queue lazy events too (sim_lazy.c) */
	int check_lazy;          /* --check-lazy: check the models' lazy_ok contract at
				    every absorb (sim_lazy.c) */
};

/* Per-rank figures of a finished run, gathered for the `run` section. */
typedef struct sim_rank_info sim_rank_info;
struct sim_rank_info {
	uint64_t events;       /* events executed on this rank */
	uint64_t lazy_events;  /* lazy events handled without the queue (sim_lazy.c) */
	uint64_t windows;      /* synchronisation windows */
	uint64_t remote_out;   /* events sent to other ranks */
	uint64_t components;   /* components on this rank */
	uint64_t peak_rss;     /* peak resident set, bytes */
	uint64_t peak_events;  /* most events alive at once (pool) */
	double loop_s;         /* wall seconds in the event loop, including waits */
	double wait_s;         /* wall seconds in MPI (min collective + exchange) */
	sim_time sim_time;     /* time of the last executed event, ps */
};

/**
 * sim_engine_create - set up this rank's share of the system.
 * @g:       the whole system graph (identical on every rank)
 * @rank_of: partition, rank of every component
 * @cf:      the loaded configuration, handed to model init hooks
 * @o:       options
 * @err:     OUT error record
 * Returns the engine or NULL with @err set (a cut link of latency 0).
 */
sim_engine *sim_engine_create(const sim_graph *g, const int32_t *rank_of,
			      const cfg *cf, const sim_opts *o, cxl_err *err);

/*
 * sim_engine_init - run every local component's init hook (all ranks
 * agree), then, with time series on, check that the series every component
 * registered fit the bound (series_cells() <= SERIES_MAX_CELLS over
 * simulation.end): else CXL_EINVAL naming simulation.sample_period, the
 * numbers and the shortest period that fits.  On failure the components
 * whose init succeeded have had their finish hook (to release what init
 * took): do not call sim_engine_collect then, only sim_engine_destroy.
 */
int sim_engine_init(sim_engine *e, cxl_err *err);

/*
 * sim_engine_run - the conservative window loop until no event before end,
 * or until *opt.stop asks to stop (every rank at the same window boundary).
 */
void sim_engine_run(sim_engine *e);

/*
 * Checkpoints (core/ckpt_engine.c; the file side is core/ckpt_dir.h).
 * sim_engine_save - append this rank's share of a checkpoint (every
 * local component's record, the pending events; format in ckpt_engine.c)
 * to @w.  Only inside a sim_ckpt_fn.
 */
void sim_engine_save(sim_engine *e, pack_w *w);

typedef struct ckpt_image ckpt_image;
/*
 * sim_engine_restore - after sim_engine_init: replace the state init built
 * with the checkpoint's (components' records, pending events) and go on
 * from its cut.  Every rank calls it; the ranks agree on the outcome.
 * Returns 0, or CXL_EINVAL naming the component whose record does not
 * restore (a checkpoint of another config, or damaged).
 */
int sim_engine_restore(sim_engine *e, const ckpt_image *img, cxl_err *err);

/*
 * sim_can_checkpoint - 0 if every component type of @g has a checkpoint
 * hook, else CXL_EINVAL naming the first that has none (@why: the option
 * that asked for checkpoints).
 */
int sim_can_checkpoint(const sim_graph *g, const char *why, cxl_err *err);

/* sim_engine_events - events this rank has executed so far. */
uint64_t sim_engine_events(const sim_engine *e);

/* sim_engine_ckpt_error - the error a checkpoint write ended the run with (0: none). */
int sim_engine_ckpt_error(const sim_engine *e, cxl_err *err);

/* sim_engine_interrupted - the signal that stopped the run early (all ranks agree), 0 if none. */
int sim_engine_interrupted(const sim_engine *e);

/* sim_engine_lookahead - the cross-rank lookahead in ps (SIM_TIME_MAX if none). */
sim_time sim_engine_lookahead(const sim_engine *e);
/* sim_engine_edge_cut - links between components on different ranks. */
uint64_t sim_engine_edge_cut(const sim_engine *e);

typedef struct prof_log prof_log;
/*
 * sim_engine_record - log every send from now on into @log (core/profile.h;
 * the rank profile), NULL to stop.  Before sim_engine_init, so that init's
 * sends are logged too.
 */
void sim_engine_record(sim_engine *e, prof_log *log);

/**
 * sim_engine_collect - run finish hooks, then gather statistics and rank
 * info at rank 0.  At rank 0 fills @table (sorted by component id) and
 * @info[0..nranks-1]; elsewhere leaves them untouched.
 */
int sim_engine_collect(sim_engine *e, stats_set *table, sim_rank_info *info,
		       cxl_err *err);

/**
 * sim_engine_collect_series - after sim_engine_collect: end every time
 * series at the run's last event (agreed by all ranks), gather them at rank
 * 0 and merge them into @table (initialised with series_set_init(t, 0);
 * sorted by component id) there; elsewhere @table is untouched.  Every rank
 * calls it; with sampling off it does nothing and returns 0.
 * Returns 0, or CXL_EINTERNAL if a rank's bytes do not merge.
 */
int sim_engine_collect_series(sim_engine *e, series_set *table, cxl_err *err);

void sim_engine_destroy(sim_engine *e);

/*
 * sim_override_applies - whether override entry @i of @cf applies to
 * component @gc: its group is read by the component's model and its glob
 * matches the name (up to a ':', so the slices "X:k" of a switch are X).
 */
int sim_override_applies(const cfg *cf, size_t i, const graph_comp *gc);

/*
 * sim_check_overrides - every per-component override entry of @cf must
 * apply to at least one component of @g (its group read by the component's
 * model, its glob matching the name).  Return: 0, or CXL_EINVAL naming the
 * entry's FILE:LINE and the groups per-component overrides exist for.
 */
int sim_check_overrides(const sim_graph *g, const cfg *cf, cxl_err *err);

#endif
