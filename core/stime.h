/*
 * core/stime.h - simulated time: integer picoseconds, parsing and printing.
 *
 * Simulated time is a uint64_t count of picoseconds (2^64 ps is about 213
 * days, far beyond any run).  No floating point ever touches an event time:
 * integer time keeps ordering and lookahead arithmetic exact on every rank.
 * SIM_TIME_MAX means "never" (an empty queue, an unbounded end).
 *
 * Text form, used by configs and the CLI: a decimal number with an optional
 * fraction and a mandatory unit, ps|ns|us|ms|s ("25ns", "1.5us", "2ps").
 * Parsing is exact: "1.5us" is 1500000 ps; a value that is not a whole number
 * of picoseconds ("0.5ps"), a negative value, a missing unit or a value above
 * SIM_TIME_MAX is an error.  "never" parses as SIM_TIME_MAX.
 */
#ifndef CXL_CORE_STIME_H
#define CXL_CORE_STIME_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

typedef uint64_t sim_time;

#define SIM_TIME_MAX UINT64_MAX
#define SIM_PS ((sim_time)1)
#define SIM_NS ((sim_time)1000)
#define SIM_US ((sim_time)1000000)
#define SIM_MS ((sim_time)1000000000)
#define SIM_S ((sim_time)1000000000000)

/* Longest text stime_format writes, with the terminating NUL. */
#define STIME_FMT_LEN 40

/**
 * stime_parse - parse a time with unit into picoseconds.
 * @s:   text such as "25ns" or "1.5us" (leading/trailing blanks allowed)
 * @out: OUT the time in ps
 * @err: OUT error record (message without file:line context), may be NULL
 *
 * Return: 0, or CXL_EINVAL with a message naming what was wrong.
 */
int stime_parse(const char *s, sim_time *out, cxl_err *err);

/**
 * stime_format - exact text form of @t in the largest unit that keeps it
 * readable, e.g. 1500 -> "1.5ns", 4000000 -> "4us", SIM_TIME_MAX -> "never".
 * @buf must hold STIME_FMT_LEN bytes.  Returns @buf.  stime_parse() of the
 * result gives @t back.
 */
char *stime_format(sim_time t, char *buf);

/**
 * stime_from_ps - @ps picoseconds (a double: a scaled or drawn time) as the
 * time of an event, rounded toward zero and saturating: NaN and values
 * below 1 give 0, values at or above 2^64 give SIM_TIME_MAX - 1, the
 * latest event time (later than any simulation.end, so such an event is
 * never run; SIM_TIME_MAX itself means "never" and is no event time).
 * A plain cast is undefined out of range: on x86-64 every value at or
 * above 2^64 became 0, so a time past the end of the run came first.
 */
static inline sim_time stime_from_ps(double ps)
{
	if (!(ps >= 1.0))
		return 0;
	return ps < 0x1p64 ? (sim_time)ps : SIM_TIME_MAX - 1;
}

/* stime_add_sat - t + d, saturating at SIM_TIME_MAX. */
static inline sim_time stime_add_sat(sim_time t, sim_time d)
{
	return (t > SIM_TIME_MAX - d) ? SIM_TIME_MAX : t + d;
}

#endif
