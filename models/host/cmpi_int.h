/*
 * models/host/cmpi_int.h - the state of the cMPI generator, shared by
 * cmpi.c (keys, checks, layout, lifecycle) and cmpi_gen.c (the operations).
 * Private to models/host/ and its tests.
 *
 * The generator keeps, per host, the configuration it read once and one
 * cursor per taking-part process.  A cursor says where the process is in
 * its program (size, iteration, peer step, message, chunk, unit) and
 * nothing else: every address, sequence number and flag value is computed
 * from the cursor and the configuration, so the state is O(1) per process
 * whatever the hosts, sizes or iterations.
 */
#ifndef CXL_MODELS_HOST_CMPI_INT_H
#define CXL_MODELS_HOST_CMPI_INT_H

#include <stdint.h>

#include "core/size.h"
#include "models/host/prog.h"

enum cmpi_op { CMPI_PUT, CMPI_GET, CMPI_SENDRECV };
enum cmpi_measure { CMPI_BW, CMPI_LATENCY };
enum cmpi_peers { CMPI_PAIRS, CMPI_RING, CMPI_ALLTOALL };
enum cmpi_coh { CMPI_SOFTWARE, CMPI_UC, CMPI_HDMDB };

#define CMPI_MAX_SIZES 24       /* 1 B .. 8 MiB, powers of two */
#define CMPI_NONE UINT32_MAX    /* no peer */
#define CMPI_HDR_BYTES 4096     /* a slot's flag block: tail, head, ack */
#define CMPI_UNIT_MAX 16        /* operations of one unit, at most */

/* Where a process is; units are listed in cmpi_gen.c. */
typedef struct cmpi_cur cmpi_cur;
struct cmpi_cur {
	uint64_t seq0;  /* chunks each queue carried per role before this size */
	uint64_t iter0; /* iterations (warm-up included) before this size */
	uint32_t size;  /* index of the message size in the sweep */
	uint32_t iter;  /* iteration of this size, warm-up first */
	uint32_t step;  /* peer step of the iteration (alltoall: distance - 1) */
	uint32_t msg;   /* message of a one-sided window; exchange of a two-sided step */
	uint32_t chunk; /* chunk of the message (two-sided) */
	uint32_t peer;  /* barrier: the peer waited for */
	uint8_t unit;   /* enum in cmpi_gen.c */
	uint8_t idx;    /* next operation within the unit */
};

typedef struct cmpi cmpi;
struct cmpi {
	uint8_t op;             /* enum cmpi_op */
	uint8_t measure;        /* enum cmpi_measure */
	uint8_t peers;          /* enum cmpi_peers */
	uint8_t coh;            /* enum cmpi_coh */
	uint32_t host;          /* this host among the program hosts */
	uint32_t nhosts;        /* program hosts */
	uint32_t procs;         /* processes taking part (the first of the host's) */
	uint32_t nsizes;        /* message sizes in the sweep */
	uint64_t min_size;      /* first message size, bytes */
	uint64_t large_size;    /* sizes above it use the _large iteration counts, bytes */
	uint32_t iters;         /* measured iterations, small sizes */
	uint32_t warm;          /* warm-up iterations, small sizes */
	uint32_t iters_large;   /* measured iterations, large sizes */
	uint32_t warm_large;    /* warm-up iterations, large sizes */
	uint32_t window;        /* bw: messages per window (per iteration and peer) */
	uint32_t depth;         /* cells per SPSC queue */
	uint64_t cell;          /* bytes of a message cell, header included */
	uint64_t header;        /* bytes of a cell's header */
	uint64_t base;          /* first byte of the region, bytes */
	uint64_t slot_bytes;    /* bytes of one (sender, receiver, process) slot */
	uint64_t bar_bytes;     /* bytes of the barrier flags (rounded to 4 KiB) */
	cmpi_cur *cur;          /* [procs] */
	char names[CMPI_MAX_SIZES][SIZE_FMT_LEN]; /* class names: "1B", "2B", ... */
};

/* cmpi_size - message bytes of sweep entry @k. */
static inline uint64_t cmpi_size(const cmpi *s, uint32_t k)
{
	return s->min_size << k;
}

/* Messages per iteration, peer and direction: the window for bw, 1 for latency. */
static inline uint32_t cmpi_msgs(const cmpi *s)
{
	return s->measure == CMPI_BW ? s->window : 1;
}

/* cmpi_iters - iterations of sweep entry @k, warm-up included (*@warm: of them). */
uint32_t cmpi__iters(const cmpi *s, uint32_t k, uint32_t *warm);
/* Chunks of a message of sweep entry @k (1 for one-sided operations). */
uint64_t cmpi__chunks(const cmpi *s, uint32_t k);
/* Cells a two-sided message of @bytes takes, and the payload of its chunk @c. */
uint64_t cmpi__nchunks(const cmpi *s, uint64_t bytes);
uint64_t cmpi__chunk_payload(const cmpi *s, uint64_t bytes, uint64_t c);
/* Address of the barrier flag of process @p of host @h. */
uint64_t cmpi__bar_flag(const cmpi *s, uint32_t h, uint32_t p);
/* Address of slot (sender host @a, receiver host @b, process @p). */
uint64_t cmpi__slot(const cmpi *s, uint32_t a, uint32_t b, uint32_t p);

/* cmpi_gen.c */
void cmpi__start(const cmpi *s, cmpi_cur *c);
int cmpi__next(cmpi *s, uint32_t proc, prog_op *op);
uint64_t cmpi__total(const cmpi *s);
/* Save or restore cursor @c with visitor @k (a restored one is checked against @s). */
void cmpi__cur_ckpt(const cmpi *s, cmpi_cur *c, ckpt *k);

#endif
