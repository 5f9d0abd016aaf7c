/*
 * traces/trc_tidmap.h - thread ids of a tool's trace to the dense thread
 * indices a .cxt record keeps (trc_rec.thread, version 3): the first id seen
 * is 0, the next new one 1, and so on, at most TRC_THREADS_MAX of them.
 *
 * An open-addressing hash table (linear probing, grown at half full), so a
 * lookup is O(1) whatever the number of threads; memory at most ~1.3 MiB
 * (2^17 slots of 10 bytes).  Used by the drcachesim importer
 * (trc_import_tools.c); one map per importer, no shared state.
 */
#ifndef CXL_TRACES_TRC_TIDMAP_H
#define CXL_TRACES_TRC_TIDMAP_H

#include <stdint.h>

#define TRC_THREADS_MAX 65536 /* thread indices 0..65535 fit trc_rec.thread */

typedef struct trc_tidmap trc_tidmap;
struct trc_tidmap {
	uint64_t *key; /* [cap] thread ids, 0 = empty slot */
	uint16_t *idx; /* [cap] their indices */
	uint32_t cap;  /* slots, a power of two (0 before the first id) */
	uint32_t n;    /* ids stored = the next index */
};

/**
 * trc_tidmap_index - the index of thread id @key, a new one if unseen.
 * @m:   the map (zero-initialised before the first call)
 * @key: the id, not 0
 * @idx: OUT its index, 0..TRC_THREADS_MAX-1
 *
 * Return: 0, or -1 if @key is new and TRC_THREADS_MAX ids are stored.
 */
int trc_tidmap_index(trc_tidmap *m, uint64_t key, uint16_t *idx);

/* trc_tidmap_free - release the map's memory (it may be reused empty). */
void trc_tidmap_free(trc_tidmap *m);

#endif
