/*
 * test/models/coherence/test_sf.c - unit tests for the snoop filter (models/coherence/sf*.c):
 * hand-made cases.
 *
 * TCase "policy": each victim policy's order on hand-made sequences, with
 * touches (LRU, MRU; ignored by the others) and insertion counts (LFI,
 * including the count table's growth).  Lines are SF_BLOCK apart there so
 * no two share an InvBlk group.
 * TCase "structure": set mapping (set = L / SF_BLOCK % nsets, full sets
 * refuse inserts), the hash index under forced collisions (lines chosen to
 * share a home slot, including the slot that wraps to 0, removed in
 * several orders), a 2^20-entry fully associative filter, locking (locked
 * entries never chosen, 0 victims when all are locked, unlock restores),
 * owners (add, duplicate, overflow at SF_MAX_OWNERS, drop keeps order and
 * clears excl with owner[0]), invalid parameters refused with a message,
 * misuse panics, and sf_check noticing damage (LFI key, InvBlk group key).
 * TCase "invblk": the longest run wins, ties to the newest entry (and the
 * next newest), invblk_max caps the run, runs stop at SF_BLOCK groups,
 * locked lines split runs, invblk_max = 1 is the policy.
 * The differential test against a reference model: test_sf_random.c.
 */
#include "models/coherence/sf.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "core/rng.h"
#include "models/coherence/sf_int.h"
#include "test/core/panic_fixture.h"
#include "test/models/coherence/sf_fixture.h"

/* Choose victims for @line's set, check they are locked, remove them; lines into @got. */
static uint32_t evict(sf *s, uint64_t line, uint64_t *got)
{
	uint32_t out[SF_BLOCK];
	uint32_t n = sf_victims(s, line, out);

	for (uint32_t i = 0; i < n; i++) {
		ck_assert(sf_entry_at(s, out[i])->locked);
		got[i] = sfx_line_of(s, out[i]);
	}
	for (uint32_t i = 0; i < n; i++)
		sf_remove(s, out[i]);
	sf_check(s);
	return n;
}

/* One victim, removed; its line. */
static uint64_t evict1(sf *s, uint64_t line)
{
	uint64_t got[SF_BLOCK];

	ck_assert_uint_eq(evict(s, line, got), 1);
	return got[0];
}

static void ins_all(sf *s, const uint64_t *lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sfx_ins(s, lines[i]);
}

/* ================================================================ policy */

START_TEST(test_sf_fifo_order)
{
	sf *s = sfx_mk(4, 0, SF_FIFO, 1);
	const uint64_t l[] = { 0, 4, 8, 12 };

	ins_all(s, l, 4);
	sf_touch(s, sf_find(s, 0));   /* ignored by FIFO */
	ck_assert_uint_eq(evict1(s, 100), 0);
	sfx_ins(s, 16);
	ck_assert_uint_eq(evict1(s, 100), 4);
	ck_assert_uint_eq(evict1(s, 100), 8);
	ck_assert_uint_eq(evict1(s, 100), 12);
	ck_assert_uint_eq(evict1(s, 100), 16);
	ck_assert_uint_eq(sf_count(s), 0);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_lru_order)
{
	sf *s = sfx_mk(4, 0, SF_LRU, 1);
	const uint64_t l[] = { 0, 4, 8, 12 };

	ins_all(s, l, 4);
	sf_touch(s, sf_find(s, 0));
	sf_touch(s, sf_find(s, 8));
	ck_assert_uint_eq(evict1(s, 100), 4);
	sfx_ins(s, 16);                   /* use order now 12, 0, 8, 16 */
	sf_touch(s, sf_find(s, 12));  /* 0, 8, 16, 12 */
	ck_assert_uint_eq(evict1(s, 100), 0);
	ck_assert_uint_eq(evict1(s, 100), 8);
	ck_assert_uint_eq(evict1(s, 100), 16);
	ck_assert_uint_eq(evict1(s, 100), 12);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_lifo_order)
{
	sf *s = sfx_mk(4, 0, SF_LIFO, 1);
	const uint64_t l[] = { 0, 4, 8, 12 };

	ins_all(s, l, 4);
	sf_touch(s, sf_find(s, 0));   /* ignored by LIFO */
	ck_assert_uint_eq(evict1(s, 100), 12);
	sfx_ins(s, 16);
	ck_assert_uint_eq(evict1(s, 100), 16);
	ck_assert_uint_eq(evict1(s, 100), 8);
	ck_assert_uint_eq(evict1(s, 100), 4);
	ck_assert_uint_eq(evict1(s, 100), 0);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_mru_order)
{
	sf *s = sfx_mk(4, 0, SF_MRU, 1);
	const uint64_t l[] = { 0, 4, 8, 12 };

	ins_all(s, l, 4);
	sf_touch(s, sf_find(s, 4));
	ck_assert_uint_eq(evict1(s, 100), 4);
	ck_assert_uint_eq(evict1(s, 100), 12);
	sf_touch(s, sf_find(s, 0));
	ck_assert_uint_eq(evict1(s, 100), 0);
	sfx_ins(s, 16);
	sf_touch(s, sf_find(s, 8));
	ck_assert_uint_eq(evict1(s, 100), 8);
	ck_assert_uint_eq(evict1(s, 100), 16);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_lfi_order)
{
	sf *s = sfx_mk(4, 0, SF_LFI, 1);

	for (int k = 0; k < 2; k++) {   /* lines 0 and 4 inserted twice */
		sf_remove(s, sfx_ins(s, 0));
		sf_remove(s, sfx_ins(s, 4));
	}
	sfx_ins(s, 0);
	sfx_ins(s, 4);
	sfx_ins(s, 8);
	sfx_ins(s, 12);
	ck_assert_uint_eq(sf__lfi_count(s, 0), 3);
	ck_assert_uint_eq(sf__lfi_count(s, 8), 1);
	ck_assert_uint_eq(sf__lfi_count(s, 99), 0);
	sf_touch(s, sf_find(s, 8));     /* ignored by LFI */
	ck_assert_uint_eq(evict1(s, 100), 8);   /* count 1, older than 12 */
	ck_assert_uint_eq(evict1(s, 100), 12);
	sfx_ins(s, 8);                      /* count 2: fewer than 0 and 4 */
	ck_assert_uint_eq(evict1(s, 100), 8);
	sfx_ins(s, 8);                      /* count 3, newest: ties go to FIFO */
	ck_assert_uint_eq(evict1(s, 100), 0);
	ck_assert_uint_eq(evict1(s, 100), 4);
	ck_assert_uint_eq(evict1(s, 100), 8);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_lfi_table_grows)
{
	sf *s = sfx_mk(4, 0, SF_LFI, 1);
	uint64_t slots = s->lfi.nslots;

	for (uint64_t l = 0; l < 5000; l++)
		sf_remove(s, sfx_ins(s, l * 4 + (l & 3)));
	for (uint64_t l = 0; l < 5000; l += 2)
		sf_remove(s, sfx_ins(s, l * 4 + (l & 3)));
	ck_assert_uint_gt(s->lfi.nslots, slots);
	ck_assert_uint_eq(s->lfi.used, 5000);
	for (uint64_t l = 0; l < 5000; l++)
		REQ_EQ(sf__lfi_count(s, l * 4 + (l & 3)), l % 2 ? 1 : 2);
	sf_check(s);
	sf_destroy(s);
}
END_TEST

/* ============================================================= structure */

START_TEST(test_sf_set_mapping)
{
	sf *s = sfx_mk(16, 4, SF_FIFO, 1);   /* 4 sets of 4; set = L / 4 % 4 */

	ck_assert_uint_eq(s->nsets, 4);
	for (uint64_t l = 4; l < 8; l++) {
		uint32_t e = sfx_ins(s, l);

		ck_assert_uint_ge(e, 4);
		ck_assert_uint_lt(e, 8);
	}
	ck_assert_uint_eq(sf_set_free(s, 20), 0);
	ck_assert_uint_eq(sf_insert(s, 20), SF_NONE);   /* set 1 too */
	ck_assert_uint_eq(sf_insert(s, 4 + 16 * 1000), SF_NONE);
	ck_assert_uint_eq(sf_find(s, 20), SF_NONE);
	ck_assert_uint_eq(sf_set_free(s, 8), 4);
	uint32_t e8 = sfx_ins(s, 8);                        /* set 2 */
	ck_assert_uint_ge(e8, 8);
	ck_assert_uint_lt(e8, 12);
	ck_assert_uint_eq(sf_set_free(s, 40), 3);       /* 40 / 4 % 4 = 2 */
	ck_assert_uint_eq(evict1(s, 20), 4);            /* FIFO of set 1 */
	ck_assert_uint_eq(evict1(s, 8), 8);             /* set 2's only entry */
	ck_assert_uint_eq(sf_victims(s, 0, (uint32_t[SF_BLOCK]){ 0 }), 0);  /* set 0 empty */
	ck_assert_uint_eq(sf_count(s), 3);
	ck_assert_uint_eq(sf_entries(s), 16);
	sf_destroy(s);
}
END_TEST

/* @n lines > @from whose home slot in @s's index is @home. */
static void lines_with_home(const sf *s, uint32_t home, uint64_t from, uint64_t *out, int n)
{
	for (uint64_t l = from + 1; n > 0; l++)
		if (sf__hash(l, s->idx_bits) == home)
			out[--n] = l;
}

START_TEST(test_sf_hash_collisions)
{
	sf *s = sfx_mk(16, 0, SF_FIFO, 1);   /* 32 index slots */
	uint64_t a[8], b[4], absent[1];

	ck_assert_uint_eq(s->idx_mask, 31);
	lines_with_home(s, 31, 0, a, 8);   /* fills 31, 0..6: wraps */
	lines_with_home(s, 0, 0, b, 4);    /* pushed to 7..10 */
	lines_with_home(s, 31, a[0], absent, 1);
	for (int round = 0; round < 3; round++) {
		ins_all(s, a, 8);
		ins_all(s, b, 4);
		sf_check(s);
		ck_assert_uint_eq(sf_find(s, absent[0]), SF_NONE);
		/* remove a's in an order that depends on the round, checking all finds */
		for (int k = 0; k < 8; k++) {
			int i = round == 0 ? k : round == 1 ? 7 - k : (k * 3) % 8;

			sf_remove(s, sf_find(s, a[i]));
			ck_assert_uint_eq(sf_find(s, a[i]), SF_NONE);
			sf_check(s);
			for (int j = 0; j < 4; j++)
				ck_assert_uint_eq(sfx_line_of(s, sf_find(s, b[j])), b[j]);
		}
		for (int j = 0; j < 4; j++)
			sf_remove(s, sf_find(s, b[j]));
		ck_assert_uint_eq(sf_check(s), 0);
	}
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_fully_assoc_large)
{
	const uint32_t n = 1u << 20;
	sf *s = sfx_mk(n, 0, SF_FIFO, 1);

	uint64_t bad = 0;   /* ck_assert in these loops would cost a syscall each */

	for (uint64_t i = 0; i < n; i++)
		bad += sf_insert(s, i * 3) == SF_NONE;
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(sf_insert(s, 1), SF_NONE);
	for (uint64_t i = 0; i < n; i += 2)
		sf_remove(s, sf_find(s, i * 3));
	for (uint64_t i = 0; i < 3 * (uint64_t)n; i++) {
		uint32_t e = sf_find(s, i);
		int want = i % 3 == 0 && (i / 3) % 2 == 1;

		bad += (e != SF_NONE) != want || (want && s->ent[e].line != i);
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(sf_check(s), n / 2);
	ck_assert_uint_eq(evict1(s, 0), 3);   /* the oldest left */
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_locked_never_chosen)
{
	for (int pol = 0; pol < SF_NPOLICY; pol++) {
		sf *s = sfx_mk(8, 4, (enum sf_policy)pol, 1);
		const uint64_t l[] = { 0, 32, 64, 96 };   /* all in set 0 */
		uint32_t out[SF_BLOCK];

		ins_all(s, l, 4);
		sfx_ins(s, 4);                                 /* set 1 */
		sf_lock(s, sf_find(s, 0));
		sf_lock(s, sf_find(s, 96));
		sf_lock(s, sf_find(s, 96));                /* idempotent */
		uint32_t n1 = sf_victims(s, 0, out);
		ck_assert_uint_eq(n1, 1);
		uint64_t v1 = sfx_line_of(s, out[0]);
		ck_assert(v1 == 32 || v1 == 64);
		ck_assert_uint_eq(sf_victims(s, 0, out), 1);
		ck_assert_uint_eq(sfx_line_of(s, out[0]), 96 - v1);
		ck_assert_uint_eq(sf_victims(s, 0, out), 0);   /* all locked */
		ck_assert_uint_eq(sf_set_free(s, 0), 0);
		ck_assert_uint_eq(sf_victims(s, 4, out), 1);   /* other set unaffected */
		ck_assert_uint_eq(sfx_line_of(s, out[0]), 4);
		sf_unlock(s, sf_find(s, 96));
		sf_unlock(s, sf_find(s, 96));
		sf_check(s);
		ck_assert_uint_eq(sf_victims(s, 0, out), 1);
		ck_assert_uint_eq(sfx_line_of(s, out[0]), 96);
		sf_remove(s, sf_find(s, 0));               /* removing a locked entry */
		sf_check(s);
		ck_assert_uint_eq(sf_count(s), 4);
		sf_destroy(s);
	}
}
END_TEST

START_TEST(test_sf_owners)
{
	sf *s = sfx_mk(4, 0, SF_FIFO, 1);
	uint32_t e = sfx_ins(s, 7);
	sf_entry *en = sf_entry_at(s, e);

	ck_assert_uint_eq(en->nowners, 0);
	for (uint16_t p = 0; p < SF_MAX_OWNERS; p++)
		ck_assert_int_eq(sf_add_owner(s, e, (uint16_t)(100 + p)), 1);
	ck_assert_int_eq(sf_add_owner(s, e, 103), 1);   /* present: no change */
	ck_assert_int_eq(sf_add_owner(s, e, 999), 0);   /* full */
	ck_assert_uint_eq(en->nowners, SF_MAX_OWNERS);
	en->excl = 1;
	sf_drop_owner(s, e, 103);
	sf_drop_owner(s, e, 555);                       /* absent: no-op */
	ck_assert_uint_eq(en->nowners, SF_MAX_OWNERS - 1);
	ck_assert_uint_eq(en->owner[2], 102);
	ck_assert_uint_eq(en->owner[3], 104);
	ck_assert_uint_eq(en->excl, 1);
	ck_assert_int_eq(sf_add_owner(s, e, 999), 1);
	ck_assert_uint_eq(en->owner[SF_MAX_OWNERS - 1], 999);
	sf_drop_owner(s, e, 100);                       /* owner[0]: excl goes */
	ck_assert_uint_eq(en->excl, 0);
	ck_assert_uint_eq(en->owner[0], 101);
	sf_check(s);
	sf_remove(s, e);
	e = sfx_ins(s, 7);
	ck_assert_uint_eq(sf_entry_at(s, e)->nowners, 0);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_invalid_params)
{
	const struct {
		sf_params p;
		const char *word;
	} bad[] = {
		{ { 0, 0, SF_FIFO, 1 }, "entries" },
		{ { 10, 4, SF_FIFO, 1 }, "assoc" },
		{ { 4, 8, SF_FIFO, 1 }, "assoc" },
		{ { (1u << 30) + 1, 0, SF_FIFO, 1 }, "entries" },
		{ { 8, 0, SF_NPOLICY, 1 }, "policy" },
		{ { 8, 0, SF_FIFO, 0 }, "invblk_max" },
		{ { 8, 0, SF_FIFO, SF_BLOCK + 1 }, "invblk_max" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char why[64] = "";

		ck_assert_ptr_null(sf_create(&bad[i].p, why));
		ck_assert_msg(strstr(why, bad[i].word), "case %zu: \"%s\"", i, why);
		ck_assert_ptr_null(sf_create(&bad[i].p, NULL));
	}
	sf_destroy(sfx_mk(8, 8, SF_MRU, SF_BLOCK));   /* one set of 8: valid */
	sf_destroy(NULL);
}
END_TEST

START_TEST(test_sf_insert_present_panics)
{
	sf *s = sfx_mk(4, 0, SF_FIFO, 1);

	sfx_ins(s, 5);
	panict_expect("assertion failed: s->idx[i].line != line");
	sf_insert(s, 5);
}
END_TEST

START_TEST(test_sf_remove_invalid_panics)
{
	sf *s = sfx_mk(4, 0, SF_FIFO, 1);

	panict_expect("assertion failed: e < s->p.entries && s->ent[e].valid");
	sf_remove(s, 0);
}
END_TEST

START_TEST(test_sf_check_finds_grp_damage)
{
	sf *s = sfx_mk(8, 0, SF_FIFO, 3);

	ins_all(s, (const uint64_t[]){ 4, 5, 9 }, 3);
	ck_assert_uint_eq(sf_check(s), 3);
	s->grp[s->grec[sf_find(s, 9)]].key[0]++;   /* a stale group key */
	panict_expect("sf_check: group record 1: stale key (len 1)");
	sf_check(s);
}
END_TEST

START_TEST(test_sf_check_finds_damage)
{
	sf *s = sfx_mk(4, 0, SF_LFI, 1);

	sfx_ins(s, 1);
	sfx_ins(s, 2);
	ck_assert_uint_eq(sf_check(s), 2);
	s->lcount[sf_find(s, 2)] = 7;   /* heap key no longer the table's count */
	panict_expect("sf_check: entry 1: lcount 7 != table count");
	sf_check(s);
}
END_TEST

/* ================================================================ invblk */

/* Victims for @line's set must be exactly @want (line order). */
static void want_victims(sf *s, uint64_t line, const uint64_t *want, uint32_t n)
{
	uint64_t got[SF_BLOCK];

	ck_assert_uint_eq(evict(s, line, got), n);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(got[i], want[i]);
}

START_TEST(test_sf_invblk_longest)
{
	sf *s = sfx_mk(16, 0, SF_FIFO, 4);
	const uint64_t l[] = { 0, 1, 8, 9, 10, 20 };

	ins_all(s, l, 6);
	want_victims(s, 99, (const uint64_t[]){ 8, 9, 10 }, 3);
	want_victims(s, 99, (const uint64_t[]){ 0, 1 }, 2);
	want_victims(s, 99, (const uint64_t[]){ 20 }, 1);
	ck_assert_uint_eq(sf_victims(s, 99, (uint32_t[SF_BLOCK]){ 0 }), 0);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_invblk_lifo_tie)
{
	sf *s = sfx_mk(16, 0, SF_FIFO, 2);

	ins_all(s, (const uint64_t[]){ 0, 1, 8, 9, 20 }, 5);
	want_victims(s, 99, (const uint64_t[]){ 8, 9 }, 2);
	sf_remove(s, sf_find(s, 0));
	ins_all(s, (const uint64_t[]){ 8, 9, 0 }, 3);   /* newest: 0, then 9 */
	want_victims(s, 99, (const uint64_t[]){ 0, 1 }, 2);
	want_victims(s, 99, (const uint64_t[]){ 8, 9 }, 2);
	want_victims(s, 99, (const uint64_t[]){ 20 }, 1);
	sf_destroy(s);

	/* newest entry in two candidates: the next newest decides */
	s = sfx_mk(16, 0, SF_FIFO, 2);
	ins_all(s, (const uint64_t[]){ 3, 1, 2 }, 3);
	want_victims(s, 99, (const uint64_t[]){ 1, 2 }, 2);
	sf_destroy(s);
	s = sfx_mk(16, 0, SF_FIFO, 2);
	ins_all(s, (const uint64_t[]){ 1, 3, 2 }, 3);
	want_victims(s, 99, (const uint64_t[]){ 2, 3 }, 2);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_invblk_max_len)
{
	for (uint32_t max = 1; max <= SF_BLOCK; max++) {
		sf *s = sfx_mk(16, 0, SF_FIFO, max);
		uint64_t want[SF_BLOCK];

		ins_all(s, (const uint64_t[]){ 4, 5, 6, 7 }, 4);
		for (uint32_t i = 0; i < max; i++)   /* the newest max lines (FIFO: the oldest one) */
			want[i] = max == 1 ? 4 : 8 - max + i;
		want_victims(s, 99, want, max);
		sf_destroy(s);
	}
}
END_TEST

START_TEST(test_sf_invblk_group_bound)
{
	sf *s = sfx_mk(16, 0, SF_FIFO, 4);

	ins_all(s, (const uint64_t[]){ 2, 3, 4, 5, 6 }, 5);   /* 2..6 crosses 3|4 */
	want_victims(s, 99, (const uint64_t[]){ 4, 5, 6 }, 3);
	want_victims(s, 99, (const uint64_t[]){ 2, 3 }, 2);
	sf_destroy(s);

	s = sfx_mk(32, 8, SF_LIFO, 4);   /* a group maps to one set: lines 12..15 in set 3 */
	ins_all(s, (const uint64_t[]){ 12, 13, 14, 15, 16, 17 }, 6);
	want_victims(s, 12, (const uint64_t[]){ 12, 13, 14, 15 }, 4);
	ck_assert_uint_eq(sf_victims(s, 12, (uint32_t[SF_BLOCK]){ 0 }), 0);
	want_victims(s, 17, (const uint64_t[]){ 16, 17 }, 2);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_invblk_locked_splits)
{
	sf *s = sfx_mk(16, 0, SF_FIFO, 4);

	ins_all(s, (const uint64_t[]){ 0, 1, 2, 3, 8 }, 5);
	sf_lock(s, sf_find(s, 1));
	want_victims(s, 99, (const uint64_t[]){ 2, 3 }, 2);
	want_victims(s, 99, (const uint64_t[]){ 8 }, 1);   /* newest single */
	want_victims(s, 99, (const uint64_t[]){ 0 }, 1);
	ck_assert_uint_eq(sf_victims(s, 99, (uint32_t[SF_BLOCK]){ 0 }), 0);
	sf_destroy(s);
}
END_TEST

START_TEST(test_sf_invblk_one_is_policy)
{
	/* contiguous lines everywhere: invblk_max 1 still gives the policy's victim */
	const uint64_t want[SF_NPOLICY] = { [SF_FIFO] = 0, [SF_LRU] = 1, [SF_LFI] = 2,
					    [SF_LIFO] = 3, [SF_MRU] = 0 };

	for (int pol = 0; pol < SF_NPOLICY; pol++) {
		sf *s = sfx_mk(8, 0, (enum sf_policy)pol, 1);

		sf_remove(s, sfx_ins(s, 0));
		sf_remove(s, sfx_ins(s, 1));
		sf_remove(s, sfx_ins(s, 3));
		ins_all(s, (const uint64_t[]){ 0, 1, 2, 3 }, 4);
		sf_touch(s, sf_find(s, 0));
		ck_assert_uint_eq(evict1(s, 9), want[pol]);
		sf_destroy(s);
	}
}
END_TEST

Suite *sf_suite(void)
{
	Suite *su = suite_create("sf");
	TCase *pol = tcase_create("policy");
	TCase *str = tcase_create("structure");
	TCase *inv = tcase_create("invblk");

	tcase_add_test(pol, test_sf_fifo_order);
	tcase_add_test(pol, test_sf_lru_order);
	tcase_add_test(pol, test_sf_lifo_order);
	tcase_add_test(pol, test_sf_mru_order);
	tcase_add_test(pol, test_sf_lfi_order);
	tcase_add_test(pol, test_sf_lfi_table_grows);
	suite_add_tcase(su, pol);

	tcase_set_timeout(str, 60);
	tcase_add_test(str, test_sf_set_mapping);
	tcase_add_test(str, test_sf_hash_collisions);
	tcase_add_test(str, test_sf_fully_assoc_large);
	tcase_add_test(str, test_sf_locked_never_chosen);
	tcase_add_test(str, test_sf_owners);
	tcase_add_test(str, test_sf_invalid_params);
	tcase_add_test_raise_signal(str, test_sf_insert_present_panics, SIGABRT);
	tcase_add_test_raise_signal(str, test_sf_remove_invalid_panics, SIGABRT);
	tcase_add_test_raise_signal(str, test_sf_check_finds_damage, SIGABRT);
	tcase_add_test_raise_signal(str, test_sf_check_finds_grp_damage, SIGABRT);
	suite_add_tcase(su, str);

	tcase_add_test(inv, test_sf_invblk_longest);
	tcase_add_test(inv, test_sf_invblk_lifo_tie);
	tcase_add_test(inv, test_sf_invblk_max_len);
	tcase_add_test(inv, test_sf_invblk_group_bound);
	tcase_add_test(inv, test_sf_invblk_locked_splits);
	tcase_add_test(inv, test_sf_invblk_one_is_policy);
	suite_add_tcase(su, inv);

	return su;
}
