/*
 * models/memory/dram_cfg.c - the memory.dram.* configuration keys as DRAM model
 * parameters: the preset, then the organisation, policy and timing
 * overrides on top of it.
 *
 * The keys themselves are declared in the memory endpoint's schema
 * (models/memory/mem.c, cxl_memory_schema: one schema per component kind); this
 * file knows their names and meaning.  Contract with the schema: every
 * name in `general` and `timings` below is a key there (test_dram.c loads
 * each one), the counts and timings default to 0 = "the preset's value".
 *
 * With memory.dram.preset = "simple" the detailed model is off and every
 * other memory.dram.* key is an error if given (it would be ignored).
 */
#include "models/memory/dram_cfg.h"

#include <stdio.h>
#include <string.h>

/* Keys besides preset and the timings. */
static const char *const general[] = {
	"memory.dram.channels", "memory.dram.ranks", "memory.dram.bankgroups",
	"memory.dram.banks", "memory.dram.rows", "memory.dram.row_bytes",
	"memory.dram.page", "memory.dram.queue", "memory.dram.mapping",
	"memory.dram.starve", "memory.dram.refresh", "memory.dram.rate",
};

typedef struct timing_key timing_key;
struct timing_key {
	const char *path;  /* key */
	int idx;           /* enum dram_timing */
};

static const timing_key timings[] = {
	{ "memory.dram.tBL", DRAM_tBL }, { "memory.dram.tCL", DRAM_tCL },
	{ "memory.dram.tCWL", DRAM_tCWL }, { "memory.dram.tRCD", DRAM_tRCD },
	{ "memory.dram.tRP", DRAM_tRP }, { "memory.dram.tRAS", DRAM_tRAS },
	{ "memory.dram.tRC", DRAM_tRC }, { "memory.dram.tWR", DRAM_tWR },
	{ "memory.dram.tRTP", DRAM_tRTP }, { "memory.dram.tCCD_S", DRAM_tCCD_S },
	{ "memory.dram.tCCD_L", DRAM_tCCD_L }, { "memory.dram.tCCD_L_WR", DRAM_tCCD_L_WR },
	{ "memory.dram.tRRD_S", DRAM_tRRD_S }, { "memory.dram.tRRD_L", DRAM_tRRD_L },
	{ "memory.dram.tFAW", DRAM_tFAW }, { "memory.dram.tWTR_S", DRAM_tWTR_S },
	{ "memory.dram.tWTR_L", DRAM_tWTR_L }, { "memory.dram.tRTW", DRAM_tRTW },
	{ "memory.dram.tRTRS", DRAM_tRTRS }, { "memory.dram.tPPD", DRAM_tPPD },
	{ "memory.dram.tRFC", DRAM_tRFC }, { "memory.dram.tREFI", DRAM_tREFI },
};

#define NGENERAL (sizeof(general) / sizeof(general[0]))
#define NTIMINGS (sizeof(timings) / sizeof(timings[0]))

/* dram_cfg_key - the @i-th memory.dram.* key besides the preset; NULL past the last. */
const char *dram_cfg_key(size_t i)
{
	if (i < NGENERAL)
		return general[i];
	i -= NGENERAL;
	return i < NTIMINGS ? timings[i].path : NULL;
}

/* A count key: 0 keeps the preset's @v. */
static void count(const cfg *cf, const char *path, uint32_t *v)
{
	int64_t x = cfg_int(cf, path);

	if (x)
		*v = (uint32_t)x;
}

static int organisation(const cfg *cf, dram_params *p, cxl_err *err)
{
	p->channels = (uint32_t)cfg_int(cf, "memory.dram.channels");
	p->ranks = (uint32_t)cfg_int(cf, "memory.dram.ranks");
	p->queue = (uint32_t)cfg_int(cf, "memory.dram.queue");
	p->starve = (uint32_t)cfg_int(cf, "memory.dram.starve");
	p->closed_page = !strcmp(cfg_str(cf, "memory.dram.page"), "closed");
	p->refresh = (uint8_t)cfg_bool(cf, "memory.dram.refresh");
	count(cf, "memory.dram.bankgroups", &p->bankgroups);
	count(cf, "memory.dram.banks", &p->banks);
	count(cf, "memory.dram.rows", &p->rows);
	count(cf, "memory.dram.rate", &p->rate);
	uint64_t rb = cfg_size(cf, "memory.dram.row_bytes");
	if (rb % DRAM_LINE)
		return cfg_error_at(cf, "memory.dram.row_bytes", err,
				    "%llu is not a multiple of 64 (a row holds whole lines)",
				    (unsigned long long)rb);
	if (rb)
		p->row_lines = (uint32_t)(rb / DRAM_LINE);
	if (dram_map_parse(cfg_str(cf, "memory.dram.mapping"), p->map))
		return cfg_error_at(cf, "memory.dram.mapping", err,
				    "\"%s\" is not a mapping (expected the fields row, rank, bg, "
				    "bank, col, ch, each once, most significant first, "
				    "separated by ':')", cfg_str(cf, "memory.dram.mapping"));
	return 0;
}

/**
 * dram_cfg_read - the DRAM parameters the configuration asks for.
 * @cf:       loaded configuration (with the memory schema)
 * @p:        OUT the parameters, if *@detailed
 * @detailed: OUT 1 if memory.dram.preset names a DDR preset, 0 for "simple"
 * @err:      OUT error record
 *
 * Return: 0, or CXL_EINVAL with @err located at the key: a memory.dram.*
 * key given with the simple model, row_bytes not a multiple of 64, a bad
 * mapping, or a parameter set dram_params_check() rejects (reported at the
 * first timing key given, else at the preset).
 */
int dram_cfg_read(const cfg *cf, dram_params *p, int *detailed, cxl_err *err)
{
	const char *name = cfg_str(cf, "memory.dram.preset");
	const dram_params *pre = dram_preset(name);
	char why[128];

	*detailed = pre != NULL;
	if (!pre) {
		for (size_t i = 0; dram_cfg_key(i); i++)
			if (cfg_is_set(cf, dram_cfg_key(i)))
				return cfg_error_at(cf, dram_cfg_key(i), err,
						    "applies to a DDR preset only (memory.dram.preset "
						    "is \"%s\")", name);
		return 0;
	}
	*p = *pre;
	int rc = organisation(cf, p, err);
	if (rc)
		return rc;
	const char *at = NULL;
	for (size_t i = 0; i < NTIMINGS; i++) {
		int64_t v = cfg_int(cf, timings[i].path);
		if (v) {
			p->t[timings[i].idx] = (uint32_t)v;
			at = at ? at : timings[i].path;
		}
	}
	at = at ? at : "memory.dram.preset";
	if (dram_params_check(p, why, sizeof(why)))
		return cfg_error_at(cf, at, err, "%s (with preset %s)", why, name);
	return 0;
}
