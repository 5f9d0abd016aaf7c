/*
 * test/traces/trc_fixture.h - what the trace tests share: a fresh temp
 * directory per forked test, seeded record generators, whole-file helpers
 * (write records, read them back, flip and cut bytes) and file crafting from
 * the library's own pieces (header and block encoders), so that damage
 * cases can be built with valid checksums around the one defect under test.
 *
 * All randomness is splitmix-seeded from the test; nothing depends on the
 * machine.
 */
#ifndef CXL_TEST_TRACES_TRC_FIXTURE_H
#define CXL_TEST_TRACES_TRC_FIXTURE_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "traces/trc.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* The fixture's temp directory (one per forked test). */
extern char trcf_tmpdir[64];

/* trcf_case - a TCase whose tests each get a fresh temp directory (timeout 60 s). */
TCase *trcf_case(const char *name);

/* trcf_path - tmpdir/@name in one of 8 rotating static buffers. */
const char *trcf_path(const char *name);

/* trcf_recs - @n sorted records of mixed shape from @seed: random and sequential
 * addresses (some unaligned), both ops, sizes 64 and others, equal and rising times. */
trc_rec *trcf_recs(uint64_t n, uint64_t seed);

/* trcf_write - write @n records to @path with block capacity @cap; must succeed. */
void trcf_write(const char *path, const trc_rec *r, uint64_t n, uint32_t cap,
		const trc_origin *o);

/* trcf_read - read @path to the end or the first error; records go to @out
 * (if not NULL, room for @max); returns the reader's last code (0 or < 0)
 * and the number of records read in *@n; the message in @err. */
int trcf_read(const char *path, trc_rec *out, uint64_t max, uint64_t *n, cxl_err *err);

/* trcf_assert_recs_eq - @n records equal field by field (message names the first difference). */
void trcf_assert_recs_eq(const trc_rec *a, const trc_rec *b, uint64_t n);

/* trcf_slurp - the whole file (malloc'd), its size in *@len. */
uint8_t *trcf_slurp(const char *path, size_t *len);

/* trcf_spit - write @len bytes to @path (replacing it). */
void trcf_spit(const char *path, const void *buf, size_t len);

/* trcf_file_size - size of @path in bytes. */
size_t trcf_file_size(const char *path);

/* trcf_files_in_tmpdir - entries of trcf_tmpdir, not counting dot files. */
int trcf_files_in_tmpdir(void);

/* trcf_write_text - write @text to tmpdir/@name; returns its path. */
const char *trcf_write_text(const char *name, const char *text);

/* trcf_block - append one encoded block of @n records (first index @first)
 * to @buf at *@len; a crafting helper for files the writer would refuse. */
void trcf_block(uint8_t *buf, size_t *len, const trc_rec *r, uint32_t n, uint64_t first);

/* trcf_header - the file header for @count records, capacity @cap, records
 * CRC @crc, format TRC_FMT_NONE, at the start of @buf; returns its length. */
size_t trcf_header(uint8_t *buf, uint64_t count, uint32_t cap, uint32_t crc);

/* trcf_expect_error - reading @path fails with CXL_EINVAL and the message
 * "<path>: record <rec>: <what>..." (prefix match of @what). */
void trcf_expect_error(const char *path, uint64_t rec, const char *what);

#endif
