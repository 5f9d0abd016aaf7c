/*
 * traces/trc_cli.h - command-line parsing for cxlfab-trace: options of the
 * form --name VALUE, --name=VALUE or --flag, positional arguments, and the
 * value parsers (integers, byte sizes, fractions, times, names).
 *
 * Each parser fills a cxl_err with "--name VALUE: what is wrong (what was
 * expected)" and returns CXL_EINVAL, so the tool prints one line and exits 2.
 * No state outside the caller's structs.
 */
#ifndef CXL_TRACES_TRC_CLI_H
#define CXL_TRACES_TRC_CLI_H

#include <stdint.h>

#include "core/err.h"

typedef struct trc_opt trc_opt;
struct trc_opt {
	const char *name;  /* "--records" */
	int flag;          /* 1: takes no value */
	const char *val;   /* OUT the value ("1" for a flag), NULL if not given */
};

#define TRC_CLI_POS_MAX 4 /* most positional arguments of a subcommand */

/**
 * trc_cli_parse - sort @argv into options and positional arguments.
 * @cmd:  subcommand name for messages
 * @argc: argument count (after the subcommand)
 * @argv: arguments; "--" ends options; "-" alone is positional (stdin)
 * @opts: the subcommand's options, @nopts of them; .val OUT (last one wins)
 * @pos:  OUT positional arguments, up to @npos
 * @npos: number of positional arguments expected exactly
 * @err:  OUT error record, may be NULL
 *
 * Return: 0, or CXL_EINVAL for an unknown option, a missing value, or the
 * wrong number of positional arguments.
 */
int trc_cli_parse(const char *cmd, int argc, char **argv, trc_opt *opts, int nopts,
		  const char **pos, int npos, cxl_err *err);

/* trc_cli_wants_help - 1 if @argv holds -h or --help before any "--". */
int trc_cli_wants_help(int argc, char **argv);

/* trc_cli_u64 - decimal or 0x-hex unsigned integer. */
int trc_cli_u64(const char *opt, const char *s, uint64_t *v, cxl_err *err);

/* trc_cli_bytes - byte count: an integer with an optional K, M, G or T
 * suffix (also KiB, MiB, GiB, TiB; powers of 1024). */
int trc_cli_bytes(const char *opt, const char *s, uint64_t *v, cxl_err *err);

/* trc_cli_fraction - a number in [0, 1]. */
int trc_cli_fraction(const char *opt, const char *s, double *v, cxl_err *err);

/* trc_cli_time - a time with unit ("1ns", "0.625ns"), exact to the ps; @positive rejects 0. */
int trc_cli_time(const char *opt, const char *s, int positive, uint64_t *ps, cxl_err *err);

/**
 * trc_cli_ipns - an instruction rate in instructions per ns ("1", "2.5",
 * "0.25"; at most 9 decimals) as the time of one instruction in *@ps, which
 * must come out a whole number of ps, 1 or more (3 per ns, 333.3 ps, is
 * refused: give --clock 333ps instead).
 */
int trc_cli_ipns(const char *opt, const char *s, uint64_t *ps, cxl_err *err);

/**
 * trc_cli_choice - index of @s in @names (@n of them).
 * The message lists the names separated by '|'.
 */
int trc_cli_choice(const char *opt, const char *s, const char *const *names, int n, int *out,
		   cxl_err *err);

#endif
