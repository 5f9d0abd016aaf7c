/*
 * core/sha256.h - SHA-256 (FIPS 180-4), one-shot, incremental and per file.
 *
 * Used to fingerprint inputs (configs, traces, partitions) in run outputs so
 * that results can be tied to the exact bytes they came from.  Self-contained:
 * no crypto library.  Not constant-time and not meant for secrets.
 *
 * Incremental use: sha256_init(), any number of sha256_update() calls with
 * arbitrary chunk sizes, then sha256_final(); the digest depends only on the
 * concatenated bytes.  A context is plain memory: copy it to fork a hash.
 */
#ifndef CXL_CORE_SHA256_H
#define CXL_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define SHA256_LEN 32       /* digest size, bytes */
#define SHA256_BLOCK 64     /* block size, bytes */

typedef struct sha256_ctx sha256_ctx;
struct sha256_ctx {
	uint32_t h[8];              /* chaining value H0..H7 */
	uint64_t nbytes;            /* message length so far, bytes */
	uint8_t buf[SHA256_BLOCK];  /* pending partial block */
	size_t nbuf;                /* bytes used in buf, < SHA256_BLOCK */
};

/* sha256_init - start a new hash in @ctx. */
void sha256_init(sha256_ctx *ctx);

/* sha256_update - hash @len more bytes at @data (NULL is fine if @len is 0). */
void sha256_update(sha256_ctx *ctx, const void *data, size_t len);

/* sha256_final - write the digest to @out; @ctx must be re-inited to reuse. */
void sha256_final(sha256_ctx *ctx, uint8_t out[SHA256_LEN]);

/* sha256 - digest of @len bytes at @data in one call. */
void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN]);

/**
 * sha256_file_hex - digest of a file's contents as 64 lowercase hex digits.
 * @path: file to read
 * @hex:  OUT the digest, NUL-terminated
 * @err:  OUT error record, may be NULL
 *
 * Return: 0, or CXL_EIO ("PATH: cannot open: <reason>" or "PATH: cannot
 * read: <reason>"); @hex is untouched on failure.
 */
int sha256_file_hex(const char *path, char hex[2 * SHA256_LEN + 1], cxl_err *err);

#endif
