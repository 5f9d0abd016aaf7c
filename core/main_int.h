/*
 * core/main_int.h - bin/cxlfab's own state and the steps shared by its
 * files: main.c (options, config, build, partition, run, output) and
 * main_profile.c (the --profile-ranks driver).  Not for the library.
 */
#ifndef CXL_CORE_MAIN_INT_H
#define CXL_CORE_MAIN_INT_H

#include "core/ckpt_dir.h"
#include "core/cli.h"
#include "core/engine.h"
#include "core/output.h"
#include "core/profile.h"
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
	void *sys_data;           /* the builder's own description (fabric), or NULL */
	int32_t *rank_of;         /* partition */
	const part_ops *part;     /* partitioner */
	char outdir[4096];        /* output folder */
	output_dir od;            /* the output folder while the run runs (rank 0) */
	char sha[65];             /* sha256 of the config file as loaded, hex ("" without one) */
	int interrupted;          /* signal that stopped the run, 0 if none */
	int local_errors;         /* errors from here on are found by one rank only */
	ckpt_image img;           /* --restart: the checkpoint, read whole */
	int restarting;           /* img holds it */
	char *cfg_text;           /* the effective config (cfg_dump), for checkpoints */
	size_t cfg_len;           /* its length */
	char last_ckpt[4200];     /* the last checkpoint written ("" if none) */
	char no_ckpt[512];        /* why this run cannot write checkpoints ("" if it can) */
};

/* main__install_signals - the stop signals set the engine's flag, from the event loop on. */
void main__install_signals(void);
/* main__signal_name - "SIGTERM", "SIGUSR1", "SIGINT" or "a signal". */
const char *main__signal_name(int sig);
/* main__partition - a->rank_of for @nranks with the chosen partitioner (a->part). */
int main__partition(app *a, int nranks, cxl_err *err);

/* --profile-ranks (main_profile.c): the plain run's cost per event, then the profile. */
int main__plain_event_cost(app *a, const sim_opts *so, prof_plain *out, cxl_err *err);
int main__profile(app *a, prof_log *log, const sim_rank_info *info, sim_time stop,
		  const prof_plain *plain, cxl_err *err);

#endif
