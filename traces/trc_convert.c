/*
 * traces/trc_convert.c - text to .cxt (convert) and .cxt to text (cat),
 * the two directions of the round trip (contracts in trc_ops.h).
 *
 * Both stream record by record: an importer feeding a writer, a reader
 * feeding an exporter.  For canonical text, cat(convert(text)) == text.
 */
#include "traces/trc_ops.h"

#include <errno.h>
#include <string.h>

/**
 * trc_convert - see trc_ops.h.
 */
int trc_convert(const char *in, const char *out, const trc_import_opts *o, uint32_t cap,
		uint64_t *noncanon, uint64_t *first, cxl_err *err)
{
	trc_import *im;
	trc_writer *w;
	trc_rec r;
	int rc;

	*noncanon = 0;
	*first = 0;
	if ((rc = trc_import_open(&im, in, o, err)))
		return rc;
	if ((rc = trc_writer_open(&w, out, trc_import_origin(im), cap, err)))
		goto close_im;
	while ((rc = trc_import_next(im, &r, err)) > 0)
		if ((rc = trc_writer_add(w, &r, err)))
			break;
	if (rc) {
		trc_writer_abort(w);
		goto close_im;
	}
	*noncanon = trc_import_noncanonical(im, first);
	rc = trc_writer_close(w, err);
close_im:
	trc_import_close(im);
	return rc;
}

/**
 * trc_cat - see trc_ops.h.
 */
int trc_cat(const char *in, FILE *out, int to, uint64_t clock_ps, int esf_delay, cxl_err *err)
{
	char line[TRC_EXPORT_LINE_MAX];
	const char *why;
	trc_reader *r;
	trc_export ex;
	trc_rec rec;
	int rc, len;

	if ((rc = trc_reader_open(&r, in, err)))
		return rc;
	if ((rc = trc_export_init(&ex, trc_reader_origin(r), to, clock_ps, esf_delay, err)))
		goto close_r;
	if (ex.header[0] && fputs(ex.header, out) == EOF)
		goto write_error;
	while ((rc = trc_reader_next(r, &rec, err)) > 0) {
		if ((len = trc_export_line(&ex, &rec, line, &why)) < 0) {
			rc = cxl_err_set(err, CXL_EINVAL, "%s: record %llu: %s", in,
					 (unsigned long long)(trc_reader_index(r) - 1), why);
			goto close_r;
		}
		if (fwrite(line, 1, (size_t)len, out) != (size_t)len)
			goto write_error;
	}
	if (!rc && fflush(out))
		goto write_error;
close_r:
	trc_reader_close(r);
	return rc;
write_error:
	rc = cxl_err_set(err, CXL_EIO, "cannot write output: %s", strerror(errno));
	goto close_r;
}
