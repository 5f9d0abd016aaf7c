/*
 * models/fabric/fab_kind.h - the kinds of fabric component, described by one
 * table (fab_kinds[], defined in models/kinds.c, one row per kind).
 *
 * A row says everything the fabric layer needs to know about a kind: its
 * name (the component type in components.csv, --check and
 * topology.custom.nodes), the model that runs it (ops; its cfg_groups are
 * the config groups its overrides match) and the schemas of the keys that
 * model reads, its roles, and how --check and --dot show it.  Roles, not
 * kind numbers, decide what the fabric does with a node:
 *
 *   FAB_ROLE_ENDPOINT   gets a 12-bit PBR id and sits on an edge port (the
 *                       PBR ids are handed out in node order to exactly the
 *                       nodes of endpoint kinds)
 *   FAB_ROLE_REQUESTER  issues requests: walked by the traffic estimate,
 *                       counted in the summary's requests and latency, the
 *                       only kind a multi-headed device may connect to
 *   FAB_ROLE_TARGET     serves requests: the interleave targets of the
 *                       requesters, its DCOH counters go to the summary
 *   FAB_ROLE_MULTIHEAD  may have several connections (one per head); other
 *                       endpoints have exactly one
 *   FAB_ROLE_SWITCH     routes by PBR id: routing tables, slices, any radix
 *   FAB_ROLE_BUS        a physical connection (exactly one row): the bus
 *                       component between two nodes, never a node itself
 *   FAB_ROLE_DEVICE     a device hosts address in the device window
 *                       (models/proto/devwin.h: its BAR and the lines it
 *                       homes), never an interleave target
 *
 * Every node kind is an endpoint or a switch (a node that is neither could
 * be neither addressed nor crossed); fab_kinds_check() enforces that and
 * the rest of the table's contract at start-up.
 *
 * The first rows are the built-in kinds that the topology generators place
 * by number (enum fab_kind); a kind added after them is placed by name in a
 * custom topology (topology.custom.nodes = ( "dma0 dma", ... )).
 */
#ifndef CXL_MODELS_FABRIC_FAB_KIND_H
#define CXL_MODELS_FABRIC_FAB_KIND_H

#include <stdint.h>

#include "core/cfg.h"
#include "core/err.h"
#include "core/sim.h"

enum fab_role {
	FAB_ROLE_ENDPOINT = 1u << 0,  /* PBR id, edge port */
	FAB_ROLE_REQUESTER = 1u << 1, /* issues requests */
	FAB_ROLE_TARGET = 1u << 2,    /* serves requests (a memory device) */
	FAB_ROLE_MULTIHEAD = 1u << 3, /* may have several connections, to requesters */
	FAB_ROLE_SWITCH = 1u << 4,    /* routes by PBR id */
	FAB_ROLE_BUS = 1u << 5,       /* a connection, not a node */
	FAB_ROLE_DEVICE = 1u << 6,    /* addressed in the device window (devwin.h) */
};

/* The built-in rows, in table order: the kinds topology generators place. */
enum fab_kind { FAB_SWITCH, FAB_HOST, FAB_ACCEL, FAB_MEMORY, FAB_BUS, FAB_NBUILTIN };

#define FAB_MAX_KINDS 32 /* rows the table may have (fabric.count[] is sized by it) */

typedef struct fab_kind_desc fab_kind_desc;
struct fab_kind_desc {
	const char *name;      /* component type ("host"): components.csv, --check, custom */
	const char *plural;    /* --check counts: "hosts" */
	const char *prefix;    /* generated instance names: "host" -> host0, host1, ... */
	unsigned roles;        /* FAB_ROLE_* */
	const model_ops *ops;  /* the model; ops->name must equal name */
	const cfg_schema *const *schemas; /* keys its model reads, NULL-terminated */
	const char *colour;    /* --dot fill colour */
};

/* The table, in models/kinds.c: the built-in rows first, in enum fab_kind order. */
extern const fab_kind_desc fab_kinds[];
extern const uint32_t fab_nkinds;

/* fab_kind_has - does kind @k have every role of @roles? */
static inline int fab_kind_has(uint32_t k, unsigned roles)
{
	return (fab_kinds[k].roles & roles) == roles;
}

/* fab_kind_find - the kind called @name; UINT32_MAX if none (and never the bus). */
uint32_t fab_kind_find(const char *name);

/* fab_kind_of_ops - the kind whose model is @ops; UINT32_MAX if none. */
uint32_t fab_kind_of_ops(const model_ops *ops);

/* fab_kind_names - the node kinds' names, space-separated, into @buf (for messages). */
void fab_kind_names(char *buf, size_t n);

/**
 * fab_kinds_check_table - the contract of a kind table @t of @n rows: at
 * most FAB_MAX_KINDS rows, the built-in rows first in enum order, unique
 * names equal to their model's ops->name, exactly one bus row (no other
 * role), every other row an endpoint or a switch (not both), requester,
 * target and multi-head roles only on endpoints, names, schemas and a
 * --dot colour present.
 * Returns 0, or CXL_EINTERNAL naming the first broken row.
 */
int fab_kinds_check_table(const fab_kind_desc *t, uint32_t n, cxl_err *err);

/* fab_kinds_check - fab_kinds_check_table() of fab_kinds[] (fab_finish() calls it). */
int fab_kinds_check(cxl_err *err);

#endif
