/*
 * core/size.h - sizes in bytes: parsing and printing with natural units.
 *
 * A size is a whole number of bytes from 0 to 2^63-1 (SIZE_BYTES_MAX), so
 * it fits both uint64_t and the int64 of a libconfig integer.  Text form,
 * used by configs and the CLI: a decimal number with an optional fraction
 * and an optional unit,
 *     B                       bytes (also the meaning of a bare number)
 *     KiB MiB GiB TiB         1024-based: 2^10, 2^20, 2^30, 2^40 bytes
 *     kB MB GB TB             1000-based: 10^3, 10^6, 10^9, 10^12 bytes
 * e.g. "64B", "4KiB", "16GiB", "1.5MiB", "4096".  Units are case-sensitive
 * ("KB" is an error: 1000 or 1024 would be a guess).  Parsing is exact: a
 * value that is not a whole number of bytes ("1.3KiB", "0.5"), a negative
 * value, an unknown unit or a value above SIZE_BYTES_MAX is an error.
 *
 * Rates use the same units followed by "/s" ("12.5GB/s"): size_unit()
 * looks a unit up for such parsers.
 */
#ifndef CXL_CORE_SIZE_H
#define CXL_CORE_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define SIZE_BYTES_MAX ((uint64_t)INT64_MAX) /* largest size: 2^63-1 bytes */

/* The units, for "(expected ...)" texts. */
#define SIZE_UNITS "B|KiB|MiB|GiB|TiB|kB|MB|GB|TB"

/* Longest text size_format() writes, with the terminating NUL. */
#define SIZE_FMT_LEN 32

/**
 * size_parse - parse a size with an optional unit into bytes.
 * @s:   text such as "4KiB", "1.5MiB" or "4096" (leading/trailing blanks
 *       allowed, none between number and unit)
 * @out: OUT the size in bytes, <= SIZE_BYTES_MAX; untouched on error
 * @err: OUT error record (message without file:line context), may be NULL
 *
 * Return: 0, or CXL_EINVAL with a message naming what was wrong.
 */
int size_parse(const char *s, uint64_t *out, cxl_err *err);

/**
 * size_format - exact text form of @bytes: the shortest of its exact
 * forms in every unit (at most 6 decimals), ties to the first of B, KiB,
 * MiB, GiB, TiB, kB, MB, GB, TB.  E.g. 64 -> "64B", 4096 -> "4KiB",
 * 1572864 -> "1.5MiB", 1000000 -> "1MB", 1536 -> "1536B".
 * @buf must hold SIZE_FMT_LEN bytes.  Returns @buf.  size_parse() of the
 * result gives @bytes back.
 */
char *size_format(uint64_t bytes, char *buf);

/**
 * size_unit - the bytes of the unit named by @u[0..@len) (one of
 * SIZE_UNITS, case-sensitive) into *@bytes.
 * Return: 0, or -1 if there is no such unit (*@bytes untouched).
 */
int size_unit(const char *u, size_t len, uint64_t *bytes);

#endif
