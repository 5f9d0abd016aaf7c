/*
 * models/coherence/sf_ckpt.c - the snoop filter's part of a checkpoint
 * (core/ckpt.h): every table that sf_insert / sf_remove / sf_touch /
 * sf_lock / sf_victims change.
 *
 * The filter links its entries by index (sf_int.h), never by pointer, so
 * its tables are saved as raw arrays: the entries, insertion sequence
 * numbers, both lists' links, the set heads, the hash index, and per
 * policy the LFI count table, counts and heaps, or the InvBlk group
 * records and heaps.  Slices of arrays that hold nothing yet (a heap's
 * unused tail, the group record of an invalid entry) are skipped, so no
 * uninitialised byte is written.  What sf_create() derives from the
 * parameters (sets, ways, index size) is not saved: a restart creates the
 * filter from the same config first.  The LFI count table is the one
 * table that grows while the run runs; loading sizes it as saved.
 * Cost: O(entries) bytes, written once per checkpoint.
 */
#include "models/coherence/sf.h"

#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/coherence/sf_int.h"

#define SF_CKPT_MARK 0x53464c54u  /* "SFLT" */
#define SF_LFI_MAX_BITS 40        /* a bigger saved count table is damage */

/* The LFI count table: its size, then the counts, then the lines of used slots. */
static void lfi_table_ckpt(sf_lfi *t, ckpt *k)
{
	unsigned bits = t->bits;

	CKPT(k, bits);
	if (ckpt_failed(k))
		return;
	if (ckpt_loading(k) && bits != t->bits) {
		if (bits < 1 || bits > SF_LFI_MAX_BITS) {
			ckpt_fail(k, "snoop filter: a saved LFI table of 2^%u slots", bits);
			return;
		}
		free(t->line);
		free(t->count);
		t->bits = bits;
		t->nslots = UINT64_C(1) << bits;
		t->line = xmalloc(t->nslots * sizeof(*t->line));
		t->count = xcalloc(t->nslots, sizeof(*t->count));
	}
	CKPT(k, t->used);
	ckpt_bytes(k, t->count, t->nslots * sizeof(*t->count));
	for (uint64_t i = 0; i < t->nslots && !ckpt_failed(k); i++)
		if (t->count[i])
			CKPT(k, t->line[i]);
}

/* Per set, the used slice of the LFI heaps or (@groups) the InvBlk heaps (set heads loaded). */
static void heaps_ckpt(const sf *s, ckpt *k, uint32_t *h, int groups)
{
	for (uint32_t set = 0; set < s->nsets; set++) {
		uint32_t n = groups ? s->set[set].ngheap : s->set[set].nheap;
		if (n > s->ways) {
			ckpt_fail(k, "snoop filter: a saved heap of %u in a set of %u", n, s->ways);
			return;
		}
		ckpt_bytes(k, h + sf__set_base(s, set), n * sizeof(*h));
	}
}

static void lfi_ckpt(sf *s, ckpt *k)
{
	uint32_t n = s->p.entries;

	lfi_table_ckpt(&s->lfi, k);
	ckpt_bytes(k, s->lcount, n * sizeof(*s->lcount));
	ckpt_bytes(k, s->hpos, n * sizeof(*s->hpos));
	heaps_ckpt(s, k, s->heap, 0);
}

static void invblk_ckpt(sf *s, ckpt *k)
{
	uint32_t n = s->p.entries;

	ckpt_bytes(k, s->grp, n * sizeof(*s->grp));
	ckpt_bytes(k, s->ghpos, n * sizeof(*s->ghpos));
	for (uint32_t e = 0; e < n && !ckpt_failed(k); e++)
		if (s->ent[e].valid)
			CKPT(k, s->grec[e]);
	heaps_ckpt(s, k, s->gheap, 1);
}

/**
 * sf_ckpt - save or restore the contents of filter @s (see the file
 * comment); loading, @s was created with the parameters it was saved
 * with.  A damaged count, heap size or table size fails the visitor.
 */
void sf_ckpt(sf *s, ckpt *k)
{
	uint32_t n = s->p.entries;

	ckpt_mark(k, SF_CKPT_MARK, "snoop filter");
	CKPT(k, s->count);
	CKPT(k, s->seq_next);
	ckpt_bytes(k, s->ent, n * sizeof(*s->ent));
	ckpt_bytes(k, s->seq, n * sizeof(*s->seq));
	ckpt_bytes(k, s->ins, n * sizeof(*s->ins));
	ckpt_bytes(k, s->use, n * sizeof(*s->use));
	ckpt_bytes(k, s->set, s->nsets * sizeof(*s->set));
	ckpt_bytes(k, s->idx, ((size_t)s->idx_mask + 1) * sizeof(*s->idx));
	if (s->p.policy == SF_LFI)
		lfi_ckpt(s, k);
	if (s->p.invblk_max > 1)
		invblk_ckpt(s, k);
	if (ckpt_loading(k) && !ckpt_failed(k) && s->count > n)
		ckpt_fail(k, "snoop filter: %u valid entries saved, %u slots", s->count, n);
}
