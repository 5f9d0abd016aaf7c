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
#include <string.h>

static cxl_abort_fn *abort_hook;
static int panic_rank = -1;

/*
 * Copy @s into @out (@n bytes) with control characters written as escapes
 * (\n, \t, \r, \xHH), so a message stays one line whatever value it
 * quotes (a config string with a newline in it was printed raw).
 */
static void one_line(char *out, size_t n, const char *s)
{
	size_t o = 0;

	for (; *s && o + 1 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		char esc[5];
		int len = 1;
		if (ch == '\n' || ch == '\t' || ch == '\r')
			len = snprintf(esc, sizeof(esc), "\\%c", ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r');
		else if (ch < 0x20 || ch == 0x7f)
			len = snprintf(esc, sizeof(esc), "\\x%02x", ch);
		else
			esc[0] = (char)ch;
		if (o + (size_t)len >= n)
			break;
		memcpy(out + o, esc, (size_t)len);
		o += (size_t)len;
	}
	out[o] = '\0';
}

int cxl_err_vset(cxl_err *err, int code, const char *fmt, va_list ap)
{
	if (err && err->code == CXL_OK) {
		char raw[sizeof(err->msg)];
		err->code = code;
		vsnprintf(raw, sizeof(raw), fmt, ap);
		one_line(err->msg, sizeof(err->msg), raw);
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
