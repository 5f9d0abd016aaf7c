/*
 * core/cli.h - command-line options of bin/cxlfab.
 *
 * cli_parse() turns argv into a cli_opts without side effects: no output,
 * no MPI, no files; main() decides what to print and on which rank.  The
 * text of --help lives in cli.c next to the parser, so the two cannot drift.
 */
#ifndef CXL_CORE_CLI_H
#define CXL_CORE_CLI_H

#include <stdio.h>

#include "core/err.h"
#include "core/profile.h"
#include "core/stime.h"

enum cli_action { CLI_RUN, CLI_HELP, CLI_HELP_CONFIG, CLI_VERSION, CLI_CHECK,
		  CLI_PARTITION_ONLY };

#define CLI_MAX_RANKS 1048576 /* -n bound */

typedef struct cli_opts cli_opts;
struct cli_opts {
	enum cli_action action;  /* what to do */
	const char *config;      /* config file (NULL: none given) */
	const char *outdir;      /* -o; NULL: out/<config basename> */
	const char *partition;   /* --partition name; NULL: the system's default */
	const char **sets;       /* --set KEY=VALUE, plus --seed/--end rewritten as sets */
	int nsets;               /* number of sets */
	char **owned;            /* strings allocated for rewritten sets */
	int nowned;              /* number of them */
	int progress;            /* -1 default (on if stderr is a tty), 0 off, 1 on */
	int quiet;               /* -q */
	int verbose;             /* -v */
	int eager;               /* --eager-events: queue lazy events too (core/sim_lazy.c) */
	int check_lazy;          /* --check-lazy: check the lazy_ok contract (core/sim_lazy.c) */
	const char *dot;         /* --dot FILE (with --check), NULL if none */
	int nranks;              /* -n N (with --partition-only), 0 if not given */
	int *prof_ranks;         /* --profile-ranks: rank counts to predict (owned) */
	int nprof;               /* their number; 0: no profile */
	prof_net net;            /* --profile-net (default PROF_NET_DEFAULT) */
	int net_given;           /* --profile-net was given */
	sim_time *ckpt_at;       /* --checkpoint-at times, ascending, no repeats (owned) */
	int nckpt;               /* their number */
	const char *restart;     /* --restart DIR: the checkpoint to continue, NULL if none */
};

/* cli_parse - parse @argv; CXL_EINVAL with a message naming the bad option. */
int cli_parse(int argc, char **argv, cli_opts *o, cxl_err *err);
void cli_free(cli_opts *o);
void cli_usage(FILE *f);

#endif
