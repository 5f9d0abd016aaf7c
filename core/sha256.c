/*
 * core/sha256.c - SHA-256 as specified in FIPS 180-4 (see sha256.h).
 *
 * Section references are to FIPS 180-4: the functions Ch, Maj, Sigma0/1 and
 * sigma0/1 (4.1.2), the constants K (4.2.2), the initial hash value (5.3.3),
 * padding (5.1.1) and the compression loop (6.2.2).  Words are big-endian.
 * Cost: one compression per 64-byte block, 64 rounds each.
 */
#include "core/sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* 4.2.2: first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* 5.3.3: first 32 bits of the fractional parts of the square roots of the
 * first 8 primes. */
static const uint32_t H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t ch(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (~x & z);
}

static inline uint32_t maj(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) ^ (x & z) ^ (y & z);
}

static inline uint32_t big_sigma0(uint32_t x)
{
	return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
}

static inline uint32_t big_sigma1(uint32_t x)
{
	return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
}

static inline uint32_t small_sigma0(uint32_t x)
{
	return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
}

static inline uint32_t small_sigma1(uint32_t x)
{
	return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10);
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* 6.2.2: fold one 64-byte block into the chaining value @h. */
static void compress(uint32_t h[8], const uint8_t *block)
{
	uint32_t w[64], v[8];

	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++)
		w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
	memcpy(v, h, sizeof(v));
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = v[7] + big_sigma1(v[4]) + ch(v[4], v[5], v[6]) + K[t] + w[t];
		uint32_t t2 = big_sigma0(v[0]) + maj(v[0], v[1], v[2]);
		memmove(v + 1, v, 7 * sizeof(uint32_t));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

/**
 * sha256_init - start a new hash.
 * @ctx: OUT the context to (re)initialise
 */
void sha256_init(sha256_ctx *ctx)
{
	memcpy(ctx->h, H0, sizeof(ctx->h));
	ctx->nbytes = 0;
	ctx->nbuf = 0;
}

/**
 * sha256_update - add bytes to the hash.
 * @ctx:  context from sha256_init()
 * @data: the bytes (may be NULL when @len is 0)
 * @len:  number of bytes
 */
void sha256_update(sha256_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!len)
		return;
	ctx->nbytes += len;
	if (ctx->nbuf) {
		size_t n = SHA256_BLOCK - ctx->nbuf < len ? SHA256_BLOCK - ctx->nbuf : len;
		memcpy(ctx->buf + ctx->nbuf, p, n);
		ctx->nbuf += n;
		p += n;
		len -= n;
		if (ctx->nbuf < SHA256_BLOCK)
			return;
		compress(ctx->h, ctx->buf);
		ctx->nbuf = 0;
	}
	for (; len >= SHA256_BLOCK; p += SHA256_BLOCK, len -= SHA256_BLOCK)
		compress(ctx->h, p);
	if (len)
		memcpy(ctx->buf, p, len);
	ctx->nbuf = len;
}

/**
 * sha256_final - pad (5.1.1), finish and write the digest.
 * @ctx: context; must be re-initialised before reuse
 * @out: OUT the 32-byte digest
 */
void sha256_final(sha256_ctx *ctx, uint8_t out[SHA256_LEN])
{
	const uint64_t bits = ctx->nbytes * 8;

	ctx->buf[ctx->nbuf++] = 0x80;
	if (ctx->nbuf > SHA256_BLOCK - 8) {
		memset(ctx->buf + ctx->nbuf, 0, SHA256_BLOCK - ctx->nbuf);
		compress(ctx->h, ctx->buf);
		ctx->nbuf = 0;
	}
	memset(ctx->buf + ctx->nbuf, 0, SHA256_BLOCK - 8 - ctx->nbuf);
	store_be32(ctx->buf + SHA256_BLOCK - 8, (uint32_t)(bits >> 32));
	store_be32(ctx->buf + SHA256_BLOCK - 4, (uint32_t)bits);
	compress(ctx->h, ctx->buf);
	for (int i = 0; i < 8; i++)
		store_be32(out + 4 * i, ctx->h[i]);
}

/**
 * sha256 - one-shot digest.
 * @data: the bytes (may be NULL when @len is 0)
 * @len:  number of bytes
 * @out:  OUT the 32-byte digest
 */
void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN])
{
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, out);
}

static int hash_stream(FILE *f, sha256_ctx *ctx)
{
	uint8_t buf[16384];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(ctx, buf, n);
	return ferror(f) ? -1 : 0;
}

/**
 * sha256_file_hex - digest of a file as lowercase hex.
 * @path: file to read
 * @hex:  OUT 64 hex digits and a NUL; untouched on failure
 * @err:  OUT error record, may be NULL
 *
 * Return: 0, or CXL_EIO with "PATH: cannot open: ..." / "PATH: cannot read: ...".
 */
int sha256_file_hex(const char *path, char hex[2 * SHA256_LEN + 1], cxl_err *err)
{
	static const char digits[] = "0123456789abcdef";
	FILE *f = fopen(path, "rb");
	sha256_ctx ctx;
	uint8_t md[SHA256_LEN];

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open: %s", path, strerror(errno));
	sha256_init(&ctx);
	if (hash_stream(f, &ctx)) {
		int e = errno;
		fclose(f);
		return cxl_err_set(err, CXL_EIO, "%s: cannot read: %s", path, strerror(e));
	}
	fclose(f);
	sha256_final(&ctx, md);
	for (int i = 0; i < SHA256_LEN; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * SHA256_LEN] = '\0';
	return 0;
}
