/*
 * models/fabric/fab_kind.c - looking kinds up in the kind table, and the
 * table's start-up check (contract in fab_kind.h; the table in
 * models/kinds.c).  The table has a handful of rows: linear look-ups.
 */
#include "models/fabric/fab_kind.h"

#include <stdio.h>
#include <string.h>

uint32_t fab_kind_find(const char *name)
{
	for (uint32_t k = 0; k < fab_nkinds; k++)
		if (!(fab_kinds[k].roles & FAB_ROLE_BUS) && !strcmp(fab_kinds[k].name, name))
			return k;
	return UINT32_MAX;
}

uint32_t fab_kind_of_ops(const model_ops *ops)
{
	for (uint32_t k = 0; k < fab_nkinds; k++)
		if (fab_kinds[k].ops == ops)
			return k;
	return UINT32_MAX;
}

void fab_kind_names(char *buf, size_t n)
{
	size_t l = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < fab_nkinds && l < n; k++)
		if (!(fab_kinds[k].roles & FAB_ROLE_BUS))
			l += (size_t)snprintf(buf + l, n - l, "%s%s", l ? " " : "", fab_kinds[k].name);
}

/* What is wrong with row @k (@d) on its own, or NULL. */
static const char *row_fault(const fab_kind_desc *d, uint32_t k)
{
	static const char *const builtin[FAB_NBUILTIN] = {
		[FAB_SWITCH] = "switch", [FAB_HOST] = "host", [FAB_ACCEL] = "accel",
		[FAB_MEMORY] = "memory", [FAB_BUS] = "bus",
	};
	unsigned r = d->roles;

	if (!d->name || !d->plural || !d->prefix || !d->ops || !d->schemas)
		return "a name, plural, prefix, ops or schemas is missing";
	if (k < FAB_NBUILTIN && strcmp(d->name, builtin[k]))
		return "the built-in rows must come first, in enum fab_kind order";
	if (!d->ops->name || strcmp(d->ops->name, d->name))
		return "its model's ops->name differs from the kind's name";
	if (r & FAB_ROLE_BUS)
		return r == FAB_ROLE_BUS ? NULL : "the bus row has other roles";
	if (!(r & FAB_ROLE_ENDPOINT) == !(r & FAB_ROLE_SWITCH))
		return "a node kind is either an endpoint or a switch";
	if ((r & (FAB_ROLE_REQUESTER | FAB_ROLE_TARGET | FAB_ROLE_MULTIHEAD | FAB_ROLE_DEVICE)) &&
	    !(r & FAB_ROLE_ENDPOINT))
		return "requester, target, multi-head and device roles are for endpoints";
	if ((r & FAB_ROLE_DEVICE) && (r & (FAB_ROLE_TARGET | FAB_ROLE_MULTIHEAD)))
		return "a device is addressed in the device window, not interleaved as a target";
	if (!d->colour)
		return "a node kind needs a --dot colour";
	return NULL;
}

int fab_kinds_check_table(const fab_kind_desc *t, uint32_t n, cxl_err *err)
{
	uint32_t buses = 0;

	if (n > FAB_MAX_KINDS || n < FAB_NBUILTIN)
		return cxl_err_set(err, CXL_EINTERNAL, "kind table: %u rows (expected %d to %d)",
				   n, FAB_NBUILTIN, FAB_MAX_KINDS);
	for (uint32_t k = 0; k < n; k++) {
		const char *fault = row_fault(&t[k], k);
		if (fault)
			return cxl_err_set(err, CXL_EINTERNAL, "kind table row %u (%s): %s", k,
					   t[k].name ? t[k].name : "?", fault);
		buses += !!(t[k].roles & FAB_ROLE_BUS);
		for (uint32_t j = 0; j < k; j++)
			if (!strcmp(t[j].name, t[k].name))
				return cxl_err_set(err, CXL_EINTERNAL, "kind table: \"%s\" twice",
						   t[k].name);
	}
	if (buses != 1)
		return cxl_err_set(err, CXL_EINTERNAL, "kind table: %u bus rows (expected 1)", buses);
	return 0;
}

int fab_kinds_check(cxl_err *err)
{
	return fab_kinds_check_table(fab_kinds, fab_nkinds, err);
}
