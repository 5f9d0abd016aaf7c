/*
 * test/models/fixture_stat.h - a statistic of a named component after an
 * engine run, for the unit tests that run a fabric on one rank and read its
 * stats_set (mem_fixture.c, test_switch_esf.c).
 */
#ifndef CXL_TEST_MODELS_FIXTURE_STAT_H
#define CXL_TEST_MODELS_FIXTURE_STAT_H

#include <check.h>
#include <string.h>

#include "core/engine.h"

/*
 * fixture_stat - statistic @name of the component of @g called @comp in
 * @table, or NULL if it has none; aborts the test if no component is called
 * @comp or it has no statistics.
 */
static inline const stats_entry *fixture_stat(const sim_graph *g, const stats_set *table,
					       const char *comp, const char *name)
{
	for (uint32_t i = 0; i < g->ncomp; i++) {
		if (strcmp(g->comp[i].name, comp))
			continue;
		const stats_comp *sc = stats_find(table, i);
		ck_assert_ptr_nonnull(sc);
		return stats_get(sc, name);
	}
	ck_abort_msg("no component %s", comp);
	return NULL;
}

#endif
