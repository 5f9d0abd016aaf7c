/*
 * core/err.h - the project-wide error convention.
 *
 * Every function that can fail for a reason outside the program's control
 * (config file, --set option, trace file, partition input, MPI setup) returns
 * int: 0 on success, a negative CXL_E* code on failure.  It also takes a
 * caller-owned `cxl_err *` (NULL is accepted) that receives the code and a
 * message of the form "FILE:LINE: what is wrong (what was expected)"; main()
 * prints it once, from rank 0, as "cxlfab: error: <msg>".
 *
 * Out-of-memory and broken invariants are not returned: CXL_PANIC prints the
 * rank, source file and line, then calls the abort hook (MPI_Abort once the
 * transport has installed it, abort() before).  Event handlers never return
 * error codes; they assert or panic.
 */
#ifndef CXL_CORE_ERR_H
#define CXL_CORE_ERR_H

#include <stdarg.h>

enum {
	CXL_OK = 0,
	CXL_EINVAL = -1,  /* bad input: config, option, file content (exit 2) */
	CXL_EIO = -2,     /* file could not be read or written (exit 2) */
	CXL_ENOMEM = -3,  /* allocation failed (exit 1) */
	CXL_EINTERNAL = -4, /* internal failure (exit 1) */
};

/* Exit status of a run stopped early by SIGTERM, SIGUSR1 or SIGINT after
 * writing its results so far (stats.json run.interrupted = true). */
#define CXL_EXIT_INTERRUPTED 3

typedef struct cxl_err cxl_err;
struct cxl_err {
	int code;      /* CXL_E* code of the first failure, CXL_OK if none */
	char msg[512]; /* "FILE:LINE: what is wrong (what was expected)" */
};

/* Hook called by CXL_PANIC after printing; must not return. */
typedef void cxl_abort_fn(void);

/**
 * cxl_err_set - record a failure in @err (if not NULL) and return @code.
 * @err:  OUT error record, may be NULL
 * @code: negative CXL_E* code
 * @fmt:  printf format of the message
 *
 * Only the first failure is kept: a later call on an err that already holds
 * a failure does nothing, so the root cause survives cleanup paths.
 * Control characters in the message (a quoted value's newline) are written
 * as escapes (\n, \t, \xHH): a message is always one line.
 */
int cxl_err_set(cxl_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int cxl_err_vset(cxl_err *err, int code, const char *fmt, va_list ap);

/* cxl_strerror - short text for a CXL_E* code. */
const char *cxl_strerror(int code);

/* cxl_exit_code - process exit code for a CXL_E* code: 2 bad input, 1 internal. */
int cxl_exit_code(int code);

/* cxl_set_abort_hook - install the function CXL_PANIC calls (NULL: abort()). */
void cxl_set_abort_hook(cxl_abort_fn *fn);
/* cxl_set_panic_rank - rank printed by CXL_PANIC (-1 before MPI is up). */
void cxl_set_panic_rank(int rank);

/* cold: the compiler moves every path into a panic out of the hot code around it */
_Noreturn void cxl__panic(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

#define CXL_PANIC(...) cxl__panic(__FILE__, __LINE__, __VA_ARGS__)

/* CXL_ASSERT - invariant check kept in release builds (cheap conditions only). */
#define CXL_ASSERT(cond)                                                  \
	do {                                                              \
		if (__builtin_expect(!(cond), 0))                         \
			cxl__panic(__FILE__, __LINE__, "assertion failed: %s", \
				   #cond);                                \
	} while (0)

#endif
