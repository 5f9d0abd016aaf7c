/*
 * core/err.c - error records, error texts and the panic path (see err.h).
 *
 * The abort hook and the panic rank are the only mutable file-scope state in
 * core: they must be reachable from any depth without a context pointer,
 * because a panic can happen before the engine exists.
 */
#include "core/err.h"

#include <stdio.h>
#include <stdlib.h>

static cxl_abort_fn *abort_hook;
static int panic_rank = -1;

int cxl_err_vset(cxl_err *err, int code, const char *fmt, va_list ap)
{
	if (err && err->code == CXL_OK) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return code;
}

int cxl_err_set(cxl_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cxl_err_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

const char *cxl_strerror(int code)
{
	switch (code) {
	case CXL_OK: return "success";
	case CXL_EINVAL: return "invalid input";
	case CXL_EIO: return "input/output error";
	case CXL_ENOMEM: return "out of memory";
	case CXL_EINTERNAL: return "internal error";
	}
	return "unknown error";
}

int cxl_exit_code(int code)
{
	if (code == CXL_OK)
		return 0;
	return (code == CXL_EINVAL || code == CXL_EIO) ? 2 : 1;
}

void cxl_set_abort_hook(cxl_abort_fn *fn)
{
	abort_hook = fn;
}

void cxl_set_panic_rank(int rank)
{
	panic_rank = rank;
}

void cxl__panic(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cxlfab: internal error: rank %d: %s:%d: ", panic_rank,
		file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	if (abort_hook)
		abort_hook();
	abort();
}
