/*
 * partition/registry.c - the table of partitioners, looked up by name.
 */
#include "partition/part.h"

#include <string.h>

static const part_ops *const partitioners[] = {
	&part_block,
	&part_roundrobin,
	&part_metis,
};

#define NPART ((int)(sizeof(partitioners) / sizeof(partitioners[0])))

const part_ops *part_lookup(const char *name)
{
	for (int i = 0; i < NPART; i++)
		if (!strcmp(partitioners[i]->name, name))
			return partitioners[i];
	return NULL;
}

const part_ops *const *part_list(int *n)
{
	*n = NPART;
	return partitioners;
}

int part_check(const sim_graph *g, int nranks, const int32_t *rank_of, cxl_err *err)
{
	for (uint32_t i = 0; i < g->ncomp; i++)
		if (rank_of[i] < 0 || rank_of[i] >= nranks)
			return cxl_err_set(err, CXL_EINTERNAL,
					   "partitioner put component %s on rank %d (expected 0..%d)",
					   g->comp[i].name, rank_of[i], nranks - 1);
	return 0;
}
