/*
 * core/ckpt_dir.h - checkpoint folders on disk: writing one at a cut (every
 * rank its share, rank 0 the manifest and the config, then one rename) and
 * reading one back whole for a restart on any number of ranks.
 *
 * A checkpoint of a run at cut time C is the folder OUT/checkpoint-<C>ps/:
 *   manifest      text: format version, cxlfab version, cut, the ranks that
 *                 wrote it, components, events executed, seed, and each
 *                 rank file's name, size and sha256
 *   config.cfg    the run's effective config (cfg_dump: every --set folded in)
 *   rank-K.bin    rank K's share: a header (magic "CXLFABCK", format
 *                 version, rank, ranks, components, cut, body length), the
 *                 body (core/ckpt_engine.c) and the body's sha256
 * It is written as OUT/.checkpoint-<C>ps.partial/ and renamed when every
 * rank's file is complete, so a folder named checkpoint-* is whole: a kill
 * or a full disk leaves at most a .partial folder (removed by the next
 * run into OUT).  What the body holds does not depend on the ranks that
 * wrote it: any rank reads every file and keeps its own components.
 */
#ifndef CXL_CORE_CKPT_DIR_H
#define CXL_CORE_CKPT_DIR_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/stime.h"

#define CKPT_FORMAT 1           /* version of the layout below and of ckpt_engine.c's */
#define CKPT_MAGIC "CXLFABCK"   /* 8 bytes at the start of every rank file */

/* A checkpoint read back: every rank file's body, indexed by component. */
struct ckpt_image {
	char dir[4096];            /* the checkpoint folder */
	char config[4200];         /* its config.cfg */
	sim_time cut;              /* every event before it has run */
	uint64_t events;           /* events executed up to the cut, all ranks */
	uint64_t seed;             /* the run's seed */
	uint32_t ncomp;            /* components */
	int nfiles;                /* rank files (the ranks that wrote it) */
	unsigned char **body;      /* each file's body (owned) */
	size_t *body_len;          /* and its length */
	const unsigned char **rec; /* component id -> its record in a body */
	size_t *rec_len;           /* and its length */
	const unsigned char **evs; /* per file: its pending events (96 bytes each) */
	uint64_t *nev;             /* per file: how many */
	const unsigned char **aggr; /* per file: its time-series aggregates (packed) */
	size_t *aggr_len;          /* and their length (0: sampling off) */
};
typedef struct ckpt_image ckpt_image;

/**
 * ckpt_dir_read - read checkpoint folder @dir whole (every rank calls it).
 * Checks the manifest, each file's magic, format, size and sha256, and
 * that every component has exactly one record.  Returns 0, or CXL_EINVAL
 * naming the file and what is wrong (damaged, truncated, not a checkpoint,
 * another format version).
 */
int ckpt_dir_read(const char *dir, ckpt_image *img, cxl_err *err);
void ckpt_image_free(ckpt_image *img);

/*
 * ckpt_dir_write - every rank calls it at the same cut: rank @rank's share
 * @body (@len bytes) goes to rank-@rank.bin; rank 0 also writes the
 * manifest and @config, then renames the folder into place.  @events is
 * this rank's count of executed events, @ncomp the system's components.
 * Collective; returns 0 or the same CXL_E* code on every rank (rank 0's
 * @err names the failure: a full disk, an unwritable folder).
 */
int ckpt_dir_write(const char *outdir, sim_time cut, int rank, int nranks, uint32_t ncomp,
		   uint64_t seed, uint64_t events, const void *body, size_t len,
		   const char *config, size_t config_len, cxl_err *err);

/* ckpt_dir_name - "checkpoint-<cut>ps" into @buf (64 bytes). */
void ckpt_dir_name(sim_time cut, char *buf, size_t n);

#endif
