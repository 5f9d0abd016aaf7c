/*
 * models/registry.c - the table of system builders (see registry.h).
 */
#include "models/registry.h"

#include "core/cfg_peek.h"

#include <stdio.h>
#include <string.h>

static const sys_builder *const builders[] = {
	&sys_phold,
	&sys_fabric,
};

#define NBUILD ((int)(sizeof(builders) / sizeof(builders[0])))

const sys_builder *const *sys_list(int *n)
{
	*n = NBUILD;
	return builders;
}

int sys_select(const char *path, const char *const *sets, size_t nsets,
	       const sys_builder **out, cxl_err *err)
{
	const sys_builder *found = NULL;
	char names[256] = "";

	for (int i = 0; i < NBUILD; i++) {
		const sys_builder *b = builders[i];
		size_t l = strlen(names);
		snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "", b->group);
		int in = cfg_peek_group(path, sets, nsets, b->group);
		if (in < 0) {
			*out = NULL;
			return 0;
		}
		if (!in)
			continue;
		if (found)
			return cxl_err_set(err, CXL_EINVAL,
					   "%s: describes two systems, \"%s\" and \"%s\" (expected one)",
					   path ? path : "--set", found->group, b->group);
		found = b;
	}
	if (!found)
		return cxl_err_set(err, CXL_EINVAL, "%s: no system to simulate (expected a group: %s)",
				   path ? path : "--set", names);
	*out = found;
	return 0;
}
