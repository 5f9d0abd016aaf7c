/*
 * core/xport.h - the MPI transport: start-up, cross-rank event batches,
 * the per-window minimum, and the gathers of the final statistics.
 *
 * MPI is called only here and in sync.c.  Outbound events are copied into
 * one growable batch per destination rank (96 bytes each, raw: every rank
 * runs the same binary) and leave in ONE message per neighbour per window.
 * Every neighbour gets a message each window, even an empty one, so a rank
 * knows exactly how many to receive: the neighbour set is static (ranks
 * joined by a cut link, or every rank when global sends are declared) and
 * symmetric.  MPI keeps messages between two ranks in order and each
 * window has exactly one message per neighbour pair, so batches never mix.
 *
 * Message layout: one 64-byte header slot, then the events.
 *   header.time = the sender's lower bound: the earliest time of any event
 *                 it holds or sent this window (its queue minimum and the
 *                 minimum of everything it posted), SIM_TIME_MAX if none
 *   header.seq  = number of events that follow
 *   header.kind = the sender's stop request: 0, or the number of the signal
 *                 that asked the run to stop (SIGTERM, ...), see sync.c
 * When every rank is a neighbour ("complete"), the minimum of all headers and
 * the own bound IS the global next-event time: every event of the system is
 * in some queue or in flight, and both are covered.  The window then needs no
 * collective at all.  Otherwise the caller takes one allreduce.
 *
 * With one rank no MPI call is made after start-up.
 */
#ifndef CXL_CORE_XPORT_H
#define CXL_CORE_XPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

typedef struct xport xport;

/**
 * xport_start - MPI_Init when the process was started by an MPI launcher
 * (mpirun, srun, mpiexec: their environment says so, see xport.c), and the
 * panic abort hook; returns rank and size.  A process started on its own
 * runs as rank 0 of 1 without MPI: an MPI singleton start-up costs about
 * 0.4 s, more than a small run.  CXLFAB_MPI=1 forces MPI, =0 forbids it.
 */
void xport_start(int *argc, char ***argv, int *rank, int *nranks);
/* xport_stop - MPI_Finalize, if MPI was started. */
void xport_stop(void);

/**
 * xport_create - batches for the ranks flagged in @neighbour[0..nranks-1]
 * (the own rank's flag is ignored).  The flags must be symmetric.
 * Collective: every rank calls it.
 */
xport *xport_create(int rank, int nranks, const uint8_t *neighbour);
void xport_destroy(xport *x);

/* xport_post - copy @ev into the batch for rank @dst. */
void xport_post(xport *x, int dst, const cxl_event *ev);

/* xport_discard - drop every event posted since the last exchange (a restart
 * throws away what init sent). */
void xport_discard(xport *x);

typedef void xport_deliver_fn(void *ctx, const cxl_event *ev);
/**
 * xport_exchange - send every batch headed by @bound and *@stop, receive one
 * from every neighbour and hand each received event to @deliver.
 * Returns the minimum of @bound and every received header's bound; *@stop
 * becomes the largest of its value and every received header's.
 */
sim_time xport_exchange(xport *x, sim_time bound, int *stop, xport_deliver_fn *deliver,
			void *ctx);

/*
 * xport_complete - 1 if every rank has every other rank as neighbour (then no
 * window needs a collective).  Agreed by all ranks in xport_create (one
 * allreduce): a rank that alone saw itself complete would skip the window's
 * allreduce the others wait in.
 */
int xport_complete(const xport *x);

/* xport_min_u64 - global minimum of @v (the window's one collective). */
uint64_t xport_min_u64(uint64_t v);
/*
 * xport_min_stop - the window's collective: returns the global minimum of
 * @v; *@stop becomes the global maximum of *@stop (0..65535).  One allreduce.
 */
uint64_t xport_min_stop(uint64_t v, int *stop);
/*
 * The same collective split in two (sync.c, "The delayed minimum"):
 * xport_min_stop_begin starts the allreduce of @v and @stop (MPI_Iallreduce)
 * and returns at once; xport_min_stop_end waits for it and returns the
 * global minimum, *@stop the global maximum.  At most one is outstanding
 * (a second begin panics); xport_min_stop_started says whether one is.
 * xport_destroy completes one left outstanding.  Every rank begins and ends
 * the same ones in the same order, as for any collective.
 */
void xport_min_stop_begin(xport *x, uint64_t v, int stop);
int xport_min_stop_started(const xport *x);
uint64_t xport_min_stop_end(xport *x, int *stop);
/*
 * xport_agree_u64 - for each of @n values, its least (@lo) and greatest
 * (@hi) over the ranks: one allreduce (start-up agreement checks).
 */
void xport_agree_u64(const uint64_t *v, size_t n, uint64_t *lo, uint64_t *hi);
/* xport_sum_u64 - global sum of @v (the time-series bound, once per run). */
uint64_t xport_sum_u64(uint64_t v);
/* xport_max_int - global maximum of @v (agreement on errors). */
int xport_max_int(int v);

/**
 * xport_gather - concatenate every rank's @len bytes at rank 0.
 * At rank 0 returns a malloc'd buffer and fills @lens[0..nranks-1] (the
 * caller provides the array); elsewhere returns NULL.
 */
void *xport_gather(const void *buf, size_t len, size_t *lens);

/* xport_barrier - for tests and orderly shutdown only. */
void xport_barrier(void);
/* xport_abort - MPI_Abort with @code (exit(@code) without MPI). */
_Noreturn void xport_abort(int code);

#endif
