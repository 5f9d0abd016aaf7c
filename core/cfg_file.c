/*
 * core/cfg_file.c - what a config file may be, checked before libconfig
 * opens it (part of the cfg module; map in cfg_int.h).
 *
 * libconfig opens the config and every `@include "FILE"` with fopen() and
 * reads them through its scanner.  A FIFO blocks that fopen() until some
 * process writes into it, so a FIFO as config or include hung every rank;
 * a folder as include failed deep in the scanner with "input in flex scanner
 * failed".  cfg_file_check() looks first: the config and, recursively, each
 * file it includes must be regular files, else one error naming the file
 * (and the @include's FILE:LINE) and what it is.  Files are opened with
 * O_NONBLOCK and checked with fstat() on the open descriptor, so the check
 * itself never blocks.  A file that does not exist is left to libconfig
 * ("cannot read" / "cannot open include file", as before).
 *
 * The scan follows libconfig 1.5's scanner: an include is a line
 * `[ \t]*@include[ \t]+"PATH"`, outside a block comment; PATH is used as
 * written (libconfig sets no include directory here, so relative to the
 * working directory); includes nest at most 10 deep (its limit).
 */
#include "core/cfg_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xmalloc.h"

#define MAX_DEPTH 10

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a folder";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	return "not a regular file";
}

/*
 * Open @path without blocking; *@text gets its bytes (NUL-terminated) when it
 * is a regular file.  Returns 0 (also when it cannot be opened: *@text NULL),
 * or CXL_EINVAL naming @where (the @include's FILE:LINE, or @path).
 */
static int read_regular(const char *path, const char *where, char **text, cxl_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	*text = NULL;
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		mode_t m = st.st_mode;
		close(fd);
		return cxl_err_set(err, CXL_EINVAL, "%s: %s (expected a regular file)", where,
				   kind_of(m));
	}
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *t = xmalloc(cap);
	for (;;) {
		if (len + 1 == cap)
			t = xrealloc(t, cap *= 2);
		ssize_t got = read(fd, t + len, cap - len - 1);
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	t[len] = '\0';
	*text = t;
	return 0;
}

static int check_file(const char *path, const char *where, int depth, cxl_err *err);

/* The include on the line at @p (line @line of @file), if any. */
static int check_line(const char *file, int line, const char *p, int depth, cxl_err *err)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "@include", 8) || (p[8] != ' ' && p[8] != '\t'))
		return 0;
	p += 8;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"')
		return 0;
	const char *q = p;
	while (*q && *q != '"' && *q != '\n')
		q++;
	if (*q != '"')
		return 0;
	char *inc = cfg__strfmt("%.*s", (int)(q - p), p);
	char *where = cfg__strfmt("%s:%d: @include \"%s\"", file, line, inc);
	int rc = check_file(inc, where, depth + 1, err);
	free(where);
	free(inc);
	return rc;
}

static int check_file(const char *path, const char *where, int depth, cxl_err *err)
{
	char *text;
	int rc = read_regular(path, where, &text, err);

	if (rc || !text || depth > MAX_DEPTH)
		goto out;
	int line = 1, comment = 0;
	for (char *p = text; *p && !rc; line++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (!comment)
			rc = check_line(path, line, p, depth, err);
		for (char *s = p; *s; s++) {  /* block comments, roughly as the scanner */
			if (!comment && s[0] == '/' && s[1] == '*')
				comment = 1, s++;
			else if (comment && s[0] == '*' && s[1] == '/')
				comment = 0, s++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
out:
	free(text);
	return rc;
}

/**
 * cfg_file_check - refuse a config that is not a regular file, or that
 * @includes (at any depth) something that is not one.
 * @path: the config file
 * @err:  OUT error record, may be NULL
 *
 * Never blocks (a FIFO is seen, not opened for reading).  Return: 0 (also
 * for a missing file: cfg_load() reports it), or CXL_EINVAL:
 * "PATH: a FIFO (expected a regular file)",
 * "FILE:LINE: @include "X": a folder (expected a regular file)".
 */
int cfg_file_check(const char *path, cxl_err *err)
{
	return check_file(path, path, 0, err);
}
