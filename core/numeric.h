/*
 * core/numeric.h - small integer helpers shared by the engine and models
 * (header-only, no state).
 */
#ifndef CXL_CORE_NUMERIC_H
#define CXL_CORE_NUMERIC_H

#include <stdint.h>

/* cxl_gcd - greatest common divisor of @a and @b (cxl_gcd(0, b) = b). */
static inline uint64_t cxl_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif
