/*
 * models/host/prog_script.c - the "program" generator: the operations of
 * workload.program, one string each, parsed once at init and run by every
 * process of the host (prog.h; per-host programs through the workload
 * overrides).  Also the names of the operation kinds.
 *
 * Syntax of an operation (sizes as in core/size.h, times as in
 * core/stime.h, addresses decimal or 0x hex bytes):
 *     load|store|nt_load|nt_store|uc_load|uc_store|flush|flushopt ADDR [SIZE]
 *     fence
 *     set_flag ADDR VALUE [cached|nt|uc]
 *     wait_flag ADDR VALUE
 *     wait_irq VALUE    (the process's interrupts, prog.h)
 *     atomic ADDR
 *     compute TIME
 *     mark begin|end NAME [BYTES]
 *     repeat N          (as the first operation: the program runs N times)
 * SIZE defaults to one line (64 B); a flag's ADDR must be a multiple of
 * PROG_FLAG_ALIGN; VALUE is 0-65535.  A `mark` NAME becomes a measurement
 * class (statistics mark_NAME_*, prog.c).
 */
#include "models/host/prog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "core/stime.h"
#include "core/xmalloc.h"

static const char *const kind_names[PROG_NKINDS] = {
	[PROG_LOAD] = "load",         [PROG_STORE] = "store",
	[PROG_NT_LOAD] = "nt_load",   [PROG_NT_STORE] = "nt_store",
	[PROG_UC_LOAD] = "uc_load",   [PROG_UC_STORE] = "uc_store",
	[PROG_FLUSH] = "flush",       [PROG_FLUSHOPT] = "flushopt",
	[PROG_FENCE] = "fence",       [PROG_SET_FLAG] = "set_flag",
	[PROG_WAIT_FLAG] = "wait_flag", [PROG_ATOMIC] = "atomic",
	[PROG_COMPUTE] = "compute",   [PROG_MARK] = "mark",
	[PROG_WAIT_IRQ] = "wait_irq",
};

const char *prog_kind_name(enum prog_kind k)
{
	return (unsigned)k < PROG_NKINDS ? kind_names[k] : "?";
}

int prog_kind_parse(const char *s)
{
	for (int k = 0; k < PROG_NKINDS; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

#define SCRIPT_MAX_MARKS 64
#define SCRIPT_MAX_WORDS 5

typedef struct script script;
struct script {
	prog_op *op;          /* [nop] the program */
	size_t nop;
	uint64_t repeat;      /* times each process runs it */
	uint32_t cores;       /* processes */
	uint64_t *pc;         /* [cores] next operation, counting repeats */
	char *mark[SCRIPT_MAX_MARKS]; /* class names */
	uint32_t nmark;
};

/* Split @s (modified) into at most SCRIPT_MAX_WORDS blank-separated words. */
static int split(char *s, char **w)
{
	int n = 0;

	for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t")) {
		if (n == SCRIPT_MAX_WORDS)
			return -1;
		w[n++] = t;
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

static uint32_t mark_class(script *sc, const char *name)
{
	for (uint32_t k = 0; k < sc->nmark; k++)
		if (!strcmp(sc->mark[k], name))
			return k;
	if (sc->nmark == SCRIPT_MAX_MARKS)
		return UINT32_MAX;
	sc->mark[sc->nmark] = xstrdup(name);
	return sc->nmark++;
}

/* Parse operation @i (text @text) into sc->op[sc->nop]; 0 or a message in @why. */
static int parse_op(script *sc, const char *text, size_t i, char *why, size_t n)
{
	char buf[256], *w[SCRIPT_MAX_WORDS];
	prog_op op = { .size = 64 };
	cxl_err e;
	int nw, k;

	if (strlen(text) >= sizeof(buf))
		return snprintf(why, n, "too long"), -1;
	strcpy(buf, text);
	if ((nw = split(buf, w)) <= 0)
		return snprintf(why, n, nw ? "too many words" : "empty"), -1;
	if (!strcmp(w[0], "repeat")) {
		if (i || nw != 2 || parse_u64(w[1], &sc->repeat) || !sc->repeat)
			return snprintf(why, n, "`repeat N` (N >= 1) must be the first operation"), -1;
		return 1;
	}
	if ((k = prog_kind_parse(w[0])) < 0)
		return snprintf(why, n, "unknown operation `%s`", w[0]), -1;
	op.kind = (uint8_t)k;
	switch (k) {
	case PROG_FENCE:
		if (nw != 1)
			return snprintf(why, n, "fence takes nothing"), -1;
		break;
	case PROG_COMPUTE:
		if (nw != 2 || stime_parse(w[1], &op.addr, &e))
			return snprintf(why, n, "expected `compute TIME` (e.g. 100ns)"), -1;
		break;
	case PROG_MARK:
		if (nw < 3 || nw > 4 || (strcmp(w[1], "begin") && strcmp(w[1], "end")) ||
		    (nw == 4 && (w[1][0] == 'b' || size_parse(w[3], &op.size, &e))))
			return snprintf(why, n, "expected `mark begin NAME` or `mark end NAME [BYTES]`"),
			       -1;
		op.mode = w[1][0] == 'e';
		op.size = nw == 4 ? op.size : 0;
		if ((op.mark = mark_class(sc, w[2])) == UINT32_MAX)
			return snprintf(why, n, "more than %d mark names", SCRIPT_MAX_MARKS), -1;
		break;
	case PROG_SET_FLAG:
	case PROG_WAIT_FLAG: {
		uint64_t v;
		if (nw < 3 || nw > 3 + (k == PROG_SET_FLAG) || parse_u64(w[1], &op.addr) ||
		    parse_u64(w[2], &v) || v > 65535)
			return snprintf(why, n, "expected `%s ADDR VALUE%s` (VALUE 0-65535)", w[0],
					k == PROG_SET_FLAG ? " [cached|nt|uc]" : ""), -1;
		op.value = (uint16_t)v;
		if (nw == 4) {
			int m = !strcmp(w[3], "cached") ? PROG_MODE_CACHED :
				!strcmp(w[3], "nt") ? PROG_MODE_NT : !strcmp(w[3], "uc") ? PROG_MODE_UC : -1;
			if (m < 0)
				return snprintf(why, n, "set_flag mode `%s` (expected cached|nt|uc)",
						w[3]), -1;
			op.mode = (uint8_t)m;
		}
		if (op.addr % PROG_FLAG_ALIGN)
			return snprintf(why, n, "flag address %#llx is not a multiple of %d",
					(unsigned long long)op.addr, PROG_FLAG_ALIGN), -1;
		break;
	}
	case PROG_WAIT_IRQ: {
		uint64_t v;
		if (nw != 2 || parse_u64(w[1], &v) || v > 65535)
			return snprintf(why, n, "expected `wait_irq VALUE` (VALUE 0-65535)"), -1;
		op.value = (uint16_t)v;
		break;
	}
	case PROG_ATOMIC:
		if (nw != 2 || parse_u64(w[1], &op.addr))
			return snprintf(why, n, "expected `atomic ADDR`"), -1;
		op.size = 8;
		break;
	default: /* the accesses */
		if (nw < 2 || nw > 3 || parse_u64(w[1], &op.addr) ||
		    (nw == 3 && size_parse(w[2], &op.size, &e)) || !op.size)
			return snprintf(why, n, "expected `%s ADDR [SIZE]` (SIZE > 0, e.g. 4KiB)",
					w[0]), -1;
	}
	sc->op[sc->nop++] = op;
	return 0;
}

static void script_free(void *state)
{
	script *sc = state;

	if (!sc)
		return;
	for (uint32_t k = 0; k < sc->nmark; k++)
		free(sc->mark[k]);
	free(sc->op);
	free(sc->pc);
	free(sc);
}

static int script_init(void **state, const prog_ctx *ctx, const cfg *cf, cxl_err *err)
{
	size_t n;
	const char *const *text = cfg_list(cf, "workload.program", &n);
	script *sc = xcalloc(1, sizeof(*sc));
	char why[160];

	sc->op = xcalloc(n ? n : 1, sizeof(*sc->op));
	sc->repeat = 1;
	sc->cores = ctx->cores;
	sc->pc = xcalloc(ctx->cores, sizeof(*sc->pc));
	for (size_t i = 0; i < n; i++) {
		int rc = parse_op(sc, text[i], i, why, sizeof(why));
		if (!rc && sc->nop && sc->op[sc->nop - 1].kind == PROG_WAIT_IRQ && !ctx->ndevs) {
			snprintf(why, sizeof(why), "the host reaches no device that could interrupt it");
			rc = -1;
		}
		if (rc < 0) {
			script_free(sc);
			return cfg_error_at(cf, "workload.program", err, "operation %zu `%s`: %s",
					    i + 1, text[i], why);
		}
	}
	*state = sc;
	return 0;
}

static int script_next(void *state, uint32_t proc, prog_op *op)
{
	script *sc = state;

	if (!sc->nop || sc->pc[proc] >= sc->nop * sc->repeat)
		return 0;
	*op = sc->op[sc->pc[proc]++ % sc->nop];
	return 1;
}

static uint32_t script_nclasses(const void *state)
{
	return ((const script *)state)->nmark;
}

static const char *script_class_name(const void *state, uint32_t k)
{
	return ((const script *)state)->mark[k];
}

static uint64_t script_total(const void *state)
{
	const script *sc = state;

	return (uint64_t)sc->nop * sc->repeat * sc->cores;
}

/* Checkpoint: each process's pc (the program itself is the config's). */
static void script_ckpt(void *state, ckpt *k)
{
	script *sc = state;
	uint32_t n = ckpt_count(k, sc->cores, sc->cores);

	if (ckpt_loading(k) && n != sc->cores)
		ckpt_fail(k, "program: %u processes saved, %u configured", n, sc->cores);
	ckpt_bytes(k, sc->pc, (size_t)n * sizeof(*sc->pc));
}

const prog_gen prog_script_gen = {
	.name = "program",
	.shares_memory = 1,
	.init = script_init,
	.next = script_next,
	.nclasses = script_nclasses,
	.class_name = script_class_name,
	.total = script_total,
	.free = script_free,
	.ckpt = script_ckpt,
};
