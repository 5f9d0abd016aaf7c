/*
 * test/models/fabric/fab_fixture.h - building a fabric from a fab_topo in the
 * fabric unit tests (test_fab_topo.c, test_fab_route.c).
 *
 * Components get their kinds' model types (fab_kinds[]); the tests look at
 * the graph and the routing tables, never run the engine.  Generation failures abort the
 * test (Check); fab_finish()'s code is returned so error cases can test it.
 */
#ifndef CXL_TEST_MODELS_FAB_FIXTURE_H
#define CXL_TEST_MODELS_FAB_FIXTURE_H

#include <check.h>

#include "core/sim.h"
#include "models/fabric/fab_int.h"
#include "models/fabric/fab_topo.h"

/* fab_fixture_make - generate @t into @f and finish it into @g (link latency 1 ns). */
static inline int fab_fixture_make(const fab_topo *t, fabric *f, sim_graph *g, cxl_err *e)
{
	enum fab_topo_field field;

	fab_init(f, "test", 1000);
	graph_init(g);
	ck_assert_int_eq(fab_topo_generate(f, t, &field, e), 0);
	return fab_finish(f, g, e);
}

/* fab_fixture_drop - free what fab_fixture_make built. */
static inline void fab_fixture_drop(fabric *f, sim_graph *g)
{
	fab_free(f);
	graph_free(g);
}

#endif
