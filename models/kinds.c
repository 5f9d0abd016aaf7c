/*
 * models/kinds.c - the table of fabric component kinds (contract in
 * models/fabric/fab_kind.h): which model runs each kind, the keys it reads,
 * its roles, and how --check and --dot show it.
 *
 * Adding a kind is a model file (its ops and schema) and one row here;
 * models/README.md walks through an example.  The built-in rows come first,
 * in enum fab_kind order (fab_kinds_check() verifies it at start-up).
 */
#include "models/fabric/fab_kind.h"

#include "models/coherence/dcoh.h"
#include "models/device/dev.h"
#include "models/host/req.h"
#include "models/link/bus.h"
#include "models/host/prog.h"
#include "models/memory/mem.h"
#include "models/switch/switch.h"

static const cfg_schema *const switch_schemas[] = { &cxl_switch_schema, NULL };
static const cfg_schema *const requester_schemas[] = {
	&cxl_host_schema, &cxl_host_cache_schema, &cxl_workload_schema, &prog_schema,
	&prog_cmpi_schema, &prog_rpc_schema, NULL,
};
static const cfg_schema *const memory_schemas[] = { &cxl_memory_schema, &cxl_dcoh_schema, NULL };
static const cfg_schema *const bus_schemas[] = { &cxl_bus_schema, NULL };
static const cfg_schema *const device_schemas[] = { &cxl_device_schema, NULL };

#define REQUESTER (FAB_ROLE_ENDPOINT | FAB_ROLE_REQUESTER)

const fab_kind_desc fab_kinds[] = {
	[FAB_SWITCH] = { "switch", "switches", "sw", FAB_ROLE_SWITCH, &cxl_switch_ops,
			 switch_schemas, "lightgray" },
	[FAB_HOST] = { "host", "hosts", "host", REQUESTER, &cxl_host_ops, requester_schemas,
		       "lightblue" },
	[FAB_ACCEL] = { "accel", "accelerators", "accel", REQUESTER, &cxl_accel_ops,
			requester_schemas, "plum" },
	[FAB_MEMORY] = { "memory", "memories", "mem",
			 FAB_ROLE_ENDPOINT | FAB_ROLE_TARGET | FAB_ROLE_MULTIHEAD, &cxl_memory_ops,
			 memory_schemas, "palegreen" },
	[FAB_BUS] = { "bus", "buses", "bus", FAB_ROLE_BUS, &cxl_bus_ops, bus_schemas, NULL },
	/* placed by name in custom topologies (models/device/dev.h) */
	{ "device", "devices", "dev", FAB_ROLE_ENDPOINT | FAB_ROLE_DEVICE, &cxl_device_ops,
	  device_schemas, "orange" },
};

const uint32_t fab_nkinds = sizeof(fab_kinds) / sizeof(fab_kinds[0]);
